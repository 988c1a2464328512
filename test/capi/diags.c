/* diags.c -- hawk-capi-diags: the diagnostics half of the C API as a
 * program linking libhawk sees it.  Parses HIR text with a warning and an
 * error (or the text of a file), then prints, for each diagnostic and for
 * one index past the end, what every accessor returns; then the counts
 * after hawk_diag_clear, and what the module accessors and hawk_parse
 * make of NULL arguments.
 *
 *   hawk-capi-diags FILE.hir
 *
 * Exit status 0 when the program ran (whatever the diagnostics), 2 on a
 * usage error. */
#include "capi_test.h"

#define TOOL "hawk-capi-diags"

static void show(HawkContext *ctx, size_t i)
{
    const char *rule = hawk_diag_rule(ctx, i);
    const char *msg = hawk_diag_message(ctx, i);
    const char *file = hawk_diag_file(ctx, i);
    printf("[%zu] %s file %s line %u col %u rule %s message %s\n", i,
           hawk_severity_name(hawk_diag_severity(ctx, i)),
           file != NULL ? file : "(none)", hawk_diag_line(ctx, i),
           hawk_diag_col(ctx, i),
           rule != NULL ? rule : "(none)", msg != NULL ? msg : "(none)");
    printf("[%zu] rendered: {%s}\n", i, hawk_diag_render(ctx, i));
}

/* hawk_parse_view of a chunk inside a larger buffer, not NUL-terminated
 * where it ends: the diagnostic stops at the chunk's end, and the module
 * reads the caller's text. */
static void view_chunk(void)
{
    static const char buf[] = "kernel @k(%x: per_sample f64, %y: mutable f64) {\n"
                              "  %a = load %x : f64\n"
                              "  store %a, %q   AFTER THE CHUNK\n";
    size_t len = sizeof buf - 1 - strlen("   AFTER THE CHUNK\n");
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse_view(ctx, "view.hir", buf, len, 10);
    printf("view: %s, %zu diagnostics: {%s}\n", m != NULL ? "a module" : "no module",
           hawk_diag_count(ctx), hawk_diag_render(ctx, 0));
    hawk_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: " TOOL " FILE.hir\n", stderr);
        return 2;
    }
    size_t len;
    char *text = capi_read_input(TOOL, argv[1], &len);
    if (text == NULL)
        return 2;
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, "in.hir", text, len);
    if (m != NULL)
        hawk_verify(ctx, m);
    printf("parsed %s, %zu diagnostics, %zu errors\n",
           m != NULL ? "yes" : "no", hawk_diag_count(ctx),
           hawk_error_count(ctx));
    for (size_t i = 0; i <= hawk_diag_count(ctx); i++)
        show(ctx, i);
    hawk_diag_clear(ctx);
    printf("cleared: %zu diagnostics, %zu errors\n", hawk_diag_count(ctx),
           hawk_error_count(ctx));
    HawkModule *empty = hawk_parse(ctx, NULL, NULL, 0);
    printf("NULL text: %s, %zu functions, %zu diagnostics: %s\n",
           empty != NULL ? "a module" : "no module",
           hawk_module_function_count(empty), hawk_diag_count(ctx),
           hawk_diag_render(ctx, 0));
    printf("NULL module: %zu functions, function 0 %s\n",
           hawk_module_function_count(NULL),
           hawk_module_function(NULL, 0) == NULL ? "NULL" : "not NULL");
    printf("past the end: %s\n",
           m == NULL || hawk_module_function(m, hawk_module_function_count(m)) == NULL
               ? "NULL" : "not NULL");
    hawk_context_destroy(ctx);
    free(text);
    view_chunk();
    return 0;
}
