/* eval_inputs.c -- the values hawk-run -eval gives a kernel: the words of
 * -in=SLOT=V,V,... and -len=SLOT=N, and -inputs=FILE, a JSON object of
 * slots.  Each value stays text: the runner reads it once, as the slot's
 * own element type (an f32 is rounded once, an i64 keeps all its digits),
 * which a JSON library reading every number as a double would not. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "tool_io.h"
#include "tool_mem.h"
#include "tool_opts.h"

/* The slot named name, added (no values, no length) when new; NULL when
 * memory ran out. */
static RunnerEvalSlot *slot_named(EvalInputs *in, const char *name, size_t n)
{
    for (size_t k = 0; k < in->n; k++)
        if (strlen(in->slots[k].slot) == n &&
            memcmp(in->slots[k].slot, name, n) == 0)
            return &in->slots[k];
    if (in->n == in->cap) {
        size_t cap = in->cap ? 2 * in->cap : 8;
        RunnerEvalSlot *s = tool_realloc(in->slots, cap * sizeof *s);
        if (s != NULL)
            in->slots = s;
        unsigned char *f = tool_realloc(in->from_file, cap);
        if (f != NULL)
            in->from_file = f;
        if (s == NULL || f == NULL)
            return NULL;
        in->cap = cap;
    }
    in->from_file[in->n] = 0;
    char *copy = tool_malloc(n + 1);
    if (copy == NULL)
        return NULL;
    memcpy(copy, name, n);
    copy[n] = '\0';
    RunnerEvalSlot *s = &in->slots[in->n++];
    memset(s, 0, sizeof *s);
    s->slot = copy;
    s->len = -1;
    return s;
}

/* Appends the text t[0..n) to s's values; 0, or 1 out of memory. */
static int add_value(RunnerEvalSlot *s, const char *t, size_t n)
{
    if ((s->nvalues & (s->nvalues - 1)) == 0) {
        size_t cap = s->nvalues ? 2 * s->nvalues : 1;
        const char **v = tool_realloc((void *)s->values, cap * sizeof *v);
        if (v == NULL)
            return 1;
        s->values = v;
    }
    char *copy = tool_malloc(n + 1);
    if (copy == NULL)
        return 1;
    memcpy(copy, t, n);
    copy[n] = '\0';
    s->values[s->nvalues++] = copy;
    return 0;
}

static int out_of_memory(void)
{
    return tool_error(RUN_TOOL, "out of memory");
}

/* Splits "SLOT=REST" at its first '='; 1 after an error naming opt. */
static int split_slot(const char *opt, const char *word, size_t *name_len,
                      const char **rest)
{
    const char *eq = strchr(word, '=');
    if (eq == NULL || eq == word)
        return tool_error(RUN_TOOL, "option '-%s' expects SLOT=%s, got '%s'",
                          opt, strcmp(opt, "len") == 0 ? "N" : "V[,V...]",
                          word);
    *name_len = (size_t)(eq - word);
    *rest = eq + 1;
    return 0;
}

