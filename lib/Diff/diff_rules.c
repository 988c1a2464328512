/* diff_rules.c -- the derivative rules of every differentiable op, one
 * table both modes share: the tangent of an instruction's result from
 * its operands' tangents (forward, jvp.c); reverse mode (vjp.c) applies
 * the same rule to one seeded operand at a time, which is its transpose
 * for an elementwise op.  The emitting helpers place new instructions
 * where the caller points (Diff.at, Diff.blk).  docs/Passes.md, "jvp",
 * gives the table and the values at the kinks. */
#include <math.h>
#include <string.h>

#include "diff.h"


/* Puts new instruction i before s->at, or at the end of s->blk when the
 * primal instruction was its block's last (a region without a yield). */
void hk_diff_place(Diff *s, HkInst *i)
{
    if (s->at != NULL)
        hk_insert_before(s->at, i);
    else
        hk_block_append(s->blk, i);
}

HkType hk_diff_type(const Diff *s, HkVal v)
{
    return hk_value(s->f, v)->type;
}

/* A new instruction before s->at; its one result of type t. */
HkVal hk_diff_emit(Diff *s, HkOp op, const HkVal *ops, uint32_t n, HkType t)
{
    HkInst *i = hk_inst_new(s->f, op, s->loc);
    hk_inst_set_ops(s->f, i, ops, n);
    HkVal v = hk_inst_result(s->f, i, t,
                             hk_asprintf(s->a, "%s.%s.t", s->base, s->sfx));
    hk_diff_place(s, i);
    return v;
}

HkVal hk_diff_emit1(Diff *s, HkOp op, HkVal a, HkType t)
{
    return hk_diff_emit(s, op, &a, 1, t);
}

HkVal hk_diff_emit2(Diff *s, HkOp op, HkVal a, HkVal b, HkType t)
{
    HkVal ops[2] = {a, b};
    switch (op) {
    case HK_OP_FADD:
    case HK_OP_FSUB:
    case HK_OP_FMUL:
    case HK_OP_FDIV:
    case HK_OP_POW:
    case HK_OP_ATAN2:
    case HK_OP_HYPOT:
    case HK_OP_MINIMUM:
    case HK_OP_MAXIMUM: {
        /* elementwise: the operands' broadcast shape, whatever the rule's
         * result type, so a product of two rank-0 values a primal
         * broadcast over a tensor stays rank 0 (hypot %x, %v with %x
         * rank 0: make stress, seed 20001) */
        HkType ta = hk_diff_type(s, a), tb = hk_diff_type(s, b);
        t = hk_with_elem(ta.rank >= tb.rank ? ta : tb, t.elem);
        break;
    }
    default:
        break;
    }
    return hk_diff_emit(s, op, ops, 2, t);
}

/* The real constant c of type t (one literal fills every component). */
HkVal hk_diff_real(Diff *s, double c, HkType t)
{
    HkInst *i = hk_inst_new(s->f, HK_OP_CONST, s->loc);
    i->x->cst.n = 1;
    i->x->cst.f = hk_alloc(s->a, sizeof *i->x->cst.f);
    i->x->cst.f[0] = c;
    /* "<base>.<sfx>.c" ('c' for constant: not a file name) */
    HkVal v = hk_inst_result(s->f, i, t,
                             hk_asprintf(s->a, "%s.%s.%c", s->base, s->sfx, 'c'));
    hk_diff_place(s, i);
    return v;
}

HkVal hk_diff_int(Diff *s, int64_t c, HkType t, const char *base,
                  HkInst *before)
{
    HkInst *i = hk_inst_new(s->f, HK_OP_CONST, s->loc);
    i->x->cst.n = 1;
    i->x->cst.i = hk_alloc(s->a, sizeof *i->x->cst.i);
    i->x->cst.i[0] = c;
    HkVal v = hk_inst_result(s->f, i, t,
                             hk_asprintf(s->a, "%s.%s.k", base ? base : s->base,
                                         s->sfx));
    if (before != NULL)
        hk_insert_before(before, i);
    else
        hk_diff_place(s, i);
    return v;
}

