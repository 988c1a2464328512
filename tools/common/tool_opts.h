/* tool_opts.h -- command-line parsing from a table of options, shared by
 * hawk's tools.  Every long option is accepted with one dash or two; an
 * option that takes a value accepts "-name=value" and "-name value". */
#ifndef HAWK_TOOL_OPTS_H
#define HAWK_TOOL_OPTS_H

#include <stdio.h>

typedef enum {
    TOOL_FLAG,       /* -name; no value */
    TOOL_VALUE,      /* -name=value or -name value */
    TOOL_BOOL,       /* -name (true) or -name=true|false|1|0 */
} ToolOptKind;

typedef struct ToolOpt ToolOpt;

/* Handles one occurrence of row (value is NULL for a TOOL_FLAG, "true" or
 * "false" for a TOOL_BOOL).  Returns 0, or non-zero after reporting. */
typedef int (*ToolOptFn)(void *state, const ToolOpt *row, const char *value);

struct ToolOpt {
    const char *name;      /* without dashes: "passes" */
    ToolOptKind kind;
    ToolOptFn handle;
    const char *meta;      /* the value's placeholder in --help ("FILE") */
    const char *help;      /* one line */
};

typedef struct {
    const char *tool;      /* "hawk-opt": prefixes every message */
    const char *overview;  /* --help's first line: what the tool does */
    const char *usage;     /* "[options] [input.hir | -]" */
    const ToolOpt *opts;
    size_t nopts;
    /* Called for each operand that is not an option ("-" included). */
    int (*operand)(void *state, const char *arg);
} ToolSpec;

/* The rows of the EmbeddedProfile's flags (docs/EmbeddedC.md), so every
 * tool spells and explains them alike.  Each row's name is the profile
 * option's key; fn handles them all (e.g. by setting a pipeline-wide pass
 * option row->name = value). */
#define TOOL_PROFILE_OPTS(fn)                                                \
    {"max-trips", TOOL_VALUE, fn, "N",                                       \
     "profile: refuse above N worst-case loop trips per sample "            \
     "(budget.trips)"},                                                      \
    {"max-ops", TOOL_VALUE, fn, "N",                                         \
     "profile: refuse above N operations per sample (budget.ops)"},          \
    {"max-stack-bytes", TOOL_VALUE, fn, "N",                                 \
     "profile: refuse above N static bytes (budget.stack)"},                 \
    {"fp-domain", TOOL_VALUE, fn, "record|refuse",                           \
     "profile: refuse an unknown floating-point domain site "               \
     "(default record)"},                                                    \
    {"index-policy", TOOL_VALUE, fn, "clamp|refuse",                         \
     "profile: refuse a clamped index site (default clamp)"},                \
    {"require-cppcheck", TOOL_BOOL, fn, NULL,                                \
     "profile: an absent cppcheck is an error, not a skipped check"},        \
    {"c-std", TOOL_VALUE, fn, "c99|c11",                                     \
     "profile: the C dialect of the consumer (default c99)"},                \
    {"max-soft-float-ops", TOOL_VALUE, fn, "N",                              \
     "profile: refuse above N reals per sample run in software "            \
     "(budget.soft_float)"},                                                 \
    {"fpu", TOOL_VALUE, fn, "dp|sp|none",                                    \
     "profile: the target's floating point; sp and none count the reals "    \
     "run in software (default dp)"},                                        \
    {"math", TOOL_VALUE, fn, "hawk|libm",                                    \
     "profile: hawk: the math ops hawk implements are its own, the same "    \
     "bits on every IEEE 754 target; libm: the C library's (default hawk)"}, \
    {"selftest", TOOL_VALUE, fn, "off|on",                                   \
     "profile: on: the C unit carries <name>_selftest(), known answers "     \
     "from the host build (default off)"}

/* The rows every tool has: -help and -h, -version, -color (tool_color.c).
 * help and version are the tool's own ToolOptFns. */
#define TOOL_COMMON_OPTS(help, version)                                      \
    {"help", TOOL_FLAG, help, NULL, "print this help and exit"},             \
    {"h", TOOL_FLAG, help, NULL, "the same as -help"},                       \
    {"version", TOOL_FLAG, version, NULL, "print the version and exit"},     \
    {"color", TOOL_VALUE, tool_set_color, "auto|always|never",               \
     "colour the diagnostics (auto: on a terminal, unless NO_COLOR is set)"}, \
    {"Werror", TOOL_FLAG, tool_set_warnings, NULL,                           \
     "make every warning an error: the kernel is refused"},                  \
    {"w", TOOL_FLAG, tool_set_warnings, NULL, "print no warning"}

