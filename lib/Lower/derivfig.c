/* derivfig.c -- a derivative kernel's figures for its report and header:
 * the primal's, the jvp's and the vjp's operations and static bytes, each
 * kernel lowered under the same profile, so their ratios compare like
 * with like.  The kernel's own figures are its lowering's; the primal's
 * and the other mode's come from the copy of the primal the pass kept
 * (HkDerivOrigin), differentiated again with the same activity. */
#include <string.h>

#include "context.h"
#include "lower.h"

/* The options that select o's activity: "wrt=a:b,of=c". */
static const char *activity(HkArena *a, const HkDerivOrigin *o)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_puts(&b, "wrt=");
    for (uint32_t k = 0; k < o->nwrt; k++)
        hk_buf_printf(&b, "%s%s", k ? ":" : "", o->wrt[k]);
    hk_buf_puts(&b, ",of=");
    for (uint32_t k = 0; k < o->nof; k++)
        hk_buf_printf(&b, "%s%s", k ? ":" : "", o->of[k]);
    return hk_buf_cstr(&b);
}

/* The kernel of o's primal module after mode (NULL: none), in a fresh
 * copy of the module; NULL when the pass refuses it. */
static HkFunc *made(HawkContext *ctx, const HkDerivOrigin *o, const char *mode)
{
    HkArena *a = ctx->arena;
    uint32_t k = hk_func_index(o->module, o->primal, strlen(o->primal));
    if (k >= o->module->nfuncs)
        return NULL;
    HkModule *m = hk_module_clone_kernel(a, o->module, o->module->funcs[k]);
    if (mode == NULL)
        return m->funcs[hk_func_index(m, o->primal, strlen(o->primal))];
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    const char *pipe = hk_asprintf(a, "%s{%s}", mode, activity(a, o));
    if (pm == NULL || hawk_pass_manager_parse(pm, pipe) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return NULL;
    const char *name = hk_asprintf(a, "%s_%s", o->primal, mode);
    k = hk_func_index(m, name, strlen(name));
    return k < m->nfuncs ? m->funcs[k] : NULL;
}

/* Row r of fig from kernel f lowered under the options; -1s when f is
 * NULL or does not lower. */
static void row(HawkContext *ctx, HkFunc *f, const char *const *keys,
                const char *const *vals, uint32_t nopts, HkDerivFigures *fig,
                int r)
{
    HkLowered low;
    if (f == NULL ||
        hk_lower(ctx, f->module, f, keys, vals, nopts, &low) != 0)
        return;
    fig->ops[r] = low.cost->ops_total;
    fig->tapes[r] = low.cost->tapes;
    fig->bytes[r] = low.cost->total_bytes;
}

const HkDerivFigures *hk_deriv_figures(HawkContext *ctx, const HkLowered *l,
                                       const char *const *opt_keys,
                                       const char *const *opt_vals,
                                       uint32_t nopts)
{
    const HkDerivOrigin *o = l->kernel->origin;
    if (o == NULL)
        return NULL;
    HkDerivFigures *fig = hk_alloc(ctx->arena, sizeof *fig);
    fig->origin = o;
    for (int r = 0; r < HK_DF_COUNT; r++)
        fig->ops[r] = fig->tapes[r] = fig->bytes[r] = -1;
    int own = strcmp(o->mode, "jvp") == 0 ? HK_DF_JVP : HK_DF_VJP;
    fig->ops[own] = l->cost->ops_total;
    fig->tapes[own] = l->cost->tapes;
    fig->bytes[own] = l->cost->total_bytes;
    /* a refusal of the primal or of the other mode is a missing figure,
     * not an error of the export: its diagnostics are dropped */
    uint32_t n = ctx->diags.n, errors = ctx->diags.errors;
    row(ctx, made(ctx, o, NULL), opt_keys, opt_vals, nopts, fig, HK_DF_PRIMAL);
    int other = own == HK_DF_JVP ? HK_DF_VJP : HK_DF_JVP;
    row(ctx, made(ctx, o, other == HK_DF_JVP ? "jvp" : "vjp"), opt_keys,
        opt_vals, nopts, fig, other);
    ctx->diags.n = n;
    ctx->diags.errors = errors;
    return fig;
}