HkVal hk_diff_fcmp(Diff *s, HkPred p, HkVal a, HkVal b)
{
    HkType t = hk_diff_type(s, a);
    if (hk_diff_type(s, b).rank > t.rank)
        t = hk_diff_type(s, b);
    HkInst *i = hk_inst_new(s->f, HK_OP_FCMP, s->loc);
    i->pred = p;
    HkVal ops[2] = {a, b};
    hk_inst_set_ops(s->f, i, ops, 2);
    HkVal v = hk_inst_result(s->f, i, hk_with_elem(t, HK_I1),
                             hk_asprintf(s->a, "%s.%s.m", s->base, s->sfx));
    hk_diff_place(s, i);
    return v;
}

/* Component k of v (an extract; v itself when rank 0). */
static HkVal comp(Diff *s, HkVal v, uint32_t k)
{
    HkType t = hk_diff_type(s, v);
    if (t.rank == 0)
        return v;
    HkVal r = hk_diff_emit1(s, HK_OP_EXTRACT, v, hk_scalar(t.elem));
    HkInst *n = hk_value(s->f, r)->def;
    n->x->nimm = t.rank;
    n->x->imm[0] = t.rank == 1 ? (int64_t)k : (int64_t)(k / t.dim[1]);
    n->x->imm[1] = t.rank == 1 ? 0 : (int64_t)(k % t.dim[1]);
    return r;
}

/* The tangent of p = prod a (ta the tangent of a, full): the primal's
 * left fold p_k = p_(k-1) c_k in row-major order, differentiated step by
 * step by fmul's rule, t_k = c_k t_(k-1) + p_(k-1) tc_k, the partial
 * products recomputed in the primal's order (LangRef, "Tensor folds and
 * products"), so the tangent reads the same rounded p_(k-1). */
static HkVal prod_tangent(Diff *s, HkVal a, HkVal ta, HkType t)
{
    uint32_t n = hk_components(hk_diff_type(s, a));
    HkVal p = comp(s, a, 0), tp = comp(s, ta, 0);
    for (uint32_t k = 1; k < n; k++) {
        HkVal c = comp(s, a, k), tc = comp(s, ta, k);
        HkVal x = hk_diff_emit2(s, HK_OP_FMUL, c, tp, t);
        HkVal y = hk_diff_emit2(s, HK_OP_FMUL, p, tc, t);
        tp = hk_diff_emit2(s, HK_OP_FADD, x, y, t);
        if (k + 1 < n)
            p = hk_diff_emit2(s, HK_OP_FMUL, p, c, t);
    }
    return tp;
}

/* The tangent of r = norm a along ta: dot(a / r, ta), the quotient first
 * (a dot of a vector of 1e200s overflows where a / r does not); exactly 0
 * where every component of ta is 0. */
static HkVal norm_tangent(Diff *s, HkVal a, HkVal ta, HkVal r, HkType t)
{
    HkType at = hk_diff_type(s, a);
    HkVal u = hk_diff_emit2(s, HK_OP_FDIV, a, r, at);
    HkVal d = hk_diff_emit2(s, HK_OP_DOT, u, hk_diff_full(s, ta, at), t);
    return hk_diff_guard(s, ta, d);
}

/* select c, a, b of type t.  The C target selects on a rank-0 condition
 * only, so a tensor one selects component by component and builds the
 * result. */
HkVal hk_diff_sel(Diff *s, HkVal c, HkVal a, HkVal b, HkType t)
{
    if (t.rank == 0 || hk_diff_type(s, c).rank == 0) {
        HkVal ops[3] = {c, a, b};
        return hk_diff_emit(s, HK_OP_SELECT, ops, 3, t);
    }
    uint32_t n = hk_components(t);
    HkVal *parts = hk_alloc(s->a, n * sizeof *parts);
    for (uint32_t k = 0; k < n; k++) {
        HkVal ck = comp(s, c, k);
        HkVal ak = comp(s, a, k);
        HkVal bk = comp(s, b, k);
        HkVal ops[3] = {ck, ak, bk};
        parts[k] = hk_diff_emit(s, HK_OP_SELECT, ops, 3, hk_scalar(t.elem));
    }
    return hk_diff_emit(s, HK_OP_BUILD, parts, n, t);
}

