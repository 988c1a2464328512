/* digest.h -- sha256 digests (libcrypto): the walk and source digests of
 * a lowered kernel. */
#ifndef HAWK_DIGEST_H
#define HAWK_DIGEST_H

#include "ir.h"

/* ---- digest.c ------------------------------------------------------------ */

/* Lower-case hex sha256 of n bytes (libcrypto). */
const char *hk_sha256_hex(HkArena *a, const void *data, size_t n);

#endif
