/* lexer.c -- bytes to HIR tokens (LangRef "Lexical structure"). */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* ---- the byte check --------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid.
 * Overlong forms, surrogates and code points past U+10FFFF are invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xbf;  /* range of the second byte */
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    return len;
}

/* The state of the byte check: where it is, and whether in a comment or a
 * string (where ';' and '//' mean nothing). */
typedef struct {
    const HkSource *src;
    HkDiags *d;
    uint32_t line;
    size_t line_start;
    int comment, string;
} Check;

static int check_fail(Check *c, size_t at, const char *msg, unsigned byte)
{
    HkLoc loc = {c->line, (uint32_t)(at - c->line_start + 1)};
    hk_error(c->d, c->src, loc, msg, byte);
    return 1;
}

/* Checks one ASCII byte at s[i]; returns how many bytes it consumed (0 on
 * error).  Tracks comments and strings so '//' inside them is allowed. */
static size_t check_ascii(Check *c, const unsigned char *s, size_t i, size_t n)
{
    unsigned b = s[i];
    if (b == '\n') {
        c->line++;
        c->line_start = i + 1;
        c->comment = c->string = 0;
    } else if (c->comment) {
    } else if (c->string) {
        if (b == '\\' && i + 1 < n && s[i + 1] >= 0x20 && s[i + 1] < 0x7f)
            return 2;
        if (b == '"')
            c->string = 0;
    } else if (b == ';') {
        c->comment = 1;
    } else if (b == '"') {
        c->string = 1;
    } else if (b == '/' && i + 1 < n && s[i + 1] == '/') {
        check_fail(c, i, "'//' is not a comment in HIR; use ';'", 0);
        return 0;
    }
    return 1;
}

/* The bytes that change nothing the check tracks outside a comment or a
 * string: ASCII but NUL, newline, ';', '"' and '/'.  Most of a program
 * is such bytes, so the check runs over them without the per-byte
 * branches of check_ascii. */
