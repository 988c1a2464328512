/* diff_partials.c -- the elementwise rules of rules.def, written out as
 * instructions: a reader of their prefix form that emits each op where
 * the tangent goes (hk_diff_emit), the terms guarded by hk_diff_scale and
 * hk_diff_over.  A part of a rule that names tangents, all of them zero,
 * is zero and is not read further, so nothing is written for it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static const char *const rules[HK_OP_COUNT] = {
#define RULE(op, e, note) [HK_OP_##op] = e,
#define KINK(where, value)
#include "rules.def"
#undef RULE
#undef KINK
};

enum { MAX_LETS = 4, MAX_LITS = 8 };

typedef struct {
    Diff *s;
    const char *p;     /* the text still to read */
    HkType t;          /* the op's result type */
    HkVal x, y, r, tx, ty;
    struct {
        const char *name;
        size_t len;
        HkVal v;
    } let[MAX_LETS];
    uint32_t nlet;
    struct {
        double c;
        HkType t;
        HkVal v;
    } lit[MAX_LITS];   /* the numbers written so far, each once per type */
    uint32_t nlit;
} Reader;

int hk_diff_has_rule(HkOp op)
{
    return rules[op] != NULL;
}

/* ---- reading ------------------------------------------------------------- */

static void skip_space(Reader *rd)
{
    while (*rd->p == ' ')
        rd->p++;
}

/* The next word (a name or a number) at rd->p: its length. */
static size_t word(const Reader *rd)
{
    size_t n = 0;
    while (rd->p[n] != '\0' && rd->p[n] != ' ' && rd->p[n] != '(' &&
           rd->p[n] != ')')
        n++;
    return n;
}

static int is(const char *w, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(w, name, n) == 0;
}

/* The end of the expression at p: past its closing parenthesis. */
static const char *expr_end(const char *p)
{
    if (*p != '(') {
        while (*p != '\0' && *p != ' ' && *p != ')')
            p++;
        return p;
    }
    int depth = 0;
    do {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        p++;
    } while (depth > 0 && *p != '\0');
    return p;
}

/* Whether [p, end) names a tangent and every one it names is zero. */
static int zero_part(const Reader *rd, const char *p, const char *end)
{
    int named = 0;
    for (const char *q = p; q + 1 < end; q++) {
        int start = q == p || q[-1] == ' ' || q[-1] == '(';
        int stop = q + 2 == end || q[2] == ' ' || q[2] == ')';
        if (!start || !stop || q[0] != 't' || (q[1] != 'x' && q[1] != 'y'))
            continue;
        named = 1;
        if ((q[1] == 'x' ? rd->tx : rd->ty) != HK_NOVAL)
            return 0;
    }
    return named;
}

/* ---- evaluation ---------------------------------------------------------- */

static HkVal expr(Reader *rd, HkType lit);

/* A name's value (an operand, the result, a tangent or a let), or
 * HK_NOVAL with *found 0. */
static HkVal name_val(const Reader *rd, const char *w, size_t n, int *found)
{
    *found = 1;
    if (is(w, n, "x"))
        return rd->x;
    if (is(w, n, "y"))
        return rd->y;
    if (is(w, n, "r"))
        return rd->r;
    if (is(w, n, "tx"))
        return rd->tx;
    if (is(w, n, "ty"))
        return rd->ty;
    if (is(w, n, "none"))
        return HK_NOVAL;
    for (uint32_t k = rd->nlet; k-- > 0;)
        if (rd->let[k].len == n && memcmp(rd->let[k].name, w, n) == 0)
            return rd->let[k].v;
    *found = 0;
    return HK_NOVAL;
}

/* A word: a name's value or a number of type lit. */
static HkVal atom(Reader *rd, HkType lit)
{
    size_t n = word(rd);
    const char *w = rd->p;
    rd->p += n;
    int found;
    HkVal named = name_val(rd, w, n, &found);
    if (found)
        return named;
    double c = is(w, n, "ln2") ? log(2.0)
               : is(w, n, "ln10") ? log(10.0)
               : is(w, n, "nan") ? (double)NAN
                                 : strtod(w, NULL);
    /* a rule's instructions are one straight run: a number written
     * earlier in it is there for every later use */
    for (uint32_t k = 0; k < rd->nlit; k++)
        if (memcmp(&rd->lit[k].c, &c, sizeof c) == 0 &&
            hk_type_eq(rd->lit[k].t, lit))
            return rd->lit[k].v;
    HkVal v = hk_diff_real(rd->s, c, lit);
    if (rd->nlit < MAX_LITS) {
        rd->lit[rd->nlit].c = c;
        rd->lit[rd->nlit].t = lit;
        rd->lit[rd->nlit].v = v;
        rd->nlit++;
    }
    return v;
}

/* The type a number in a select's arm takes: the other arm's, when that
 * is a name. */
