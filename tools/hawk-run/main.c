/* main.c -- hawk-run: for every kernel of each .hir file, the runner
 * (lib/Runner) builds the host unit in memory and the C unit as a shared
 * object, runs both over identical seeded planes (whole range and a
 * partition) and compares every byte.  One line per kernel; exit status 1
 * on any mismatch or error. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run.h"
#include "tool_io.h"
#include "tool_opts.h"

/* Prints the diagnostics appended since from; returns 1. */
static int fail_diags(HawkContext *ctx, size_t from)
{
    tool_print_diags(RUN_TOOL, ctx, from);
    return 1;
}

/* -print-layout: the args struct of kernel f as the runner fills it. */
static int print_layout(HawkContext *ctx, HawkModule *m, HawkFunction *f)
{
    size_t from = hawk_diag_count(ctx);
    const char *text = runner_layout_text(ctx, m, f);
    /* errors, or the kernel's warnings */
    tool_print_diags(RUN_TOOL, ctx, from);
    if (text == NULL)
        return 1;
    fputs(text, stdout);
    return 0;
}

/* Compares kernel f's two units; prints its line.  Returns 0 or 1. */
static int run_kernel(const RunConfig *cfg, HawkContext *ctx, HawkModule *m,
                      HawkFunction *f)
{
    RunnerOptions o = {cfg->cflags, cfg->samples, cfg->rounds, cfg->seed,
                       cfg->exact_nan, stdout, cfg->math, cfg->cc,
                       cfg->exec, cfg->build_dir, cfg->oracle};
    RunnerResult res;
    size_t from = hawk_diag_count(ctx);
    int rc = runner_kernel(ctx, m, f, &o, &res);
    tool_print_diags(RUN_TOOL, ctx, from);
    if (rc == 0) {
        printf("%s: %" PRIu32 " plane%s, %" PRId64 " sample%s: bit-identical",
               hawk_function_name(f), res.planes, res.planes == 1 ? "" : "s", cfg->samples,
               cfg->samples == 1 ? "" : "s");
        if (res.nan_only > 0)
            printf(" but for the sign or payload of %" PRIu64 " NaN%s",
                   res.nan_only, res.nan_only == 1 ? "" : "s");
        printf("\n");
    }
    fflush(stdout);
    return rc;
}

/* Whether m holds a kernel named by the first n bytes of name. */
static int primal_of(HawkModule *m, const char *name, size_t n)
{
    for (size_t k = 0; k < hawk_module_function_count(m); k++) {
        const HawkFunction *g = hawk_module_function(m, k);
        const char *gn = hawk_function_name(g);
        if (hawk_function_is_kernel(g) && strlen(gn) == n &&
            memcmp(gn, name, n) == 0)
            return 1;
    }
    return 0;
}

/* " 123 (2.50x)" of a derivative's count against the primal's p, or
 * " -" where it was not built. */
static void print_ratio(const char *what, int64_t n, int64_t p)
{
    if (n < 0)
        printf("%s -", what);
    else if (p > 0)
        printf("%s %" PRId64 " (%.2fx)", what, n, (double)n / (double)p);
    else
        printf("%s %" PRId64, what, n);
}

/* The derivative report: the cost analysis of the primal and of each
 * derivative kernel (operations per sample, static bytes) and the
 * active slots. */
static void print_costs(const char *name, const RunnerDerivResult *res)
{
    if (res->ops[0] < 0)
        return;
    printf("%s: operations per sample: primal %" PRId64, name, res->ops[0]);
    print_ratio(", jvp", res->ops[1], res->ops[0]);
    print_ratio(", vjp", res->ops[2], res->ops[0]);
    printf("; static bytes: primal %" PRId64, res->bytes[0]);
    print_ratio(", jvp", res->bytes[1], res->bytes[0]);
    print_ratio(", vjp", res->bytes[2], res->bytes[0]);
    printf("; active inputs: %s; outputs: %s\n",
           res->active_in[0] ? res->active_in : "none",
           res->active_out[0] ? res->active_out : "none");
}

/* -check-derivatives: kernel f's jvp against central differences; one
 * line.  Returns 0 or 1. */
