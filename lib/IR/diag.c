/* diag.c -- the diagnostic list and its rendering with a caret. */
#include <string.h>

#include "ir.h"

void hk_diags_init(HkDiags *d, HkArena *a)
{
    memset(d, 0, sizeof *d);
    d->arena = a;
}

/* The byte offset in src's text where line (1-based) starts, or SIZE_MAX:
 * counted from the line d found last when it is in the same text, so a
 * run of diagnostics in source order reads the text once (and a mapped
 * text's pages are given back behind the count, as behind every scan). */
static size_t line_offset(HkDiags *d, const HkSource *src, uint32_t line)
{
    if (src == NULL || src->text == NULL || line == 0)
        return SIZE_MAX;
    const char *t = src->text;
    uint32_t l = 1;
    size_t off = 0;
    if (d->at_src == src && d->at_text == t && d->at_line <= line) {
        l = d->at_line;
        off = d->at_off;
    }
    HkScanMark mark = hk_scan_mark(t + off);
    while (l < line) {
        const char *nl = memchr(t + off, '\n', src->len - off);
        if (nl == NULL)
            return SIZE_MAX;
        hk_source_pass(src, &mark, nl);
        off = (size_t)(nl - t) + 1;
        l++;
    }
    d->at_src = src;
    d->at_text = t;
    d->at_line = line;
    d->at_off = off;
    return off;
}

