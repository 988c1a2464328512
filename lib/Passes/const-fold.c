/* const-fold.c -- instructions whose value is known before the kernel runs.
 *
 * A component-wise op whose operands are all constants becomes the
 * constant it computes, by the interpreter's semantics of each op
 * (interp_ops.c: IEEE operations each rounded on its own, integers
 * wrapping with LangRef's answers for a zero divisor, MIN / -1 and
 * oversized shifts, saturating conversions), so the unit computes
 * nothing its reader or a checker can work out alone.  Left to run time:
 * the math ops but the exactly rounded ones (sqrt, floor, ceil, abs: exp,
 * sin, pow, ... are calls, to hawk's math or the C library's), and any
 * result that is a NaN, whose sign and payload are the processor's to
 * choose.
 *
 * Some results are known whatever the operands are:
 *
 *   icmp %a, %a        true for eq, ule, uge, sle, sge; false otherwise
 *   fcmp p %a, %a      false for one, olt, ogt; true for ueq, ule, uge
 *   xor, sub %a, %a    0 (integers and i1)
 *   and %a, 0          0; `or %a, true` true (i1)
 *   mul %a, 0          0 (integers)
 *
 * and some are an operand: `select` of a constant condition or of one
 * value twice, `and`/`or` of one value twice, and a loop-carried value
 * its yield hands back unchanged, which is its init.  A loop whose
 * runtime count is a constant gets the static count it stands for.  Uses of those go through
 * one value map rewritten in a single sweep at the end; a folded
 * instruction becomes a `const` in place, keeping its result, its name
 * and its line.  One walk in program order: operands are folded before
 * their uses, so chains fold whole, and the pass is linear in the size of
 * the function.  dce removes what is left unused. */
#include <math.h>
#include <string.h>

#include "interpint.h"
#include "passes.h"
#include "uses.h"

typedef struct {
    HkFunc *f;
    HkVal *map;            /* values replaced by an operand */
    uint32_t nmap;
} Fold;

static HkVal resolve(const Fold *s, HkVal v)
{
    return hk_valmap_get(s->map, s->nmap, v);
}

/* The `const` instruction defining v, or NULL. */
static const HkInst *const_of(const Fold *s, HkVal v)
{
    const HkValue *x = hk_value(s->f, resolve(s, v));
    if (x->kind != HK_DEF_INST || x->def->op != HK_OP_CONST ||
        x->def->x->cst.n == 0 || hk_is_dyn(x->type))
        return NULL;
    return x->def;
}

static HkElem elem_of(const Fold *s, HkVal v)
{
    return (HkElem)hk_value(s->f, v)->type.elem;
}

/* Component k of constant c as a word of element e; a NaN is the C's NAN
 * (positive, quiet, no payload), as the units spell it. */
static HkWord word_of(const HkInst *c, uint32_t k, HkElem e)
{
    HkWord w;
    w.u = 0;
    if (!hk_is_float(e)) {
        w = hk_interp_norm(e, (uint64_t)hk_const_int(&c->x->cst, k));
        return w;
    }
    double v = hk_const_real(&c->x->cst, k, e);
    if (isnan(v))
        v = NAN;
    if (e == HK_F32)
        w.f = (float)v;
    else
        w.d = v;
    return w;
}

/* Whether op of i is one whose value its constant operands fix. */
static int foldable(const HkInst *i)
{
    uint32_t fl = hk_ops[i->op].flags;
    if ((fl & (HK_F_PURE | HK_F_ELEM)) != (HK_F_PURE | HK_F_ELEM) ||
        i->nres != 1 || i->nops == 0 || i->nops > 3)
        return 0;
    return (fl & HK_F_LIBM) == 0 || (fl & HK_F_EXACT) != 0;
}

/* Turns i into `const` with payload c: its result, name and line stay. */
static void become_const(Fold *s, HkInst *i, HkConst c)
{
    HkInstExt *x = hk_alloc(s->f->module->arena, sizeof *x);
    *x = hk_inst_ext_none;
    x->cst = c;
    i->op = HK_OP_CONST;
    i->pred = 0;
    i->has_index = 0;
    i->nops = 0;
    i->ops = NULL;
    i->slot = -1;
    i->x = x;
}