static int check_kernel(const RunConfig *cfg, HawkContext *ctx, HawkModule *m,
                        HawkFunction *f)
{
    RunnerOptions o = {cfg->cflags, cfg->samples, cfg->rounds, cfg->seed,
                       cfg->exact_nan, stdout, cfg->math, NULL, NULL, NULL, 0};
    const char *name = hawk_function_name(f);
    size_t len = strlen(name);
    if (len > 4 && (strcmp(name + len - 4, "_jvp") == 0 ||
                    strcmp(name + len - 4, "_vjp") == 0) &&
        primal_of(m, name, len - 4)) {
        printf("%s: checked as the derivative of %.*s\n", name, (int)(len - 4),
               name);
        return 0;
    }
    RunnerDerivResult res;
    size_t from = hawk_diag_count(ctx), errors = hawk_error_count(ctx);
    int rc = runner_derivatives(ctx, m, f, &o, &res);
    /* a warning is shown and the check goes on; an error ends it */
    tool_print_diags(RUN_TOOL, ctx, from);
    if (hawk_error_count(ctx) > errors)
        return 1;
    if (res.outputs == 0) {
        printf("%s: no real output to differentiate: nothing compared\n",
               hawk_function_name(f));
        fflush(stdout);
        return 0;
    }
    printf("%s: jvp against central differences: %" PRIu64 " value%s "
           "compared, %" PRIu64 " skipped, largest error %.2g (step %.3g, "
           "tolerance %.3g): %s\n",
           hawk_function_name(f), res.checked, res.checked == 1 ? "" : "s",
           res.skipped, res.worst, res.step, res.tol,
           res.failed == 0 ? "ok" : "FAILED");
    if (res.failed != 0)
        printf("  %" PRIu64 " beyond the tolerance (%" PRIu64 " of them a "
               "tangent not finite where the differences are); the first: %s "
               "sample %" PRId64 " component %" PRIu32 ": jvp %.17g, "
               "differences %.17g\n",
               res.failed, res.nonfinite, res.fail_member, res.fail_sample,
               res.fail_comp, res.fail_jvp, res.fail_diff);
    if (res.vjp_note != NULL) {
        printf("%s: vjp not compared: %s\n", hawk_function_name(f), res.vjp_note);
    } else {
        printf("%s: vjp against jvp, <J v, w> = <v, J^T w>: %" PRIu64
               " compared, %" PRIu64 " skipped, largest error %.2g "
               "(tolerance %.3g): %s\n",
               hawk_function_name(f), res.dot_checked, res.dot_skipped,
               res.dot_worst, res.dot_tol, res.dot_failed ? "FAILED" : "ok");
        if (res.dot_failed && res.dot_fail_sample < 0)
            printf("  %" PRIu64 " beyond the tolerance (%" PRIu64 " of them "
                   "finite on one side only); the first: the sum over the "
                   "launch: <J v, w> %.17g, <v, J^T w> %.17g\n",
                   res.dot_failed, res.dot_nonfinite, res.dot_fail_lhs,
                   res.dot_fail_rhs);
        else if (res.dot_failed)
            printf("  %" PRIu64 " beyond the tolerance (%" PRIu64 " of them "
                   "finite on one side only); the first: sample %" PRId64
                   ": <J v, w> %.17g, <v, J^T w> %.17g\n", res.dot_failed,
                   res.dot_nonfinite, res.dot_fail_sample, res.dot_fail_lhs,
                   res.dot_fail_rhs);
    }
    print_costs(hawk_function_name(f), &res);
    fflush(stdout);
    return rc;
}

/* -eval: kernel f on the values given; its outputs to stdout. */
static int eval_kernel(const RunConfig *cfg, HawkContext *ctx, HawkModule *m,
                       HawkFunction *f)
{
    RunnerOptions o = {cfg->cflags, 1, 1, cfg->seed, cfg->exact_nan, stdout,
                       cfg->math, NULL, NULL, NULL, 0};
    size_t from = hawk_diag_count(ctx);
    int rc = runner_eval(ctx, m, f, &o, cfg->eval_in.slots, cfg->eval_in.n,
                         cfg->via, cfg->format);
    tool_print_diags(RUN_TOOL, ctx, from);
    return rc;
}

/* -eval without -kernel=: m must hold one kernel; 0, or 1 after an
 * error listing them. */
static int one_kernel(HawkModule *m, const char *input)
{
    char list[256] = "";
    size_t kernels = 0, used = 0;
    for (size_t k = 0; k < hawk_module_function_count(m); k++) {
        const HawkFunction *g = hawk_module_function(m, k);
        if (!hawk_function_is_kernel(g))
            continue;
        int w = snprintf(list + used, sizeof list - used, "%s'%s'",
                         kernels ? ", " : "", hawk_function_name(g));
        if (w > 0 && used + (size_t)w < sizeof list)
            used += (size_t)w;
        kernels++;
    }
    if (kernels <= 1)
        return 0;
    return tool_error(RUN_TOOL, "option '-eval' runs one kernel and '%s' "
                                "holds %zu (%s): name one with -kernel=NAME",
                      input, kernels, list);
}