static const unsigned char quiet[256] = {
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* One pass over the bytes before lexing (lexer.h). */
int hk_lex_check(const HkSource *src, HkDiags *d)
{
    const unsigned char *s = (const unsigned char *)src->text;
    size_t n = src->len;
    Check c = {src, d, 1, 0, 0, 0};
    HkScanMark mark = hk_scan_mark(src->text);
    if (n >= UINT32_MAX) {
        HkLoc none = {0, 0};
        hk_error(d, src, none, "input too large (limit 4 GiB)");
        return 1;
    }
    for (size_t i = 0; i < n;) {
        size_t k;
        if (!c.comment && !c.string) {
            while (i < n && quiet[s[i]])
                i++;
            if (i == n)
                break;
        }
        if (s[i] == 0)
            return check_fail(&c, i, "NUL byte in input", 0);
        if (s[i] >= 0x80) {
            k = utf8_len(s + i, n - i);
            if (k == 0)
                return check_fail(&c, i, "invalid UTF-8 byte 0x%02x", s[i]);
            if (!c.comment)
                return check_fail(&c, i, "non-ASCII character outside a comment",
                                  0);
        } else if ((k = check_ascii(&c, s, i, n)) == 0) {
            return 1;
        }
        i += k;
        hk_source_pass(src, &mark, src->text + i);
    }
    return 0;
}

/* ---- tokens ----------------------------------------------------------- */

void hk_lex_init(HkLexer *lx, const HkSource *src, HkDiags *d)
{
    lx->src = src;
    lx->diags = d;
    lx->base = src->text != NULL ? src->text : "";
    lx->p = lx->base;
    lx->end = lx->base + src->len;
    lx->line_start = lx->base;
    lx->line = 1;
    lx->mark = hk_scan_mark(lx->base);
}

/* Character classes of LangRef "Lexical structure" (ASCII only). */
static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_ident(int c)
{
    return is_alpha(c) || is_digit(c) || c == '.';
}

/* The byte at p, or 0 past the end (the input has no NUL: hk_lex_check). */
static int at(const HkLexer *lx, const char *p)
{
    return p < lx->end ? (unsigned char)*p : 0;
}

size_t hk_lex_peek_def(const HkLexer *lx, const char **name)
{
    const char *q = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
    if (q == NULL)
        return 0;
    while (++q < lx->end && *q == ' ')
        ;
    if (q >= lx->end || *q != '%')
        return 0;
    *name = ++q;
    while (q < lx->end && is_ident((unsigned char)*q))
        q++;
    return (size_t)(q - *name);
}

uint32_t hk_lex_defs_to_close(const HkLexer *lx, const char *from)
{
    uint32_t n = 0;
    const char *q = from;
    for (; q < lx->end && *q != '\n'; q++)
        n += *q == '%';
    HkScanMark mark = hk_scan_mark(q);
    while (n < UINT32_MAX && (q = memchr(q, '\n', (size_t)(lx->end - q))) != NULL) {
        hk_source_pass(lx->src, &mark, q);
        while (++q < lx->end && *q == ' ')
            ;
        if (q >= lx->end || (*q == '}' && q[-1] == '\n'))
            break;
        n += *q == '%';
    }
    return n;
}

void hk_lex_skip_to(HkLexer *lx, const char *q)
{
    lx->p = q;
}

/* Line and column of p, which is on the lexer's current line. */
static HkLoc loc_of(const HkLexer *lx, const char *p)
{
    HkLoc l = {lx->line, (uint32_t)(p - lx->line_start + 1)};
    return l;
}

/* Skips blanks, a CR before LF, and a ';' comment up to its newline. */
static void skip_blanks(HkLexer *lx)
{
    for (;;) {
        int c = at(lx, lx->p);
        if (c == ' ' || c == '\t' || (c == '\r' && at(lx, lx->p + 1) == '\n'))
            lx->p++;
        else if (c == ';')
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        else
            return;
    }
}

/* The token [start, end); lexing resumes at end. */
static HkTok make(HkLexer *lx, HkTokKind k, const char *start, const char *end)
{
    HkTok t = {k, start, (uint32_t)(end - start), loc_of(lx, start)};
    lx->p = end;
    return t;
}

/* An error token at start: fmt takes the len bytes of text ("%.*s"). */
static HkTok fail(HkLexer *lx, const char *start, const char *fmt, int len,
                  const char *text)
{
    HkTok t = {HK_TK_ERROR, start, 0, loc_of(lx, start)};
    hk_error(lx->diags, lx->src, t.loc, fmt, len, text);
    lx->p = lx->end;
    return t;
}

/* The error at byte c (a control character) at p, written "0xNN" into
 * fmt's one %.*s. */
static HkTok control_char(HkLexer *lx, const char *p, int c, const char *fmt)
{
    char hex[16];
    snprintf(hex, sizeof hex, "0x%02x", (unsigned)c & 0xffu);
    return fail(lx, p, fmt, 4, hex);
}

/* Past the decimal (or hex) digits at p. */
static const char *skip_digits(const HkLexer *lx, const char *p, int hex)
{
    while (hex ? is_hex(at(lx, p)) : is_digit(at(lx, p)))
        p++;
    return p;
}

/* An exponent marker e at p with an optional sign and digits after it. */
static const char *skip_exponent(const HkLexer *lx, const char *p, int e)
{
    if ((at(lx, p) | 0x20) != e)
        return p;
    const char *q = p + 1;
    if (at(lx, q) == '+' || at(lx, q) == '-')
        q++;
    return is_digit(at(lx, q)) ? skip_digits(lx, q, 0) : p;
}

/* A numeric literal, or a signed word (-inf).  Letters, digits and dots
 * glued to it stay in the token so that "1.2.3" is reported whole. */
static HkTok lex_number(HkLexer *lx, const char *start)
{
    const char *p = start;
    if (*p == '-')
        p++;
    if (at(lx, p) == '0' && (at(lx, p + 1) | 0x20) == 'x') {
        p = skip_digits(lx, p + 2, 1);
        if (at(lx, p) == '.')
            p = skip_digits(lx, p + 1, 1);
        p = skip_exponent(lx, p, 'p');
    } else if (is_digit(at(lx, p))) {
        p = skip_digits(lx, p, 0);
        if (at(lx, p) == '.')
            p = skip_digits(lx, p + 1, 0);
        p = skip_exponent(lx, p, 'e');
    }
    while (is_ident(at(lx, p)))
        p++;
    return make(lx, HK_TK_NUMBER, start, p);
}

/* %name or @name: [A-Za-z_][A-Za-z0-9_.]* or a decimal number. */
static HkTok lex_name(HkLexer *lx, const char *start)
{
    const char *p = start + 1;
    HkTokKind k = *start == '%' ? HK_TK_LOCAL : HK_TK_GLOBAL;
    if (is_alpha(at(lx, p))) {
        while (is_ident(at(lx, p)))
            p++;
    } else if (is_digit(at(lx, p))) {
        p = skip_digits(lx, p, 0);
        if (is_ident(at(lx, p))) {
            while (is_ident(at(lx, p)))
                p++;
            return fail(lx, start, "invalid name '%.*s'", (int)(p - start),
                        start);
        }
    } else {
        return fail(lx, start, "expected a name after '%.*s'", 1, start);
    }
    HkTok t = make(lx, k, start, p);
    t.text++;
    t.len--;
    return t;
}

/* "..." on one line; the escapes are \\ and \".  The token is the raw body. */
static HkTok lex_string(HkLexer *lx, const char *start)
{
    const char *p = start + 1;
    for (;;) {
        int c = at(lx, p);
        if (c == 0 || c == '\n' || (c == '\r' && at(lx, p + 1) == '\n'))
            return fail(lx, start, "unterminated string%.*s", 0, start);
        if (c == '"')
            break;
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            /* as outside a string: no byte that moves the cursor or
             * rings, which a reader of the printed text would not see */
            return control_char(lx, p, c, "unexpected control character %.*s in string");
        }
        if (c == '\\') {
            int e = at(lx, p + 1);
            if (e != '\\' && e != '"')
                return fail(lx, p, "invalid escape '%.*s' in string",
                            e > 0x20 && e < 0x7f ? 2 : 1, p);
            p++;
        }
        p++;
    }
    HkTok t = make(lx, HK_TK_STRING, start, p + 1);
    t.text++;
    t.len -= 2;
    return t;
}

