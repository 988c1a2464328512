/* custom_row.c -- hawk-capi-custom_row: a second row of the targets table
 * that reuses the C writer with suffixes of its own ("_emb.c", "_emb.h",
 * entry "emb").  Lowers each kernel of FILE, points its profile at that
 * row, writes the unit and runs the text audit on it, as the export does.
 *
 *   hawk-capi-custom_row FILE
 *
 * Prints the unit's file names, the lines of its texts that name a file
 * or the entry, then "audit: N hits" and each hit.  Exit 0 when the audit
 * is clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "passctx.h"
#include "cunit.h"
#include "emit.h"

#define TOOL "hawk-capi-custom_row"

/* Prints the lines of text that hold needle. */
static void lines_with(const char *text, const char *needle)
{
    for (const char *p = text; *p != '\0';) {
        size_t n = strcspn(p, "\n");
        const char *hit = strstr(p, needle);
        if (hit != NULL && hit < p + n)
            printf("  %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: " TOOL " FILE\n", stderr);
        return 2;
    }
    size_t len;
    char *text = capi_read_input(TOOL, argv[1], &len);
    if (text == NULL)
        return 2;
    HawkContext *ctx = hawk_context_create();
    HkModule *m = hawk_parse(ctx, argv[1], text, len);
    free(text);
    int bad = m == NULL || hawk_verify(ctx, m) != 0;
    /* the c row with its own suffixes and entry */
    HkTarget row = *hk_target_default();
    row.id = "c-emb";
    row.entry = "emb";
    row.artifact = "_emb.h";
    row.source = "_emb.c";
    for (uint32_t k = 0; !bad && k < m->nfuncs; k++) {
        HkFunc *f = m->funcs[k];
        if (!f->is_kernel)
            continue;
        HkLowered l;
        HkCUnit u;
        memset(&u, 0, sizeof u);
        bad = hk_lower(ctx, m, f, NULL, NULL, 0, &l) != 0;
        if (bad)
            break;
        l.profile.target = &row;
        bad = hk_cwriter(ctx->arena, &l, &u, &ctx->diags) != 0;
        if (bad)
            break;
        hk_cheader(ctx->arena, &l, &u);
        const char *c_name = hk_unit_source_name(ctx->arena, &l);
        const char *h_name = hk_unit_header_name(ctx->arena, &l);
        printf("%s %s\n", c_name, h_name);
        lines_with(u.c_text, "_emb");
        lines_with(u.h_text, "_emb");
        HkAuditHits hits = {0, 0, NULL};
        uint32_t n = hk_audit_unit(ctx->arena, c_name, u.c_text, h_name,
                                   u.h_text, "hawk_runtime_emb.h", &hits);
        printf("audit: %u hits\n", n);
        for (uint32_t i = 0; i < hits.n; i++)
            printf("  %s:%u: audit.%s: %s\n", hits.hits[i].file,
                   hits.hits[i].line, hk_audit_names[hits.hits[i].kind],
                   hits.hits[i].text);
        bad = n != 0;
    }
    if (m == NULL || bad)
        capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    return bad;
}