/* A payload of n components of element e, zeroed. */
static HkConst payload(Fold *s, HkElem e, uint32_t n)
{
    HkConst c = {n, NULL, NULL};
    if (hk_is_float(e))
        c.f = hk_alloc(s->f->module->arena, n * sizeof *c.f);
    else
        c.i = hk_alloc(s->f->module->arena, n * sizeof *c.i);
    return c;
}

/* One component of i from its operands' components. */
static HkWord eval(const HkInst *i, HkElem e, const HkElem *oe,
                   const HkWord *w, int *ok)
{
    if (hk_ops[i->op].rule == HK_R_MATH1 || hk_ops[i->op].rule == HK_R_MATH2)
        return hk_interp_libm(i->op, e, w[0], w[1], ok);
    return hk_interp_elem(i, e, oe[0], w[0], w[1], w[2], ok);
}

/* Folds i, whose operands are all constants; 0 when it stays. */
static int fold_consts(Fold *s, HkInst *i)
{
    const HkInst *c[3] = {NULL, NULL, NULL};
    HkElem oe[3] = {HK_VOID, HK_VOID, HK_VOID};
    for (uint32_t k = 0; k < i->nops; k++) {
        if ((c[k] = const_of(s, i->ops[k])) == NULL)
            return 0;
        oe[k] = elem_of(s, resolve(s, i->ops[k]));
    }
    HkType t = hk_value(s->f, hk_res(i)[0])->type;
    if (hk_is_dyn(t))
        return 0;
    HkElem e = (HkElem)t.elem;
    uint32_t n = hk_components(t);
    HkConst out = payload(s, e, n);
    for (uint32_t k = 0; k < n; k++) {
        HkWord w[3];
        w[0].u = w[1].u = w[2].u = 0;
        for (uint32_t o = 0; o < i->nops; o++)
            w[o] = word_of(c[o], k, oe[o]);
        int ok = 1;
        HkWord r = eval(i, e, oe, w, &ok);
        if (!ok)
            return 0;
        if (hk_is_float(e)) {
            out.f[k] = hk_interp_real(e, r);
            if (isnan(out.f[k]))
                return 0;
        } else {
            out.i[k] = e == HK_U32 || e == HK_I1 ? (int64_t)r.u : r.i;
        }
    }
    become_const(s, i, out);
    return 1;
}

/* i's result as a constant every component of which is v (an integer or
 * i1 result). */
static void fill(Fold *s, HkInst *i, int64_t v)
{
    HkType t = hk_value(s->f, hk_res(i)[0])->type;
    HkConst out = payload(s, (HkElem)t.elem, 1);
    out.i[0] = v;
    become_const(s, i, out);
}

static int icmp_self(HkPred p)
{
    switch (p) {
    case HK_P_EQ: case HK_P_SLE: case HK_P_SGE:
    case HK_P_ULE_I: case HK_P_UGE_I: return 1;
    default: return 0;
    }
}

/* fcmp p %a, %a when its answer does not hang on %a being NaN: 1 or 0,
 * or -1 (oeq, ord, ...: the NaN test they are). */
static int fcmp_self(HkPred p)
{
    switch (p) {
    case HK_P_ONE: case HK_P_OLT: case HK_P_OGT: return 0;
    case HK_P_UEQ: case HK_P_ULE: case HK_P_UGE: return 1;
    default: return -1;
    }
}

/* Whether constant operand k of i is every component v (an integer or
 * i1 constant). */
static int all_are(const Fold *s, const HkInst *i, uint32_t k, int64_t v)
{
    const HkInst *c = const_of(s, i->ops[k]);
    if (c == NULL || c->x->cst.i == NULL)
        return 0;
    for (uint32_t j = 0; j < c->x->cst.n; j++)
        if (c->x->cst.i[j] != v)
            return 0;
    return 1;
}

/* An operand of i (and, or, mul) that is all v. */
static int either_is(const Fold *s, const HkInst *i, int64_t v)
{
    return all_are(s, i, 0, v) || all_are(s, i, 1, v);
}

/* Folds i whose value is known whatever its operands are; 0 when it
 * stays. */
