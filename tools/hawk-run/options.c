/* options.c -- hawk-run's command line: one table, parsed by
 * tools/common/tool_opts.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "tool_opts.h"

/* The most samples one kernel compares: planes stay well inside memory. */
#define MAX_SAMPLES INT64_C(100000000)
#define MAX_ROUNDS INT64_C(1000)

/* Parses v as a decimal integer in [lo, hi] into *out; 0 or 1. */
static int parse_count(const char *opt, const char *v, int64_t lo, int64_t hi,
                       int64_t *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno != 0 || x < lo || x > hi)
        return tool_error(RUN_TOOL,
                          "option '-%s' expects an integer in [%" PRId64
                          ", %" PRId64 "], got '%s'",
                          opt, lo, hi, v);
    *out = (int64_t)x;
    return 0;
}

static int set_samples(void *st, const ToolOpt *row, const char *v)
{
    return parse_count(row->name, v, 1, MAX_SAMPLES,
                       &((RunConfig *)st)->samples);
}

static int set_rounds(void *st, const ToolOpt *row, const char *v)
{
    return parse_count(row->name, v, 1, MAX_ROUNDS,
                       &((RunConfig *)st)->rounds);
}

/* -seed=S: any unsigned 64-bit decimal. */
static int set_seed(void *st, const ToolOpt *row, const char *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*v == '\0' || *v == '-' || *end != '\0' || errno != 0)
        return tool_error(RUN_TOOL,
                          "option '-%s' expects an unsigned integer, got '%s'",
                          row->name, v);
    ((RunConfig *)st)->seed = (uint64_t)x;
    return 0;
}

static int set_cflags(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((RunConfig *)st)->cflags = v;
    return 0;
}

TOOL_VALUE_FN(set_kernel, RunConfig, kernel, RUN_TOOL, "a kernel name")
TOOL_VALUE_FN(set_cc, RunConfig, cc, RUN_TOOL, "a C compiler")
TOOL_VALUE_FN(set_exec, RunConfig, exec, RUN_TOOL, "a program")
TOOL_VALUE_FN(set_build_dir, RunConfig, build_dir, RUN_TOOL, "a directory")

/* -math=hawk|libm: the profile's math. */
static int set_math(void *st, const ToolOpt *row, const char *v)
{
    if (strcmp(v, "hawk") != 0 && strcmp(v, "libm") != 0)
        return tool_error(RUN_TOOL, "option '-%s' expects 'hawk' or 'libm', got '%s'",
                          row->name, v);
    ((RunConfig *)st)->math = v;
    return 0;
}
/* -in=SLOT=V,V,..., -len=SLOT=N and -inputs=FILE: values for -eval,
 * which they imply. */
static int set_in(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((RunConfig *)st)->eval = 1;
    return eval_add_in(&((RunConfig *)st)->eval_in, v);
}

static int set_len(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((RunConfig *)st)->eval = 1;
    return eval_add_len(&((RunConfig *)st)->eval_in, v);
}

static int set_inputs(void *st, const ToolOpt *row, const char *v)
{
    if (*v == '\0')
        return tool_error(RUN_TOOL, "option '-%s' needs a file", row->name);
    ((RunConfig *)st)->eval = 1;
    return eval_read_json(&((RunConfig *)st)->eval_in, v);
}

/* Parses v as one of names[0..n) into *out; 0, or 1 after "expects
 * 'a', 'b' or 'c'". */
static int one_of(const ToolOpt *row, const char *v,
                  const char *const *names, int n, int *out)
{
    for (int k = 0; k < n; k++)
        if (strcmp(v, names[k]) == 0) {
            *out = k;
            return 0;
        }
    char list[128] = "";
    size_t used = 0;
    for (int k = 0; k < n; k++) {
        int w = snprintf(list + used, sizeof list - used, "%s'%s'",
                         k == 0 ? "" : k + 1 < n ? ", " : " or ", names[k]);
        if (w > 0 && used + (size_t)w < sizeof list)
            used += (size_t)w;
    }
    return tool_error(RUN_TOOL, "option '-%s' expects %s, got '%s'", row->name,
                      list, v);
}

/* -oracle=all|llvm|interp: what the C unit is compared with. */
static int set_oracle(void *st, const ToolOpt *row, const char *v)
{
    static const char *const names[] = {"all", "llvm", "interp"};
    return one_of(row, v, names, 3, &((RunConfig *)st)->oracle);
}

/* -via=interp|c|llvm: what runs the kernel under -eval. */
static int set_via(void *st, const ToolOpt *row, const char *v)
{
    static const char *const names[] = {"interp", "c", "llvm"};
    ((RunConfig *)st)->via_set = 1;
    return one_of(row, v, names, 3, &((RunConfig *)st)->via);
}

/* -format=table|json: how -eval prints. */
static int set_format(void *st, const ToolOpt *row, const char *v)
{
    static const char *const names[] = {"table", "json"};
    ((RunConfig *)st)->format_set = 1;
    return one_of(row, v, names, 2, &((RunConfig *)st)->format);
}

