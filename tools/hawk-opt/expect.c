/* expect.c -- -verify-diagnostics: the annotations
 *   ; expected-error {{text}}        on the line it is written on
 *   ; expected-warning@+N {{text}}   N lines below
 *   ; expected-note@-N {{text}}      N lines above
 * each name one diagnostic whose message contains text.  A chunk passes
 * when every annotation is matched and no other diagnostic appeared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "opt.h"

typedef struct {
    HawkSeverity severity;
    unsigned line;             /* where the diagnostic must be */
    unsigned at_line, at_col;  /* where the annotation is written */
    const char *text;          /* into the input; len bytes */
    size_t len;
    int seen;
} Expect;

typedef struct {
    const char *name;          /* the input's name in messages */
    const char *text;          /* the chunk */
    size_t len;
    unsigned line_base;
    Expect *items;
    size_t n, cap;
    int failed;
} Expects;

static const char *display_name(const char *name)
{
    return strcmp(name, "-") == 0 ? "<stdin>" : name;
}

/* Prints chunk line `line` (absolute) and a caret under col. */
static void show_line(const Expects *ex, unsigned line, unsigned col)
{
    const char *p = ex->text, *end = ex->text + ex->len;
    for (unsigned l = ex->line_base + 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r')
        e++;
    fprintf(stderr, "%.*s\n%*s^\n", (int)(e - p), p, (int)(col ? col - 1 : 0),
            "");
}

/* Reports an error at line:col of the chunk and marks the check failed. */
static void report(Expects *ex, unsigned line, unsigned col, const char *what,
                   const char *a, size_t na)
{
    ex->failed = 1;
    fprintf(stderr, "%s:%u:%u: error: %s", display_name(ex->name), line, col,
            what);
    if (a != NULL)
        fprintf(stderr, " \"%.*s\"", (int)na, a);
    fputc('\n', stderr);
    show_line(ex, line, col);
}

static int add(Expects *ex, const Expect *e)
{
    if (ex->n == ex->cap) {
        size_t cap = ex->cap ? ex->cap * 2 : 8;
        Expect *p = tool_realloc(ex->items, cap * sizeof *p);
        if (p == NULL)
            return tool_error(OPT_TOOL, "out of memory");
        ex->items = p;
        ex->cap = cap;
    }
    ex->items[ex->n++] = *e;
    return 0;
}

/* The severity word at s ("error", ...), its length in *n; -1 if none. */
static int severity_at(const char *s, size_t avail, size_t *n)
{
    for (int sev = HAWK_ERROR; sev <= HAWK_NOTE; sev++) {
        const char *word = hawk_severity_name((HawkSeverity)sev);
        size_t k = strlen(word);
        if (avail >= k && memcmp(s, word, k) == 0) {
            *n = k;
            return sev;
        }
    }
    return -1;
}

/* Parses "@+N" or "@-N" at s[*k]; advances *k past it.  0, or -1. */
static int parse_offset(const char *s, size_t avail, size_t *k, long *off)
{
    size_t i = *k + 1;
    if (i >= avail || (s[i] != '+' && s[i] != '-'))
        return -1;
    long sign = s[i] == '-' ? -1 : 1, v = 0;
    size_t digits = 0;
    for (i++; i < avail && s[i] >= '0' && s[i] <= '9' && v < 1000000; i++) {
        v = v * 10 + (s[i] - '0');
        digits++;
    }
    if (digits == 0)
        return -1;
    *off = sign * v;
    *k = i;
    return 0;
}

/* Parses one annotation starting at s ("expected-..."), on line `line`
 * at column col; p[0..avail) is the rest of the line. */
static void parse_annotation(Expects *ex, const char *s, size_t avail,
                             unsigned line, unsigned col)
{
    size_t k = strlen("expected-"), n;
    int sev = severity_at(s + k, avail - k, &n);
    if (sev < 0)
        return;  /* "expected-" in prose: not an annotation */
    k += n;
    long off = 0;
    int has_at = k < avail && s[k] == '@';
    if (has_at && parse_offset(s, avail, &k, &off) != 0) {
        report(ex, line, col, "expected '@+N' or '@-N' after the severity",
               NULL, 0);
        return;
    }
    while (k < avail && (s[k] == ' ' || s[k] == '\t'))
        k++;
    const char *open = k + 1 < avail && s[k] == '{' && s[k + 1] == '{'
                           ? s + k + 2
                           : NULL;
    /* "expected-error" in prose is not an annotation; one begun with '@'
     * or '{{' that does not finish is a mistake worth reporting. */
    if (open == NULL && !has_at)
        return;
    const char *close = NULL;
    for (const char *q = open; q != NULL && q + 1 < s + avail; q++)
        if (q[0] == '}' && q[1] == '}') {
            close = q;
            break;
        }
    if (close == NULL) {
        report(ex, line, col, "expected '{{text}}' in the annotation", NULL, 0);
        return;
    }
    long target = (long)line + off;
    if (target < 1 || target <= (long)ex->line_base) {
        report(ex, line, col, "the annotation points before the input", NULL,
               0);
        return;
    }
    Expect e = {(HawkSeverity)sev, (unsigned)target, line, col, open,
                (size_t)(close - open), 0};
    add(ex, &e);
}

/* Collects every annotation in the comments of the chunk. */
static void collect(Expects *ex)
{
    const char *p = ex->text, *end = ex->text + ex->len;
    for (unsigned line = ex->line_base + 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *c = memchr(p, ';', (size_t)(eol - p));
        while (c != NULL && c < eol) {
            const char *hit = NULL;
            for (const char *q = c; q + 9 <= eol; q++)
                if (memcmp(q, "expected-", 9) == 0) {
                    hit = q;
                    break;
                }
            if (hit == NULL)
                break;
            parse_annotation(ex, hit, (size_t)(eol - hit), line,
                             (unsigned)(hit - p) + 1);
            c = hit + 9;
        }
        p = nl ? nl + 1 : end;
    }
}

/* Marks the annotation diagnostic i matches, or reports it unexpected. */
static void match(Expects *ex, HawkContext *ctx, size_t i)
{
    HawkSeverity sev = hawk_diag_severity(ctx, i);
    unsigned line = hawk_diag_line(ctx, i);
    const char *msg = hawk_diag_message(ctx, i);
    for (size_t k = 0; k < ex->n; k++) {
        Expect *e = &ex->items[k];
        if (e->seen || e->severity != sev || e->line != line)
            continue;
        char *want = strndup(e->text, e->len);
        int hit = want != NULL && strstr(msg, want) != NULL;
        free(want);
        if (hit) {
            e->seen = 1;
            return;
        }
    }
    ex->failed = 1;
    if (line == 0) {
        fprintf(stderr, "%s: error: unexpected %s: %s\n", OPT_TOOL,
                hawk_severity_name(sev), msg);
        return;
    }
    fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n",
            display_name(ex->name), line, hawk_diag_col(ctx, i),
            hawk_severity_name(sev), msg);
    show_line(ex, line, hawk_diag_col(ctx, i));
}

int opt_check_expected(HawkContext *ctx, size_t from, const char *name,
                       const char *text, size_t len, unsigned line_base)
{
    Expects ex = {name, text, len, line_base, NULL, 0, 0, 0};
    collect(&ex);
    for (size_t i = from; i < hawk_diag_count(ctx); i++)
        match(&ex, ctx, i);
    for (size_t k = 0; k < ex.n; k++) {
        const Expect *e = &ex.items[k];
        if (e->seen)
            continue;
        char what[64];
        snprintf(what, sizeof what, "expected %s was not produced:",
                 hawk_severity_name(e->severity));
        report(&ex, e->at_line, e->at_col, what, e->text, e->len);
    }
    free(ex.items);
    return ex.failed;
}
