/* capi_interp.h -- what the C API tests of the HIR interpreter share
 * (badinterp.c, llvm/badlower.c): the first kernel lowered, one sample
 * run over planes of ones.
 * Static inline, as in capi_test.h: each program is one of its own. */
#ifndef HAWK_CAPI_INTERP_H
#define HAWK_CAPI_INTERP_H

#include <string.h>

#include "abi.h"
#include "capi_test.h"
#include "interp.h"
#include "passctx.h"

/* One sample through the interpreter, every member zeroed and every
 * plane a buffer of 64 elements per component of 1 (a mask 0, so the
 * sample runs; a runtime length 64).  Nonzero when it failed. */
static inline int capi_interp_run(HawkContext *ctx, const HkLowered *l)
{
    HkInterp *ip = hk_interp_new(ctx->arena, ctx, l, &ctx->diags);
    if (ip == NULL)
        return 1;
    HkAbiLayout abi;
    if (hk_abi_layout(ctx->arena, l->kernel, l->iface, &abi) != 0)
        return 1;
    unsigned char *args = hk_alloc(ctx->arena, abi.size + 1);
    memset(args, 0, abi.size + 1);
    for (uint32_t k = 0; k < abi.nfields; k++) {
        const HkAbiField *m = &abi.fields[k];
        if (m->kind == HK_ABI_LEN) {
            int64_t len = 64;
            memcpy(args + m->offset, &len, sizeof len);
        }
        if (m->kind != HK_ABI_PLANE)
            continue;
        size_t n = 64u * (m->comps + 1u);
        unsigned char *p = hk_alloc(ctx->arena, n * m->elem_bytes);
        memset(p, 0, n * m->elem_bytes);
        for (size_t e = 0; e < n && m->elem != HK_I1; e++) {
            double d = 1.0;
            float f = 1.0f;
            int64_t i = 1;
            memcpy(p + e * m->elem_bytes,
                   m->elem == HK_F64 ? (void *)&d
                   : m->elem == HK_F32 ? (void *)&f : (void *)&i,
                   m->elem_bytes);
        }
        memcpy(args + m->offset, &p, sizeof p);
    }
    return hk_interp_entry(ip, args, 0, 1, 1) != 0;
}

/* The first kernel of the module text (path, len bytes) parsed in ctx,
 * verified and lowered into *l; 0, or 2 after printing the diagnostics
 * as tool's. */
static inline int capi_lower_first(const char *tool, HawkContext *ctx,
                                   const char *path, const char *text,
                                   size_t len, HkLowered *l)
{
    HawkModule *m = hawk_parse(ctx, path, text, len);
    HkFunc *k = NULL;
    for (uint32_t j = 0; m != NULL && j < m->nfuncs && k == NULL; j++)
        if (m->funcs[j]->is_kernel)
            k = m->funcs[j];
    if (k == NULL || hawk_verify(ctx, m) != 0 ||
        hk_lower(ctx, m, k, NULL, NULL, 0, l) != 0) {
        capi_print_diags(tool, ctx);
        return 2;
    }
    return 0;
}

/* The main() of both programs: FILE read once, then each CASE run in
 * its own context; the worst status of the cases. */
typedef int (*CapiCase)(const char *path, const char *text, size_t len,
                        const char *name);

static inline int capi_run_cases(const char *tool, int argc, char **argv,
                                 CapiCase run_case)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE CASE...\n", tool);
        return 2;
    }
    size_t len;
    char *text = capi_read_input(tool, argv[1], &len);
    if (text == NULL)
        return 2;
    int rc = 0;
    for (int k = 2; k < argc; k++) {
        int r = run_case(argv[1], text, len, argv[k]);
        rc = r > rc ? r : rc;
    }
    free(text);
    return rc;
}

#endif
