/* lexer.h -- HIR tokens (LangRef "Lexical structure").
 *
 * The lexer hands out one token at a time with its location.  Newlines are
 * tokens because an instruction ends at the end of its line.  Bytes are
 * checked once, up front (hk_lex_check), so the lexer proper only sees
 * ASCII outside comments.
 */
#ifndef HAWK_LEXER_H
#define HAWK_LEXER_H

#include "ir.h"

typedef enum {
    HK_TK_EOF,
    HK_TK_ERROR,      /* a diagnostic has been appended */
    HK_TK_NEWLINE,
    HK_TK_WORD,       /* keyword, mnemonic, type, role: [A-Za-z_][A-Za-z0-9_.]* */
    HK_TK_LOCAL,      /* %name; text is the name without '%' */
    HK_TK_GLOBAL,     /* @name; text is the name without '@' */
    HK_TK_NUMBER,     /* integer or float literal spelling, sign included */
    HK_TK_STRING,     /* "..."; text is the raw body between the quotes */
    HK_TK_LPAREN,
    HK_TK_RPAREN,
    HK_TK_LBRACE,
    HK_TK_RBRACE,
    HK_TK_LBRACKET,
    HK_TK_RBRACKET,
    HK_TK_LANGLE,
    HK_TK_RANGLE,
    HK_TK_COMMA,
    HK_TK_COLON,
    HK_TK_EQUAL,
    HK_TK_QUESTION,
    HK_TK_ARROW,      /* -> */
} HkTokKind;

typedef struct {
    HkTokKind kind;
    const char *text;  /* points into the source */
    uint32_t len;
    HkLoc loc;         /* of the first byte (the sigil for LOCAL/GLOBAL) */
} HkTok;

typedef struct {
    const HkSource *src;
    HkDiags *diags;
    const char *base;      /* the first byte of the source */
    const char *p, *end;
    const char *line_start;
    uint32_t line;
    HkScanMark mark;       /* the pages behind it given back */
} HkLexer;

/* Checks the bytes of src: no NUL, valid UTF-8, ASCII outside comments, no
 * '//'.  Returns 0, or 1 after appending one error. */
int hk_lex_check(const HkSource *src, HkDiags *d);

/* The local names ('%') from `from` to the end of its line (a func's
 * parameters, from its header's start) and the lines after it that
 * start with one (after blanks), up to the next line that starts with
 * '}' (a function's closing brace, as the printer writes it) or the end:
 * how many names a function is likely to define, a hint that costs one
 * scan of its bytes. */
uint32_t hk_lex_defs_to_close(const HkLexer *lx, const char *from);

/* Moves the lexer on to q, later on its current line (past a token the
 * caller recognised by its bytes). */
void hk_lex_skip_to(HkLexer *lx, const char *q);

/* Starts lexing src at its first byte. */
void hk_lex_init(HkLexer *lx, const HkSource *src, HkDiags *d);

/* The next token; HK_TK_ERROR after appending a diagnostic. */
HkTok hk_lex_next(HkLexer *lx);

/* The name the line after the lexer's defines when that line starts
 * (after blanks) with "%name", without lexing it: its length, *name
 * pointing at it; 0 when it does not.  A hint only (the parser's
 * prefetch): the line is lexed when its turn comes. */
size_t hk_lex_peek_def(const HkLexer *lx, const char **name);

/* An integer spelling -?[0-9]+ or -?0x[0-9a-fA-F]+: its sign and magnitude.
 * Returns 0, 1 when s[0..n) is not an integer, 2 when it exceeds 64 bits. */
int hk_lit_int(const char *s, size_t n, int *neg, uint64_t *mag);

/* A real literal (decimal, 0x hex, C99 hex float, nan, inf, -inf) rounded
 * to f32 (is_f32) or f64.  Returns 0, 1 when s[0..n) is not a float
 * spelling, 2 when the value overflows the type. */
int hk_lit_float(HkArena *a, const char *s, size_t n, int is_f32, double *out);

#endif
