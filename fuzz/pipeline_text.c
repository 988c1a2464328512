/* pipeline_text.c -- the fuzz target of the pipeline-string parser
 * ("a,b{key=value},print<c>") and the pass options it carries: any text
 * is parsed or refused with a diagnostic; a pipeline that parses runs
 * over a fixed kernel, where an option value the parser let through
 * must not crash a pass. */
#include "fuzz.h"

static const char kernel[] =
    "kernel @k(%x: per_sample f64, %v: vec_in <3 x f64>, %y: mutable f64) {\n"
    "  %a = load %x : f64\n"
    "  %b = load %v : <3 x f64>\n"
    "  %n = norm %b : f64\n"
    "  %s = fmul %a, %n : f64\n"
    "  %r = loop %i = 0 to 4 iter(%c = %s) {\n"
    "    %e = exp %c : f64\n"
    "    yield %e\n"
    "  }\n"
    "  store %r, %y\n"
    "  ret\n"
    "}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    HawkContext *ctx = hawk_context_create();
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (hawk_pass_manager_parse(pm, text) == 0) {
        HawkModule *m = hawk_parse(ctx, "k.hir", kernel, sizeof kernel - 1);
        if (m == NULL || hawk_verify(ctx, m) != 0)
            fuzz_defect("the fixed kernel does not verify", ctx);
        if (hawk_pass_manager_run(pm, m) != 0 && fuzz_broken_pass(ctx))
            fuzz_defect(text, ctx);
    }
    hawk_context_destroy(ctx);
    free(text);
    return 0;
}
