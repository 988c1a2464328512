/* lower.c -- the one lowering every target shares: a kernel as parsed
 * becomes the scalar IR the writers read, with the verify analyses taken
 * on the way (docs/EmbeddedC.md, "The C unit").
 *
 * The kernel is lowered in a module of its own: a deep copy of it and of
 * the funcs it calls (hk_module_clone_kernel), so a refusal of another
 * kernel cannot stop this one, the caller's module is never changed, what
 * the caller's own passes did to it is what gets lowered, and every line,
 * column and position stays what it was.  One pass manager then runs two
 * pipelines: inline and the verify analyses, whose results its analysis
 * manager holds (they live in the arena and stay readable when scalarize
 * invalidates them), then scalarize, legalize, cse, const-fold,
 * branch-fold, dse, dce.
 */
#include <string.h>

#include "passctx.h"
#include "digest.h"
#include "lower.h"

/* The analyses of hawk-opt -verify-embedded: unused on the kernel as
 * written (its result is taken before inline invalidates it) ... */
#define UNUSED_PIPELINE "unused"
/* ... then the rest, after inlining ... */
#define VERIFY_PIPELINE                                                      \
    "inline,feature-refusal,trip-bound,index-clamp,fp-domain,int-sites,"    \
    "cost,interface"
/* ... then the scalar lowering, on the same pass manager. */
#define SCALAR_PIPELINE "scalarize,legalize,cse,const-fold,branch-fold,dse,dce"

/* The verify analyses' results on f, as pm's analysis manager holds them
 * after VERIFY_PIPELINE; whether every one is there. */
static int take_analyses(HawkPassManager *pm, const HkFunc *f, HkLowered *out)
{
    out->features = hk_analysis_cached(pm, f, HK_PASS_FEATURE_REFUSAL);
    out->trips = hk_analysis_cached(pm, f, HK_PASS_TRIP_BOUND);
    out->index = hk_analysis_cached(pm, f, HK_PASS_INDEX_CLAMP);
    out->domain = hk_analysis_cached(pm, f, HK_PASS_FP_DOMAIN);
    out->ints = hk_analysis_cached(pm, f, HK_PASS_INT_SITES);
    out->cost = hk_analysis_cached(pm, f, HK_PASS_COST);
    out->iface = hk_analysis_cached(pm, f, HK_PASS_INTERFACE);
    return out->features != NULL && out->trips != NULL &&
           out->index != NULL && out->domain != NULL && out->ints != NULL &&
           out->cost != NULL && out->iface != NULL;
}

/* A module holding k alone among the kernels, verified; *kout gets the
 * kernel in it.  NULL after a diagnostic. */
static HkModule *own_module(HawkContext *ctx, HkModule *m, HkFunc *k,
                            HkFunc **kout)
{
    HkModule *own = hk_module_clone_kernel(ctx->arena, m, k);
    if (hawk_verify(ctx, own) != 0)
        return NULL;
    *kout = own->funcs[hk_func_index(own, k->name, strlen(k->name))];
    return own;
}

/* A copy of k and the funcs it calls, as verified, that no pass of
 * the lowering touches: the interpreter's. */
static const HkFunc *source_copy(HawkContext *ctx, const HkModule *m,
                                 const HkFunc *k)
{
    HkModule *copy = hk_module_clone_kernel(ctx->arena, m, k);
    return copy->funcs[hk_func_index(copy, k->name, strlen(k->name))];
}

/* Whether the kernel k of m, with the funcs it may inline, went through
 * a transform after parsing (the caller's own pipeline). */
static int derived(const HkModule *m, const HkFunc *k)
{
    if (k->derived)
        return 1;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!m->funcs[i]->is_kernel && m->funcs[i]->derived)
            return 1;
    return 0;
}

/* Digests of k before any pass of the lowering: its canonical text and
 * its source span, "unavailable" for a kernel derived by the caller's
 * transforms (the span spells the kernel as parsed, not as exported). */