TOOL_FLAG_FN(set_eval, RunConfig, eval)
TOOL_FLAG_FN(set_exact_nan, RunConfig, exact_nan)
TOOL_FLAG_FN(set_print_layout, RunConfig, print_layout)
TOOL_FLAG_FN(set_check_derivatives, RunConfig, check_derivatives)
TOOL_FLAG_FN(set_help, RunConfig, help)
TOOL_FLAG_FN(set_version, RunConfig, version)

static const ToolOpt run_table[] = {
    {"samples", TOOL_VALUE, set_samples, "N",
     "samples compared per kernel, over all rounds (default 4096)"},
    {"rounds", TOOL_VALUE, set_rounds, "R",
     "launches per kernel, each with fresh uniforms and lengths (default 8)"},
    {"seed", TOOL_VALUE, set_seed, "S",
     "seed of the value generator (default 1)"},
    {"cflags", TOOL_VALUE, set_cflags, "'FLAGS'",
     "extra flags for the C build, split at blanks, after the defaults"},
    {"kernel", TOOL_VALUE, set_kernel, "NAME",
     "compare (with -eval: run) only kernel NAME"},
    {"exact-nan", TOOL_FLAG, set_exact_nan, NULL,
     "a NaN must match the other unit's NaN bit for bit (sign, payload)"},
    {"math", TOOL_VALUE, set_math, "hawk|libm",
     "profile: hawk's own math for the ops it implements, or libm's (default hawk)"},
    {"oracle", TOOL_VALUE, set_oracle, "all|llvm|interp",
     "what the C unit is compared with: the host build through LLVM and the HIR interpreter (default), or one of them"},
    {"build", TOOL_VALUE, set_build_dir, "DIR",
     "take the host unit from the build in DIR (hawk-build's manifest) instead of building it"},
    {"cc", TOOL_VALUE, set_cc, "PROGRAM",
     "processor in the loop: build the C unit and a static harness program with PROGRAM"},
    {"exec", TOOL_VALUE, set_exec, "PROGRAM",
     "processor in the loop: run the harness through PROGRAM (qemu-arm, a board's runner)"},
    {"print-layout", TOOL_FLAG, set_print_layout, NULL,
     "print each kernel's args struct layout (offsets, sizes) and run nothing"},
    {"check-derivatives", TOOL_FLAG, set_check_derivatives, NULL,
     "differentiate each kernel (jvp) and check its tangents against central differences of the kernel on the host build"},
    {"eval", TOOL_FLAG, set_eval, NULL,
     "run one kernel on the values given by -in and -inputs and print every slot it writes, instead of comparing"},
    {"in", TOOL_VALUE, set_in, "SLOT=V[,V...]",
     "-eval: values of SLOT, row-major; a per-sample slot's samples in order, in one -in or one per sample (implies -eval)"},
    {"inputs", TOOL_VALUE, set_inputs, "FILE",
     "-eval: a JSON object of slots, each a number, a string (\"nan\", \"-inf\", \"0x1p-3\"), true, false or nested arrays of them (implies -eval)"},
    {"len", TOOL_VALUE, set_len, "SLOT=N",
     "-eval: the runtime length of a slot of length ? the kernel only writes"},
    {"via", TOOL_VALUE, set_via, "interp|c|llvm",
     "-eval: what runs the kernel: the HIR interpreter (default), the C unit built with the C compiler, or the host unit built through LLVM (as -oracle names it)"},
    {"format", TOOL_VALUE, set_format, "table|json",
     "-eval: print a table, a row per sample (default), or JSON"},
    TOOL_COMMON_OPTS(set_help, set_version),
};

/* An input file operand: any number, in order (none reads stdin). */
static int set_input(void *st, const char *arg)
{
    return tool_inputs_add(RUN_TOOL, &((RunConfig *)st)->inputs, arg);
}

static const ToolSpec run_spec = {
    RUN_TOOL, "run kernels through the emitted C and the host build and compare every output byte",
    "[options] [input.hir... | -]", run_table,
    sizeof run_table / sizeof run_table[0], set_input,
};

int run_parse_command_line(RunConfig *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->samples = 4096;
    cfg->rounds = 8;
    cfg->seed = 1;
    cfg->oracle = RUNNER_ORACLE_DEFAULT;
    if (tool_parse_args(&run_spec, argc, argv, cfg) != 0)
        return 1;
    if (!cfg->eval && (cfg->via_set || cfg->format_set))
        return tool_error(RUN_TOOL, "options '-via' and '-format' are -eval's: "
                                    "give -eval and the values (-in, -inputs)");
    if (cfg->eval && (cfg->check_derivatives || cfg->print_layout))
        return tool_error(RUN_TOOL, "option '-eval' runs a kernel on given "
                                    "values: it does not go with '-%s'",
                          cfg->check_derivatives ? "check-derivatives"
                                                 : "print-layout");
    return 0;
}

void run_print_help(void)
{
    tool_print_help(&run_spec, stdout);
}
