/* audit.c -- the text audit of an emitted unit (rule audit.<kind>).
 *
 * The writer is built never to produce any of these; the audit reads the
 * text it actually produced, so a writer bug cannot reach a reviewer.  It
 * tokenizes the C (comments, strings and preprocessor lines kept apart) and
 * checks the token stream, so a word inside a comment never trips a rule.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

const char *const hk_audit_names[HK_AUDIT_COUNT] = {
#define X(e, name, what) name,
    HK_AUDIT_KINDS(X)
#undef X
};

typedef enum { T_IDENT, T_NUMBER, T_PUNCT, T_STRING, T_PP, T_LINECOMMENT } TokKind;

typedef struct {
    TokKind kind;
    const char *s;
    uint32_t n;
    uint32_t line;
} Tok;

/* The tokens of a unit.  Tokens inside a preprocessor directive go to
 * their own list: the word rules read them (a #define may not hide a
 * malloc), the structural rules never do (a directive is not a statement). */
typedef struct {
    Tok *toks;
    uint32_t ntoks, cap;
} TokList;

typedef struct {
    HkArena *arena;
    const char *name;
    const char *text;
    Tok *toks;
    uint32_t ntoks, cap;
    TokList pp;              /* tokens inside directives */
    int in_pp;               /* tokenizing a directive's line */
    HkAuditHits *hits;
} Unit;

static void push(Unit *u, TokKind k, const char *s, size_t n, uint32_t line)
{
    if (u->in_pp && k != T_PP) {
        TokList *l = &u->pp;
        l->toks = hk_grow(u->arena, l->toks, &l->cap, l->ntoks + 1, sizeof *l->toks);
        l->toks[l->ntoks++] = (Tok){k, s, (uint32_t)n, line};
        return;
    }
    u->toks = hk_grow(u->arena, u->toks, &u->cap, u->ntoks + 1, sizeof *u->toks);
    u->toks[u->ntoks++] = (Tok){k, s, (uint32_t)n, line};
}

static int is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Skips a block comment starting at p ("/" "*"); counts lines. */
static const char *skip_block(const char *p, uint32_t *line)
{
    for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
        if (*p == '\n')
            (*line)++;
    return *p ? p + 2 : p;
}

static const char *lex_quoted(Unit *u, const char *p, uint32_t line)
{
    const char *start = p;
    char q = *p++;
    while (*p && *p != q && *p != '\n') {
        if (*p == '\\' && p[1])
            p++;
        p++;
    }
    if (*p == q)
        p++;
    push(u, T_STRING, start, (size_t)(p - start), line);
    return p;
}

/* A preprocessor directive: a T_PP token from the '#' to the end of the
 * physical line (what the include and pragma rules read); the words after
 * the '#' are then tokenized into u->pp until the directive ends. */
static const char *lex_pp(Unit *u, const char *p, uint32_t line)
{
    size_t n = strcspn(p, "\n");
    push(u, T_PP, p, n, line);
    u->in_pp = 1;
    return p + 1;
}

static void tokenize(Unit *u)
{
    uint32_t line = 1;
    int line_start = 1;
    for (const char *p = u->text; *p;) {
        char c = *p;
        if (c == '\n') {
            line++;
            line_start = 1;
            u->in_pp = 0;
            p++;
        } else if (c == '\\' && p[1] == '\n') {
            /* A continued line: a directive goes on. */
            line++;
            p += 2;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
            p++;
        } else if (c == '/' && p[1] == '*') {
            /* A comment inside a directive may span lines; the directive
             * goes on after it. */
            p = skip_block(p, &line);
        } else if (c == '/' && p[1] == '/') {
            int was_pp = u->in_pp;
            u->in_pp = 0;
            push(u, T_LINECOMMENT, p, 2, line);
            u->in_pp = was_pp;
            while (*p && *p != '\n')
                p++;
        } else if (c == '#' && line_start && !u->in_pp) {
            p = lex_pp(u, p, line);
            line_start = 0;
        } else if (c == '"' || c == '\'') {
            p = lex_quoted(u, p, line);
            line_start = 0;
        } else if (is_ident_start(c)) {
            const char *s = p;
            while (is_ident_char(*p))
                p++;
            push(u, T_IDENT, s, (size_t)(p - s), line);
            line_start = 0;
        } else if (c >= '0' && c <= '9') {
            const char *s = p;
            while (is_ident_char(*p) || *p == '.' ||
                   ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E' ||
                                                 p[-1] == 'p' || p[-1] == 'P')))
                p++;
            push(u, T_NUMBER, s, (size_t)(p - s), line);
            line_start = 0;
        } else {
            size_t n = 1;
            if ((c == ':' && p[1] == ':') || (c == '<' && p[1] == '<' && p[2] == '<') ||
                (c == '>' && p[1] == '>' && p[2] == '>'))
                n = p[1] == ':' ? 2 : 3;
            push(u, T_PUNCT, p, n, line);
            p += n;
            line_start = 0;
        }
    }
}

