/* options.c -- hawk-opt's command line: one table row per flag. */
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "opt.h"

static int set_passes(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((OptConfig *)st)->passes = v;
    return 0;
}

/* -o FILE, -analysis-report=FILE: a file name, which must not be empty. */
TOOL_VALUE_FN(set_output, OptConfig, output, OPT_TOOL, "a file name")
TOOL_VALUE_FN(set_analysis_report, OptConfig, analysis_report, OPT_TOOL,
              "a file name")

/* -verify-each[=bool]: the value is "true" or "false" (tool_opts.c). */
static int set_verify_each(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((OptConfig *)st)->verify_each = strcmp(v, "true") == 0;
    return 0;
}

static int add_print_after(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    OptConfig *cfg = st;
    const char **p = tool_realloc(cfg->print_after,
                             (cfg->nprint_after + 1) * sizeof *p);
    if (p == NULL)
        return tool_error(OPT_TOOL, "out of memory");
    p[cfg->nprint_after++] = v;
    cfg->print_after = p;
    return 0;
}

/* A pipeline-wide pass option: the row's name is the option's key, so a
 * profile flag is one row (e.g. {"max-trips", TOOL_VALUE, set_global}). */
static int set_global(void *st, const ToolOpt *row, const char *v)
{
    return tool_pairs_add(OPT_TOOL, &((OptConfig *)st)->globals, row->name, v);
}

/* Flags that only switch something on. */
TOOL_FLAG_FN(set_print_passes, OptConfig, print_passes)
TOOL_FLAG_FN(set_print_after_all, OptConfig, print_after_all)
TOOL_FLAG_FN(set_time_passes, OptConfig, time_passes)
TOOL_FLAG_FN(set_split_input, OptConfig, split_input)
TOOL_FLAG_FN(set_verify_diags, OptConfig, verify_diags)
TOOL_FLAG_FN(set_disable_output, OptConfig, disable_output)
TOOL_FLAG_FN(set_help, OptConfig, help)
TOOL_FLAG_FN(set_version, OptConfig, version)
TOOL_FLAG_FN(set_verify_embedded, OptConfig, verify_embedded)

static const ToolOpt opt_table[] = {
    {"passes", TOOL_VALUE, set_passes, "PIPELINE",
     "run the passes \"a,b{key=value},print<c>\" over every function"},
    {"print-passes", TOOL_FLAG, set_print_passes, NULL,
     "list the registered passes (name, kind, summary) and exit"},
    {"print-after-all", TOOL_FLAG, set_print_after_all, NULL,
     "print the module to stderr after every pass"},
    {"print-after", TOOL_VALUE, add_print_after, "NAME",
     "print the module to stderr after pass NAME (repeatable)"},
    {"verify-each", TOOL_BOOL, set_verify_each, NULL,
     "verify the module after every pass (default true)"},
    {"time-passes", TOOL_FLAG, set_time_passes, NULL,
     "print the wall time of each pass to stderr"},
    {"split-input-file", TOOL_FLAG, set_split_input, NULL,
     "handle each piece between '// -----' lines on its own"},
    {"verify-diagnostics", TOOL_FLAG, set_verify_diags, NULL,
     "check diagnostics against '; expected-error {{...}}' annotations"},
    {"disable-output", TOOL_FLAG, set_disable_output, NULL,
     "do not print the module"},
    {"o", TOOL_VALUE, set_output, "FILE",
     "write the module to FILE (whole, or not at all) instead of stdout"},
    TOOL_COMMON_OPTS(set_help, set_version),
    {"verify-embedded", TOOL_FLAG, set_verify_embedded, NULL,
     "run the embedded C target's verify pipeline; exit 1 on any refusal"},
    {"analysis-report", TOOL_VALUE, set_analysis_report, "FILE",
     "write the JSON analysis report of every kernel to FILE"},
    /* The EmbeddedProfile (docs/EmbeddedC.md): pipeline-wide options, so
     * they reach -verify-embedded and any -passes= pipeline alike. */
    TOOL_PROFILE_OPTS(set_global),
    {"target", TOOL_VALUE, set_global, "ID",
     "the target whose features and checks apply (default c)"},
};

/* The input file operand: at most one. */
static int set_input(void *st, const char *arg)
{
    return tool_one_input(OPT_TOOL, &((OptConfig *)st)->input, arg);
}

static const ToolSpec opt_spec = {
    OPT_TOOL, "run pipelines of passes over HIR and print the result",
    "[options] [input.hir | -]", opt_table,
    sizeof opt_table / sizeof opt_table[0], set_input,
};

int opt_parse_command_line(OptConfig *cfg, int argc, char **argv)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->verify_each = 1;
    if (tool_parse_args(&opt_spec, argc, argv, cfg) != 0)
        return 1;
    if (cfg->verify_embedded && cfg->passes != NULL)
        return tool_error(OPT_TOOL, "-verify-embedded runs its own pipeline; "
                                    "it does not combine with -passes=");
    /* A verifier, as in LLVM: no IR on stdout unless -o asks for it. */
    if (cfg->verify_embedded && cfg->output == NULL)
        cfg->disable_output = 1;
    if (cfg->verify_embedded)
        cfg->passes = OPT_VERIFY_EMBEDDED_PIPELINE;
    return 0;
}

void opt_print_help(void)
{
    tool_print_help(&opt_spec, stdout);
}

void opt_config_free(OptConfig *cfg)
{
    free(cfg->print_after);
    tool_pairs_free(&cfg->globals);
}
