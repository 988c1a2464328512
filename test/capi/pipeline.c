/* pipeline.c -- hawk-capi-pipeline: a custom pipeline through the public C
 * API alone.  Registers an analysis of its own, count-fmul, beside the
 * built-in passes, runs the pipeline given on the command line and prints
 * the module.
 *
 *   hawk-capi-pipeline FILE PIPELINE [-trace] [-walk] [-global=KEY=VALUE]
 *
 * -trace prints "after <pass>" to stderr from the after-pass hook; -walk
 * prints every instruction of every function in walk order before the
 * pipeline runs; -global sets a pipeline-wide option.  Exit status 0, or
 * 1 with the diagnostics on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

#define TOOL "hawk-capi-pipeline"

typedef struct {
    long count;
} FmulCount;

/* Counts fmul instructions; the walk sees nested regions too. */
static int count_fmul(void *user, const char *mnemonic, unsigned line,
                      unsigned col)
{
    (void)line;
    (void)col;
    if (strcmp(mnemonic, "fmul") == 0)
        ((FmulCount *)user)->count++;
    return 0;
}

/* count-fmul: prints the count; fails when it exceeds option limit. */
static int run_count_fmul(HawkPassRun *run, HawkFunction *fn)
{
    FmulCount c = {0};
    hawk_function_walk(fn, count_fmul, &c);
    long *calls = hawk_pass_user(run);
    (*calls)++;
    printf("count-fmul @%s: %ld\n", hawk_function_name(fn), c.count);
    const char *limit = hawk_pass_option(run, "limit");
    if (limit == NULL)
        return 0;
    char *end;
    long max = strtol(limit, &end, 10);
    char msg[128];
    if (*limit == '\0' || *end != '\0') {
        snprintf(msg, sizeof msg, "option 'limit' expects an integer, got '%s'",
                 limit);
        hawk_pass_error(run, fn, msg);
        return 1;
    }
    if (c.count <= max)
        return 0;
    snprintf(msg, sizeof msg, "too many fmul (%ld, limit %ld)", c.count, max);
    hawk_pass_error(run, fn, msg);
    return 1;
}

/* Prints one instruction as "  line:col mnemonic". */
static int show_inst(void *user, const char *mnemonic, unsigned line,
                     unsigned col)
{
    (void)user;
    printf("  %u:%u %s\n", line, col, mnemonic);
    return 0;
}

/* Prints the walk of every function of m. */
static void show_walk(HawkModule *m)
{
    for (size_t i = 0; i < hawk_module_function_count(m); i++) {
        HawkFunction *fn = hawk_module_function(m, i);
        printf("walk %s @%s:\n", hawk_function_is_kernel(fn) ? "kernel" : "func",
               hawk_function_name(fn));
        hawk_function_walk(fn, show_inst, NULL);
    }
}

static void trace(void *user, const char *pass, const HawkModule *m)
{
    (void)user;
    (void)m;
    fprintf(stderr, "after %s\n", pass);
}

/* Applies the optional flags after FILE and PIPELINE; 0, or 1 if unknown. */
static int apply_flags(HawkPassManager *pm, HawkModule *m, int argc,
                       char **argv)
{
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "-walk") == 0) {
            show_walk(m);
        } else if (strcmp(argv[i], "-trace") == 0) {
            hawk_pass_manager_set_after_pass(pm, trace, NULL);
        } else if (!capi_global_option(pm, argv[i])) {
            fprintf(stderr, TOOL ": error: unknown option '%s'\n", argv[i]);
            return 1;
        }
    }
    return 0;
}

