/* options.c -- hawk-emit's command line: one table row per flag.  The
 * profile flags are hawk-opt's, with the same spellings. */
#include <string.h>

#include "hawk_emit.h"

/* -target=ID, -o DIR, -kernel=NAME: a value that must not be empty. */
TOOL_VALUE_FN(set_target, EmitConfig, target, EMIT_TOOL, "a target id")
TOOL_VALUE_FN(set_out_dir, EmitConfig, out_dir, EMIT_TOOL, "a directory")
TOOL_VALUE_FN(set_kernel, EmitConfig, kernel, EMIT_TOOL, "a kernel name")
TOOL_VALUE_FN(set_cflags_file, EmitConfig, cflags_file, EMIT_TOOL, "a file")
TOOL_VALUE_FN(set_cache_dir, EmitConfig, cache_dir, EMIT_TOOL, "a directory")

/* -selftest-oracle=llvm|interp (hawk-run -oracle's names) */
static int set_oracle(void *st, const ToolOpt *row, const char *v)
{
    if (strcmp(v, "llvm") != 0 && strcmp(v, "interp") != 0)
        return tool_error(EMIT_TOOL, "option '-%s' expects 'llvm' or "
                                     "'interp', got '%s'",
                          row->name, v);
#if !HAWK_HAVE_LLVM
    if (strcmp(v, "llvm") == 0)
        return tool_error(EMIT_TOOL, "this hawk-emit is built without LLVM "
                                     "(HAWK_LLVM=OFF), so the host build "
                                     "cannot compute the self-test's known "
                                     "answers: use -selftest-oracle=interp");
#endif
    ((EmitConfig *)st)->oracle = v;
    return 0;
}

/* -passes=PIPELINE: may be empty (no pass), as hawk-opt's. */
static int set_passes(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((EmitConfig *)st)->passes = v;
    return 0;
}

/* Flags that only switch something on. */
TOOL_FLAG_FN(set_no_check, EmitConfig, no_check)
TOOL_FLAG_FN(set_no_cache, EmitConfig, no_cache)
TOOL_FLAG_FN(set_print, EmitConfig, print)
TOOL_FLAG_FN(set_time, EmitConfig, time)
TOOL_FLAG_FN(set_help, EmitConfig, help)
TOOL_FLAG_FN(set_version, EmitConfig, version)
TOOL_FLAG_FN(set_emit_llvm, EmitConfig, emit_llvm)

/* A profile option: the row's name is the option's key (max-trips, ...). */
static int set_profile(void *st, const ToolOpt *row, const char *v)
{
    return tool_pairs_add(EMIT_TOOL, &((EmitConfig *)st)->profile, row->name,
                          v);
}

static const ToolOpt emit_table[] = {
    {"target", TOOL_VALUE, set_target, "ID",
     "the target to export through (default: the first row, c)"},
    {"o", TOOL_VALUE, set_out_dir, "DIR",
     "write the files into DIR, created when missing (default .)"},
    {"kernel", TOOL_VALUE, set_kernel, "NAME",
     "export only the kernel NAME (default: every kernel)"},
    {"passes", TOOL_VALUE, set_passes, "PIPELINE",
     "run the passes \"a,b{key=value}\" over each input before the export (jvp, vjp: export the derivative kernels)"},
    {"no-check", TOOL_FLAG, set_no_check, NULL,
     "do not run the compiler and cppcheck checks (the report says skipped)"},
    {"cache-dir", TOOL_VALUE, set_cache_dir, "DIR",
     "record the checks' passes in DIR and take them from there (default $HAWK_CACHE_DIR, else $XDG_CACHE_HOME/hawk, else ~/.cache/hawk)"},
    {"no-cache", TOOL_FLAG, set_no_cache, NULL,
     "run every check, reading and recording no verdict"},
    {"print", TOOL_FLAG, set_print, NULL,
     "print each kernel's .h and .c, then the runtime unit, to stdout; write nothing, check nothing"},
    {"time", TOOL_FLAG, set_time, NULL,
     "print hawk's time and the checks' time per kernel to stderr"},
    {"cflags-file", TOOL_VALUE, set_cflags_file, "FILE",
     "write the C compiler flags the exported units need (gcc, clang) to FILE"},
    {"emit-llvm", TOOL_FLAG, set_emit_llvm, NULL,
     "with -target=host: also write each kernel's textual IR, <name>.ll"},
    {"selftest-oracle", TOOL_VALUE, set_oracle, "llvm|interp",
     "with -selftest=on: compute the known answers with the host build "
     "(LLVM) or the HIR interpreter (default llvm; interp without LLVM)"},
    /* The EmbeddedProfile (docs/EmbeddedC.md), as hawk-opt spells it. */
    TOOL_PROFILE_OPTS(set_profile),
    TOOL_COMMON_OPTS(set_help, set_version),
};

/* An input file operand: any number, in order (none reads stdin). */
static int set_input(void *st, const char *arg)
{
    return tool_inputs_add(EMIT_TOOL, &((EmitConfig *)st)->inputs, arg);
}

static const ToolSpec emit_spec = {
    EMIT_TOOL, "export HIR kernels through a target of the targets table (C units, host objects)",
    "[options] [input.hir... | -]", emit_table,
    sizeof emit_table / sizeof emit_table[0], set_input,
};

int emit_parse_command_line(EmitConfig *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    if (tool_parse_args(&emit_spec, argc, argv, cfg) != 0)
        return 1;
    /* -o names a directory; the units go to stdout only under -print */
    if (cfg->out_dir != NULL && strcmp(cfg->out_dir, "-") == 0)
        return tool_error(EMIT_TOOL, "-o names the output directory; '-' "
                                     "is none (to print the units to "
                                     "standard output, use -print)");
    /* -print writes no file, so it writes no flags file either */
    if (cfg->print && cfg->cflags_file != NULL)
        return tool_error(EMIT_TOOL, "-cflags-file writes a file and -print "
                                     "writes none; use one of them");
    return 0;
}

void emit_print_help(void)
{
    tool_print_help(&emit_spec, stdout);
}

void emit_config_free(EmitConfig *cfg)
{
    tool_pairs_free(&cfg->profile);
    tool_inputs_free(&cfg->inputs);
}
