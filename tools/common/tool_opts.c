/* tool_opts.c -- table-driven command-line parsing for hawk's tools. */
#include "tool_opts.h"

#include "tool_mem.h"

#include "hawk/hawk.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *current_tool = "hawk";

const char *tool_current_name(void)
{
    return current_tool;
}

int tool_error(const char *tool, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: ", tool);
    /* "error: <msg>" as a diagnostic without a file */
    size_t n = strlen(msg);
    char *line = tool_malloc(n + 9);
    if (line == NULL) {
        fprintf(stderr, "error: %s\n", msg);
        return 1;
    }
    memcpy(line, "error: ", 7);
    memcpy(line + 7, msg, n);
    line[n + 7] = '\n';
    line[n + 8] = '\0';
    tool_put_diag(line, stderr);
    free(line);
    return 1;
}

/* The row named name[0..n), or NULL. */
static const ToolOpt *find_opt(const ToolSpec *spec, const char *name,
                               size_t n)
{
    for (size_t i = 0; i < spec->nopts; i++) {
        const char *r = spec->opts[i].name;
        if (strlen(r) == n && memcmp(r, name, n) == 0)
            return &spec->opts[i];
    }
    return NULL;
}

/* "true"/"1" -> "true", "false"/"0" -> "false", else NULL. */
static const char *bool_word(const char *v)
{
    if (strcmp(v, "true") == 0 || strcmp(v, "1") == 0)
        return "true";
    if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
        return "false";
    return NULL;
}

/* "unknown option '-max-trip'; did you mean '-max-trips'?", then where
 * the options are listed. */
static int unknown_option(const ToolSpec *spec, const char *arg, int shown,
                          const char *name, size_t n)
{
    const char **names = tool_malloc((spec->nopts + 1) * sizeof *names);
    char *word = tool_malloc(n + 1);
    size_t k = (size_t)-1;
    if (names != NULL && word != NULL) {
        for (size_t i = 0; i < spec->nopts; i++)
            names[i] = spec->opts[i].name;
        memcpy(word, name, n);
        word[n] = '\0';
        k = hawk_nearest(word, names, spec->nopts);
    }
    int dashes = arg[1] == '-' ? 2 : 1;
    int rc = k != (size_t)-1
                 ? tool_error(spec->tool,
                              "unknown option '%.*s'; did you mean "
                              "'%.*s%s'? (%s -help lists the options)",
                              shown, arg, dashes, "--", names[k], spec->tool)
                 : tool_error(spec->tool,
                              "unknown option '%.*s' (%s -help lists the "
                              "options)",
                              shown, arg, spec->tool);
    free(names);
    free(word);
    return rc;
}

/* Handles argv[*i], an option; may consume argv[*i + 1] as its value. */
static int parse_one(const ToolSpec *spec, int argc, char **argv, int *i,
                     void *state)
{
    const char *arg = argv[*i];
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    const ToolOpt *row = find_opt(spec, name, n);
    int shown = (int)((size_t)(name - arg) + n);
    if (row == NULL || n == 0)
        return unknown_option(spec, arg, shown, name, n);
    const char *value = eq ? eq + 1 : NULL;
    switch (row->kind) {
    case TOOL_FLAG:
        if (value != NULL)
            return tool_error(spec->tool, "option '%.*s' takes no value",
                              shown, arg);
        break;
    case TOOL_BOOL:
        if (value == NULL) {
            value = "true";
        } else if ((value = bool_word(eq + 1)) == NULL) {
            return tool_error(spec->tool,
                              "option '%.*s' expects true or false, got '%s'",
                              shown, arg, eq + 1);
        }
        break;
    case TOOL_VALUE:
        if (value == NULL) {
            if (*i + 1 >= argc)
                return tool_error(spec->tool, "option '%.*s' needs a value",
                                  shown, arg);
            value = argv[++*i];
        }
        break;
    }
    return row->handle(state, row, value) != 0;
}

int tool_parse_args(const ToolSpec *spec, int argc, char **argv, void *state)
{
    int options_done = 0;
    current_tool = spec->tool;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = 1;
            continue;
        }
        int is_opt = !options_done && arg[0] == '-' && arg[1] != '\0';
        int rc = is_opt ? parse_one(spec, argc, argv, &i, state)
                        : spec->operand(state, arg) != 0;
        if (rc != 0)
            return 1;
    }
    return 0;
}

int tool_one_input(const char *tool, const char **input, const char *arg)
{
    if (*input != NULL)
        return tool_error(tool, "more than one input file ('%s', '%s')",
                          *input, arg);
    *input = arg;
    return 0;
}

static size_t file_slot(const ToolInputs *in, struct ToolFileId id)
{
    size_t h = (size_t)((id.ino * 0x9E3779B97F4A7C15ull) ^ id.dev);
    size_t k = h & (in->cap - 1);
    while ((in->seen[k].dev != 0 || in->seen[k].ino != 0) &&
           (in->seen[k].dev != id.dev || in->seen[k].ino != id.ino))
        k = (k + 1) & (in->cap - 1);
    return k;
}

