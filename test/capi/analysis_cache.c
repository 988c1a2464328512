/* analysis_cache.c -- hawk-capi-analysis_cache: what the analysis manager
 * of a pass manager holds after each of a few pipelines, run one after
 * another on the same pass manager over the first kernel of FILE.
 *
 *   hawk-capi-analysis_cache FILE
 *
 * Prints, after each step, whether trip-bound and positions have a valid
 * result under the pipeline's own options ("cached" / "none"). */
#include <stdio.h>

#include "capi_test.h"
#include "passctx.h"

#define TOOL "hawk-capi-analysis_cache"

static void show(HawkPassManager *pm, const HkFunc *k, const char *step)
{
    printf("%s: trip-bound %s, positions %s\n", step,
           hk_analysis_cached(pm, k, HK_PASS_TRIP_BOUND) ? "cached" : "none",
           hk_analysis_cached(pm, k, HK_PASS_POSITIONS) ? "cached" : "none");
}

/* Runs pipeline on m with pm's options; 0, or 1 after diagnostics. */
static int step(HawkPassManager *pm, HkModule *m, const HkFunc *k,
                const char *pipeline)
{
    hk_pipeline_reset(pm);
    if (hawk_pass_manager_parse(pm, pipeline) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return 1;
    show(pm, k, pipeline);
    return 0;
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
    int rc = m == NULL || hawk_verify(ctx, m) != 0;
    const HkFunc *k = NULL;
    for (uint32_t i = 0; !rc && i < m->nfuncs && k == NULL; i++)
        if (m->funcs[i]->is_kernel)
            k = m->funcs[i];
    rc |= k == NULL;
    HawkPassManager *pm = rc ? NULL : hawk_pass_manager_create(ctx);
    if (!rc) {
        show(pm, k, "start");
        /* a result under the pass's own options answers no other request */
        rc = step(pm, m, k, "trip-bound{max-trips=100}") ||
             step(pm, m, k, "trip-bound") ||
             /* a transform keeps only what it preserves: nothing */
             step(pm, m, k, "dce") ||
             step(pm, m, k, "trip-bound");
    }
    if (!rc) {
        /* new pipeline-wide options: what was computed saw others */
        hawk_pass_manager_set_option(pm, "max-trips", "100");
        show(pm, k, "set max-trips");
    }
    if (rc)
        capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    return rc;
}
