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

enum { MAX_LETS = 4, MAX_RULE = 512, MAX_DEPTH = 32 };

enum { NAMES_TX = 1, NAMES_TY = 2, NAMES_TZ = 4 };

typedef struct {
    Diff *s;
    const char *p;     /* the text still to read */
    const char *base;  /* the rule's text */
    /* per '(' of the rule: the offset past its ')' and the tangents the
     * expression names (NAMES_*), found in one pass (index_rule) */
    uint16_t close[MAX_RULE];
    uint8_t names[MAX_RULE];
    HkType t;          /* the op's result type */
    HkVal x, y, z, r, tx, ty, tz;
    struct {
        const char *name;
        size_t len;
        HkVal v;
    } let[MAX_LETS];
    uint32_t nlet;
    DiffShared own;    /* the numbers and parts written so far, */
    DiffShared *sh;    /* kept here, or in Diff.shared */
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

/* Which tangent the word [w, w + n) names (NAMES_*), or 0. */
static unsigned tangent_bit(const char *w, size_t n)
{
    if (n != 2 || w[0] != 't')
        return 0;
    return w[1] == 'x'   ? NAMES_TX
           : w[1] == 'y' ? NAMES_TY
           : w[1] == 'z' ? NAMES_TZ
                         : 0;
}

/* Every parenthesis of the rule matched, and what each part names, in
 * one pass: a part's names are its words' and its parts', added to its
 * enclosing part when it closes.  A let's name, where it is used, names
 * what its value names (read before: the body follows the value). */
static void index_rule(Reader *rd)
{
    uint16_t open[MAX_DEPTH];
    uint8_t acc[MAX_DEPTH + 1] = {0};
    unsigned depth = 0;
    const char *b = rd->base;
    size_t len = strlen(b);
    struct {
        const char *w;
        size_t n;
        size_t value;  /* the offset of its value */
    } lets[MAX_LETS];
    unsigned nlets = 0;
    int binding = 0;  /* the next word is a let's name */
    if (len >= MAX_RULE)
        hk_unreachable();
    for (size_t k = 0; k < len;) {
        if (b[k] == '(') {
            if (depth == MAX_DEPTH)
                hk_unreachable();
            open[depth++] = (uint16_t)k;
            acc[depth] = 0;
            k++;
        } else if (b[k] == ')') {
            if (depth == 0)
                hk_unreachable();
            uint16_t o = open[--depth];
            rd->close[o] = (uint16_t)(k + 1);
            rd->names[o] = acc[depth + 1];
            acc[depth] = (uint8_t)(acc[depth] | acc[depth + 1]);
            k++;
        } else if (b[k] == ' ') {
            k++;
        } else {
            size_t n = 0;
            while (k + n < len && b[k + n] != ' ' && b[k + n] != '(' &&
                   b[k + n] != ')')
                n++;
            unsigned bit = tangent_bit(b + k, n);
            for (unsigned j = 0; j < nlets && !binding; j++)
                if (lets[j].n == n && memcmp(lets[j].w, b + k, n) == 0) {
                    const char *v = b + lets[j].value;
                    bit = *v == '(' ? rd->names[lets[j].value]
                                    : tangent_bit(v, strcspn(v, " ()"));
                }
            if (binding) {
                if (nlets == MAX_LETS)
                    hk_unreachable();
                lets[nlets].w = b + k;
                lets[nlets].n = n;
                lets[nlets++].value = k + n + strspn(b + k + n, " ");
            }
            binding = k > 0 && b[k - 1] == '(' && is(b + k, n, "let");
            acc[depth] = (uint8_t)(acc[depth] | bit);
            k += n;
        }
    }
    if (depth != 0)
        hk_unreachable();
}

/* The end of the expression at p: past its closing parenthesis. */
static const char *expr_end(const Reader *rd, const char *p)
{
    if (*p == '(')
        return rd->base + rd->close[p - rd->base];
    while (*p != '\0' && *p != ' ' && *p != ')')
        p++;
    return p;
}

/* Whether the part at p names a tangent and every one it names is zero. */
static int zero_part(const Reader *rd, const char *p)
{
    unsigned names = rd->names[p - rd->base];
    if ((names & NAMES_TX) && rd->tx != HK_NOVAL)
        return 0;
    if ((names & NAMES_TY) && rd->ty != HK_NOVAL)
        return 0;
    if ((names & NAMES_TZ) && rd->tz != HK_NOVAL)
        return 0;
    return names != 0;
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
    if (is(w, n, "z"))
        return rd->z;
    if (is(w, n, "r"))
        return rd->r;
    if (is(w, n, "tx"))
        return rd->tx;
    if (is(w, n, "ty"))
        return rd->ty;
    if (is(w, n, "tz"))
        return rd->tz;
    if (is(w, n, "none"))
        return HK_NOVAL;
    for (uint32_t k = rd->nlet; k-- > 0;)
        if (rd->let[k].len == n && memcmp(rd->let[k].name, w, n) == 0)
            return rd->let[k].v;
    *found = 0;
    return HK_NOVAL;
}

/* A word: a name's value or a number of type lit. */
/* The constant c of type lit.  A rule's instructions are one straight
 * run: a number written earlier in it is there for every later use. */
static HkVal number(Reader *rd, double c, HkType lit)
{
    DiffShared *sh = rd->sh;
    for (uint32_t k = 0; k < sh->nlit; k++)
        if (memcmp(&sh->lit[k].c, &c, sizeof c) == 0 &&
            hk_type_eq(sh->lit[k].t, lit))
            return sh->lit[k].v;
    HkVal v = hk_diff_real(rd->s, c, lit);
    if (sh->nlit < sizeof sh->lit / sizeof sh->lit[0]) {
        sh->lit[sh->nlit].c = c;
        sh->lit[sh->nlit].t = lit;
        sh->lit[sh->nlit].v = v;
        sh->nlit++;
    }
    return v;
}

/* The value of the part at offset at, written before, or HK_NOVAL. */
static HkVal shared_part(const Reader *rd, uint32_t at)
{
    for (uint32_t k = 0; k < rd->sh->npart; k++)
        if (rd->sh->part[k].at == at)
            return rd->sh->part[k].v;
    return HK_NOVAL;
}

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
    return number(rd, c, lit);
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
    const char *a_at = rd->p, *b_at = expr_end(rd, a_at);
    while (*b_at == ' ')
        b_at++;
    HkVal a = expr(rd, arm_type(rd, b_at));
    HkVal b = expr(rd, arm_type(rd, a_at));
    if (a == HK_NOVAL && b == HK_NOVAL)
        return HK_NOVAL;
    /* an arm that is zero is the constant 0 of the other's type */
    if (a == HK_NOVAL)
        a = number(rd, 0.0, hk_diff_type(s, b));
    if (b == HK_NOVAL)
        b = number(rd, 0.0, hk_diff_type(s, a));
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
/* The part at rd->p, a '(': written out. */
static HkVal form(Reader *rd)
{
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

static HkVal expr(Reader *rd, HkType lit)
{
    skip_space(rd);
    if (*rd->p != '(')
        return atom(rd, lit);
    if (zero_part(rd, rd->p)) {
        rd->p = expr_end(rd, rd->p);
        return HK_NOVAL;
    }
    /* a part that names no tangent is the same for every operand */
    uint32_t at = (uint32_t)(rd->p - rd->base);
    if (rd->names[at] != 0)
        return form(rd);
    HkVal v = shared_part(rd, at);
    if (v != HK_NOVAL) {
        rd->p = expr_end(rd, rd->p);
        return v;
    }
    v = form(rd);
    DiffShared *sh = rd->sh;
    if (sh->npart < sizeof sh->part / sizeof sh->part[0]) {
        sh->part[sh->npart].at = at;
        sh->part[sh->npart++].v = v;
    }
    return v;
}

HkVal hk_diff_partials(Diff *s, const HkInst *i)
{
    Reader rd;
    memset(&rd, 0, sizeof rd);
    rd.s = s;
    rd.p = rd.base = rules[i->op];
    rd.sh = s->shared != NULL ? s->shared : &rd.own;
    index_rule(&rd);
    rd.t = i->type;
    rd.x = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    rd.y = i->nops > 1 ? i->ops[1] : HK_NOVAL;
    rd.z = i->nops > 2 ? i->ops[2] : HK_NOVAL;
    rd.r = hk_res(i)[0];
    rd.tx = rd.x != HK_NOVAL ? hk_diff_tan(s, rd.x) : HK_NOVAL;
    rd.ty = rd.y != HK_NOVAL ? hk_diff_tan(s, rd.y) : HK_NOVAL;
    rd.tz = rd.z != HK_NOVAL ? hk_diff_tan(s, rd.z) : HK_NOVAL;
    return expr(&rd, hk_scalar(rd.t.elem));
}
