/* passes.c -- the fuzz target of the pass pipelines: a module that parses
 * and verifies runs through one of the pipelines below (the first byte
 * chooses), with the verifier after every pass.  A refusal or a failed
 * analysis is an answer; IR a pass leaves that does not verify is a
 * defect. */
#include "fuzz.h"

static const char *const pipelines[] = {
    "inline,cse,dce",
    "inline,scalarize,legalize,cse,branch-fold,dse,dce",
    ("inline,feature-refusal,trip-bound,index-clamp,fp-domain,int-sites,"
     "cost,interface"),
    "expand-math,scalarize,cse,dce",
    "jvp",
    "vjp",
    "jvp,vjp",
    "inline,jvp,scalarize,dce",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t which = data[0] % (sizeof pipelines / sizeof pipelines[0]);
    char *text = fuzz_text(data + 1, size - 1);
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, "fuzz.hir", text, size - 1);
    if (m != NULL && hawk_verify(ctx, m) == 0) {
        HawkPassManager *pm = hawk_pass_manager_create(ctx);
        if (hawk_pass_manager_parse(pm, pipelines[which]) != 0)
            fuzz_defect("a pipeline of the target does not parse", ctx);
        if (hawk_pass_manager_run(pm, m) != 0 && fuzz_broken_pass(ctx))
            fuzz_defect(pipelines[which], ctx);
    }
    hawk_context_destroy(ctx);
    free(text);
    return 0;
}
