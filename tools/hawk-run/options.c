/* options.c -- hawk-run's command line: one table, parsed by
 * tools/common/tool_opts.c. */
#include <errno.h>
#include <inttypes.h>
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
/* -oracle=all|llvm|interp: what the C unit is compared with. */
static int set_oracle(void *st, const ToolOpt *row, const char *v)
{
    static const char *const names[] = {"all", "llvm", "interp"};
    for (int k = 0; k < 3; k++)
        if (strcmp(v, names[k]) == 0) {
            ((RunConfig *)st)->oracle = k;
            return 0;
        }
    return tool_error(RUN_TOOL, "option '-%s' expects 'all', 'llvm' or 'interp', got '%s'",
                      row->name, v);
}
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
     "compare only kernel NAME"},
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
    return tool_parse_args(&run_spec, argc, argv, cfg);
}

void run_print_help(void)
{
    tool_print_help(&run_spec, stdout);
}
