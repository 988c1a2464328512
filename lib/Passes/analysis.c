/* analysis.c -- the analysis manager of a pass manager: an analysis result
 * is cached per function and per options text, so a result computed under
 * trip-bound{max-trips=2} never answers a request made under the
 * pipeline's own options; a transform keeps only the results its
 * passes.def row says it preserves.  Results live in the context's arena
 * and stay readable after they are invalidated.
 */
#include <string.h>

#include "passctx.h"

/* The analyses of f, created empty on first use.  One hash lookup. */
static HkFuncAnalyses *of_func(HawkPassManager *pm, const HkFunc *f,
                               int create)
{
    HkAnalysisManager *am = &pm->am;
    if (am->index == NULL) {
        if (!create)
            return NULL;
        am->index = hk_symtab_new(pm->ctx->arena);
    }
    const char *key = (const char *)&f;
    uint32_t k = hk_symtab_get(am->index, key, sizeof f);
    if (k != UINT32_MAX)
        return &am->funcs[k];
    if (!create)
        return NULL;
    am->funcs = hk_grow(pm->ctx->arena, am->funcs, &am->cap, am->n + 1,
                        sizeof *am->funcs);
    HkFuncAnalyses *fa = &am->funcs[am->n];
    memset(fa, 0, sizeof *fa);
    fa->f = f;
    hk_symtab_put(am->index, key, sizeof f, am->n++);
    return fa;
}

const char *hk_run_key(const HawkPassRun *run)
{
    if (run->nkv == 0)
        return "";
    HkBuf b;
    hk_buf_init(&b, run->ctx->arena);
    for (uint32_t i = 0; i < run->nkv; i++)
        hk_buf_printf(&b, "%s%s=%s", i ? "," : "", run->keys[i], run->vals[i]);
    return hk_buf_cstr(&b);
}

void hk_analysis_set(HawkPassRun *run, HkFunc *f, HkPassId id, void *result)
{
    if (run->pm == NULL)
        hk_die(__FILE__, __LINE__, "an analysis ran outside a pass manager");
    HkFuncAnalyses *fa = of_func(run->pm, f, 1);
    fa->results[id] = result;
    fa->keys[id] = hk_run_key(run);
    fa->valid |= UINT64_C(1) << id;
}

/* The valid result of id on f under options key, into *out; whether
 * there is one. */
static int lookup(HawkPassManager *pm, const HkFunc *f, HkPassId id,
                  const char *key, const void **out)
{
    HkFuncAnalyses *fa = of_func(pm, f, 0);
    *out = NULL;
    if (fa == NULL || !(fa->valid & (UINT64_C(1) << id)) ||
        strcmp(fa->keys[id], key) != 0)
        return 0;
    *out = fa->results[id];
    return 1;
}

const void *hk_analysis_cached(HawkPassManager *pm, const HkFunc *f,
                               HkPassId id)
{
    const void *res;
    return lookup(pm, f, id, "", &res) ? res : NULL;
}

const void *hk_analysis_get(HawkPassRun *run, HkFunc *f, HkPassId id)
{
    const void *res = NULL;
    /* passes.def's requires column is the whole truth of who reads what;
     * print<name> and the report read the analysis they name */
    if (!(run->info->requires & (UINT64_C(1) << id)) &&
        run->pass_index != (uint32_t)id)
        hk_die(__FILE__, __LINE__, "a pass asked for an analysis its "
                                   "passes.def row does not require");
    if (run->pm != NULL && lookup(run->pm, f, id, "", &res))
        return res;
    /* Computed with the pipeline's own options: the analysis was asked
     * for, not named in the pipeline. */
    HawkPassRun sub = *run;
    sub.info = &hk_registry(run->ctx)->passes[id];
    sub.pass_index = (uint32_t)id;
    sub.keys = sub.vals = NULL;
    sub.nkv = 0;
    if (sub.info->run(&sub, f) != 0)
        return NULL;
    if (run->pm != NULL && lookup(run->pm, f, id, "", &res))
        return res;
    return NULL;
}

void hk_analysis_invalidate(HawkPassManager *pm, const HkFunc *f,
                            uint64_t preserves)
{
    HkFuncAnalyses *fa = of_func(pm, f, 0);
    if (fa != NULL)
        fa->valid &= preserves;
}

void hk_analysis_clear(HawkPassManager *pm)
{
    for (uint32_t k = 0; k < pm->am.n; k++)
        pm->am.funcs[k].valid = 0;
    pm->am.profiles = NULL;
}

void hk_pipeline_reset(HawkPassManager *pm)
{
    pm->n = 0;
}