/* The one-character punctuation token c, or HK_TK_ERROR. */
static HkTokKind punct(int c)
{
    switch (c) {
    case '(': return HK_TK_LPAREN;
    case ')': return HK_TK_RPAREN;
    case '{': return HK_TK_LBRACE;
    case '}': return HK_TK_RBRACE;
    case '[': return HK_TK_LBRACKET;
    case ']': return HK_TK_RBRACKET;
    case '<': return HK_TK_LANGLE;
    case '>': return HK_TK_RANGLE;
    case ',': return HK_TK_COMMA;
    case ':': return HK_TK_COLON;
    case '=': return HK_TK_EQUAL;
    case '?': return HK_TK_QUESTION;
    default: return HK_TK_ERROR;
    }
}

/* '->', a negative number or -inf, punctuation, or an error. */
static HkTok lex_other(HkLexer *lx, const char *p, int c)
{
    if (c == '-' && at(lx, p + 1) == '>')
        return make(lx, HK_TK_ARROW, p, p + 2);
    if (c == '-' && (is_digit(at(lx, p + 1)) || is_alpha(at(lx, p + 1))))
        return lex_number(lx, p);
    if (punct(c) != HK_TK_ERROR)
        return make(lx, punct(c), p, p + 1);
    if (c > 0x20 && c < 0x7f)
        return fail(lx, p, "unexpected character '%.*s'", 1, p);
    return control_char(lx, p, c, "unexpected control character %.*s");
}

/* Dispatches on the first byte of the token (lexer.h). */
HkTok hk_lex_next(HkLexer *lx)
{
    skip_blanks(lx);
    const char *p = lx->p;
    if (p >= lx->end)
        return make(lx, HK_TK_EOF, p, p);
    int c = (unsigned char)*p;
    if (c == '\n') {
        HkTok t = make(lx, HK_TK_NEWLINE, p, p + 1);
        lx->line++;
        lx->line_start = lx->p;
        hk_source_pass(lx->src, &lx->mark, lx->p);
        return t;
    }
    if (is_alpha(c)) {
        const char *q = p;
        while (is_ident(at(lx, q)))
            q++;
        return make(lx, HK_TK_WORD, p, q);
    }
    if (is_digit(c))
        return lex_number(lx, p);
    if (c == '%' || c == '@')
        return lex_name(lx, p);
    if (c == '"')
        return lex_string(lx, p);
    return lex_other(lx, p, c);
}