/* -Werror's and -w's handler: what tool_context_create's contexts do with
 * a warning (hawk_set_warnings). */
int tool_set_warnings(void *state, const ToolOpt *row, const char *value);

/* -color's handler, and whether diagnostics are coloured now. */
int tool_set_color(void *state, const ToolOpt *row, const char *value);
int tool_color(void);
/* Writes one rendered diagnostic to out, coloured when tool_color(). */
void tool_put_diag(const char *text, FILE *out);
/* The name of the tool whose command line is being parsed. */
const char *tool_current_name(void);

/* A ToolOptFn named fn that sets the int member field of the tool's state
 * (of type T) to 1: a flag that only switches something on. */
#define TOOL_FLAG_FN(fn, T, field)                                           \
    static int fn(void *st, const ToolOpt *row, const char *v)               \
    {                                                                        \
        (void)row;                                                           \
        (void)v;                                                             \
        ((T *)st)->field = 1;                                                \
        return 0;                                                            \
    }

/* A ToolOptFn named fn that stores its value in member field of T; an
 * empty value is "<tool>: error: option '-NAME' needs <what>". */
#define TOOL_VALUE_FN(fn, T, field, tool, what)                              \
    static int fn(void *st, const ToolOpt *row, const char *v)               \
    {                                                                        \
        if (*v == '\0')                                                      \
            return tool_error(tool, "option '-%s' needs %s", row->name,      \
                              what);                                         \
        ((T *)st)->field = v;                                                \
        return 0;                                                            \
    }

/* Options as key = value pairs in the order given (the profile flags;
 * a later key overrides an earlier one where they are read): parallel
 * arrays, as hawk_export and the pass manager take them.  malloc'd. */
typedef struct {
    const char **keys, **vals;
    size_t n;
} ToolPairs;

/* Appends key = value to p; 0, or 1 after "out of memory". */
int tool_pairs_add(const char *tool, ToolPairs *p, const char *key,
                   const char *value);
void tool_pairs_free(ToolPairs *p);

/* Parses argv[1..argc) against spec; 0, or 1 after an error message. */
int tool_parse_args(const ToolSpec *spec, int argc, char **argv, void *state);

/* For a ToolSpec's operand handler: stores arg in *input, the tool's one
 * input file; 0, or 1 after "more than one input file" when *input is
 * set already. */
int tool_one_input(const char *tool, const char **input, const char *arg);

/* The input files of a tool that takes several, in command-line order;
 * "-" (standard input) at most once, and a file named twice (by any
 * spelling) once.  malloc'd. */
typedef struct {
    const char **names;
    size_t n;
    /* the files named so far by device and inode: a hash set of cap
     * slots, open addressing (a slot of ino 0 and dev 0 is free) */
    struct ToolFileId {
        unsigned long long dev, ino;
    } *seen;
    size_t cap, nseen;
    int has_stdin;
} ToolInputs;

/* For a ToolSpec's operand handler: appends arg to in; 0, or 1 after an
 * error ("-" given twice, out of memory). */
int tool_inputs_add(const char *tool, ToolInputs *in, const char *arg);
void tool_inputs_free(ToolInputs *in);

/* Names met while the inputs are read (the kernels, for the "did you
 * mean" of a -kernel= that names none); malloc'd copies. */
typedef struct {
    char **names;
    size_t n;
} ToolNames;

/* Appends a copy of name; 0, or -1 when memory ran out (the names are
 * for a suggestion: a caller goes on without it). */
int tool_names_add(ToolNames *s, const char *name);
/* The name of s nearest word (hawk_nearest), or NULL when none is close. */
const char *tool_names_near(const ToolNames *s, const char *word);
void tool_names_free(ToolNames *s);

/* Writes "USAGE: tool usage" and one line per option to out. */
void tool_print_help(const ToolSpec *spec, FILE *out);

/* Prints "tool: error: <message>\n" to stderr; returns 1 (the exit status). */
int tool_error(const char *tool, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
