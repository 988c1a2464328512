/* digest.c -- sha256 through OpenSSL's libcrypto. */
#include <openssl/evp.h>

#include "digest.h"

const char *hk_sha256_hex(HkArena *a, const void *data, size_t n)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data, n, md, &len, EVP_sha256(), NULL) != 1)
        hk_die(__FILE__, __LINE__, "EVP_Digest failed");
    char *hex = hk_alloc(a, 2 * (size_t)len + 1);
    static const char digits[] = "0123456789abcdef";
    for (unsigned int i = 0; i < len; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15u];
    }
    return hex;
}