static int tok_is(const Tok *t, const char *s)
{
    return strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

static int word_in(const Tok *t, const char *const *words)
{
    for (; *words; words++)
        if (tok_is(t, *words))
            return 1;
    return 0;
}

/* The source line, trimmed, for the hit's text. */
static const char *line_text(Unit *u, uint32_t line)
{
    const char *p = u->text;
    for (uint32_t l = 1; l < line && *p; p++)
        if (*p == '\n')
            l++;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strcspn(p, "\r\n");
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    return hk_strndup(u->arena, p, n);
}

static void hit(Unit *u, HkAuditKind k, uint32_t line)
{
    HkAuditHits *h = u->hits;
    for (uint32_t i = 0; i < h->n; i++)
        if (h->hits[i].kind == k && h->hits[i].line == line &&
            strcmp(h->hits[i].file, u->name) == 0)
            return;
    h->hits = hk_grow(u->arena, h->hits, &h->cap, h->n + 1, sizeof *h->hits);
    h->hits[h->n++] = (HkAuditHit){k, u->name, line, line_text(u, line)};
}

/* ---- rules on single tokens ------------------------------------------- */

static const char *const alloc_words[] = {"malloc", "calloc", "realloc", "free",
                                          "alloca", "aligned_alloc", NULL};
static const char *const stdio_words[] = {
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "puts", "fputs",
    "putchar", "fputc", "putc", "getchar", "fgets", "scanf", "fscanf",
    "sscanf", "fopen", "fclose", "fread", "fwrite", "FILE", "stdin", "stdout",
    "stderr", "perror", NULL};
static const char *const cxx_words[] = {"static_cast", "reinterpret_cast",
                                        "const_cast", "dynamic_cast",
                                        "namespace", "template", "class", NULL};
static const char *const launch_words[] = {
    "blockIdx", "threadIdx", "blockDim", "gridDim", "__global__",
    "__device__", "__shared__", "__syncthreads", "warpSize", NULL};
static const char *const allowed_includes[] = {"math.h", "stdint.h", "stdbool.h",
                                               "stddef.h", "float.h", NULL};

static void check_include(Unit *u, const Tok *t, const char *const *quoted)
{
    const char *p = t->s + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (strncmp(p, "pragma", 6) == 0) {
        hit(u, HK_AUDIT_PRAGMA, t->line);
        return;
    }
    if (strncmp(p, "include", 7) != 0)
        return;
    p += 7;
    while (*p == ' ' || *p == '\t')
        p++;
    char close = *p == '<' ? '>' : *p == '"' ? '"' : 0;
    const char *end = close ? strchr(p + 1, close) : NULL;
    if (end == NULL || end > t->s + t->n) {
        hit(u, HK_AUDIT_INCLUDE, t->line);
        return;
    }
    char *name = hk_strndup(u->arena, p + 1, (size_t)(end - p - 1));
    for (const char *const *q = quoted; close == '"' && *q != NULL; q++)
        if (strcmp(name, *q) == 0)
            return;
    if (strcmp(name, "stdio.h") == 0) {
        hit(u, HK_AUDIT_STDIO, t->line);
        return;
    }
    /* A quoted include other than the unit's own header and the runtime
     * header is outside the whitelist whatever its name. */
    if (close != '>') {
        hit(u, HK_AUDIT_INCLUDE, t->line);
        return;
    }
    for (const char *const *w = allowed_includes; *w; w++)
        if (strcmp(*w, name) == 0)
            return;
    hit(u, HK_AUDIT_INCLUDE, t->line);
}

/* Whether the "= {" at toks[i] initialises an array with exactly its
 * declared number of scalars, "T name[N] = { e1, ..., eN }" (the
 * self-test's const tables, a kernel's locals): what MISRA C:2012 Rule
 * 9.3 asks, which the checks' suppression of the addon's false positive
 * (docs/EmbeddedC.md, "Checks") no longer can. */
static int full_array(const Tok *toks, uint32_t n, uint32_t i)
{
    if (i < 3 || !tok_is(&toks[i - 1], "]") || toks[i - 2].kind != T_NUMBER ||
        !tok_is(&toks[i - 3], "["))
        return 0;
    unsigned long len = strtoul(toks[i - 2].s, NULL, 10);
    unsigned long elems = 1;
    int depth = 0;
    for (uint32_t k = i + 2; k < n; k++) {
        const Tok *t = &toks[k];
        if (t->kind != T_PUNCT)
            continue;
        if (tok_is(t, "{"))
            return 0;
        if (tok_is(t, "("))
            depth++;
        else if (tok_is(t, ")"))
            depth--;
        else if (tok_is(t, "}"))
            return k > i + 2 && elems == len;
        else if (depth == 0 && tok_is(t, ","))
            elems++;
    }
    return 0;
}

/* The rules on single tokens, over toks[0..n) (the unit's statements, or
 * the words inside its directives). */
static void check_tokens(Unit *u, const Tok *toks, uint32_t n,
                         const char *const *quoted)
{
    for (uint32_t i = 0; i < n; i++) {
        const Tok *t = &toks[i];
        if (t->kind == T_LINECOMMENT)
            hit(u, HK_AUDIT_COMMENT, t->line);
        else if (t->kind == T_PP)
            check_include(u, t, quoted);
        else if (t->kind == T_IDENT) {
            if (word_in(t, alloc_words))
                hit(u, HK_AUDIT_ALLOC, t->line);
            else if (tok_is(t, "goto"))
                hit(u, HK_AUDIT_GOTO, t->line);
            else if (word_in(t, stdio_words))
                hit(u, HK_AUDIT_STDIO, t->line);
            else if (tok_is(t, "union"))
                hit(u, HK_AUDIT_UNION, t->line);
            else if (tok_is(t, "volatile"))
                hit(u, HK_AUDIT_VOLATILE, t->line);
            else if (tok_is(t, "_Pragma"))
                hit(u, HK_AUDIT_PRAGMA, t->line);
            else if (word_in(t, cxx_words))
                hit(u, HK_AUDIT_CXX, t->line);
            else if (word_in(t, launch_words))
                hit(u, HK_AUDIT_LAUNCH, t->line);
        } else if (t->kind == T_PUNCT) {
            if (tok_is(t, "::"))
                hit(u, HK_AUDIT_CXX, t->line);
            else if (tok_is(t, "<<<") || tok_is(t, ">>>"))
                hit(u, HK_AUDIT_LAUNCH, t->line);
            else if (tok_is(t, "=") && i + 1 < n &&
                     tok_is(&toks[i + 1], "{") &&
                     !full_array(toks, n, i))
                hit(u, HK_AUDIT_INIT, t->line);
        }
    }
}

/* ---- rules on structure ------------------------------------------------ */

/* Index of the token after the group that opens at i ('(' or '{'). */
static uint32_t skip_group(const Unit *u, uint32_t i)
{
    const char *open = tok_is(&u->toks[i], "(") ? "(" : "{";
    const char *close = open[0] == '(' ? ")" : "}";
    int depth = 0;
    for (; i < u->ntoks; i++) {
        if (u->toks[i].kind != T_PUNCT)
            continue;
        if (tok_is(&u->toks[i], open))
            depth++;
        else if (tok_is(&u->toks[i], close) && --depth == 0)
            return i + 1;
    }
    return u->ntoks;
}

static int is_loop_or_switch(const Tok *t)
{
    return t->kind == T_IDENT && (tok_is(t, "for") || tok_is(t, "while") ||
                                  tok_is(t, "do") || tok_is(t, "switch"));
}

/* The body of a statement keyword at i: the index of its '{', or 0 when
 * the body is not a block. */
static uint32_t body_of(const Unit *u, uint32_t i)
{
    uint32_t j = i + 1;
    if (j < u->ntoks && tok_is(&u->toks[j], "("))
        j = skip_group(u, j);
    return j < u->ntoks && tok_is(&u->toks[j], "{") ? j : 0;
}

/* Counts the breaks that belong to the block opening at b (not to a loop
 * or switch nested in it). */
static uint32_t own_breaks(const Unit *u, uint32_t b, uint32_t *second_line)
{
    uint32_t end = skip_group(u, b), n = 0;
    for (uint32_t i = b + 1; i + 1 < end; i++) {
        const Tok *t = &u->toks[i];
        if (is_loop_or_switch(t)) {
            uint32_t nb = body_of(u, i);
            if (nb)
                i = skip_group(u, nb) - 1;
        } else if (t->kind == T_IDENT && tok_is(t, "break") && ++n == 2) {
            *second_line = t->line;
        }
    }
    return n;
}

static void check_for_breaks(Unit *u)
{
    for (uint32_t i = 0; i < u->ntoks; i++) {
        if (u->toks[i].kind != T_IDENT || !tok_is(&u->toks[i], "for"))
            continue;
        uint32_t b = body_of(u, i), line = 0;
        if (b && own_breaks(u, b, &line) > 1)
            hit(u, HK_AUDIT_BREAK, line);
    }
}

static int is_label(const Tok *t)
{
    return t->kind == T_IDENT && (tok_is(t, "case") || tok_is(t, "default"));
}

/* Checks one switch body: a default label, and every non-empty clause
 * ends with "break ;" before the next label or the closing brace. */
static void check_switch_body(Unit *u, uint32_t sw, uint32_t b)
{
    uint32_t end = skip_group(u, b) - 1; /* the closing brace */
    int has_default = 0, in_clause = 0, clause_empty = 1;
    for (uint32_t i = b + 1; i <= end; i++) {
        const Tok *t = &u->toks[i];
        int closing = i == end;
        if (!closing && t->kind == T_PUNCT && tok_is(t, "{")) {
            i = skip_group(u, i) - 1;
            clause_empty = 0;
            continue;
        }
        if (closing || is_label(t)) {
            int ends_break = i >= 2 && tok_is(&u->toks[i - 1], ";") &&
                             tok_is(&u->toks[i - 2], "break");
            if (in_clause && !clause_empty && !ends_break)
                hit(u, HK_AUDIT_SWITCH, u->toks[i - 1].line);
            if (closing)
                break;
            has_default |= tok_is(t, "default");
            while (i < end && !tok_is(&u->toks[i], ":"))
                i++;
            in_clause = 1;
            clause_empty = 1;
            continue;
        }
        if (is_loop_or_switch(t)) {
            uint32_t nb = body_of(u, i);
            if (nb)
                i = skip_group(u, nb) - 1;
        }
        clause_empty = 0;
    }
    if (!has_default)
        hit(u, HK_AUDIT_SWITCH, u->toks[sw].line);
}

static void check_switches(Unit *u)
{
    for (uint32_t i = 0; i < u->ntoks; i++) {
        if (u->toks[i].kind != T_IDENT || !tok_is(&u->toks[i], "switch"))
            continue;
        uint32_t b = body_of(u, i);
        if (b)
            check_switch_body(u, i, b);
        else
            hit(u, HK_AUDIT_SWITCH, u->toks[i].line);
    }
}

/* ---- file-scope functions: unreferenced helpers, external names -------- */

typedef struct {
    const Tok *name;
    int is_static;
    Unit *unit;
    uint32_t body, body_end;  /* its definition's tokens [body, body_end),
                                 or 0, 0 for a declaration */
} FileFn;

typedef struct {
    FileFn *fns;
    uint32_t n, cap;
} FnList;

/* Collects functions declared or defined at file scope: an identifier
 * followed by '(' at brace depth 0, outside a typedef.  Records whether
 * the declaration began with static. */
static void collect_fns(Unit *u, FnList *fl)
{
    int depth = 0, decl_static = 0, decl_typedef = 0;
    for (uint32_t i = 0; i < u->ntoks; i++) {
        const Tok *t = &u->toks[i];
        if (t->kind == T_PUNCT && tok_is(t, "{"))
            depth++;
        else if (t->kind == T_PUNCT && tok_is(t, "}"))
            depth--;
        if (depth != 0)
            continue;
        if (t->kind == T_PUNCT && (tok_is(t, ";") || tok_is(t, "}"))) {
            decl_static = decl_typedef = 0;
            continue;
        }
        if (t->kind != T_IDENT)
            continue;
        if (tok_is(t, "static"))
            decl_static = 1;
        else if (tok_is(t, "typedef"))
            decl_typedef = 1;
        else if (!decl_typedef && i + 1 < u->ntoks && tok_is(&u->toks[i + 1], "(")) {
            fl->fns = hk_grow(u->arena, fl->fns, &fl->cap, fl->n + 1, sizeof *fl->fns);
            FileFn *fn = &fl->fns[fl->n++];
            *fn = (FileFn){t, decl_static, u, 0, 0};
            i = skip_group(u, i + 1) - 1;
            /* A definition's body ends the declaration. */
            if (i + 1 < u->ntoks && tok_is(&u->toks[i + 1], "{")) {
                fn->body = i + 1;
                i = skip_group(u, i + 1) - 1;
                fn->body_end = i + 1;
                decl_static = decl_typedef = 0;
            }
        }
    }
}

/* Whether fn's name is used inside some function body (brace depth >= 1)
 * other than its own: a helper that only calls itself is still unused. */
static int referenced(const Unit *u, const FileFn *fn)
{
    const Tok *name = fn->name;
    int depth = 0;
    for (uint32_t i = 0; i < u->ntoks; i++) {
        const Tok *t = &u->toks[i];
        if (i == fn->body && fn->body_end > fn->body) {
            i = fn->body_end - 1;
            continue;
        }
        if (t->kind == T_PUNCT && tok_is(t, "{"))
            depth++;
        else if (t->kind == T_PUNCT && tok_is(t, "}"))
            depth--;
        else if (depth > 0 && t->kind == T_IDENT && t->n == name->n &&
                 memcmp(t->s, name->s, t->n) == 0)
            return 1;
    }
    return 0;
}

/* By name, then file, then line: qsort is not stable, and which of two
 * equal names comes second decides where a clash is reported. */
static int cmp_fn(const void *a, const void *b)
{
    const FileFn *x = a, *y = b;
    size_t n = x->name->n < y->name->n ? x->name->n : y->name->n;
    int c = memcmp(x->name->s, y->name->s, n);
    if (c == 0 && x->name->n != y->name->n)
        c = x->name->n < y->name->n ? -1 : 1;
    if (c == 0)
        c = strcmp(x->unit->name, y->unit->name);
    if (c == 0 && x->name->line != y->name->line)
        c = x->name->line < y->name->line ? -1 : 1;
    return c;
}

static void check_fns(Unit *c, Unit *h)
{
    FnList fl = {0};
    collect_fns(c, &fl);
    uint32_t nc = fl.n;
    if (h != NULL)
        collect_fns(h, &fl);
    for (uint32_t i = 0; i < nc; i++)
        if (fl.fns[i].is_static && !referenced(c, &fl.fns[i]))
            hit(c, HK_AUDIT_HELPER, fl.fns[i].name->line);
    /* MISRA C:2012 Rule 5.1: external identifiers distinct in their first
     * 31 characters.  Sorting puts any clash next to each other. */
    FnList ext = {0};
    for (uint32_t i = 0; i < fl.n; i++)
        if (!fl.fns[i].is_static) {
            ext.fns = hk_grow(c->arena, ext.fns, &ext.cap, ext.n + 1, sizeof *ext.fns);
            ext.fns[ext.n++] = fl.fns[i];
        }
    if (ext.n > 1)
        qsort(ext.fns, ext.n, sizeof *ext.fns, cmp_fn);
    for (uint32_t i = 1; i < ext.n; i++) {
        const Tok *a = ext.fns[i - 1].name, *b = ext.fns[i].name;
        int same = a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
        if (!same && a->n >= 31 && b->n >= 31 && memcmp(a->s, b->s, 31) == 0)
            hit(ext.fns[i].unit, HK_AUDIT_IDENT, b->line);
    }
}

static int cmp_hit(const void *a, const void *b)
{
    const HkAuditHit *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (int)x->kind - (int)y->kind;
}

uint32_t hk_audit_unit(HkArena *a, const char *c_name, const char *c_text,
                       const char *h_name, const char *h_text,
                       const char *runtime_h, HkAuditHits *hits)
{
    uint32_t before = hits->n;
    Unit c = {a, c_name, c_text, NULL, 0, 0, {NULL, 0, 0}, 0, hits};
    Unit h = {a, h_name, h_text ? h_text : "", NULL, 0, 0, {NULL, 0, 0}, 0, hits};
    tokenize(&c);
    tokenize(&h);
    const char *own = h_name ? strrchr(h_name, '/') : NULL;
    const char *quoted[3] = {own ? own + 1 : h_name, NULL, NULL};
    quoted[quoted[0] != NULL ? 1 : 0] = runtime_h;
    Unit *units[2] = {&c, &h};
    for (int k = 0; k < 2; k++) {
        check_tokens(units[k], units[k]->toks, units[k]->ntoks, quoted);
        check_tokens(units[k], units[k]->pp.toks, units[k]->pp.ntoks, quoted);
        check_for_breaks(units[k]);
        check_switches(units[k]);
    }
    check_fns(&c, h_text ? &h : NULL);
    if (hits->n > before) /* no hits: hits->hits may still be NULL */
        qsort(hits->hits + before, hits->n - before, sizeof *hits->hits, cmp_hit);
    return hits->n - before;
}
