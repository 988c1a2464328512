/* build_derived.c -- hawk-capi-build_derived: hawk_build over modules a
 * program transformed before the build, as a compiler engineer's
 * pipeline hands them over.  A kernel a pass made (jvp's <k>_jvp) has no
 * source text of its own, so its own cache entry is keyed by the whole
 * input it came from; a kernel parsed as written is keyed by its text.
 *
 *   hawk-capi-build_derived FILE1 PIPELINE FILE2 CACHE OUT
 *
 * Parses and verifies FILE1 and runs PIPELINE over it, parses and verifies
 * FILE2 as it is, then builds both (checks off) into OUT with the cache
 * CACHE ("-": none).  Prints "cache hit", "cache miss: R restored, B
 * built" or "no cache: B built".  Exit status 0, or 1 after diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../capi_test.h"
#include "hawk/build.h"

#define TOOL "hawk-capi-build_derived"

/* FILE parsed and verified, then PIPELINE run when not NULL; NULL after
 * diagnostics. */
static HawkModule *read_module(HawkContext *ctx, const char *path,
                               const char *pipeline)
{
    size_t len = 0;
    char *text = capi_read_input(TOOL, path, &len);
    if (text == NULL)
        return NULL;
    HawkModule *m = hawk_parse(ctx, path, text, len);
    free(text);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return NULL;
    if (pipeline == NULL)
        return m;
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (pm == NULL || hawk_pass_manager_parse(pm, pipeline) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return NULL;
    return m;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fputs("usage: " TOOL " FILE1 PIPELINE FILE2 CACHE OUT\n", stderr);
        return 2;
    }
    HawkContext *ctx = hawk_context_create();
    if (ctx == NULL)
        return 1;
    HawkModule *ms[2];
    int rc = 1;
    ms[0] = read_module(ctx, argv[1], argv[2]);
    ms[1] = ms[0] != NULL ? read_module(ctx, argv[3], NULL) : NULL;
    if (ms[1] != NULL) {
        HawkBuildResult res;
        HawkBuildOptions o;
        hawk_build_options_init(&o);
        o.out_dir = argv[5];
        o.check = 0;
        o.cache_dir = strcmp(argv[4], "-") != 0 ? argv[4] : NULL;
        o.result = &res;
        if (hawk_build(ctx, ms, 2, &o) == 0) {
            rc = 0;
            if (res.cache == HAWK_BUILD_CACHE_HIT)
                puts("cache hit");
            else if (res.cache == HAWK_BUILD_CACHE_MISS)
                printf("cache miss: %zu restored, %zu built\n",
                       res.kernels_restored, res.kernels_built);
            else
                printf("no cache: %zu built\n", res.kernels_built);
        }
    }
    capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    return rc;
}