int eval_add_in(EvalInputs *in, const char *word)
{
    size_t n = 0;
    const char *rest = "";
    if (split_slot("in", word, &n, &rest) != 0)
        return 1;
    RunnerEvalSlot *s = slot_named(in, word, n);
    if (s == NULL)
        return out_of_memory();
    if (in->from_file[s - in->slots])
        return tool_error(RUN_TOOL, "slot '%s' is given values by -in and "
                                    "by -inputs: give them once",
                          s->slot);
    /* values separated by commas, blanks around them ignored */
    for (const char *p = rest;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, ",");
        size_t end = len;
        while (end > 0 && (p[end - 1] == ' ' || p[end - 1] == '\t'))
            end--;
        if (end == 0)
            return tool_error(RUN_TOOL, "option '-in' for slot '%s' has an "
                                        "empty value in '%s'",
                              s->slot, rest);
        if (add_value(s, p, end) != 0)
            return out_of_memory();
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

int eval_add_len(EvalInputs *in, const char *word)
{
    size_t n = 0;
    const char *rest = "";
    if (split_slot("len", word, &n, &rest) != 0)
        return 1;
    char *end;
    errno = 0;
    long long v = strtoll(rest, &end, 10);
    if (*rest == '\0' || *end != '\0' || errno != 0 || v < 1)
        return tool_error(RUN_TOOL, "option '-len' expects SLOT=N with N a "
                                    "length of at least 1, got '%s'",
                          word);
    RunnerEvalSlot *s = slot_named(in, word, n);
    if (s == NULL)
        return out_of_memory();
    s->len = (int64_t)v;
    return 0;
}

void eval_inputs_free(EvalInputs *in)
{
    for (size_t k = 0; k < in->n; k++) {
        for (size_t v = 0; v < in->slots[k].nvalues; v++)
            free((void *)in->slots[k].values[v]);
        free((void *)in->slots[k].values);
        free((void *)in->slots[k].slot);
    }
    free(in->slots);
    free(in->from_file);
    memset(in, 0, sizeof *in);
}

/* ---- -inputs=FILE: {"slot": value, ...} --------------------------------
 * A value is a number, a string holding one ("nan", "-inf", "0x1p-3"),
 * true or false, or an array of values, nested to any depth up to
 * MAX_DEPTH and read in order (row-major). */

#define MAX_DEPTH 16

typedef struct {
    const char *path, *text, *p, *end;
    EvalInputs *in;
} JsonReader;

/* file:line:col: error: msg, the line and a caret at the reader's place;
 * returns 1. */
static int json_error(JsonReader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int json_error(JsonReader *r, const char *fmt, ...)
{
    uint32_t line = 1;
    const char *bol = r->text;
    for (const char *c = r->text; c < r->p; c++)
        if (*c == '\n') {
            line++;
            bol = c + 1;
        }
    size_t eol = (size_t)(r->end - bol);
    const char *nl = memchr(bol, '\n', eol);
    if (nl != NULL)
        eol = (size_t)(nl - bol);
    ToolBuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    tool_buf_printf(&b, "%s:%" PRIu32 ":%zu: error: ", r->path, line,
                    (size_t)(r->p - bol) + 1);
    tool_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    tool_buf_printf(&b, "\n%.*s\n%*s^\n", (int)eol, bol, (int)(r->p - bol), "");
    tool_put_diag(b.data != NULL ? b.data : "", stderr);
    tool_buf_free(&b);
    return 1;
}

static void skip_blanks(JsonReader *r)
{
    while (r->p < r->end && isspace((unsigned char)*r->p))
        r->p++;
}

/* Whether the next character is c; taken if it is. */
static int take(JsonReader *r, char c)
{
    skip_blanks(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return 1;
    }
    return 0;
}

/* A string's text, *out and *n its bytes inside the quotes: a number or
 * a slot name needs no escape, so none is taken. */
static int read_string(JsonReader *r, const char **out, size_t *n)
{
    const char *start = r->p;
    if (!take(r, '"'))
        return json_error(r, "expected a string");
    *out = r->p;
    while (r->p < r->end && *r->p != '"') {
        if (*r->p == '\\' || *r->p == '\n') {
            return json_error(r, "a slot name or a value holds no escape or "
                                 "line break");
        }
        r->p++;
    }
    if (r->p >= r->end) {
        r->p = start;
        return json_error(r, "this string is not closed");
    }
    *n = (size_t)(r->p - *out);
    r->p++;
    return 0;
}

/* A number, true or false: the word as it is written. */
static int read_word(JsonReader *r, RunnerEvalSlot *s)
{
    const char *w = r->p;
    while (r->p < r->end && (isalnum((unsigned char)*r->p) ||
                             strchr("+-.", *r->p) != NULL))
        r->p++;
    if (r->p == w)
        return json_error(r, "expected a number, a string, true, false or "
                             "an array");
    if (add_value(s, w, (size_t)(r->p - w)) != 0)
        return out_of_memory();
    return 0;
}

static int read_value(JsonReader *r, RunnerEvalSlot *s, int depth)
{
    skip_blanks(r);
    if (r->p < r->end && *r->p == '"') {
        const char *t;
        size_t n;
        if (read_string(r, &t, &n) != 0)
            return 1;
        if (add_value(s, t, n) != 0)
            return out_of_memory();
        return 0;
    }
    if (!take(r, '['))
        return read_word(r, s);
    if (depth >= MAX_DEPTH)
        return json_error(r, "arrays nest deeper than %d", MAX_DEPTH);
    if (take(r, ']'))
        return 0;
    do {
        if (read_value(r, s, depth + 1) != 0)
            return 1;
    } while (take(r, ','));
    if (!take(r, ']'))
        return json_error(r, "expected ',' or ']'");
    return 0;
}

/* One "slot": value pair. */
static int read_pair(JsonReader *r)
{
    const char *name;
    size_t n;
    skip_blanks(r);
    const char *at = r->p;
    if (read_string(r, &name, &n) != 0)
        return 1;
    RunnerEvalSlot *s = slot_named(r->in, name, n);
    if (s == NULL)
        return out_of_memory();
    unsigned char *file = &r->in->from_file[s - r->in->slots];
    if (s->nvalues > 0 || *file) {
        r->p = at;
        return json_error(r, "slot '%s' is given values %s", s->slot,
                          *file ? "twice" : "by -in too");
    }
    *file = 1;
    if (!take(r, ':'))
        return json_error(r, "expected ':'");
    return read_value(r, s, 0);
}

int eval_read_json(EvalInputs *in, const char *path)
{
    ToolBuf text = {0};
    if (tool_read_file(RUN_TOOL, path, &text) != 0)
        return 1;
    JsonReader r = {path, text.data != NULL ? text.data : "", NULL, NULL, in};
    r.p = r.text;
    r.end = r.text + text.len;
    int rc = 0;
    if (!take(&r, '{')) {
        rc = json_error(&r, "expected '{': the inputs are an object of slots");
    } else if (!take(&r, '}')) {
        do
            rc = read_pair(&r);
        while (rc == 0 && take(&r, ','));
        if (rc == 0 && !take(&r, '}'))
            rc = json_error(&r, "expected ',' or '}'");
    }
    skip_blanks(&r);
    if (rc == 0 && r.p != r.end)
        rc = json_error(&r, "text after the object");
    tool_buf_free(&text);
    return rc;
}
