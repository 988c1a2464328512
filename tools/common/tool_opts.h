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
    const char *usage;     /* "[options] [input.hir | -]" */
    const ToolOpt *opts;
    size_t nopts;
    /* Called for each operand that is not an option ("-" included). */
    int (*operand)(void *state, const char *arg);
} ToolSpec;

/* Parses argv[1..argc) against spec; 0, or 1 after an error message. */
int tool_parse_args(const ToolSpec *spec, int argc, char **argv, void *state);

/* Writes "USAGE: tool usage" and one line per option to out. */
void tool_print_help(const ToolSpec *spec, FILE *out);

/* Prints "tool: error: <message>\n" to stderr; returns 1 (the exit status). */
int tool_error(const char *tool, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