/* Tangent t as a value of type rt: a zero tangent (HK_NOVAL) as the
 * constant 0, a rank-0 one under a tensor result broadcast by adding
 * the zero tensor. */
HkVal hk_diff_full(Diff *s, HkVal t, HkType rt)
{
    if (t == HK_NOVAL)
        return hk_diff_real(s, 0.0, rt);
    if (hk_type_eq(hk_diff_type(s, t), rt))
        return t;
    return hk_diff_emit2(s, HK_OP_FADD, t, hk_diff_real(s, 0.0, rt), rt);
}

/* ta + tb, either zero. */
HkVal hk_diff_add(Diff *s, HkVal ta, HkVal tb, HkType rt)
{
    if (ta == HK_NOVAL)
        return tb;
    if (tb == HK_NOVAL)
        return ta;
    return hk_diff_emit2(s, HK_OP_FADD, ta, tb, rt);
}

/* The payload of v when it is a real constant, else NULL. */
static const HkConst *real_const(const Diff *s, HkVal v)
{
    const HkValue *x = hk_value(s->f, v);
    if (x->kind != HK_DEF_INST || x->def->op != HK_OP_CONST ||
        !hk_diff_is_real(x->type) || x->def->x->cst.f == NULL)
        return NULL;
    return &x->def->x->cst;
}

/* Whether v is a constant whose every component is finite (and, with
 * nonzero, none 0): a factor, or a divisor, that can never make inf * 0. */
static int finite_const(const Diff *s, HkVal v, int nonzero)
{
    const HkConst *c = real_const(s, v);
    for (uint32_t k = 0; c != NULL && k < c->n; k++)
        if (!isfinite(c->f[k]) || (nonzero && c->f[k] == 0.0))
            return 0;
    return c != NULL;
}

/* term, but exactly 0 where the tangent t is exactly 0.  A rule's term is
 * its partial times a tangent, and the partial may be infinite or NaN (a
 * pole, an edge of a domain, an intermediate that overflowed, the
 * untaken side of a select, whose operands are all computed): a
 * direction that does not move the operand (jvp), or an adjoint a select
 * zeroed (vjp), then adds 0, not inf * 0 = NaN.  docs/Passes.md, "A zero
 * tangent adds nothing". */
HkVal hk_diff_guard(Diff *s, HkVal t, HkVal term)
{
    if (t == HK_NOVAL || term == HK_NOVAL)
        return HK_NOVAL;
    HkType tt = hk_diff_type(s, t), yt = hk_diff_type(s, term);
    HkType e = hk_scalar(tt.elem);
    /* a tensor tangent is 0 when all its components are, which
     * sum(abs(t)) == 0 tells without underflow: one rank-0 condition,
     * where one per component would cost a select each */
    if (tt.rank > 0)
        t = hk_diff_emit1(s, HK_OP_SUM, hk_diff_emit1(s, HK_OP_ABS, t, tt), e);
    HkVal still = hk_diff_fcmp(s, HK_P_OEQ, t, hk_diff_real(s, 0.0, e));
    return hk_diff_sel(s, still, hk_diff_real(s, 0.0, yt), term, yt);
}

/* Whether a term of factor f (or, divisor, of divisor f) may be inf * 0:
 * not for a finite constant (other than 0, for a divisor); for a value of
 * the primal (or the pass's copy of one), when it may be wild, or, as a
 * divisor, may be 0; for a partial the rule made, unless the rule is
 * tame (hk_diff_rule). */
static int needs_guard(const Diff *s, HkVal f, int divisor)
{
    if (finite_const(s, f, divisor))
        return 0;
    if (f >= s->nwild)
        return !s->tame;
    return divisor || s->wild[f];
}

/* Whether v is a constant whose every component is 0. */
static int zero_const(const Diff *s, HkVal v)
{
    const HkConst *c = real_const(s, v);
    for (uint32_t k = 0; c != NULL && k < c->n; k++)
        if (c->f[k] != 0.0)
            return 0;
    return c != NULL;
}

