/* fuzz.h -- what hawk's libFuzzer targets share: the input as a C string
 * (HIR text is NUL-terminated), and the one way a target reports a
 * defect, an abort with the reason, which libFuzzer records as a crash
 * and keeps the input of.  Every other outcome, a diagnostic included,
 * is a correct answer to bad input. */
#ifndef HAWK_FUZZ_H
#define HAWK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hawk/hawk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (free it). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s == NULL)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A defect: the reason on stderr, then the crash libFuzzer reports. */
static inline void fuzz_defect(const char *what, HawkContext *ctx)
{
    fprintf(stderr, "hawk fuzz defect: %s\n", what);
    for (size_t k = 0; ctx != NULL && k < hawk_diag_count(ctx); k++)
        fprintf(stderr, "%s\n", hawk_diag_render(ctx, k));
    abort();
}

/* Whether a diagnostic of ctx says a pass left IR that does not verify:
 * a pass's defect, never the input's. */
static inline int fuzz_broken_pass(HawkContext *ctx)
{
    for (size_t k = 0; k < hawk_diag_count(ctx); k++)
        if (strstr(hawk_diag_message(ctx, k), "verification failed after "
                                              "pass") != NULL)
            return 1;
    return 0;
}

#endif
