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
#include <string.h>

#include "emit.h"

#define TOOL "hawk-capi-audit"

/* Reads path whole into the arena, NUL-terminated; NULL when unreadable. */
static const char *slurp(HkArena *a, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    HkBuf b;
    hk_buf_init(&b, a);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        hk_buf_put(&b, chunk, n);
    fclose(f);
    return hk_buf_cstr(&b);
}

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
    HkArena *a = hk_arena_new();
    const char *c_text = slurp(a, argv[1]);
    const char *h_text = argc == 3 ? slurp(a, argv[2]) : NULL;
    if (c_text == NULL || (argc == 3 && h_text == NULL)) {
        fprintf(stderr, TOOL ": cannot read %s\n",
                c_text == NULL ? argv[1] : argv[2]);
        hk_arena_free(a);
        return 2;
    }
    HkAuditHits hits = {0, 0, NULL};
    uint32_t n = hk_audit_unit(a, base_name(argv[1]), c_text,
                               argc == 3 ? base_name(argv[2]) : NULL, h_text,
                               &hits);
    for (uint32_t i = 0; i < hits.n; i++)
        printf("%s:%u: audit.%s: %s\n", hits.hits[i].file, hits.hits[i].line,
               hk_audit_names[hits.hits[i].kind], hits.hits[i].text);
    hk_arena_free(a);
    return n ? 1 : 0;
}
