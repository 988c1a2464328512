/* hostjit.c -- hawk-capi-hostjit: the host unit of one kernel, built by
 * ORC LLJIT (lib/Host/host.h) and called on a few samples.
 *
 *   hawk-capi-hostjit FILE KERNEL N [NAME=V,V,... ...]
 *
 * Every member of the args struct is filled with a fixed pattern (element
 * k of a real plane is 0.5 * (k + 1), of an integer plane k - 2, of a
 * bool plane 0; a runtime length is 4), then NAME=V,V,... overwrites the
 * first elements of member NAME (reals as strtod reads them, or b:HEX for
 * the raw bits of a NaN payload; integers as strtoll reads them; a length
 * member's value), and NAME=@OTHER makes plane NAME point at OTHER's
 * buffer, so the two overlap (a runtime-length plane has max(N, 4)
 * elements).
 * The entry runs on samples [0, N) and every written plane is printed,
 * one element a line: "NAME[k] = <%.17g> (<bits in hex>)" for reals, the
 * decimal for integers.  Then the entry's refusals are shown: "null args: 1",
 * "bad range: 2", "n_samples INT64_MAX / 2 + 1: 2" (when a plane bounds
 * n_samples below it).  Exit status 0, or 1 with the diagnostics on stderr. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../capi_test.h"
#include "abi.h"
#include "passctx.h"
#include "host.h"

#define TOOL "hawk-capi-hostjit"

/* Prints ctx's diagnostics; returns 1, the exit status. */
static int diags(HawkContext *ctx)
{
    capi_print_diags(TOOL, ctx);
    return 1;
}

/* Elements of member m's buffer for n samples. */
static size_t elems(const HkAbiField *m, int64_t n)
{
    switch (m->addr) {
    case HK_ABI_SOA: return (size_t)m->comps * (size_t)n;
    case HK_ABI_FLAT_LEN: return n > 4 ? (size_t)n : 4;
    default: return m->comps;
    }
}

/* Writes the pattern value k (or text when given) as element e at p. */
static void put(HkElem e, unsigned char *p, size_t k, const char *text)
{
    double x = 0.5 * (double)(k + 1);
    long long i = (long long)k - 2;
    if (text != NULL && strncmp(text, "b:", 2) == 0) {
        /* raw bits, for NaN payloads */
        uint64_t bits = strtoull(text + 2, NULL, 16);
        if (e == HK_F32) {
            uint32_t b32 = (uint32_t)bits;
            memcpy(p, &b32, 4);
        } else {
            memcpy(p, &bits, 8);
        }
        return;
    }
    if (text != NULL) {
        x = strtod(text, NULL);
        i = strtoll(text, NULL, 0);
    }
    switch (e) {
    case HK_F64: memcpy(p, &x, 8); break;
    case HK_F32: { float f = (float)x; memcpy(p, &f, 4); break; }
    case HK_I64: { int64_t v = i; memcpy(p, &v, 8); break; }
    case HK_I32: { int32_t v = (int32_t)i; memcpy(p, &v, 4); break; }
    case HK_U32: { uint32_t v = (uint32_t)i; memcpy(p, &v, 4); break; }
    case HK_I1: *p = (unsigned char)(text != NULL && i != 0); break;
    default: break;
    }
}

static void print_elem(HkElem e, const unsigned char *p)
{
    switch (e) {
    case HK_F64: {
        double x;
        uint64_t bits;
        memcpy(&x, p, 8);
        memcpy(&bits, p, 8);
        printf("%.17g (0x%016" PRIx64 ")", x, bits);
        break;
    }
    case HK_F32: {
        float x;
        uint32_t bits;
        memcpy(&x, p, 4);
        memcpy(&bits, p, 4);
        printf("%.9g (0x%08" PRIx32 ")", (double)x, bits);
        break;
    }
    case HK_I64: { int64_t v; memcpy(&v, p, 8); printf("%" PRId64, v); break; }
    case HK_I32: { int32_t v; memcpy(&v, p, 4); printf("%" PRId32, v); break; }
    case HK_U32: { uint32_t v; memcpy(&v, p, 4); printf("%" PRIu32, v); break; }
    case HK_I1: printf("%u", (unsigned)*p); break;
    default: break;
    }
}

/* The NAME=... argument for member name, or NULL. */
static const char *given(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int k = 4; k < argc; k++)
        if (strncmp(argv[k], name, n) == 0 && argv[k][n] == '=')
            return argv[k] + n + 1;
    return NULL;
}