HkDiag *hk_vdiag(HkDiags *d, HawkSeverity sev, const HkSource *src, HkLoc loc,
                 const char *fmt, va_list ap)
{
    d->items = hk_grow(d->arena, d->items, &d->cap, d->n + 1, sizeof *d->items);
    HkDiag *g = &d->items[d->n++];
    memset(g, 0, sizeof *g);
    g->severity = sev;
    g->src = src;
    g->loc = loc;
    g->line_at = line_offset(d, src, loc.line);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *msg = hk_alloc(d->arena, n > 0 ? (size_t)n + 1 : 1);
    if (n > 0)
        vsnprintf(msg, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    g->message = msg;
    if (sev == HAWK_ERROR)
        d->errors++;
    return g;
}

#define DIAG_FN(fn, sev)                                                     \
    HkDiag *fn(HkDiags *d, const HkSource *src, HkLoc loc, const char *fmt,   \
               ...)                                                          \
    {                                                                        \
        va_list ap;                                                          \
        va_start(ap, fmt);                                                   \
        HkDiag *g = hk_vdiag(d, sev, src, loc, fmt, ap);                     \
        va_end(ap);                                                          \
        return g;                                                            \
    }
DIAG_FN(hk_error, HAWK_ERROR)
DIAG_FN(hk_warning, HAWK_WARNING)
DIAG_FN(hk_note, HAWK_NOTE)

/* FNV-1a over a warning's text, place and message. */
static uint32_t warning_hash(const HkSource *src, HkLoc loc, const char *msg)
{
    uint64_t h = 1469598103934665603u;
    const char *t = src != NULL ? src->text : NULL;
    unsigned char key[sizeof t + 2 * sizeof(uint32_t)];
    memcpy(key, &t, sizeof t);
    memcpy(key + sizeof t, &loc.line, sizeof(uint32_t));
    memcpy(key + sizeof t + sizeof(uint32_t), &loc.col, sizeof(uint32_t));
    for (size_t k = 0; k < sizeof key; k++)
        h = (h ^ key[k]) * 1099511628211u;
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        h = (h ^ *c) * 1099511628211u;
    return (uint32_t)(h ^ (h >> 32));
}

/* Whether item k of d (an entry of the set, which may be stale after
 * the list was cut back) is warning msg at loc of src's text. */
static int same_warning(const HkDiags *d, uint32_t k, const HkSource *src,
                        HkLoc loc, const char *msg)
{
    if (k >= d->n)
        return 0;
    const HkDiag *g = &d->items[k];
    return g->severity == HAWK_WARNING && g->src != NULL && src != NULL &&
           g->src->text == src->text && g->loc.line == loc.line &&
           g->loc.col == loc.col && strcmp(g->message, msg) == 0;
}

/* The set's slot for (src, loc, msg): the one holding it, or the empty
 * one where it goes. */
static uint32_t *warned_slot(HkDiags *d, const HkSource *src, HkLoc loc,
                             const char *msg)
{
    uint32_t mask = d->warned_cap - 1;
    uint32_t k = warning_hash(src, loc, msg) & mask;
    while (d->warned[k] != 0 &&
           !same_warning(d, d->warned[k] - 1, src, loc, msg))
        k = (k + 1) & mask;
    return &d->warned[k];
}

/* Doubles the set (a power of two, at most half full), leaving out the
 * entries a cut-back list no longer holds. */
static void grow_warned(HkDiags *d)
{
    uint32_t old_cap = d->warned_cap, *old = d->warned;
    d->warned_cap = old_cap ? 2 * old_cap : 16;
    d->warned = hk_alloc(d->arena, d->warned_cap * sizeof *d->warned);
    memset(d->warned, 0, d->warned_cap * sizeof *d->warned);
    d->nwarned = 0;
    for (uint32_t k = 0; k < old_cap; k++) {
        if (old[k] == 0 || old[k] - 1 >= d->n)
            continue;
        const HkDiag *g = &d->items[old[k] - 1];
        *warned_slot(d, g->src, g->loc, g->message) = old[k];
        d->nwarned++;
    }
}

HkDiag *hk_warning_once(HkDiags *d, const HkSource *src, HkLoc loc,
                        const char *msg)
{
    if (2 * (d->nwarned + 1) > d->warned_cap)
        grow_warned(d);
    uint32_t *slot = warned_slot(d, src, loc, msg);
    if (*slot != 0)
        return NULL;
    HkDiag *g = hk_warning(d, src, loc, "%s", msg);
    *slot = d->n;
    d->nwarned++;
    return g;
}

const char *hk_severity_name(HawkSeverity s)
{
    switch (s) {
    case HAWK_ERROR: return "error";
    case HAWK_WARNING: return "warning";
    case HAWK_NOTE: return "note";
    }
    return "error";
}

const char *hk_spell_option(const HkDiags *d, const char *key,
                            const char *value)
{
    if (d->option_style == HAWK_OPTION_FLAG)
        return hk_asprintf(d->arena, "-%s=%s", key, value);
    if (d->option_style != HAWK_OPTION_PYTHON)
        return hk_asprintf(d->arena, "%s=%s", key, value);
    /* a keyword argument: fp-domain is fp_domain */
    char *k = hk_strdup(d->arena, key);
    for (char *c = k; *c != '\0'; c++)
        if (*c == '-')
            *c = '_';
    /* a number is an int, a word a str */
    size_t n = strspn(value, "0123456789");
    int number = n > 0 && value[n] == '\0';
    return hk_asprintf(d->arena, number ? "%s=%s" : "%s='%s'", k, value);
}

/* The source line of the diagnostic, with the caret under its column.
 * Bytes that are not printable ASCII show as '?', so a non-UTF-8 line
 * cannot corrupt the terminal or the caret's alignment.  A column past
 * the line's end (a location in another text) shows no line. */
static void render_line(const HkDiag *d, HkBuf *b)
{
    const HkSource *s = d->src;
    size_t start = d->line_at;
    if (start == SIZE_MAX)
        return;
    size_t end = start;
    while (end < s->len && s->text[end] != '\n' && s->text[end] != '\r')
        end++;
    size_t off = start + d->loc.col - 1;
    if (d->loc.col == 0 || off > end)
        return;
    for (size_t i = start; i < end; i++) {
        unsigned char c = (unsigned char)s->text[i];
        char out = (c == '\t' || (c >= 0x20 && c < 0x7f)) ? (char)c : '?';
        hk_buf_put(b, &out, 1);
    }
    hk_buf_puts(b, "\n");
    for (size_t i = start; i < off; i++)
        hk_buf_puts(b, s->text[i] == '\t' ? "\t" : " ");
    hk_buf_puts(b, "^\n");
}

uint32_t hk_line(const HkSource *src, HkLoc loc)
{
    if (loc.line == 0)
        return 0;
    return loc.line + (src ? src->line_base : 0);
}

void hk_diag_render(const HkDiag *d, HkBuf *b)
{
    const char *name = d->src && d->src->name ? d->src->name : "<unknown>";
    if (strcmp(name, "-") == 0)
        name = "<stdin>";
    if (d->loc.line > 0) {
        hk_buf_printf(b, "%s:%u:%u: %s: %s\n", name, hk_line(d->src, d->loc),
                      d->loc.col, hk_severity_name(d->severity), d->message);
        render_line(d, b);
    } else {
        hk_buf_printf(b, "%s: %s: %s\n", name, hk_severity_name(d->severity),
                      d->message);
    }
}