/* f * t for a tangent t (zero stays zero, exactly: hk_diff_guard where
 * needs_guard).  A partial that is the constant 0 adds nothing either,
 * whatever t is: in vjp, t is the adjoint from above, which may be NaN
 * at a pole below it (the norm of 0 v: jvp's tangent into the norm is 0,
 * and vjp's adjoint out of it NaN, so the two agree only if 0 NaN is 0). */
HkVal hk_diff_scale(Diff *s, HkVal f, HkVal t, HkType rt)
{
    if (t == HK_NOVAL || zero_const(s, f))
        return HK_NOVAL;
    HkVal y = hk_diff_emit2(s, HK_OP_FMUL, f, t, rt);
    return needs_guard(s, f, 0) ? hk_diff_guard(s, t, y) : y;
}

/* t / d for a tangent t (zero stays zero, exactly, where needs_guard). */
HkVal hk_diff_over(Diff *s, HkVal t, HkVal d, HkType rt)
{
    if (t == HK_NOVAL)
        return HK_NOVAL;
    HkVal y = hk_diff_emit2(s, HK_OP_FDIV, t, d, rt);
    return needs_guard(s, d, 1) ? hk_diff_guard(s, t, y) : y;
}


/* ---- the rules ----------------------------------------------------------- */

HkVal hk_diff_tan(const Diff *s, HkVal v)
{
    return v < s->ntan ? s->tan[v] : HK_NOVAL;
}

/* ---- one instruction ----------------------------------------------------- */

int hk_diff_is_real(HkType t)
{
    return t.elem == HK_F32 || t.elem == HK_F64;
}

/* Whether i's partials are finite wherever its operands are finite: no
 * operand wild, and no pole, edge or overflow of its own (the wild ops,
 * and atan2, hypot and norm at 0).  Then no term of its rule needs a
 * guard: inf * 0 needs an infinite partial. */
static int tame(const Diff *s, const HkInst *i)
{
    if (hk_diff_wild_op(i->op) || i->op == HK_OP_ATAN2 ||
        i->op == HK_OP_HYPOT || i->op == HK_OP_NORM)
        return 0;
    for (uint32_t k = 0; k < i->nops; k++)
        if (hk_diff_is_wild(s, i->ops[k]))
            return 0;
    return 1;
}

static HkVal rule(Diff *s, HkInst *i);

/* The tangent of i's one real result, or HK_NOVAL for zero; its terms
 * guarded (hk_diff_guard) unless i is tame. */
HkVal hk_diff_rule(Diff *s, HkInst *i)
{
    s->tame = tame(s, i);
    HkVal t = rule(s, i);
    s->tame = 0;
    return t;
}