static void take_digests(HkArena *a, const HkModule *m, const HkFunc *k,
                         HkLowered *out)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_print_func(&b, k);
    out->walk_digest = hk_sha256_hex(a, b.data ? b.data : "", b.len);
    if (!derived(m, k) && m->src.text != NULL && k->src_end <= m->src.len &&
        k->src_begin <= k->src_end)
        out->source_digest = hk_sha256_hex(a, m->src.text + k->src_begin,
                                           k->src_end - k->src_begin);
    else
        out->source_digest = "unavailable";
}

HawkPassManager *hk_lower_options(HawkContext *ctx, HkModule *m,
                                  const char *const *opt_keys,
                                  const char *const *opt_vals, uint32_t nopts,
                                  HkProfile *p)
{
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    for (uint32_t i = 0; i < nopts; i++)
        hawk_pass_manager_set_option(pm, opt_keys[i], opt_vals[i]);
    HawkPassRun run;
    return hk_profile_of(&run, pm, m, p) == 0 ? pm : NULL;
}

int hk_kernel_float32(const HkFunc *k)
{
    for (uint32_t s = 0; s < k->nslots; s++)
        if (k->slots[s].type.elem == HK_F32)
            return 1;
    return 0;
}

/* The called math functions l's kernel calls, lowered (hk_lower_mathfn);
 * a function's own kernel calls none. */
static int take_mathfns(HawkContext *ctx, HkLowered *l)
{
    for (const HkInst *i = l->kernel->body.first; i != NULL;
         i = hk_preorder_next(i)) {
        uint32_t id = hk_mathfn_of(l, i);
        if (id == UINT32_MAX || l->mathfn[id] != NULL)
            continue;
        l->mathfn[id] = hk_lower_mathfn(ctx, id);
        if (l->mathfn[id] == NULL) {
            hk_error(&ctx->diags, &l->kernel->module->src, i->loc,
                     "'%s': hawk's %s does not lower (a hawk defect; please "
                     "report it)",
                     l->kernel->name, hk_mathfn_name(id));
            return -1;
        }
    }
    return 0;
}

int hk_lower(HawkContext *ctx, HkModule *m, HkFunc *k,
             const char *const *opt_keys, const char *const *opt_vals,
             uint32_t nopts, HkLowered *out)
{
    memset(out, 0, sizeof *out);
    HkFunc *own_k = NULL;
    HkModule *own = own_module(ctx, m, k, &own_k);
    if (own == NULL)
        return -1;
    /* Before any pass: the walk digest is of the kernel as written, and
     * the interpreter's copy is too. */
    take_digests(ctx->arena, own, own_k, out);
    out->source = source_copy(ctx, own, own_k);
    HawkPassManager *pm =
        hk_lower_options(ctx, own, opt_keys, opt_vals, nopts, &out->profile);
    if (pm == NULL)
        return -1;
    if (hawk_pass_manager_parse(pm, UNUSED_PIPELINE) != 0 ||
        hawk_pass_manager_run(pm, own) != 0)
        return -1;
    out->unused = hk_analysis_cached(pm, own_k, HK_PASS_UNUSED);
    hk_pipeline_reset(pm);
    if (hawk_pass_manager_parse(pm, VERIFY_PIPELINE) != 0 ||
        hawk_pass_manager_run(pm, own) != 0)
        return -1;
    /* the results stay in the arena when scalarize invalidates them */
    if (!take_analyses(pm, own_k, out)) {
        hk_error(&ctx->diags, &own->src, own_k->loc,
                 "'%s': the verify analyses left no result", own_k->name);
        return -1;
    }
    hk_pipeline_reset(pm);
    if (hawk_pass_manager_parse(pm, SCALAR_PIPELINE) != 0 ||
        hawk_pass_manager_run(pm, own) != 0)
        return -1;
    out->kernel = own_k;
    out->float32 = hk_kernel_float32(own_k);
    return take_mathfns(ctx, out);
}

const char *hk_unit_source_name(HkArena *a, const HkLowered *l)
{
    return hk_asprintf(a, "%s%s", l->kernel->name, l->profile.target->source);
}

const char *hk_unit_header_name(HkArena *a, const HkLowered *l)
{
    return hk_asprintf(a, "%s%s", l->kernel->name,
                       l->profile.target->artifact);
}
