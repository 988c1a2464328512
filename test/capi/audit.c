/* audit.c -- hawk-capi-audit: runs the text audit (lib/Emit/audit.c) on a
 * .c and an optional .h, the way the C target runs it on an emitted unit.
 * The writer never emits what the audit refuses, so this is how the tests
 * reach every rule.
 *
 *   hawk-capi-audit FILE.c [FILE.h]
 *
 * Prints each hit as "<file>:<line>: audit.<kind>: <text>" (file names
 * without their directory) and exits 1 when there is any; silent, exit 0,
 * on a clean unit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "emit.h"

#define TOOL "hawk-capi-audit"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fputs("usage: " TOOL " FILE.c [FILE.h]\n", stderr);
        return 2;
    }
    size_t len;
    char *c_text = capi_read_file(argv[1], &len);
    char *h_text = argc == 3 ? capi_read_file(argv[2], &len) : NULL;
    if (c_text == NULL || (argc == 3 && h_text == NULL)) {
        fprintf(stderr, TOOL ": cannot read %s\n",
                c_text == NULL ? argv[1] : argv[2]);
        free(c_text);
        free(h_text);
        return 2;
    }
    HkArena *a = hk_arena_new();
    HkAuditHits hits = {0, 0, NULL};
    uint32_t n = hk_audit_unit(a, base_name(argv[1]), c_text,
                               argc == 3 ? base_name(argv[2]) : NULL, h_text,
                               "hawk_runtime.h", &hits);
    for (uint32_t i = 0; i < hits.n; i++)
        printf("%s:%u: audit.%s: %s\n", hits.hits[i].file, hits.hits[i].line,
               hk_audit_names[hits.hits[i].kind], hits.hits[i].text);
    hk_arena_free(a);
    free(c_text);
    free(h_text);
    return n ? 1 : 0;
}
