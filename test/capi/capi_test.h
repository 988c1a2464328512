/* capi_test.h -- what the C API test programs share: reading the input
 * whole, printing a context's diagnostics, and the -global=KEY=VALUE flag.
 *
 * The functions are static inline in this header because every
 * test/capi/<name>.c is a program of its own (hawk-capi-<name>), with no
 * library between them; a program that does not call one pays nothing. */
#ifndef HAWK_CAPI_TEST_H
#define HAWK_CAPI_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hawk/hawk.h"

/* Reads path whole into a malloc'd buffer (*len bytes, then a NUL, so
 * the text is also a C string); NULL if it cannot. */
static inline char *capi_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n + 4096 > cap) {
            cap = 2 * cap + 4096;
            char *p = realloc(buf, cap);
            if (p == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    /* The last read found at least 4096 free bytes: room for the NUL. */
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* capi_read_file, saying "<tool>: cannot read <path>" on stderr when it
 * cannot: a program's input, whose absence is a usage error. */
static inline char *capi_read_input(const char *tool, const char *path,
                                    size_t *len)
{
    char *text = capi_read_file(path, len);
    if (text == NULL)
        fprintf(stderr, "%s: cannot read %s\n", tool, path);
    return text;
}

/* Prints every diagnostic of ctx to stderr, rendered; one without a file
 * ("error: ...") gets the program's name in front, as a tool's would. */
static inline void capi_print_diags(const char *tool, HawkContext *ctx)
{
    for (size_t i = 0; i < hawk_diag_count(ctx); i++) {
        const char *s = hawk_diag_render(ctx, i);
        if (hawk_diag_line(ctx, i) == 0 && strncmp(s, "error: ", 7) == 0)
            fprintf(stderr, "%s: ", tool);
        fputs(s, stderr);
    }
}

/* When arg is "-global=KEY=VALUE", sets the pipeline-wide option KEY of pm
 * and returns 1; else returns 0. */
static inline int capi_global_option(HawkPassManager *pm, const char *arg)
{
    const char *eq = strncmp(arg, "-global=", 8) == 0 ? strchr(arg + 8, '=')
                                                      : NULL;
    if (eq == NULL)
        return 0;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg - 8), arg + 8);
    hawk_pass_manager_set_option(pm, key, eq + 1);
    return 1;
}

#endif