/* Registers count-fmul, and checks that a taken name is refused. */
static int register_passes(HawkContext *ctx, long *calls)
{
    if (hawk_register_pass(ctx, "Fmul-Count-2", "upper case and digits",
                           HAWK_PASS_TRANSFORM, run_count_fmul, calls) != 0) {
        fputs(TOOL ": error: pass name 'Fmul-Count-2' was refused\n", stderr);
        return 1;
    }
    if (hawk_register_pass(ctx, "count-fmul", "count fmul instructions",
                           HAWK_PASS_ANALYSIS, run_count_fmul, calls) != 0)
        return 1;
    if (hawk_register_pass(ctx, "count-fmul", "again", HAWK_PASS_ANALYSIS,
                           run_count_fmul, calls) != -1 ||
        hawk_register_pass(ctx, "dce", "clash", HAWK_PASS_TRANSFORM,
                           run_count_fmul, calls) != -1) {
        fputs(TOOL ": error: a taken pass name was accepted\n", stderr);
        return 1;
    }
    /* a name is letters, digits and '-', not empty; a pass needs a
     * function and a context */
    static const char *const bad[] = {"", "has space", "dot.name", "under_score",
                                      "brace{", "caf\xc3\xa9"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (hawk_register_pass(ctx, bad[k], "bad", HAWK_PASS_ANALYSIS,
                               run_count_fmul, calls) != -1) {
            fprintf(stderr, TOOL ": error: pass name '%s' was accepted\n", bad[k]);
            return 1;
        }
    if (hawk_register_pass(ctx, NULL, "no name", HAWK_PASS_ANALYSIS,
                           run_count_fmul, calls) != -1 ||
        hawk_register_pass(ctx, "no-fn", "no function", HAWK_PASS_ANALYSIS,
                           NULL, calls) != -1 ||
        hawk_register_pass(NULL, "no-ctx", "no context", HAWK_PASS_ANALYSIS,
                           run_count_fmul, calls) != -1) {
        fputs(TOOL ": error: a pass without a name, function or context was "
                   "accepted\n", stderr);
        return 1;
    }
    size_t last = hawk_pass_count(ctx) - 1;
    /* past the last pass: nothing, never a neighbour's */
    size_t past = hawk_pass_count(ctx);
    if (hawk_pass_name(ctx, past) != NULL || hawk_pass_summary(ctx, past) != NULL ||
        hawk_pass_options(ctx, past) != NULL ||
        hawk_pass_kind(ctx, past) != HAWK_PASS_ANALYSIS) {
        fputs(TOOL ": error: a pass past the registry's end was answered\n", stderr);
        return 1;
    }
    if (strcmp(hawk_pass_name(ctx, last), "count-fmul") != 0 ||
        hawk_pass_kind(ctx, last) != HAWK_PASS_ANALYSIS) {
        fputs(TOOL ": error: count-fmul is not last in the registry\n", stderr);
        return 1;
    }
    return 0;
}

/* Parses, verifies, runs and prints; 0 on success. */
static int run(HawkContext *ctx, int argc, char **argv, const char *text,
               size_t len)
{
    long calls = 0;
    if (register_passes(ctx, &calls) != 0)
        return 1;
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return 1;
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (apply_flags(pm, m, argc, argv) != 0 ||
        hawk_pass_manager_parse(pm, argv[2]) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return 1;
    /* the entries as parsed; past the last, nothing */
    size_t n = hawk_pass_manager_size(pm);
    for (size_t k = 0; k < n; k++)
        if (hawk_pass_manager_pass_name(pm, k) == NULL ||
            hawk_pass_manager_seconds(pm, k) < 0.0)
            return 1;
    if (hawk_pass_manager_pass_name(pm, n) != NULL ||
        hawk_pass_manager_seconds(pm, n) != 0.0) {
        fputs(TOOL ": error: an entry past the pipeline's end was answered\n",
              stderr);
        return 1;
    }
    fputs(hawk_print(ctx, m, NULL), stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: " TOOL " FILE PIPELINE [-trace] [-walk] [-global=K=V]\n",
              stderr);
        return 1;
    }
    size_t len = 0;
    char *text = capi_read_file(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, TOOL ": error: cannot read '%s'\n", argv[1]);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    int rc = ctx == NULL ? 1 : run(ctx, argc, argv, text, len);
    if (ctx != NULL)
        capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    free(text);
    return rc;
}
