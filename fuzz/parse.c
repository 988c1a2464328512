/* parse.c -- the fuzz target of the parser and the verifier: any bytes
 * either fail with diagnostics or parse; what parses prints, and the
 * printed text parses again and prints the same bytes (LangRef: the
 * printer's output is canonical), whether or not it verifies. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, "fuzz.hir", text, size);
    if (m != NULL) {
        (void)hawk_verify(ctx, m);
        size_t n1;
        const char *p1 = hawk_print(ctx, m, &n1);
        HawkContext *again = hawk_context_create();
        HawkModule *m2 = hawk_parse(again, "printed.hir", p1, n1);
        if (m2 == NULL)
            fuzz_defect("the printed text does not parse", again);
        size_t n2;
        const char *p2 = hawk_print(again, m2, &n2);
        if (n1 != n2 || memcmp(p1, p2, n1) != 0)
            fuzz_defect("print, parse, print is not a fixed point", again);
        hawk_context_destroy(again);
    }
    hawk_context_destroy(ctx);
    free(text);
    return 0;
}