/* ---- literal spellings ------------------------------------------------ */

/* Whether s[0..n) is -?[0-9]+ or -?0x[0-9a-fA-F]+; also skips the sign. */
static int int_syntax(const char *s, size_t n, size_t *digits, int *hex)
{
    size_t i = n > 0 && s[0] == '-' ? 1 : 0;
    *hex = n - i > 2 && s[i] == '0' && (s[i + 1] | 0x20) == 'x';
    if (*hex)
        i += 2;
    *digits = i;
    if (i == n)
        return 0;
    for (; i < n; i++)
        if (!(*hex ? is_hex((unsigned char)s[i]) : is_digit((unsigned char)s[i])))
            return 0;
    return 1;
}

/* The value of a decimal or hex digit. */
static unsigned digit_value(int c)
{
    return is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/* Magnitude with overflow detection; the sign stays apart so that both
 * INT64_MIN and UINT32_MAX are read exactly (lexer.h). */
int hk_lit_int(const char *s, size_t n, int *neg, uint64_t *mag)
{
    size_t i;
    int hex;
    if (!int_syntax(s, n, &i, &hex))
        return 1;
    *neg = s[0] == '-';
    uint64_t base = hex ? 16 : 10, v = 0;
    for (; i < n; i++) {
        unsigned d = digit_value((unsigned char)s[i]);
        if (v > (UINT64_MAX - d) / base)
            return 2;
        v = v * base + d;
    }
    *mag = v;
    return 0;
}

/* Digits of the given kind from s[i]; returns the index after them. */
static size_t span(const char *s, size_t i, size_t n, int hex)
{
    while (i < n && (hex ? is_hex((unsigned char)s[i]) : is_digit((unsigned char)s[i])))
        i++;
    return i;
}

/* Whether s[0..n) is a float spelling of LangRef "Lexical structure":
 * decimal (with or without '.' or exponent), 0x hex integer, C99 hex float
 * with a 'p' exponent, nan, inf, -inf. */
static int float_syntax(const char *s, size_t n)
{
    size_t i = n > 0 && s[0] == '-' ? 1 : 0;
    if (n - i == 3 && memcmp(s + i, "inf", 3) == 0)
        return 1;
    if (n == 3 && memcmp(s, "nan", 3) == 0)
        return 1;
    int hex = n - i > 2 && s[i] == '0' && (s[i + 1] | 0x20) == 'x';
    if (hex)
        i += 2;
    size_t j = span(s, i, n, hex);
    int dot = j < n && s[j] == '.';
    size_t k = dot ? span(s, j + 1, n, hex) : j;
    if ((j - i) + (dot ? k - j - 1 : 0) == 0)   /* no digit at all */
        return 0;
    if (j == i && !hex)         /* ".5": a digit must lead */
        return 0;
    if (k < n && (s[k] | 0x20) == (hex ? 'p' : 'e')) {
        size_t e = k + 1;
        if (e < n && (s[e] == '+' || s[e] == '-'))
            e++;
        size_t end = span(s, e, n, 0);
        if (end == e)
            return 0;
        k = end;
    } else if (hex && dot) {
        return 0;               /* C99: a hex fraction needs its exponent */
    }
    return k == n;
}

/* strtof for f32, not strtod then a cast: rounding twice can miss the
 * nearest float (lexer.h).  strtod reads the locale's decimal point, so a
 * program that set a locale with a ',' still reads HIR's '.' right. */
int hk_lit_float(HkArena *a, const char *s, size_t n, int is_f32, double *out)
{
    if (!float_syntax(s, n))
        return 1;
    char *z = hk_strndup(a, s, n), *end;
    int inf = strstr(z, "inf") != NULL;
    if (strcmp(z, "nan") == 0) {
        *out = is_f32 ? (double)(float)NAN : (double)NAN;
        return 0;
    }
    char point = localeconv()->decimal_point[0];
    char *dot = strchr(z, '.');
    if (dot != NULL && point != '\0')
        *dot = point;
    *out = is_f32 ? (double)strtof(z, &end) : strtod(z, &end);
    if (*end != '\0')
        return 1;
    if (isinf(*out) && !inf)
        return 2;
    return 0;
}