static HkType arm_type(const Reader *rd, const char *other)
{
    int found;
    size_t n = 0;
    while (other[n] != '\0' && other[n] != ' ' && other[n] != ')' &&
           other[n] != '(')
        n++;
    HkVal v = *other == '(' ? HK_NOVAL : name_val(rd, other, n, &found);
    return v != HK_NOVAL ? hk_diff_type(rd->s, v) : rd->t;
}

static HkVal select_form(Reader *rd)
{
    Diff *s = rd->s;
    HkVal c = expr(rd, hk_scalar(rd->t.elem));
    skip_space(rd);
    const char *a_at = rd->p, *b_at = expr_end(a_at);
    while (*b_at == ' ')
        b_at++;
    HkVal a = expr(rd, arm_type(rd, b_at));
    HkVal b = expr(rd, arm_type(rd, a_at));
    HkType ta = hk_diff_type(s, a), tb = hk_diff_type(s, b);
    return hk_diff_sel(s, c, a, b, ta.rank >= tb.rank ? ta : tb);
}

static HkVal let_form(Reader *rd)
{
    skip_space(rd);
    size_t n = word(rd);
    const char *name = rd->p;
    rd->p += n;
    HkVal v = expr(rd, hk_scalar(rd->t.elem));
    if (rd->nlet == MAX_LETS)
        hk_unreachable();
    rd->let[rd->nlet].name = name;
    rd->let[rd->nlet].len = n;
    rd->let[rd->nlet].v = v;
    rd->nlet++;
    HkVal body = expr(rd, hk_scalar(rd->t.elem));
    rd->nlet--;
    return body;
}

/* The forms of terms: scale, over, add, sub, full. */
static HkVal term_form(Reader *rd, const char *w, size_t n)
{
    Diff *s = rd->s;
    HkType e = hk_scalar(rd->t.elem);
    HkVal a = expr(rd, e);
    if (is(w, n, "full"))
        return a == HK_NOVAL ? HK_NOVAL : hk_diff_full(s, a, rd->t);
    HkVal b = expr(rd, e);
    if (is(w, n, "scale"))
        return hk_diff_scale(s, a, b, rd->t);
    if (is(w, n, "over"))
        return hk_diff_over(s, a, b, rd->t);
    if (is(w, n, "add"))
        return hk_diff_add(s, a, b, rd->t);
    /* sub */
    if (b == HK_NOVAL)
        return a;
    if (a == HK_NOVAL)
        return hk_diff_emit1(s, HK_OP_FNEG, b, hk_diff_type(s, b));
    return hk_diff_emit2(s, HK_OP_FSUB, a, b, rd->t);
}

/* (PRED a b) or (OP a [b]). */
static HkVal op_form(Reader *rd, const char *w, size_t n)
{
    Diff *s = rd->s;
    HkType e = hk_scalar(rd->t.elem);
    int pred = hk_pred_lookup(HK_OP_FCMP, w, n);
    int op = hk_op_lookup(w, n);
    HkVal a = expr(rd, e);
    skip_space(rd);
    if (pred >= 0) {
        HkVal b = expr(rd, e);
        return hk_diff_fcmp(s, (HkPred)pred, a, b);
    }
    if (op < 0)
        hk_unreachable();
    if (*rd->p == ')')
        return hk_diff_emit1(s, (HkOp)op, a,
                             hk_with_elem(hk_diff_type(s, a), rd->t.elem));
    HkVal b = expr(rd, e);
    return hk_diff_emit2(s, (HkOp)op, a, b, rd->t);
}

/* The expression at rd->p, a number in it of type lit; rd->p then past
 * it. */
static HkVal expr(Reader *rd, HkType lit)
{
    skip_space(rd);
    if (*rd->p != '(')
        return atom(rd, lit);
    const char *end = expr_end(rd->p);
    if (zero_part(rd, rd->p, end)) {
        rd->p = end;
        return HK_NOVAL;
    }
    rd->p++;
    size_t n = word(rd);
    const char *w = rd->p;
    rd->p += n;
    HkVal v;
    if (is(w, n, "select"))
        v = select_form(rd);
    else if (is(w, n, "let"))
        v = let_form(rd);
    else if (is(w, n, "scale") || is(w, n, "over") || is(w, n, "add") ||
             is(w, n, "sub") || is(w, n, "full"))
        v = term_form(rd, w, n);
    else
        v = op_form(rd, w, n);
    skip_space(rd);
    if (*rd->p != ')')
        hk_unreachable();
    rd->p++;
    return v;
}

HkVal hk_diff_partials(Diff *s, const HkInst *i)
{
    Reader rd;
    memset(&rd, 0, sizeof rd);
    rd.s = s;
    rd.p = rules[i->op];
    rd.t = i->type;
    rd.x = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    rd.y = i->nops > 1 ? i->ops[1] : HK_NOVAL;
    rd.r = hk_res(i)[0];
    rd.tx = rd.x != HK_NOVAL ? hk_diff_tan(s, rd.x) : HK_NOVAL;
    rd.ty = rd.y != HK_NOVAL ? hk_diff_tan(s, rd.y) : HK_NOVAL;
    return expr(&rd, hk_scalar(rd.t.elem));
}
