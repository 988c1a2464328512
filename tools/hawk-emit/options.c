/* options.c -- hawk-emit's command line: one table row per flag.  The
 * profile flags are hawk-opt's, with the same spellings. */
#include <stdlib.h>
#include <string.h>

#include "hawk_emit.h"

/* -target=ID, -o DIR, -kernel=NAME: a value that must not be empty. */
#define VALUE_FN(fn, field, what)                                            \
    static int fn(void *st, const ToolOpt *row, const char *v)               \
    {                                                                        \
        if (*v == '\0')                                                      \
            return tool_error(EMIT_TOOL, "option '-%s' needs %s", row->name, \
                              what);                                         \
        ((EmitConfig *)st)->field = v;                                       \
        return 0;                                                            \
    }
VALUE_FN(set_target, target, "a target id")
VALUE_FN(set_out_dir, out_dir, "a directory")
VALUE_FN(set_kernel, kernel, "a kernel name")

/* Flags that only switch something on. */
#define FLAG_FN(fn, field)                                                   \
    static int fn(void *st, const ToolOpt *row, const char *v)               \
    {                                                                        \
        (void)row;                                                           \
        (void)v;                                                             \
        ((EmitConfig *)st)->field = 1;                                       \
        return 0;                                                            \
    }
FLAG_FN(set_no_check, no_check)
FLAG_FN(set_print, print)
FLAG_FN(set_time, time)
FLAG_FN(set_help, help)
FLAG_FN(set_version, version)
FLAG_FN(set_emit_llvm, emit_llvm)

/* A profile option: the row's name is the option's key (max-trips, ...). */
static int set_profile(void *st, const ToolOpt *row, const char *v)
{
    EmitConfig *cfg = st;
    const char **k = realloc(cfg->keys, (cfg->nopts + 1) * sizeof *k);
    if (k != NULL)
        cfg->keys = k;
    const char **w = realloc(cfg->vals, (cfg->nopts + 1) * sizeof *w);
    if (w != NULL)
        cfg->vals = w;
    if (k == NULL || w == NULL)
        return tool_error(EMIT_TOOL, "out of memory");
    cfg->keys[cfg->nopts] = row->name;
    cfg->vals[cfg->nopts++] = v;
    return 0;
}

static const ToolOpt emit_table[] = {
    {"target", TOOL_VALUE, set_target, "ID",
     "the target to export through (default: the first row, c)"},
    {"o", TOOL_VALUE, set_out_dir, "DIR",
     "write the files into DIR, created when missing (default .)"},
    {"kernel", TOOL_VALUE, set_kernel, "NAME",
     "export only the kernel NAME (default: every kernel)"},
    {"no-check", TOOL_FLAG, set_no_check, NULL,
     "do not run the compiler and cppcheck checks (the report says skipped)"},
    {"print", TOOL_FLAG, set_print, NULL,
     "print each kernel's .h and .c to stdout; write nothing, check nothing"},
    {"time", TOOL_FLAG, set_time, NULL,
     "print hawk's time and the checks' time per kernel to stderr"},
    {"emit-llvm", TOOL_FLAG, set_emit_llvm, NULL,
     "with -target=host: also write each kernel's textual IR, <name>.ll"},
    /* The EmbeddedProfile (docs/EmbeddedC.md), as hawk-opt spells it. */
    {"max-trips", TOOL_VALUE, set_profile, "N",
     "profile: refuse above N worst-case loop trips per sample (budget.trips)"},
    {"max-ops", TOOL_VALUE, set_profile, "N",
     "profile: refuse above N operations per sample (budget.ops)"},
    {"max-stack-bytes", TOOL_VALUE, set_profile, "N",
     "profile: refuse above N static bytes (budget.stack)"},
    {"fp-domain", TOOL_VALUE, set_profile, "record|refuse",
     "profile: refuse an unknown floating-point domain site (default record)"},
    {"index-policy", TOOL_VALUE, set_profile, "clamp|refuse",
     "profile: refuse a clamped index site (default clamp)"},
    {"require-cppcheck", TOOL_BOOL, set_profile, NULL,
     "profile: an absent cppcheck is an error, not a skipped check"},
    {"c-std", TOOL_VALUE, set_profile, "c99|c11",
     "profile: the C dialect of the consumer (default c99)"},
    {"help", TOOL_FLAG, set_help, NULL, "print this help and exit"},
    {"version", TOOL_FLAG, set_version, NULL, "print the version and exit"},
};

/* The input file operand: exactly one. */
static int set_input(void *st, const char *arg)
{
    EmitConfig *cfg = st;
    if (cfg->input != NULL)
        return tool_error(EMIT_TOOL, "more than one input file ('%s', '%s')",
                          cfg->input, arg);
    cfg->input = arg;
    return 0;
}

static const ToolSpec emit_spec = {
    EMIT_TOOL, "[options] [input.hir | -]", emit_table,
    sizeof emit_table / sizeof emit_table[0], set_input,
};

int emit_parse_command_line(EmitConfig *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    return tool_parse_args(&emit_spec, argc, argv, cfg);
}

void emit_print_help(void)
{
    tool_print_help(&emit_spec, stdout);
}

void emit_config_free(EmitConfig *cfg)
{
    free(cfg->keys);
    free(cfg->vals);
}