static int fold_identity(Fold *s, HkInst *i)
{
    HkVal a = i->nops > 0 ? resolve(s, i->ops[0]) : HK_NOVAL;
    int same = i->nops == 2 && a == resolve(s, i->ops[1]);
    HkElem e = a != HK_NOVAL ? elem_of(s, a) : HK_VOID;
    int integral = e == HK_I1 || hk_is_int(e);
    switch (i->op) {
    case HK_OP_ICMP:
        if (!same)
            return 0;
        fill(s, i, icmp_self(i->pred));
        return 1;
    case HK_OP_FCMP:
        if (!same || fcmp_self(i->pred) < 0)
            return 0;
        fill(s, i, fcmp_self(i->pred));
        return 1;
    case HK_OP_XOR:
    case HK_OP_SUB:
        if (!same || !integral)
            return 0;
        fill(s, i, 0);
        return 1;
    case HK_OP_AND:
    case HK_OP_MUL:
        if (!integral || !either_is(s, i, 0))
            return 0;
        fill(s, i, 0);
        return 1;
    case HK_OP_OR:
        if (e != HK_I1 || !either_is(s, i, 1))
            return 0;
        fill(s, i, 1);
        return 1;
    default:
        return 0;
    }
}

/* The operand i's value is whatever its operands are, or HK_NOVAL. */
static HkVal forward(const Fold *s, const HkInst *i)
{
    switch (i->op) {
    case HK_OP_SELECT: {
        HkVal y = resolve(s, i->ops[1]), z = resolve(s, i->ops[2]);
        const HkInst *c = const_of(s, i->ops[0]);
        if (y == z)
            return y;
        if (c != NULL && c->x->cst.n == 1 && c->x->cst.i != NULL)
            return c->x->cst.i[0] != 0 ? y : z;
        return HK_NOVAL;
    }
    case HK_OP_AND:
    case HK_OP_OR: {
        HkVal a = resolve(s, i->ops[0]);
        return a == resolve(s, i->ops[1]) ? a : HK_NOVAL;
    }
    default:
        return HK_NOVAL;
    }
}

static void fold_block(Fold *s, HkBlock *b);

/* A carried value its yield hands back unchanged is its init on every
 * trip, and the loop's result for it too (a break keeps the values the
 * trip began with). */
static void fold_carried(Fold *s, const HkInst *l)
{
    const HkInst *y = hk_block_yield(&l->x->regions[0]);
    uint32_t off = l->x->has_count ? 1u : 0u;
    for (uint32_t k = 0; k < l->nres && y != NULL && k < y->nops; k++) {
        HkVal it = l->x->iters[k];
        if (resolve(s, y->ops[k]) != it)
            continue;
        HkVal init = resolve(s, l->ops[off + k]);
        s->map[it] = init;
        s->map[hk_res(l)[k]] = init;
    }
}

/* A runtime count that is a constant makes the loop one of static
 * count: clamp(count - lo, 0, K) trips, as LangRef counts them. */
static void fold_count(Fold *s, HkInst *l)
{
    const HkInst *c = l->x->has_count ? const_of(s, l->ops[0]) : NULL;
    if (c == NULL || c->x->cst.i == NULL ||
        hk_value(s->f, l->ops[0])->type.rank != 0 ||
        l->x->max_trip > INT64_MAX - l->x->lo)
        return;
    int64_t n = hk_const_int(&c->x->cst, 0), lo = l->x->lo;
    int64_t last = lo + l->x->max_trip;
    l->x->hi = n <= lo ? lo : n >= last ? last : n;
    l->x->has_count = 0;
    l->x->max_trip = 0;
    l->ops++;
    l->nops--;
}

static void fold_block(Fold *s, HkBlock *b)
{
    for (HkInst *i = b->first; i; i = i->next) {
        if (i->op == HK_OP_LOOP)
            fold_carried(s, i);
        for (uint32_t r = 0; r < i->x->nregions; r++)
            fold_block(s, &i->x->regions[r]);
        if (i->op == HK_OP_LOOP)
            fold_count(s, i);
        if (!foldable(i))
            continue;
        HkVal to = forward(s, i);
        if (to != HK_NOVAL)
            s->map[hk_res(i)[0]] = to;
        else if (!fold_consts(s, i))
            (void)fold_identity(s, i);
    }
}

int hk_pass_const_fold(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    Fold s = {f, hk_valmap_new(f, f->nvalues), f->nvalues};
    fold_block(&s, &f->body);
    hk_remap_uses(f, s.map, s.nmap);
    return 0;
}
