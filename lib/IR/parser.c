/* parser.c -- HIR text to a module (LangRef "Grammar").
 *
 * A recursive-descent parser over the token stream of lexer.c.  It stops
 * at the first error: every parse function returns 1 on success and 0
 * after one diagnostic has been appended.  Names resolve through each
 * function's symbol table as they are read; calls resolve at the end, so
 * a kernel may call a func defined after it.
 */
#include <stdio.h>
#include <string.h>

#include "lexer.h"

#define MAX_DEPTH 200
#define MAX_CONST (1u << 24)  /* components of one constant */

/* Symbol ids of names being defined: a result name is reserved when read
 * and becomes a value once its instruction is parsed, so the instruction
 * cannot use its own results and a clash is reported where it occurs. */
#define RES_BASE 0x7f000000u

typedef struct {
    HkInst *inst;
    HkTok name;
} PendingCall;

typedef struct {
    HkArena *a;
    const HkSource *src;
    HkDiags *d;
    HkLexer lx;
    HkTok tok;
    HkModule *m;
    HkFunc *f;
    HkNames *names;        /* the function's names while it is read: one
                              table for every function, emptied after each
                              (hk_func_drop_syms) */
    uint32_t depth;
    int failed;            /* an error has been reported: add no other */
    HkLoc closed;          /* the '}' the last block read ended at */

    /* stacks, reset by each user to the height it found */
    HkVal *vals;
    uint32_t nvals, cap_vals;
    HkTok *res;            /* reserved names (text: an arena copy, the
                              value's name to be); id RES_BASE + index */
    uint32_t *res_at;      /* and each one's place in the name table */
    uint32_t nres, cap_res, cap_res_at;

    /* the name the next line defines, hashed when it was prefetched */
    const char *next_name;
    size_t next_len;
    uint32_t next_hash;
    HkTok *lits;
    uint32_t nlits, cap_lits;
    HkType *types;
    uint32_t ntypes, cap_types;

    PendingCall *calls;
    uint32_t ncalls, cap_calls;

    /* the tensor type read last and its text, '<' to '>': a program's
     * types repeat, and a repeat is known by its bytes */
    const char *type_text;
    size_t type_len;
    HkType type;
} P;

/* ---- tokens and diagnostics ------------------------------------------- */

static void next(P *p)
{
    p->tok = hk_lex_next(&p->lx);
    if (p->tok.kind == HK_TK_ERROR)
        p->failed = 1;
}

/* The byte offset of the current token in the source. */
static uint32_t tok_offset(const P *p)
{
    return (uint32_t)(p->tok.text - p->lx.base);
}

/* Whether the current token is of kind k. */
static int is(const P *p, HkTokKind k)
{
    return p->tok.kind == k;
}

/* Whether the current token is the word w. */
static int is_word(const P *p, const char *w)
{
    return p->tok.kind == HK_TK_WORD && strlen(w) == p->tok.len &&
           memcmp(p->tok.text, w, p->tok.len) == 0;
}

/* Consumes a token of kind k if it is the current one. */
static int accept(P *p, HkTokKind k)
{
    if (!is(p, k))
        return 0;
    next(p);
    return 1;
}