/* The name an input is reported by. */
static const char *input_name(const char *input)
{
    return strcmp(input, "-") == 0 ? "<stdin>" : input;
}

/* Runs every kernel of m (or cfg->kernel alone); *seen counts them, and
 * with -kernel= each kernel's name goes to kernels, for the "did you
 * mean" when none is it. */
static int run_module(const RunConfig *cfg, HawkContext *ctx, HawkModule *m,
                      const char *input, uint32_t *seen, ToolNames *kernels)
{
    int rc = 0;
    uint32_t before = *seen;
    if (cfg->eval && cfg->kernel == NULL && one_kernel(m, input_name(input)))
        return 1;
    for (size_t k = 0; k < hawk_module_function_count(m); k++) {
        HawkFunction *f = hawk_module_function(m, k);
        if (hawk_function_is_kernel(f) && cfg->kernel != NULL)
            (void)tool_names_add(kernels, hawk_function_name(f));
        if (!hawk_function_is_kernel(f) ||
            (cfg->kernel != NULL &&
             strcmp(cfg->kernel, hawk_function_name(f)) != 0))
            continue;
        (*seen)++;
        rc |= cfg->print_layout        ? print_layout(ctx, m, f)
              : cfg->check_derivatives ? check_kernel(cfg, ctx, m, f)
              : cfg->eval              ? eval_kernel(cfg, ctx, m, f)
                                       : run_kernel(cfg, ctx, m, f);
    }
    if (*seen == before && cfg->kernel == NULL)
        return tool_error(RUN_TOOL, "'%s' holds no kernel", input_name(input));
    return rc;
}

/* Reads, verifies and runs one input in a context of its own. */
static int run_input(const RunConfig *cfg, const char *input, uint32_t *seen,
                     ToolNames *kernels)
{
    ToolBuf text = {0};
    if (tool_read_file(RUN_TOOL, input, &text) != 0)
        return 1;
    HawkContext *ctx = tool_context_create();
    HawkModule *m = hawk_parse(ctx, input, text.data, text.len);
    int rc;
    if (m == NULL || hawk_verify(ctx, m) != 0)
        rc = fail_diags(ctx, 0);
    else
        rc = run_module(cfg, ctx, m, input, seen, kernels);
    hawk_context_destroy(ctx);
    tool_buf_free(&text);
    return rc;
}

/* Every input in order: a failing one does not stop the others. */
static int run_inputs(RunConfig *cfg)
{
    static const char *const stdin_only[] = {"-"};
    const char *const *inputs = cfg->inputs.n ? cfg->inputs.names : stdin_only;
    size_t n = cfg->inputs.n ? cfg->inputs.n : 1;
    uint32_t seen = 0;
    ToolNames kernels = {0};
    int rc = 0;
    if (cfg->eval && cfg->kernel == NULL && n > 1)
        return tool_error(RUN_TOOL, "option '-eval' runs one kernel: give one "
                                    "input, or name the kernel with "
                                    "-kernel=NAME");
    for (size_t k = 0; k < n; k++)
        rc |= run_input(cfg, inputs[k], &seen, &kernels);
    if (seen == 0 && cfg->kernel != NULL) {
        const char *near = tool_names_near(&kernels, cfg->kernel);
        rc = tool_error(RUN_TOOL, "no kernel named '%s' in %s%s%s%s%s%s",
                        cfg->kernel, n > 1 ? "any of the " : "'",
                        n > 1 ? "inputs" : input_name(inputs[0]),
                        n > 1 ? "" : "'", near ? " (did you mean '" : "",
                        near ? near : "", near ? "'?)" : "");
    }
    tool_names_free(&kernels);
    return rc;
}

int main(int argc, char **argv)
{
    RunConfig cfg;
    int rc = run_parse_command_line(&cfg, argc, argv);
    if (rc != 0) {
        /* the error is printed */
    } else if (cfg.help) {
        run_print_help();
    } else if (cfg.version) {
        printf("%s (hawk) %s\n", RUN_TOOL, hawk_version());
    } else {
        if (compare_perturb_armed())
            fprintf(stderr, "%s: note: HAWK_RUN_TEST_PERTURB is set: output "
                            "bits of the rows it names are flipped (a test "
                            "hook)\n",
                    RUN_TOOL);
        rc = run_inputs(&cfg);
    }
    tool_inputs_free(&cfg.inputs);
    eval_inputs_free(&cfg.eval_in);
    return rc;
}
