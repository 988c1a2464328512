/* refusal.c -- hawk-capi-refusal: the embedded verify passes through the
 * public C API.  Runs PIPELINE over FILE under the pipeline-wide options
 * given as KEY=VALUE, then prints one line per diagnostic,
 * "<rule> <line>:<col>" (rule "-" when the diagnostic is no refusal),
 * then, for a refusal whose fix names an option, "fix <key>=<value>" and
 * its message; or, when the run succeeded, the JSON report of every
 * kernel.  The argument option-style=key|flag|python sets how messages
 * spell options (hawk_set_option_style).
 *
 *   hawk-capi-refusal FILE PIPELINE [KEY=VALUE ...]
 *
 * Exit status 0 when the run succeeded, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

#define TOOL "hawk-capi-refusal"

/* One line per diagnostic: its rule (or "-") and its place. */
static void print_rules(const HawkContext *ctx)
{
    for (size_t i = 0; i < hawk_diag_count(ctx); i++) {
        const char *rule = hawk_diag_rule(ctx, i);
        printf("%s %u:%u\n", rule ? rule : "-", hawk_diag_line(ctx, i),
               hawk_diag_col(ctx, i));
        const char *key = hawk_diag_fix_option(ctx, i);
        if (key != NULL)
            printf("fix %s=%s\n%s\n", key, hawk_diag_fix_value(ctx, i),
                   hawk_diag_message(ctx, i));
    }
}

/* Prints the report of every kernel of m; 0, or 1 when one failed. */
static int print_reports(HawkPassManager *pm, HawkModule *m)
{
    for (size_t i = 0; i < hawk_module_function_count(m); i++) {
        HawkFunction *fn = hawk_module_function(m, i);
        if (!hawk_function_is_kernel(fn))
            continue;
        const char *json = hawk_kernel_report(pm, fn, NULL);
        if (json == NULL)
            return 1;
        printf("%s\n", json);
    }
    return 0;
}

/* Sets each KEY=VALUE argument as a pipeline-wide option, but
 * option-style=, which sets the context's. */
static int set_options(HawkContext *ctx, HawkPassManager *pm, int argc,
                       char **argv)
{
    static const char *const styles[] = {"key", "flag", "python"};
    for (int i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (eq == NULL) {
            fprintf(stderr, "%s: error: expected KEY=VALUE, got '%s'\n", TOOL,
                    argv[i]);
            return 1;
        }
        *eq = '\0';
        if (strcmp(argv[i], "option-style") != 0) {
            hawk_pass_manager_set_option(pm, argv[i], eq + 1);
            continue;
        }
        for (int k = 0; k < 3; k++)
            if (strcmp(eq + 1, styles[k]) == 0)
                hawk_set_option_style(ctx, (HawkOptionStyle)k);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE PIPELINE [KEY=VALUE ...]\n", TOOL);
        return 1;
    }
    size_t len = 0;
    char *text = capi_read_file(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, "%s: error: cannot read '%s'\n", TOOL, argv[1]);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    int rc = m == NULL || hawk_verify(ctx, m) != 0 ||
             set_options(ctx, pm, argc, argv) != 0 ||
             hawk_pass_manager_parse(pm, argv[2]) != 0 ||
             hawk_pass_manager_run(pm, m) != 0 || print_reports(pm, m) != 0;
    print_rules(ctx);
    hawk_context_destroy(ctx);
    free(text);
    return rc;
}
