/* emit.c -- the fuzz target of the C writer and its audit: a module that
 * parses and verifies is exported to the C row in memory (print_only: no
 * file, no check).  A refusal in the seed's refusal shape is an answer;
 * an audit hit on a kernel the target accepted (the writer wrote text the
 * audit refuses) and IR a pass leaves that does not verify are defects. */
#include "fuzz.h"
#include "hawk/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, "fuzz.hir", text, size);
    if (m != NULL && hawk_verify(ctx, m) == 0) {
        HawkExportOptions o;
        hawk_export_options_init(&o);
        o.check = 0;
        o.print_only = 1;
        o.oracle = hawk_interp_oracle();
        if (hawk_export(ctx, m, &o) != 0) {
            for (size_t k = 0; k < hawk_diag_count(ctx); k++) {
                const char *rule = hawk_diag_rule(ctx, k);
                if (rule != NULL && strncmp(rule, "audit.", 6) == 0)
                    fuzz_defect("the audit refused the writer's text", ctx);
            }
            if (fuzz_broken_pass(ctx))
                fuzz_defect("a pass of the lowering", ctx);
        }
    }
    hawk_context_destroy(ctx);
    free(text);
    return 0;
}