/* Fills member m (at args) for n samples; planes get malloc'd buffers. */
static void fill(const HkAbiField *m, unsigned char *args, int64_t n,
                 const char *vals, unsigned char **buf)
{
    size_t ne = m->kind == HK_ABI_VALUE ? m->comps : elems(m, n);
    unsigned char *p = args + m->offset;
    if (m->kind == HK_ABI_PLANE) {
        *buf = calloc(ne, m->elem_bytes);
        memcpy(p, buf, sizeof *buf);
        p = *buf;
    }
    if (m->kind == HK_ABI_LEN) {
        int64_t len = vals != NULL ? strtoll(vals, NULL, 0) : 4;
        memcpy(p, &len, 8);
        return;
    }
    for (size_t k = 0; k < ne; k++) {
        const char *text = NULL;
        if (vals != NULL && *vals != '\0') {
            text = vals;
            vals += strcspn(vals, ",");
            vals += *vals == ',';
        }
        if (text == NULL && m->elem == HK_I1)
            continue;
        put(m->elem, p + k * m->elem_bytes, k, text);
    }
}

/* NAME=@OTHER: plane NAME points at OTHER's buffer (both see one array). */
static void alias(const HkAbiLayout *abi, uint32_t k, unsigned char *args,
                  unsigned char **bufs, const char *v)
{
    if (v == NULL || v[0] != '@')
        return;
    const HkAbiField *to = hk_abi_field(abi, v + 1);
    if (to == NULL || to->kind != HK_ABI_PLANE)
        return;
    unsigned char *p = bufs[to - abi->fields];
    memcpy(args + abi->fields[k].offset, &p, sizeof p);
}

static int run(HawkContext *ctx, const HkLowered *l, int64_t n, int argc,
               char **argv)
{
    HkAbiLayout abi;
    if (hk_abi_layout(ctx->arena, l->kernel, l->iface, &abi) != 0)
        return 1;
    HkHostJit *jit = NULL;
    HkHostEntry entry;
    if (hk_host_jit(l, &jit, &entry, &ctx->diags) != 0)
        return diags(ctx);
    unsigned char *args = calloc(1, abi.size + 1);
    unsigned char **bufs = calloc(abi.nfields + 1, sizeof *bufs);
    for (uint32_t k = 0; k < abi.nfields; k++) {
        const char *v = given(argc, argv, abi.fields[k].name);
        fill(&abi.fields[k], args, n, v != NULL && v[0] == '@' ? NULL : v,
             &bufs[k]);
    }
    for (uint32_t k = 0; k < abi.nfields; k++)
        alias(&abi, k, args, bufs, given(argc, argv, abi.fields[k].name));
    printf("status: %d\n", (int)entry(args, 0, n, n));
    for (uint32_t k = 0; k < abi.nfields; k++) {
        const HkAbiField *m = &abi.fields[k];
        if (m->kind != HK_ABI_PLANE || !m->written)
            continue;
        for (size_t e = 0; e < elems(m, n); e++) {
            printf("%s[%zu] = ", m->name, e);
            print_elem(m->elem, bufs[k] + e * m->elem_bytes);
            printf("\n");
        }
    }
    printf("null args: %d\n", (int)entry(NULL, 0, n, n));
    printf("bad range: %d\n", (int)entry(args, 1, n, n));
    /* one sample of an n_samples whose planes could not exist */
    printf("n_samples INT64_MAX / 2 + 1: %d\n",
           (int)entry(args, 0, 1, INT64_MAX / 2 + 1));
    for (uint32_t k = 0; k < abi.nfields; k++)
        free(bufs[k]);
    free(bufs);
    free(args);
    hk_host_jit_free(jit);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s FILE KERNEL N [NAME=V,... ...]\n", TOOL);
        return 1;
    }
    size_t len = 0;
    char *text = capi_read_file(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, "%s: cannot read '%s'\n", TOOL, argv[1]);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    HkModule *m = hawk_parse(ctx, argv[1], text, len);
    int rc = 1;
    HkFunc *f = NULL;
    for (uint32_t k = 0; m != NULL && k < m->nfuncs; k++)
        if (strcmp(m->funcs[k]->name, argv[2]) == 0)
            f = m->funcs[k];
    HkLowered low;
    if (m == NULL || hawk_verify(ctx, m) != 0 || f == NULL ||
        hk_lower(ctx, m, f, NULL, NULL, 0, &low) != 0)
        rc = diags(ctx);
    else
        rc = run(ctx, &low, strtoll(argv[3], NULL, 10), argc, argv);
    hawk_context_destroy(ctx);
    free(text);
    return rc;
}