/* The formatted message, in the arena. */
static char *vformat(HkArena *a, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = hk_alloc(a, n > 0 ? (size_t)n + 1 : 1);
    if (n > 0)
        vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

/* An error at loc; returns 0 so callers can `return err_at(...)`. */
static int err_at(P *p, HkLoc loc, const char *fmt, ...) HK_PRINTF(3, 4);
static int err_at(P *p, HkLoc loc, const char *fmt, ...)
{
    if (p->failed)
        return 0;
    p->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    hk_vdiag(p->d, HAWK_ERROR, p->src, loc, fmt, ap);
    va_end(ap);
    return 0;
}

/* An error at the current token.  At the end of input the message says so;
 * after a lexer error (already reported) nothing more is added. */
static int syntax(P *p, const char *fmt, ...) HK_PRINTF(2, 3);
static int syntax(P *p, const char *fmt, ...)
{
    if (p->failed)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(p->a, fmt, ap);
    va_end(ap);
    return err_at(p, p->tok.loc, "%s%s",
                  is(p, HK_TK_EOF) ? "unexpected end of input: " : "", msg);
}

/* Consumes a token of kind k, or reports msg. */
static int expect(P *p, HkTokKind k, const char *msg)
{
    return accept(p, k) || syntax(p, "%s", msg);
}

/* Consumes the word w, or reports msg. */
static int expect_word(P *p, const char *w, const char *msg)
{
    if (!is_word(p, w))
        return syntax(p, "%s", msg);
    next(p);
    return 1;
}

/* Blank and comment lines are allowed wherever a newline is. */
static void skip_newlines(P *p)
{
    while (is(p, HK_TK_NEWLINE))
        next(p);
}

#define TOK(t) (int)(t).len, (t).text

/* The token's text as an arena string. */
static char *tok_str(P *p, HkTok t)
{
    return hk_strndup(p->a, t.text, t.len);
}

/* ---- stacks ----------------------------------------------------------- */

/* Operand, type and literal lists are collected on stacks first, because
 * their length is known only at their end. */
static void push_val(P *p, HkVal v)
{
    p->vals = hk_grow(p->a, p->vals, &p->cap_vals, p->nvals + 1, sizeof *p->vals);
    p->vals[p->nvals++] = v;
}

/* See push_val. */
static void push_type(P *p, HkType t)
{
    p->types = hk_grow(p->a, p->types, &p->cap_types, p->ntypes + 1,
                       sizeof *p->types);
    p->types[p->ntypes++] = t;
}

/* Moves the values above base into i's operands. */
static void take_ops(P *p, HkInst *i, uint32_t base)
{
    uint32_t n = p->nvals - base;
    hk_inst_set_ops(p->f, i, n ? p->vals + base : NULL, n);
    p->nvals = base;
}

/* ---- names ------------------------------------------------------------ */

static HkLoc def_loc(const P *p, uint32_t id)
{
    if (id & HK_SYM_SLOT)
        return p->f->slots[id & ~HK_SYM_SLOT].loc;
    if (id >= RES_BASE)
        return p->res[id - RES_BASE].loc;
    return hk_value(p->f, id)->loc;
}

/* The name of id in the function being read: a name reserved (RES_BASE +
 * its index), or a value's or slot's. */
static const char *parser_key(const void *owner, uint32_t id)
{
    const P *p = owner;
    if (id >= RES_BASE && !(id & HK_SYM_SLOT))
        return p->res[id - RES_BASE].text;
    return hk_func_key(p->f, id);
}

/* Checks that the name of t is free in the current function. */
static int check_free(P *p, HkTok t)
{
    uint32_t id = hk_names_get(p->f->syms, t.text, t.len);
    if (id == UINT32_MAX)
        return 1;
    if (p->failed)
        return 0;
    err_at(p, t.loc, "redefinition of '%%%.*s'", TOK(t));
    hk_note(p->d, p->src, def_loc(p, id), "previous definition is here");
    return 0;
}

/* Prefetches the name table's entry for the result the next line
 * defines ("  %name = ..."), if it defines one: by the time this line is
 * read, the entry is in the cache. */
static void prefetch_next_result(P *p)
{
    const char *name;
    size_t n = hk_lex_peek_def(&p->lx, &name);
    if (n > 0) {
        p->next_hash = hk_symtab_hash(name, n);
        hk_names_prefetch(p->f->syms, p->next_hash);
        p->next_name = name;
        p->next_len = n;
    }
}

/* Reserves the name of the current %name token; returns its index. */
static int reserve(P *p, uint32_t *k)
{
    if (p->nres >= HK_MAX_INDEX)
        return syntax(p, "too many results (limit %u)", HK_MAX_INDEX);
    p->res = hk_grow(p->a, p->res, &p->cap_res, p->nres + 1, sizeof *p->res);
    p->res_at = hk_grow(p->a, p->res_at, &p->cap_res_at, p->nres + 1,
                        sizeof *p->res_at);
    /* one probe of the table: the put finds a taken name, which
     * check_free then reports; the key is the name the value will keep */
    const char *name = tok_str(p, p->tok);
    uint32_t h = p->tok.text == p->next_name && p->tok.len == p->next_len
                     ? p->next_hash
                     : hk_symtab_hash(p->tok.text, p->tok.len);
    if (!hk_names_put_at(p->f->syms, name, p->tok.len, RES_BASE + p->nres, h,
                         &p->res_at[p->nres]))
        return check_free(p, p->tok);
    *k = p->nres;
    p->res[p->nres] = p->tok;
    p->res[p->nres++].text = name;
    prefetch_next_result(p);
    next(p);
    return 1;
}

/* Turns reservation k into a value. */
static HkVal define(P *p, uint32_t k, HkType t, HkDefKind kind, HkInst *def,
                    uint32_t index)
{
    HkTok n = p->res[k];  /* its text is the arena copy reserve made */
    return hk_value_new_reserved(p->f, t, n.text, kind, def, index, n.loc,
                                 p->res_at[k], RES_BASE + k);
}

/* value ::= '%' name, naming a value already defined. */
static int use_value(P *p, HkVal *v)
{
    *v = HK_NOVAL; /* defined on every path, as callers read it */
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected value name");
    uint32_t id = hk_names_get(p->f->syms, p->tok.text, p->tok.len);
    if (id == UINT32_MAX || (id >= RES_BASE && !(id & HK_SYM_SLOT)))
        return syntax(p, "use of undefined value '%%%.*s'", TOK(p->tok));
    if (id & HK_SYM_SLOT)
        return syntax(p, "'%%%.*s' is a slot; load it first", TOK(p->tok));
    *v = id;
    next(p);
    return 1;
}

/* '%' slot, naming a slot of the kernel. */
static int use_slot(P *p, int32_t *s)
{
    *s = -1;
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected slot name");
    uint32_t id = hk_names_get(p->f->syms, p->tok.text, p->tok.len);
    if (id == UINT32_MAX || (id >= RES_BASE && !(id & HK_SYM_SLOT)))
        return syntax(p, "use of undefined slot '%%%.*s'", TOK(p->tok));
    if (!(id & HK_SYM_SLOT))
        return syntax(p, "'%%%.*s' is a value, not a slot", TOK(p->tok));
    *s = (int32_t)(id & ~HK_SYM_SLOT);
    next(p);
    return 1;
}

/* value (',' value)*, pushed on the value stack. */
static int parse_values(P *p)
{
    do {
        HkVal v;
        if (!use_value(p, &v))
            return 0;
        push_val(p, v);
    } while (accept(p, HK_TK_COMMA));
    return 1;
}

/* ---- literals --------------------------------------------------------- */

/* An integer literal that fits i64 (bounds, indices, extents). */
static int parse_i64(P *p, int64_t *out)
{
    int neg;
    uint64_t mag;
    if (!is(p, HK_TK_NUMBER))
        return syntax(p, "expected integer literal");
    int r = hk_lit_int(p->tok.text, p->tok.len, &neg, &mag);
    if (r == 1)
        return syntax(p, "invalid integer literal '%.*s'", TOK(p->tok));
    if (r == 2 || mag > (uint64_t)INT64_MAX + (uint64_t)neg)
        return syntax(p, "integer literal out of range for i64");
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    next(p);
    return 1;
}

/* Literal t as a component of element type e, into *i (integers, i1). */
static int int_component(P *p, HkTok t, HkElem e, int64_t *out)
{
    int neg;
    uint64_t mag;
    int is_true = t.len == 4 && memcmp(t.text, "true", 4) == 0;
    if (e == HK_I1 && (is_true || (t.len == 5 && memcmp(t.text, "false", 5) == 0))) {
        *out = is_true;
        return 1;
    }
    int r = hk_lit_int(t.text, t.len, &neg, &mag);
    if (r == 1)
        return err_at(p, t.loc, "invalid integer literal '%.*s'", TOK(t));
    uint64_t lim_pos = e == HK_I64 ? (uint64_t)INT64_MAX
                     : e == HK_I32 ? (uint64_t)INT32_MAX
                     : e == HK_U32 ? (uint64_t)UINT32_MAX : 1;
    uint64_t lim_neg = e == HK_I64 ? (uint64_t)INT64_MAX + 1
                     : e == HK_I32 ? (uint64_t)INT32_MAX + 1 : 0;
    if (r == 2 || mag > (neg ? lim_neg : lim_pos))
        return err_at(p, t.loc, "integer literal out of range for %s",
                      hk_elem_name(e));
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return 1;
}

/* Literal t as a component of real type e, rounded once to e. */
static int float_component(P *p, HkTok t, HkElem e, double *out)
{
    int r = hk_lit_float(p->a, t.text, t.len, e == HK_F32, out);
    if (r == 1)
        return err_at(p, t.loc, "invalid float literal '%.*s'", TOK(t));
    if (r == 2)
        return err_at(p, t.loc, "float literal '%.*s' out of range for %s",
                      TOK(t), hk_elem_name(e));
    return 1;
}

/* ---- types ------------------------------------------------------------ */

/* " (did you mean ...?)" for an unknown element type t. */
static const char *elem_near(P *p, HkTok t)
{
    const char *names[HK_F64 + 1];
    for (int e = 0; e <= HK_F64; e++)
        names[e] = e >= HK_I1 ? hk_elem_name((HkElem)e) : NULL;
    return hk_did_you_mean(p->a, t.text, t.len, names, HK_F64 + 1u);
}

/* " (did you mean ...?)" for an unknown op t. */
static const char *op_near(P *p, HkTok t)
{
    const char *names[HK_OP_COUNT];
    for (int k = 0; k < HK_OP_COUNT; k++)
        names[k] = hk_ops[k].mnemonic;
    return hk_did_you_mean(p->a, t.text, t.len, names, HK_OP_COUNT);
}

/* " (did you mean ...?)" for an unknown role t (a local is none). */
static const char *role_near(P *p, HkTok t)
{
    const char *names[HK_ROLE_COUNT];
    for (int k = 0; k < HK_ROLE_COUNT; k++)
        names[k] = k == HK_ROLE_LOCAL ? NULL : hk_roles[k].name;
    return hk_did_you_mean(p->a, t.text, t.len, names, HK_ROLE_COUNT);
}

static int elem_lookup(HkTok t)
{
    for (int e = HK_I1; e <= HK_F64; e++) {
        const char *n = hk_elem_name((HkElem)e);
        if (strlen(n) == t.len && memcmp(n, t.text, t.len) == 0)
            return e;
    }
    return -1;
}

/* dim ::= integer (>= 1) | '?' (first extent only) */
static int parse_dim(P *p, uint32_t rank, uint32_t *dim)
{
    if (is(p, HK_TK_QUESTION)) {
        if (rank > 0)
            return syntax(p, "'?' is only allowed as the first extent");
        *dim = HK_DYN;
        next(p);
        return 1;
    }
    if (!is(p, HK_TK_NUMBER))
        return syntax(p, "expected tensor extent");
    int neg;
    uint64_t mag;
    int r = hk_lit_int(p->tok.text, p->tok.len, &neg, &mag);
    if (r == 1)
        return syntax(p, "invalid tensor extent '%.*s'", TOK(p->tok));
    if (r == 0 && (neg || mag == 0))
        return syntax(p, "tensor extent must be at least 1");
    if (r == 2 || mag >= (1u << 31))
        return syntax(p, "tensor extent must be less than 2^31");
    *dim = (uint32_t)mag;
    next(p);
    return 1;
}

/* '<' dim 'x' [dim 'x'] elem '>', after the '<'. */
static int parse_tensor(P *p, HkLoc open, HkType *t, const char **end)
{
    uint32_t dim[2], rank = 0;
    for (;;) {
        if (rank == 2 && (is(p, HK_TK_NUMBER) || is(p, HK_TK_QUESTION)))
            return syntax(p, "tensor rank must be 1 or 2");
        if (!parse_dim(p, rank, &dim[rank]))
            return 0;
        rank++;
        if (!expect_word(p, "x", "expected 'x' after tensor extent"))
            return 0;
        if (is(p, HK_TK_WORD))
            break;
        if (!is(p, HK_TK_NUMBER) && !is(p, HK_TK_QUESTION))
            return syntax(p, "expected tensor extent or element type");
    }
    int e = elem_lookup(p->tok);
    if (e < 0)
        return syntax(p, "unknown type '%.*s'%s", TOK(p->tok),
                          elem_near(p, p->tok));
    next(p);
    *end = p->tok.text + p->tok.len;
    if (!expect(p, HK_TK_RANGLE, "expected '>' to close the tensor type"))
        return 0;
    *t = rank == 1 ? hk_vec((HkElem)e, dim[0]) : hk_mat((HkElem)e, dim[0], dim[1]);
    uint64_t n = rank == 1 || dim[0] == HK_DYN ? 1 : dim[0];
    if (n * (rank == 2 ? dim[1] : 1) >= (1u << 31))
        return err_at(p, open, "tensor type has 2^31 or more components");
    return 1;
}

/* type ::= elem | '<' dim 'x' elem '>' | '<' dim 'x' dim 'x' elem '>' */
static int parse_type(P *p, HkType *t)
{
    if (is(p, HK_TK_WORD)) {
        int e = elem_lookup(p->tok);
        if (e < 0)
            return syntax(p, "unknown type '%.*s'%s", TOK(p->tok),
                          elem_near(p, p->tok));
        *t = hk_scalar((HkElem)e);
        next(p);
        return 1;
    }
    const char *start = p->tok.text, *end = start;
    if (is(p, HK_TK_LANGLE) && p->type_len > 0 &&
        (size_t)(p->lx.end - start) >= p->type_len &&
        memcmp(start, p->type_text, p->type_len) == 0) {
        *t = p->type;
        hk_lex_skip_to(&p->lx, start + p->type_len);
        next(p);
        return 1;
    }
    HkLoc open = p->tok.loc;
    if (!accept(p, HK_TK_LANGLE))
        return syntax(p, "expected type");
    if (!parse_tensor(p, open, t, &end))
        return 0;
    p->type_text = start;
    p->type_len = (size_t)(end - start);
    p->type = *t;
    return 1;
}

/* type (',' type)*, pushed on the type stack. */
static int parse_types(P *p)
{
    do {
        HkType t;
        if (!parse_type(p, &t))
            return 0;
        push_type(p, t);
    } while (accept(p, HK_TK_COMMA));
    return 1;
}

/* type-list ::= type | '(' type (',' type)* ')' */
static int parse_type_list(P *p)
{
    if (!accept(p, HK_TK_LPAREN))
        return parse_types(p);
    return parse_types(p) &&
           expect(p, HK_TK_RPAREN, "expected ',' or ')' in type list");
}

/* ---- instructions ----------------------------------------------------- */

static int parse_block(P *p, HkBlock *b, uint32_t *close, const char *what);
static int parse_region(P *p, HkBlock *b);

/* The state of one instruction being parsed. */
typedef struct {
    HkInst *i;
    uint32_t res;          /* first reservation of its result names */
    uint32_t nnames;       /* result names given */
} Inst;

/* Checks that the instruction was given n result names. */
static int want_results(P *p, Inst *in, uint32_t n)
{
    const char *m = hk_ops[in->i->op].mnemonic;
    uint32_t g = in->nnames;
    if (g == n)
        return 1;
    if (n == 0)
        return err_at(p, in->i->loc, "'%s' defines no result", m);
    if (n == 1 && g == 0)
        return err_at(p, in->i->loc, "'%s' needs a result name", m);
    return err_at(p, in->i->loc, "'%s' defines %u result%s but %u name%s given",
                  m, n, n == 1 ? "" : "s", g, g == 1 ? " is" : "s are");
}

/* Gives the instruction its results, of the types above base on the type
 * stack, named by its reservations. */
static void define_results(P *p, Inst *in, uint32_t base)
{
    HkInst *i = in->i;
    uint32_t n = p->ntypes - base;
    hk_inst_size_res(p->a, i, n);
    for (uint32_t k = 0; k < n; k++)
        hk_res(i)[k] = define(p, in->res + k, p->types[base + k], HK_DEF_INST, i, k);
    if (n == 1)
        i->type = p->types[base];
    p->ntypes = base;
}

/* ':' type, the one result of the instruction. */
static int parse_result_type(P *p, Inst *in)
{
    uint32_t base = p->ntypes;
    if (!expect(p, HK_TK_COLON, "expected ':' before the result type"))
        return 0;
    if (!parse_types(p))
        return 0;
    if (p->ntypes - base != 1)
        return err_at(p, in->i->loc, "'%s' has one result type",
                      hk_ops[in->i->op].mnemonic);
    define_results(p, in, base);
    return 1;
}

/* generic ::= mnemonic [value (',' value)*] ':' type */
static int parse_generic(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    if (!want_results(p, in, 1))
        return 0;
    if (!is(p, HK_TK_COLON) && !parse_values(p))
        return 0;
    take_ops(p, in->i, base);
    return parse_result_type(p, in);
}

/* 'fcmp' pred a, b ':' type  (and icmp) */
static int parse_cmp(P *p, Inst *in)
{
    const char *m = hk_ops[in->i->op].mnemonic;
    if (!want_results(p, in, 1))
        return 0;
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected predicate after '%s'", m);
    int pr = hk_pred_lookup(in->i->op, p->tok.text, p->tok.len);
    if (pr < 0)
        return syntax(p, "unknown predicate '%.*s' for %s", TOK(p->tok), m);
    in->i->pred = (HkPred)pr;
    next(p);
    return parse_generic(p, in);
}

/* A literal token of a constant: a number or a word (true, nan, ...). */
static int parse_literal(P *p)
{
    if (!is(p, HK_TK_NUMBER) && !is(p, HK_TK_WORD))
        return syntax(p, "expected literal");
    p->lits = hk_grow(p->a, p->lits, &p->cap_lits, p->nlits + 1, sizeof *p->lits);
    p->lits[p->nlits++] = p->tok;
    next(p);
    return 1;
}

/* Fills i->cst from the literals above base for a constant of type t. */
static int fill_const(P *p, HkInst *i, uint32_t base, HkType t, HkLoc at)
{
    uint32_t nl = p->nlits - base, n = hk_components(t);
    HkElem e = (HkElem)t.elem;
    if (n > MAX_CONST)
        return err_at(p, at, "constant has %u components (limit %u)", n,
                      MAX_CONST);
    if (nl != 1 && nl != n)
        return err_at(p, at, "constant has %u literals but its type has %u "
                      "components", nl, n);
    i->x->cst.n = n;
    if (hk_is_float(e))
        i->x->cst.f = hk_alloc(p->a, n * sizeof *i->x->cst.f);
    else
        i->x->cst.i = hk_alloc(p->a, n * sizeof *i->x->cst.i);
    for (uint32_t k = 0; k < nl; k++) {
        HkTok l = p->lits[base + k];
        if (hk_is_float(e) ? !float_component(p, l, e, &i->x->cst.f[k])
                           : !int_component(p, l, e, &i->x->cst.i[k]))
            return 0;
    }
    for (uint32_t k = nl; k < n; k++) {  /* one literal fills the tensor */
        if (hk_is_float(e))
            i->x->cst.f[k] = i->x->cst.f[0];
        else
            i->x->cst.i[k] = i->x->cst.i[0];
    }
    p->nlits = base;
    return 1;
}

/* literal (',' literal)* ']', after a '[': the literals pushed; missing
 * the close is the error missing. */
static int parse_literal_list(P *p, const char *missing)
{
    do {
        if (!parse_literal(p))
            return 0;
    } while (accept(p, HK_TK_COMMA));
    return expect(p, HK_TK_RBRACKET, missing);
}

/* const ::= 'const' literal ':' type | 'const' '[' literal (',' literal)* ']' ':' type */
static int parse_const(P *p, Inst *in)
{
    uint32_t base = p->nlits;
    HkLoc at = p->tok.loc;
    if (!want_results(p, in, 1))
        return 0;
    if (accept(p, HK_TK_LBRACKET)) {
        if (!parse_literal_list(p, "expected ',' or ']' in constant list"))
            return 0;
    } else if (!parse_literal(p)) {
        return 0;
    }
    if (!expect(p, HK_TK_COLON, "expected ':' before the result type"))
        return 0;
    HkLoc tloc = p->tok.loc;
    HkType t;
    if (!parse_type(p, &t))
        return 0;
    if (hk_is_dyn(t))
        return err_at(p, tloc, "a constant's type needs static extents");
    if (!fill_const(p, in->i, base, t, at))
        return 0;
    push_type(p, t);
    define_results(p, in, p->ntypes - 1);
    return 1;
}

/* table ::= 'table' value ',' '[' literal (',' literal)* ']' ':' type: the
 * entries are held as a constant of N components, the result is one. */
static int parse_table(P *p, Inst *in)
{
    uint32_t base = p->nvals, lbase = p->nlits;
    if (!want_results(p, in, 1))
        return 0;
    HkVal k;
    if (!use_value(p, &k) ||
        !expect(p, HK_TK_COMMA, "expected ',' after the index"))
        return 0;
    push_val(p, k);
    take_ops(p, in->i, base);
    HkLoc at = p->tok.loc;
    if (!expect(p, HK_TK_LBRACKET, "expected '[' before the table's entries"))
        return 0;
    if (!parse_literal_list(p, "expected ',' or ']' in the table's entries") ||
        !expect(p, HK_TK_COLON, "expected ':' before the result type"))
        return 0;
    HkLoc tloc = p->tok.loc;
    HkType t;
    if (!parse_type(p, &t))
        return 0;
    if (t.rank != 0)
        return err_at(p, tloc, "a table's entries have a rank-0 type");
    HkType all = t;
    all.rank = 1;
    all.dim[0] = p->nlits - lbase;
    if (!fill_const(p, in->i, lbase, all, at))
        return 0;
    push_type(p, t);
    define_results(p, in, p->ntypes - 1);
    return 1;
}

/* ',' integer [',' integer]: the static indices of extract/insert. */
static int parse_imms(P *p, HkInst *i)
{
    do {
        if (i->x->nimm == 2)
            return syntax(p, "'%s' takes at most two indices",
                          hk_ops[i->op].mnemonic);
        if (!parse_i64(p, &i->x->imm[i->x->nimm]))
            return 0;
        i->x->nimm++;
    } while (accept(p, HK_TK_COMMA));
    return 1;
}

/* extract ::= 'extract' value ',' integer [',' integer] ':' type
 * insert  ::= 'insert' value ',' value ',' integer [',' integer] ':' type */
static int parse_extract(P *p, Inst *in)
{
    uint32_t base = p->nvals, nv = in->i->op == HK_OP_INSERT ? 2 : 1;
    if (!want_results(p, in, 1))
        return 0;
    for (uint32_t k = 0; k < nv; k++) {
        HkVal v;
        if (!use_value(p, &v) ||
            !expect(p, HK_TK_COMMA, "expected ',' after the operand"))
            return 0;
        push_val(p, v);
    }
    take_ops(p, in->i, base);
    return parse_imms(p, in->i) && parse_result_type(p, in);
}

/* slot-ref ::= '%' slot ['[' value ']'], the index pushed if present. */
static int parse_slot_ref(P *p, HkInst *i)
{
    if (!use_slot(p, &i->slot))
        return 0;
    if (!accept(p, HK_TK_LBRACKET))
        return 1;
    HkVal v;
    if (!use_value(p, &v))
        return 0;
    push_val(p, v);
    i->has_index = 1;
    return expect(p, HK_TK_RBRACKET, "expected ']' after the index");
}

/* load ::= 'load' slot-ref ':' type */
static int parse_load(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    if (!want_results(p, in, 1) || !parse_slot_ref(p, in->i))
        return 0;
    take_ops(p, in->i, base);
    return parse_result_type(p, in);
}

/* gather ::= 'gather' '%' slot ',' value ':' type  (and 'at') */
static int parse_gather(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    if (!want_results(p, in, 1) || !use_slot(p, &in->i->slot) ||
        !expect(p, HK_TK_COMMA, "expected ',' after the slot") ||
        !parse_values(p))
        return 0;
    in->i->has_index = 1;
    take_ops(p, in->i, base);
    return parse_result_type(p, in);
}

/* clamp_index ::= results '=' 'clamp_index' slot [',' value] ':' type */
static int parse_clamp_index(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    if (!want_results(p, in, 1) || !use_slot(p, &in->i->slot))
        return 0;
    if (accept(p, HK_TK_COMMA)) {
        HkVal v;
        if (!use_value(p, &v))
            return 0;
        push_val(p, v);
    }
    take_ops(p, in->i, base);
    return parse_result_type(p, in);
}

/* store ::= 'store' value ',' slot-ref  (and accum) */
static int parse_store(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    HkVal v;
    if (!want_results(p, in, 0) || !use_value(p, &v) ||
        !expect(p, HK_TK_COMMA, "expected ',' after the stored value"))
        return 0;
    push_val(p, v);
    if (!parse_slot_ref(p, in->i))
        return 0;
    take_ops(p, in->i, base);
    return 1;
}

/* bump ::= 'bump' '%' slot */
static int parse_bump(P *p, Inst *in)
{
    return want_results(p, in, 0) && use_slot(p, &in->i->slot);
}

/* 'break_if' value */
static int parse_break(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    HkVal v;
    if (!want_results(p, in, 0) || !use_value(p, &v))
        return 0;
    push_val(p, v);
    take_ops(p, in->i, base);
    return 1;
}

/* yield ::= 'yield' [value (',' value)*]   ret ::= 'ret' [value (',' value)*] */
static int parse_yield(P *p, Inst *in)
{
    uint32_t base = p->nvals;
    if (!want_results(p, in, 0))
        return 0;
    if (is(p, HK_TK_LOCAL) && !parse_values(p))
        return 0;
    take_ops(p, in->i, base);
    return 1;
}

/* 'raw_device' string: the text with its escapes undone. */
static int parse_raw(P *p, Inst *in)
{
    if (!want_results(p, in, 0))
        return 0;
    if (!is(p, HK_TK_STRING))
        return syntax(p, "expected string after 'raw_device'");
    char *s = hk_alloc(p->a, (size_t)p->tok.len + 1), *o = s;
    for (uint32_t k = 0; k < p->tok.len; k++) {
        char c = p->tok.text[k];
        if (c == '\\')
            c = p->tok.text[++k];
        *o++ = c;
    }
    in->i->x->text = s;
    next(p);
    return 1;
}

/* call ::= 'call' '@' name '(' [value (',' value)*] ')' [':' type-list] */
static int parse_call(P *p, Inst *in)
{
    uint32_t vbase = p->nvals, tbase = p->ntypes;
    if (!is(p, HK_TK_GLOBAL))
        return syntax(p, "expected function name after 'call'");
    PendingCall pc = {in->i, p->tok};
    next(p);
    if (!expect(p, HK_TK_LPAREN, "expected '(' after the callee name"))
        return 0;
    if (!is(p, HK_TK_RPAREN) && !parse_values(p))
        return 0;
    if (!expect(p, HK_TK_RPAREN, "expected ',' or ')' in argument list"))
        return 0;
    take_ops(p, in->i, vbase);
    if (accept(p, HK_TK_COLON) && !parse_type_list(p))
        return 0;
    if (!want_results(p, in, p->ntypes - tbase))
        return 0;
    define_results(p, in, tbase);
    p->calls = hk_grow(p->a, p->calls, &p->cap_calls, p->ncalls + 1,
                       sizeof *p->calls);
    p->calls[p->ncalls++] = pc;
    return 1;
}

/* 'to' (integer | value 'max' integer): the loop's upper bound. */
static int parse_loop_bound(P *p, HkInst *i)
{
    if (!expect_word(p, "to", "expected 'to' after the lower bound"))
        return 0;
    if (is(p, HK_TK_NUMBER))
        return parse_i64(p, &i->x->hi);
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected upper bound or trip count");
    HkVal n;
    if (!use_value(p, &n))
        return 0;
    push_val(p, n);
    i->x->has_count = 1;
    return expect_word(p, "max", "expected 'max' after the trip count") &&
           parse_i64(p, &i->x->max_trip);
}

/* ['iter' '(' '%' name '=' value (',' '%' name '=' value)* ')']: the names
 * are reserved, the inits pushed on the value stack. */
static int parse_iters(P *p, uint32_t *n)
{
    *n = 0;
    if (!is_word(p, "iter"))
        return 1;
    next(p);
    if (!expect(p, HK_TK_LPAREN, "expected '(' after 'iter'"))
        return 0;
    do {
        uint32_t k;
        HkVal v;
        if (!is(p, HK_TK_LOCAL))
            return syntax(p, "expected carried value name");
        if (!reserve(p, &k) ||
            !expect(p, HK_TK_EQUAL, "expected '=' after the carried value name") ||
            !use_value(p, &v))
            return 0;
        push_val(p, v);
        (*n)++;
    } while (accept(p, HK_TK_COMMA));
    return expect(p, HK_TK_RPAREN, "expected ',' or ')' in iter list");
}

/* loop ::= 'loop' '%' iv '=' integer 'to' (integer | value 'max' integer)
 *          ['iter' '(' '%' name '=' value (',' ...)* ')'] region */
static int parse_loop(P *p, Inst *in)
{
    HkInst *i = in->i;
    uint32_t base = p->nvals, iv, niter;
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected loop index name");
    if (!reserve(p, &iv) ||
        !expect(p, HK_TK_EQUAL, "expected '=' after the loop index") ||
        !parse_i64(p, &i->x->lo) || !parse_loop_bound(p, i) ||
        !parse_iters(p, &niter))
        return 0;
    take_ops(p, i, base);
    if (!want_results(p, in, niter))
        return 0;
    uint32_t first = i->nops - niter;
    i->x->ivar = define(p, iv, hk_scalar(HK_I64), HK_DEF_IVAR, i, 0);
    i->x->iters = niter ? hk_alloc(p->a, niter * sizeof *i->x->iters) : NULL;
    for (uint32_t k = 0; k < niter; k++) {
        HkType t = hk_value(p->f, i->ops[first + k])->type;
        i->x->iters[k] = define(p, iv + 1 + k, t, HK_DEF_ITER, i, k);
        push_type(p, t);
    }
    uint32_t tbase = p->ntypes - niter;
    hk_inst_add_regions(p->f, i, 1);
    if (!parse_region(p, &i->x->regions[0]))
        return 0;
    define_results(p, in, tbase);
    return 1;
}

/* ['->' type (',' type)*], pushed on the type stack. */
static int parse_arrow_types(P *p)
{
    return !accept(p, HK_TK_ARROW) || parse_types(p);
}

/* if ::= 'if' value ['->' type (',' type)*] region ['else' region] */
static int parse_if(P *p, Inst *in)
{
    HkInst *i = in->i;
    uint32_t base = p->nvals, tbase = p->ntypes;
    HkVal c;
    if (!use_value(p, &c))
        return 0;
    push_val(p, c);
    take_ops(p, i, base);
    if (!parse_arrow_types(p) || !want_results(p, in, p->ntypes - tbase))
        return 0;
    hk_inst_add_regions(p->f, i, 2);
    i->x->nregions = 1;
    if (!parse_region(p, &i->x->regions[0]))
        return 0;
    if (is_word(p, "else")) {
        next(p);
        i->x->nregions = 2;
        if (!parse_region(p, &i->x->regions[1]))
            return 0;
    }
    define_results(p, in, tbase);
    return 1;
}

/* Moves the instructions of src into dst. */
static void move_block(HkBlock *dst, HkBlock *src)
{
    dst->first = src->first;
    dst->last = src->last;
    for (HkInst *i = dst->first; i; i = i->next)
        i->block = dst;
}

/* '{' NEWLINE ('case' region NEWLINE)+ '}': the cases of a dispatch. */
static int parse_cases(P *p, HkInst *i)
{
    HkBlock *cases = NULL;
    uint32_t n = 0, cap = 0;
    if (!expect(p, HK_TK_LBRACE, "expected '{' before the dispatch cases") ||
        !expect(p, HK_TK_NEWLINE, "expected newline after '{'"))
        return 0;
    skip_newlines(p);
    while (is_word(p, "case")) {
        next(p);
        cases = hk_grow(p->a, cases, &cap, n + 1, sizeof *cases);
        memset(&cases[n], 0, sizeof cases[n]);
        if (!parse_region(p, &cases[n++]))
            return 0;
        if (!is(p, HK_TK_RBRACE) &&
            !expect(p, HK_TK_NEWLINE, "expected newline after the case"))
            return 0;
        skip_newlines(p);
    }
    if (n == 0)
        return syntax(p, "expected 'case'");
    if (!expect(p, HK_TK_RBRACE, "expected 'case' or '}'"))
        return 0;
    hk_inst_add_regions(p->f, i, n);
    for (uint32_t k = 0; k < n; k++)
        move_block(&i->x->regions[k], &cases[k]);
    return 1;
}

/* dispatch ::= 'dispatch' value 'mix' '%' slot ['->' type (',' type)*]
 *              '{' NEWLINE ('case' region NEWLINE)+ '}' */
static int parse_dispatch(P *p, Inst *in)
{
    HkInst *i = in->i;
    uint32_t base = p->nvals, tbase = p->ntypes;
    HkVal sel;
    if (!use_value(p, &sel))
        return 0;
    push_val(p, sel);
    take_ops(p, i, base);
    if (!expect_word(p, "mix", "expected 'mix' after the dispatch selector") ||
        !use_slot(p, &i->slot) || !parse_arrow_types(p) ||
        !want_results(p, in, p->ntypes - tbase) || !parse_cases(p, i))
        return 0;
    define_results(p, in, tbase);
    return 1;
}

/* op-body, after the mnemonic: by the op's rule in ops.def. */
static int parse_op_body(P *p, Inst *in)
{
    switch (hk_ops[in->i->op].rule) {
    case HK_R_FCMP: case HK_R_ICMP: return parse_cmp(p, in);
    case HK_R_CONST: return parse_const(p, in);
    case HK_R_TABLE: return parse_table(p, in);
    case HK_R_EXTRACT: case HK_R_INSERT: return parse_extract(p, in);
    case HK_R_LOAD: return parse_load(p, in);
    case HK_R_GATHER: case HK_R_AT: return parse_gather(p, in);
    case HK_R_CLAMPIDX: return parse_clamp_index(p, in);
    case HK_R_STORE: case HK_R_ACCUM: return parse_store(p, in);
    case HK_R_BUMP: return parse_bump(p, in);
    case HK_R_BREAK: return parse_break(p, in);
    case HK_R_YIELD: case HK_R_RET: return parse_yield(p, in);
    case HK_R_RAWDEV: return parse_raw(p, in);
    case HK_R_CALL: return parse_call(p, in);
    case HK_R_LOOP: return parse_loop(p, in);
    case HK_R_IF: return parse_if(p, in);
    case HK_R_DISPATCH: return parse_dispatch(p, in);
    default: return parse_generic(p, in);
    }
}

/* inst ::= [results '='] op-body, appended to b. */
static int parse_inst(P *p, HkBlock *b)
{
    Inst in = {NULL, p->nres, 0};
    if (is(p, HK_TK_LOCAL)) {
        do {
            uint32_t k;
            if (!is(p, HK_TK_LOCAL))
                return syntax(p, "expected result name");
            if (!reserve(p, &k))
                return 0;
            in.nnames++;
        } while (accept(p, HK_TK_COMMA));
        if (!expect(p, HK_TK_EQUAL, "expected '=' after the result names"))
            return 0;
    }
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected operation name");
    int op = hk_op_lookup(p->tok.text, p->tok.len);
    if (op < 0)
        return syntax(p, "unknown operation '%.*s'%s", TOK(p->tok),
                      op_near(p, p->tok));
    in.i = hk_inst_new(p->f, (HkOp)op, p->tok.loc);
    next(p);
    if (!parse_op_body(p, &in))
        return 0;
    p->nres = in.res;
    hk_block_append(b, in.i);
    return 1;
}

/* region ::= '{' NEWLINE (inst NEWLINE)* '}', nested at most MAX_DEPTH. */
static int parse_region(P *p, HkBlock *b)
{
    if (p->depth >= MAX_DEPTH && is(p, HK_TK_LBRACE))
        return syntax(p, "regions nested too deeply (limit %d)", MAX_DEPTH);
    p->depth++;
    uint32_t close;
    int ok = parse_block(p, b, &close, "expected '{' to open the region");
    p->depth--;
    return ok;
}

/* '%' name ':' of a slot or a local (what names it in messages), the
 * name free. */
static int slot_name(P *p, HkTok *name, const char *what)
{
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected %s name", what);
    *name = p->tok;
    if (!check_free(p, *name))
        return 0;
    next(p);
    return accept(p, HK_TK_COLON) || syntax(p, "expected ':' after %s name", what);
}

/* local ::= 'local' '%' name ':' type -- kernel-local storage, a slot
 * of role local (LangRef "Locals"); only before the first instruction of
 * a kernel's body, so that the printer's place for it is the reader's. */
static int parse_local(P *p, const HkBlock *b)
{
    HkLoc at = p->tok.loc;
    if (!p->f->is_kernel || b != &p->f->body || b->first != NULL)
        return err_at(p, at, "a 'local' is declared at the start of a kernel's body, "
                             "before its first instruction");
    next(p);
    HkTok name = p->tok;  /* slot_name sets it; gcc -O3 cannot tell */
    if (!slot_name(p, &name, "the local's"))
        return 0;
    HkType t;
    if (!parse_type(p, &t))
        return 0;
    hk_slot_add(p->f, tok_str(p, name), HK_ROLE_LOCAL, t, name.loc);
    return 1;
}

/* '{' NEWLINE (inst NEWLINE)* '}'; close receives the '}''s offset. */
static int parse_block(P *p, HkBlock *b, uint32_t *close, const char *what)
{
    if (!expect(p, HK_TK_LBRACE, what) ||
        !expect(p, HK_TK_NEWLINE, "expected newline after '{'"))
        return 0;
    skip_newlines(p);
    while (!is(p, HK_TK_RBRACE)) {
        if (is(p, HK_TK_EOF))
            return syntax(p, "expected '}'");
        if (is_word(p, "local")) {
            if (!parse_local(p, b))
                return 0;
        } else if (!parse_inst(p, b)) {
            return 0;
        }
        if (!is(p, HK_TK_NEWLINE) && !is(p, HK_TK_EOF))
            return syntax(p, "expected newline after instruction");
        skip_newlines(p);
    }
    *close = tok_offset(p);
    p->closed = p->tok.loc;
    next(p);
    return 1;
}

/* ---- kernels and funcs ------------------------------------------------ */

/* slot ::= '%' name ':' role type */
static int parse_slot(P *p)
{
    HkTok name = p->tok;  /* slot_name sets it; gcc -O3 cannot tell */
    if (!slot_name(p, &name, "slot"))
        return 0;
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected slot role");
    int r = hk_role_lookup(p->tok.text, p->tok.len);
    if (r < 0)
        return syntax(p, "unknown role '%.*s'%s", TOK(p->tok),
                      role_near(p, p->tok));
    if (r == HK_ROLE_LOCAL)
        return syntax(p, "a local is no parameter: declare it in the body, "
                         "'local %%%.*s : T'", TOK(name));
    next(p);
    HkType t;
    if (!parse_type(p, &t))
        return 0;
    hk_slot_add(p->f, tok_str(p, name), (HkRole)r, t, name.loc);
    return 1;
}

/* param ::= '%' name ':' type */
static int parse_param(P *p, uint32_t index)
{
    if (!is(p, HK_TK_LOCAL))
        return syntax(p, "expected parameter name");
    uint32_t k;
    if (!reserve(p, &k) ||
        !expect(p, HK_TK_COLON, "expected ':' after parameter name"))
        return 0;
    HkType t;
    if (!parse_type(p, &t))
        return 0;
    HkVal v = define(p, k, t, HK_DEF_PARAM, NULL, index);
    p->nres = k;
    push_val(p, v);
    return 1;
}

/* attr ::= 'guard' '=' (...) | 'sink' '=' (...) | 'segmented' | ... */
static int parse_attr(P *p, unsigned *seen)
{
    static const char *const names[] = {"guard", "sink", "segmented",
                                        "fused_lanes", "two_path"};
    static const char *const guards[] = {"default", "none", "active_set"};
    static const char *const sinks[] = {"plain", "atomic", "compensated",
                                        "banded"};
    HkFunc *f = p->f;
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected attribute name");
    unsigned k = 0;
    while (k < 5 && !is_word(p, names[k]))
        k++;
    if (k == 5)
        return syntax(p, "unknown attribute '%.*s'", TOK(p->tok));
    if (*seen & (1u << k))
        return syntax(p, "duplicate attribute '%s'", names[k]);
    *seen |= 1u << k;
    next(p);
    if (k >= 2) {
        if (k == 2)
            f->segmented = 1;
        else if (k == 3)
            f->fused_lanes = 1;
        else
            f->two_path = 1;
        return 1;
    }
    if (!expect(p, HK_TK_EQUAL, k == 0 ? "expected '=' after 'guard'"
                                       : "expected '=' after 'sink'"))
        return 0;
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected value for attribute '%s'", names[k]);
    const char *const *vals = k == 0 ? guards : sinks;
    unsigned nvals = k == 0 ? 3u : 4u;
    unsigned v = 0;
    while (v < nvals && !is_word(p, vals[v]))
        v++;
    if (v == nvals)
        return syntax(p, "unknown value '%.*s' for attribute '%s'",
                      TOK(p->tok), names[k]);
    if (k == 0)
        f->guard = (HkGuard)v;
    else
        f->sink = (HkSink)v;
    next(p);
    return 1;
}

/* attributes ::= 'attributes' '{' one (',' one)* '}', where `one` parses
 * an attribute of a kernel (parse_attr) or of a func (parse_func_attr). */
static int parse_attr_list(P *p, int (*one)(P *, unsigned *))
{
    unsigned seen = 0;
    next(p);
    if (!expect(p, HK_TK_LBRACE, "expected '{' after 'attributes'"))
        return 0;
    do {
        if (!one(p, &seen))
            return 0;
    } while (accept(p, HK_TK_COMMA));
    return expect(p, HK_TK_RBRACE, "expected ',' or '}' in attribute list");
}

/* func-attr ::= ('jvp' | 'vjp') '=' '@' name */
static int parse_func_attr(P *p, unsigned *seen)
{
    HkFunc *f = p->f;
    if (!is(p, HK_TK_WORD))
        return syntax(p, "expected attribute name");
    unsigned k = is_word(p, "jvp") ? 0u : is_word(p, "vjp") ? 1u : 2u;
    if (k == 2)
        return syntax(p, "unknown func attribute '%.*s' (a func takes jvp "
                      "= @f and vjp = @f)", TOK(p->tok));
    const char *name = k == 0 ? "jvp" : "vjp";
    if (*seen & (1u << k))
        return syntax(p, "duplicate attribute '%s'", name);
    *seen |= 1u << k;
    next(p);
    if (!expect(p, HK_TK_EQUAL, k == 0 ? "expected '=' after 'jvp'"
                                       : "expected '=' after 'vjp'"))
        return 0;
    if (!is(p, HK_TK_GLOBAL))
        return syntax(p, "expected a func name '@f' for attribute '%s'", name);
    *(k == 0 ? &f->rule_jvp : &f->rule_vjp) = tok_str(p, p->tok);
    *(k == 0 ? &f->rule_jvp_loc : &f->rule_vjp_loc) = p->tok.loc;
    next(p);
    return 1;
}

/* '@' name, defining a new function of the module. */
static int parse_func_name(P *p, int is_kernel)
{
    if (!is(p, HK_TK_GLOBAL))
        return syntax(p, "expected function name after '%s'",
                      is_kernel ? "kernel" : "func");
    uint32_t prev = hk_func_index(p->m, p->tok.text, p->tok.len);
    if (prev != UINT32_MAX) {
        if (p->failed)
            return 0;
        err_at(p, p->tok.loc, "redefinition of '@%.*s'", TOK(p->tok));
        hk_note(p->d, p->src, p->m->funcs[prev]->loc,
                "previous definition is here");
        return 0;
    }
    /* hk_func_new keeps a copy: a short name is spelled on the stack, so
     * a program of many small functions holds one copy, not two */
    char buf[64];
    const char *name = buf;
    if (p->tok.len < sizeof buf) {
        memcpy(buf, p->tok.text, p->tok.len);
        buf[p->tok.len] = '\0';
    } else {
        name = tok_str(p, p->tok);
    }
    p->f = hk_func_new(p->m, name, is_kernel, p->tok.loc);
    p->f->parsed = 1;
    p->f->syms = p->names;
    hk_names_rekey(p->names, parser_key, p);
    next(p);
    return expect(p, HK_TK_LPAREN, "expected '(' after the function name");
}

/* The body of f and its source span, from begin to the closing '}'; names:
 * how many names f is likely to define (hk_lex_defs_to_close). */
static int parse_body(P *p, uint32_t begin, uint32_t names)
{
    uint32_t close;
    /* most names are defined at a line's start: the table and the
     * values' records are made once, to size */
    hk_func_reserve_values(p->f, names);
    hk_names_reserve(p->f->syms, names);
    if (!parse_block(p, &p->f->body, &close, "expected '{' to open the body"))
        return 0;
    p->f->src_begin = begin;
    p->f->src_end = close + 1;
    p->f->end = p->closed;
    hk_func_drop_syms(p->f);
    return 1;
}

/* kernel ::= 'kernel' '@' name '(' [slot (',' slot)*] ')' [attributes] body */
static int parse_kernel(P *p)
{
    uint32_t begin = tok_offset(p);
    next(p);
    if (!parse_func_name(p, 1))
        return 0;
    if (!is(p, HK_TK_RPAREN)) {
        do {
            if (!parse_slot(p))
                return 0;
        } while (accept(p, HK_TK_COMMA));
    }
    if (!expect(p, HK_TK_RPAREN, "expected ',' or ')' in slot list"))
        return 0;
    if (is_word(p, "attributes") && !parse_attr_list(p, parse_attr))
        return 0;
    /* a kernel's slots are no values: its names are counted from here */
    return parse_body(p, begin, hk_lex_defs_to_close(&p->lx, p->lx.p));
}

/* func ::= 'func' '@' name '(' [param (',' param)*] ')' '->' type-list
 *          [func-attributes] body */
static int parse_func(P *p)
{
    uint32_t begin = tok_offset(p), vbase = p->nvals, tbase = p->ntypes;
    next(p);
    if (!parse_func_name(p, 0))
        return 0;
    /* the parameters are values: the records are sized before them,
     * counting the names from the header line's start */
    uint32_t names = hk_lex_defs_to_close(&p->lx, p->lx.line_start);
    hk_func_reserve_values(p->f, names);
    if (!is(p, HK_TK_RPAREN)) {
        do {
            if (p->nvals - vbase >= HK_MAX_INDEX)
                return syntax(p, "too many parameters (limit %u)",
                              HK_MAX_INDEX);
            if (!parse_param(p, p->nvals - vbase))
                return 0;
        } while (accept(p, HK_TK_COMMA));
    }
    if (!expect(p, HK_TK_RPAREN, "expected ',' or ')' in parameter list") ||
        !expect(p, HK_TK_ARROW, "expected '->' and the result types") ||
        !parse_type_list(p))
        return 0;
    HkFunc *f = p->f;
    f->nparams = p->nvals - vbase;
    f->params = hk_alloc_packed(p->a, (f->nparams + 1) * sizeof *f->params,
                                sizeof *f->params);
    if (f->nparams)
        memcpy(f->params, p->vals + vbase, f->nparams * sizeof *f->params);
    p->nvals = vbase;
    f->nrtypes = p->ntypes - tbase;   /* at least one: parse_type_list */
    f->rtypes = hk_alloc_packed(p->a, f->nrtypes * sizeof *f->rtypes,
                                _Alignof(HkType));
    memcpy(f->rtypes, p->types + tbase, f->nrtypes * sizeof *f->rtypes);
    p->ntypes = tbase;
    if (is_word(p, "attributes") && !parse_attr_list(p, parse_func_attr))
        return 0;
    return parse_body(p, begin, names);
}

/* module ::= (kernel | func)* */
static int parse_module(P *p)
{
    skip_newlines(p);
    if (is(p, HK_TK_EOF)) {
        HkLoc start = {1, 1};
        return err_at(p, start, "empty input: expected 'kernel' or 'func'");
    }
    while (!is(p, HK_TK_EOF)) {
        if (is_word(p, "kernel")) {
            if (!parse_kernel(p))
                return 0;
        } else if (is_word(p, "func")) {
            if (!parse_func(p))
                return 0;
        } else {
            return syntax(p, "expected 'kernel' or 'func'");
        }
        if (!is(p, HK_TK_EOF) &&
            !expect(p, HK_TK_NEWLINE, "expected newline after '}'"))
            return 0;
        skip_newlines(p);
    }
    return 1;
}

/* Resolves every call to its callee, now that all functions are known. */
static int resolve_calls(P *p)
{
    for (uint32_t k = 0; k < p->ncalls; k++) {
        HkTok n = p->calls[k].name;
        uint32_t idx = hk_func_index(p->m, n.text, n.len);
        if (idx == UINT32_MAX)
            return err_at(p, n.loc, "call to undefined function '@%.*s'", TOK(n));
        p->calls[k].inst->x->callee = idx;
    }
    return 1;
}

/* The bytes are checked before any token is read, so that a bad byte is
 * reported wherever it is, even after a syntax error. */
HkModule *hk_parse(HkArena *a, const HkSource *src, HkDiags *d)
{
    if (hk_lex_check(src, d))
        return NULL;
    P p;
    memset(&p, 0, sizeof p);
    p.a = a;
    p.src = src;
    p.d = d;
    p.m = hk_module_new(a);
    p.names = hk_names_new(a, parser_key, &p);
    p.m->src = *src;
    hk_lex_init(&p.lx, src, d);
    next(&p);
    if (!parse_module(&p) || !resolve_calls(&p))
        return NULL;
    return p.m;
}