static HkVal rule(Diff *s, HkInst *i)
{
    if (hk_diff_has_rule(i->op))  /* rules.def */
        return hk_diff_partials(s, i);
    HkType t = i->type;
    HkVal r = hk_res(i)[0];
    HkVal a = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    HkVal b = i->nops > 1 ? i->ops[1] : HK_NOVAL;
    HkVal ta = a != HK_NOVAL ? hk_diff_tan(s, a) : HK_NOVAL;
    HkVal tb = b != HK_NOVAL ? hk_diff_tan(s, b) : HK_NOVAL;
    switch (i->op) {
    case HK_OP_CONST:
    case HK_OP_TABLE:
    case HK_OP_SITOFP:
    case HK_OP_UITOFP:
    case HK_OP_RANDOM:
        return HK_NOVAL;
    case HK_OP_LOAD:
    case HK_OP_GATHER:
        if (i->slot < 0 || !s->in[i->slot])
            return HK_NOVAL;
        {
            /* the tangent plane's element at the same (clamped) index */
            HkInst *n = hk_inst_new(s->f, i->op, s->loc);
            hk_inst_set_ops(s->f, n, i->ops, i->nops);
            n->has_index = i->has_index;
            n->slot = s->tslot[i->slot];
            HkVal v = hk_inst_result(s->f, n, t, hk_asprintf(s->a, "%s.dot", s->base));
            hk_diff_place(s, n);
            return v;
        }
    case HK_OP_FPEXT:
    case HK_OP_FPTRUNC:
    case HK_OP_TRANSPOSE:
    case HK_OP_SUM:
        return ta == HK_NOVAL ? HK_NOVAL : hk_diff_emit1(s, i->op, ta, t);
    case HK_OP_EXTRACT: {
        if (ta == HK_NOVAL)
            return HK_NOVAL;
        HkVal v = hk_diff_emit1(s, HK_OP_EXTRACT, ta, t);
        HkInst *n = hk_value(s->f, v)->def;
        n->x->nimm = i->x->nimm;
        memcpy(n->x->imm, i->x->imm, sizeof n->x->imm);
        return v;
    }
    case HK_OP_INSERT: {
        if (ta == HK_NOVAL && tb == HK_NOVAL)
            return HK_NOVAL;
        HkVal fa = hk_diff_full(s, ta, hk_diff_type(s, a));
        HkVal fb = hk_diff_full(s, tb, hk_diff_type(s, b));
        HkVal v = hk_diff_emit2(s, HK_OP_INSERT, fa, fb, t);
        HkInst *n = hk_value(s->f, v)->def;
        n->x->nimm = i->x->nimm;
        memcpy(n->x->imm, i->x->imm, sizeof n->x->imm);
        return v;
    }
    case HK_OP_BUILD: {
        int any = 0;
        for (uint32_t k = 0; k < i->nops; k++)
            any |= hk_diff_tan(s, i->ops[k]) != HK_NOVAL;
        if (!any)
            return HK_NOVAL;
        HkVal *ops = hk_alloc(s->a, i->nops * sizeof *ops);
        for (uint32_t k = 0; k < i->nops; k++)
            ops[k] = hk_diff_full(s, hk_diff_tan(s, i->ops[k]), hk_diff_type(s, i->ops[k]));
        return hk_diff_emit(s, HK_OP_BUILD, ops, i->nops, t);
    }
    case HK_OP_SELECT: {
        HkVal tx = hk_diff_tan(s, b), ty = hk_diff_tan(s, i->ops[2]);
        if (tx == HK_NOVAL && ty == HK_NOVAL)
            return HK_NOVAL;
        /* the tangent selects: the untaken side's never reaches it */
        HkVal fx = hk_diff_full(s, tx, t);
        HkVal fy = hk_diff_full(s, ty, t);
        return hk_diff_sel(s, a, fx, fy, t);
    }
    case HK_OP_DOT:
    case HK_OP_CROSS:
    case HK_OP_MATVEC:
    case HK_OP_MATMUL:
        /* bilinear: op(ta, b) + op(a, tb) */
    {
        HkVal p = ta == HK_NOVAL ? HK_NOVAL : hk_diff_emit2(s, i->op, ta, b, t);
        HkVal q = tb == HK_NOVAL ? HK_NOVAL : hk_diff_emit2(s, i->op, a, tb, t);
        return hk_diff_add(s, p, q, t);
    }
    case HK_OP_PROD:
        return ta == HK_NOVAL || !hk_diff_is_real(t)
                   ? HK_NOVAL
                   : prod_tangent(s, a, hk_diff_full(s, ta, hk_diff_type(s, a)), t);
    case HK_OP_NORM:
        /* dot(a / r, ta): at 0, 0/0 (NaN); 0 where ta is 0 */
        return ta == HK_NOVAL ? HK_NOVAL : norm_tangent(s, a, ta, r, t);
    default:
        return HK_NOVAL;
    }
}

/* What this step refuses, by op; NULL when i is differentiated. */

const char *hk_diff_refused(const Diff *s, const HkInst *i)
{
    if (hk_ops[i->op].rule == HK_R_LANE)
        return "a reduction over the samples is not differentiated";
    switch (i->op) {
    case HK_OP_RAW_DEVICE:
        return "this op is not differentiated yet";
    case HK_OP_BITCAST:
        return "a value's bits have no derivative";
    case HK_OP_AT:
        if (i->slot >= 0 && s->in[i->slot])
            return "a read of another sample's value is not differentiated";
        return NULL;
    default:
        return NULL;
    }
}

/* The tangent store after a store to an active output slot. */