/* Grows the set to twice its slots (16 at first); 0, or -1. */
static int grow_seen(ToolInputs *in)
{
    ToolInputs grown = *in;
    grown.cap = in->cap ? 2 * in->cap : 16;
    grown.seen = tool_calloc(grown.cap, sizeof *grown.seen);
    if (grown.seen == NULL)
        return -1;
    for (size_t k = 0; k < in->cap; k++)
        if (in->seen[k].dev != 0 || in->seen[k].ino != 0)
            grown.seen[file_slot(&grown, in->seen[k])] = in->seen[k];
    free(in->seen);
    in->seen = grown.seen;
    in->cap = grown.cap;
    return 0;
}

/* Whether path names a file an earlier input named (by device and
 * inode: the same path twice, another spelling of it, a link); records
 * it otherwise.  A file that cannot be stat'ed is left to the reader's
 * message.  0 new, 1 named before, -1 out of memory. */
static int named_before(ToolInputs *in, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    struct ToolFileId id = {(unsigned long long)st.st_dev,
                            (unsigned long long)st.st_ino + 1u};
    if (2 * (in->nseen + 1) > in->cap && grow_seen(in) != 0)
        return -1;
    size_t k = file_slot(in, id);
    if (in->seen[k].dev == id.dev && in->seen[k].ino == id.ino)
        return 1;
    in->seen[k] = id;
    in->nseen++;
    return 0;
}

int tool_inputs_add(const char *tool, ToolInputs *in, const char *arg)
{
    if (strcmp(arg, "-") == 0) {
        if (in->has_stdin)
            return tool_error(tool, "standard input ('-') given twice");
        in->has_stdin = 1;
    } else {
        int before = named_before(in, arg);
        if (before < 0)
            return tool_error(tool, "out of memory");
        if (before)
            return 0;  /* one file named twice is one input */
    }
    const char **names = tool_realloc(in->names, (in->n + 1) * sizeof *names);
    if (names == NULL)
        return tool_error(tool, "out of memory");
    names[in->n++] = arg;
    in->names = names;
    return 0;
}

void tool_inputs_free(ToolInputs *in)
{
    free(in->names);
    free(in->seen);
    memset(in, 0, sizeof *in);
}

int tool_names_add(ToolNames *s, const char *name)
{
    char **names = tool_realloc(s->names, (s->n + 1) * sizeof *names);
    if (names == NULL)
        return -1;
    s->names = names;
    char *copy = tool_strdup(name);
    if (copy == NULL)
        return -1;
    s->names[s->n++] = copy;
    return 0;
}

const char *tool_names_near(const ToolNames *s, const char *word)
{
    size_t k = hawk_nearest(word, (const char *const *)s->names, s->n);
    return k < s->n ? s->names[k] : NULL;
}

void tool_names_free(ToolNames *s)
{
    for (size_t k = 0; k < s->n; k++)
        free(s->names[k]);
    free(s->names);
    s->names = NULL;
    s->n = 0;
}

int tool_pairs_add(const char *tool, ToolPairs *p, const char *key,
                   const char *value)
{
    const char **k = tool_realloc(p->keys, (p->n + 1) * sizeof *k);
    if (k != NULL)
        p->keys = k;
    const char **v = tool_realloc(p->vals, (p->n + 1) * sizeof *v);
    if (v != NULL)
        p->vals = v;
    if (k == NULL || v == NULL)
        return tool_error(tool, "out of memory");
    p->keys[p->n] = key;
    p->vals[p->n++] = value;
    return 0;
}

void tool_pairs_free(ToolPairs *p)
{
    free(p->keys);
    free(p->vals);
    p->keys = p->vals = NULL;
    p->n = 0;
}

/* "-name=META", "-name[=true|false]" or "-name" into head. */
static void option_head(const ToolOpt *o, char *head, size_t n)
{
    if (o->kind == TOOL_VALUE)
        snprintf(head, n, "-%s=%s", o->name, o->meta);
    else if (o->kind == TOOL_BOOL)
        snprintf(head, n, "-%s[=true|false]", o->name);
    else
        snprintf(head, n, "-%s", o->name);
}

void tool_print_help(const ToolSpec *spec, FILE *out)
{
    char head[128];
    int width = 0;
    for (size_t i = 0; i < spec->nopts; i++) {
        option_head(&spec->opts[i], head, sizeof head);
        int w = (int)strlen(head);
        width = w > width ? w : width;
    }
    fprintf(out, "OVERVIEW: %s\n\nUSAGE: %s %s\n\nOPTIONS:\n", spec->overview,
            spec->tool, spec->usage);
    for (size_t i = 0; i < spec->nopts; i++) {
        option_head(&spec->opts[i], head, sizeof head);
        fprintf(out, "  %-*s  %s\n", width, head, spec->opts[i].help);
    }
}
