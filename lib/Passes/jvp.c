/* jvp.c -- forward-mode differentiation: a kernel becomes its Jacobian-
 * vector product, <name>_jvp, which keeps every primal slot and
 * computation and adds a tangent slot <slot>.dot beside each active slot
 * (the same role and type): the tangents of the active inputs in, the
 * tangents of the active outputs out.  Each instruction's tangent is
 * written right after it by the rule of its op (rules below; the kinks
 * docs/Passes.md's table states); a value that does not depend on an
 * active input has no tangent (zero, never written), so integer, mask
 * and index values and everything computed from inactive slots cost
 * nothing.  Active by default: every real slot a kernel reads
 * (per_sample, vec_in, mat_in, uniform, mutable) and every real slot it
 * writes (mutable); jvp{wrt=a:b,of=c} narrows them.  An if or dispatch
 * is differentiated per branch: its tangents stay in the branch, and
 * each real result with a tangent in some branch gets a tangent result.
 * A loop carries a tangent beside each carried value that may depend on
 * an active input (found before anything changes, to a fixed point over
 * the trips).  A tangent nothing reads is removed at the end.  A call,
 * an indexed access of an active slot or a lane op is refused by name.
 * docs/Passes.md, "jvp". */
#include <math.h>
#include <string.h>

#include "embedded.h"

typedef struct {
    HawkPassRun *r;
    HkFunc *f;
    HkArena *a;
    HkVal *tan;          /* value -> its tangent, HK_NOVAL for zero */
    uint8_t *act;        /* value -> may depend on an active input */
    uint32_t ntan;       /* values when the pass began */
    int32_t *tslot;      /* primal slot -> its tangent slot, or -1 */
    uint8_t *in, *out;   /* primal slot: active input, active output */
    HkInst *at;          /* tangents are inserted before it, */
    HkBlock *blk;        /* or, when NULL, at the end of this block */
    HkLoc loc;
    const char *base;    /* the primal result's name: "<base>.dot" */
    int failed;
} Jvp;

/* ---- emitting ------------------------------------------------------------ */

/* Puts new instruction i before s->at, or at the end of s->blk when the
 * primal instruction was its block's last (a region without a yield). */
static void place(Jvp *s, HkInst *i)
{
    if (s->at != NULL)
        hk_insert_before(s->at, i);
    else
        hk_block_append(s->blk, i);
}

static HkType type_of(const Jvp *s, HkVal v)
{
    return s->f->values[v].type;
}

/* A new instruction before s->at; its one result of type t. */
static HkVal emit(Jvp *s, HkOp op, const HkVal *ops, uint32_t n, HkType t)
{
    HkInst *i = hk_inst_new(s->f, op, s->loc);
    hk_inst_set_ops(s->f, i, ops, n);
    HkVal v = hk_inst_result(s->f, i, t,
                             hk_asprintf(s->a, "%s.dot.t", s->base));
    place(s, i);
    return v;
}

static HkVal emit1(Jvp *s, HkOp op, HkVal a, HkType t)
{
    return emit(s, op, &a, 1, t);
}

static HkVal emit2(Jvp *s, HkOp op, HkVal a, HkVal b, HkType t)
{
    HkVal ops[2] = {a, b};
    return emit(s, op, ops, 2, t);
}

/* The real constant c of type t (one literal fills every component). */
static HkVal real(Jvp *s, double c, HkType t)
{
    HkInst *i = hk_inst_new(s->f, HK_OP_CONST, s->loc);
    i->cst.n = 1;
    i->cst.f = hk_alloc(s->a, sizeof *i->cst.f);
    i->cst.f[0] = c;
    HkVal v = hk_inst_result(s->f, i, t, hk_asprintf(s->a, "%s.dot.c", s->base));
    place(s, i);
    return v;
}

static HkVal fcmp(Jvp *s, HkPred p, HkVal a, HkVal b)
{
    HkType t = type_of(s, a);
    if (type_of(s, b).rank > t.rank)
        t = type_of(s, b);
    HkInst *i = hk_inst_new(s->f, HK_OP_FCMP, s->loc);
    i->pred = p;
    HkVal ops[2] = {a, b};
    hk_inst_set_ops(s->f, i, ops, 2);
    HkVal v = hk_inst_result(s->f, i, hk_with_elem(t, HK_I1),
                             hk_asprintf(s->a, "%s.dot.m", s->base));
    place(s, i);
    return v;
}

/* Component k of v (an extract; v itself when rank 0). */
static HkVal comp(Jvp *s, HkVal v, uint32_t k)
{
    HkType t = type_of(s, v);
    if (t.rank == 0)
        return v;
    HkVal r = emit1(s, HK_OP_EXTRACT, v, hk_scalar(t.elem));
    HkInst *n = s->f->values[r].def;
    n->nimm = t.rank;
    n->imm[0] = t.rank == 1 ? (int64_t)k : (int64_t)(k / t.dim[1]);
    n->imm[1] = t.rank == 1 ? 0 : (int64_t)(k % t.dim[1]);
    return r;
}

/* select c, a, b of type t.  The C target selects on a rank-0 condition
 * only, so a tensor one selects component by component and builds the
 * result. */
static HkVal sel(Jvp *s, HkVal c, HkVal a, HkVal b, HkType t)
{
    if (t.rank == 0 || type_of(s, c).rank == 0) {
        HkVal ops[3] = {c, a, b};
        return emit(s, HK_OP_SELECT, ops, 3, t);
    }
    uint32_t n = hk_components(t);
    HkVal *parts = hk_alloc(s->a, n * sizeof *parts);
    for (uint32_t k = 0; k < n; k++) {
        HkVal ck = comp(s, c, k);
        HkVal ak = comp(s, a, k);
        HkVal bk = comp(s, b, k);
        HkVal ops[3] = {ck, ak, bk};
        parts[k] = emit(s, HK_OP_SELECT, ops, 3, hk_scalar(t.elem));
    }
    return emit(s, HK_OP_BUILD, parts, n, t);
}

/* Tangent t as a value of type rt: a zero tangent (HK_NOVAL) as the
 * constant 0, a rank-0 one under a tensor result broadcast by adding
 * the zero tensor. */
static HkVal full(Jvp *s, HkVal t, HkType rt)
{
    if (t == HK_NOVAL)
        return real(s, 0.0, rt);
    if (hk_type_eq(type_of(s, t), rt))
        return t;
    return emit2(s, HK_OP_FADD, t, real(s, 0.0, rt), rt);
}

/* ta + tb, either zero. */
static HkVal add(Jvp *s, HkVal ta, HkVal tb, HkType rt)
{
    if (ta == HK_NOVAL)
        return tb;
    if (tb == HK_NOVAL)
        return ta;
    return emit2(s, HK_OP_FADD, ta, tb, rt);
}

/* f * t for a tangent t (zero stays zero). */
static HkVal scale(Jvp *s, HkVal f, HkVal t, HkType rt)
{
    return t == HK_NOVAL ? HK_NOVAL : emit2(s, HK_OP_FMUL, f, t, rt);
}

/* t / d for a tangent t. */
static HkVal over(Jvp *s, HkVal t, HkVal d, HkType rt)
{
    return t == HK_NOVAL ? HK_NOVAL : emit2(s, HK_OP_FDIV, t, d, rt);
}

/* ---- the rules ----------------------------------------------------------- */

static HkVal tan_of(const Jvp *s, HkVal v)
{
    return v < s->ntan ? s->tan[v] : HK_NOVAL;
}

/* min and max of a and b, whose tangents are ta and tb: the tangent of
 * the operand chosen; at a tie (and when
 * neither compares, a NaN) the mean of both, the same in both modes. */
static HkVal minmax(Jvp *s, HkPred lt, HkVal a, HkVal b, HkVal ta, HkVal tb,
                    HkType rt)
{
    if (ta == HK_NOVAL && tb == HK_NOVAL)
        return HK_NOVAL;
    HkVal fa = full(s, ta, rt), fb = full(s, tb, rt);
    HkVal sum = emit2(s, HK_OP_FADD, fa, fb, rt);
    HkVal mean = emit2(s, HK_OP_FMUL, sum, real(s, 0.5, hk_scalar(rt.elem)), rt);
    HkVal pa = fcmp(s, lt, a, b), pb = fcmp(s, lt, b, a);
    HkVal inner = sel(s, pb, fb, mean, rt);
    return sel(s, pa, fa, inner, rt);
}

/* (1 - x)(1 + x): 1 - x^2, exact near |x| = 1 where 1 - x x is not. */
static HkVal one_minus_sq(Jvp *s, HkVal x, HkType t)
{
    HkVal one = real(s, 1.0, hk_scalar(t.elem));
    HkVal lo = emit2(s, HK_OP_FSUB, one, x, t);
    HkVal hi = emit2(s, HK_OP_FADD, one, x, t);
    return emit2(s, HK_OP_FMUL, lo, hi, t);
}

/* The math ops of one operand x with result r: the derivative's factor
 * times tx (or tx over a divisor). */
static HkVal math1(Jvp *s, const HkInst *i, HkVal x, HkVal r, HkVal tx)
{
    HkType t = i->type;
    HkType e = hk_scalar(t.elem);
    switch (i->op) {
    case HK_OP_EXP: return scale(s, r, tx, t);
    case HK_OP_EXPM1: return scale(s, emit2(s, HK_OP_FADD, r, real(s, 1.0, e), t), tx, t);
    case HK_OP_LOG: return over(s, tx, x, t);
    case HK_OP_LOG2:
        return over(s, tx, emit2(s, HK_OP_FMUL, x, real(s, log(2.0), e), t), t);
    case HK_OP_LOG10:
        return over(s, tx, emit2(s, HK_OP_FMUL, x, real(s, log(10.0), e), t), t);
    case HK_OP_LOG1P: return over(s, tx, emit2(s, HK_OP_FADD, x, real(s, 1.0, e), t), t);
    case HK_OP_SQRT:  /* tx / (2 r): at 0, tx/0 (inf, or NaN for tx 0) */
        return over(s, scale(s, real(s, 0.5, e), tx, t), r, t);
    case HK_OP_RSQRT:  /* -r / (2 x) tx */
    {
        HkVal q = emit2(s, HK_OP_FDIV, r, x, t);
        HkVal h = scale(s, real(s, -0.5, e), tx, t);
        return scale(s, q, h, t);
    }
    case HK_OP_SIN: return scale(s, emit1(s, HK_OP_COS, x, t), tx, t);
    case HK_OP_COS:
        return scale(s, emit1(s, HK_OP_FNEG, emit1(s, HK_OP_SIN, x, t), t), tx, t);
    case HK_OP_TAN: {
        HkVal rr = emit2(s, HK_OP_FMUL, r, r, t);
        HkVal one = real(s, 1.0, e);
        return scale(s, emit2(s, HK_OP_FADD, one, rr, t), tx, t);
    }
    case HK_OP_SINH: return scale(s, emit1(s, HK_OP_COSH, x, t), tx, t);
    case HK_OP_COSH: return scale(s, emit1(s, HK_OP_SINH, x, t), tx, t);
    case HK_OP_TANH: {
        HkVal rr = emit2(s, HK_OP_FMUL, r, r, t);
        HkVal one = real(s, 1.0, e);
        return scale(s, emit2(s, HK_OP_FSUB, one, rr, t), tx, t);
    }
    case HK_OP_ATAN: {
        HkVal xx = emit2(s, HK_OP_FMUL, x, x, t);
        HkVal one = real(s, 1.0, e);
        return over(s, tx, emit2(s, HK_OP_FADD, one, xx, t), t);
    }
    case HK_OP_ASIN:
    case HK_OP_ACOS: {
        /* +-tx / sqrt((1 - x)(1 + x)): the product is exact near 1 */
        HkVal q = one_minus_sq(s, x, t);
        HkVal d = over(s, tx, emit1(s, HK_OP_SQRT, q, t), t);
        return i->op == HK_OP_ACOS ? emit1(s, HK_OP_FNEG, d, t) : d;
    }
    case HK_OP_ASINH: {
        HkVal xx = emit2(s, HK_OP_FMUL, x, x, t);
        HkVal one = real(s, 1.0, e);
        HkVal q = emit2(s, HK_OP_FADD, xx, one, t);
        return over(s, tx, emit1(s, HK_OP_SQRT, q, t), t);
    }
    case HK_OP_ACOSH: {
        HkVal one = real(s, 1.0, e);
        HkVal lo = emit2(s, HK_OP_FSUB, x, one, t);
        HkVal hi = emit2(s, HK_OP_FADD, x, one, t);
        HkVal q = emit2(s, HK_OP_FMUL, lo, hi, t);
        return over(s, tx, emit1(s, HK_OP_SQRT, q, t), t);
    }
    case HK_OP_ATANH: {
        HkVal q = one_minus_sq(s, x, t);
        return over(s, tx, q, t);
    }
    case HK_OP_ABS: {
        /* sign(x) tx, sign(0) = 0: the subgradient 0 at the kink */
        HkVal zero = real(s, 0.0, e);
        HkVal ftx = full(s, tx, t);
        HkVal neg = emit1(s, HK_OP_FNEG, ftx, t);
        HkVal zt = real(s, 0.0, t);
        HkVal inner = sel(s, fcmp(s, HK_P_OLT, x, zero), neg, zt, t);
        return sel(s, fcmp(s, HK_P_OGT, x, zero), ftx, inner, t);
    }
    case HK_OP_FLOOR:
    case HK_OP_CEIL:
        return HK_NOVAL;  /* flat between the integers */
    default:
        return HK_NOVAL;
    }
}

/* atan2, hypot and pow of x and y with result r. */
static HkVal math2(Jvp *s, const HkInst *i, HkVal x, HkVal y, HkVal r)
{
    HkType t = i->type;
    HkType e = hk_scalar(t.elem);
    HkVal tx = tan_of(s, x), ty = tan_of(s, y);
    switch (i->op) {
    case HK_OP_ATAN2: {
        /* atan2 %y, %x (C's order): (x ty - y tx) / (x^2 + y^2); here the
         * first operand, x, is atan2's y */
        HkVal yv = x, xv = y, ty_ = tx, tx_ = ty;
        HkVal p = scale(s, xv, ty_, t);
        HkVal q = scale(s, yv, tx_, t);
        HkVal n = p == HK_NOVAL ? emit1(s, HK_OP_FNEG, q, t)
                  : q == HK_NOVAL ? p
                                  : emit2(s, HK_OP_FSUB, p, q, t);
        HkVal xx = emit2(s, HK_OP_FMUL, xv, xv, t);
        HkVal yy = emit2(s, HK_OP_FMUL, yv, yv, t);
        HkVal d = emit2(s, HK_OP_FADD, xx, yy, t);
        return over(s, n, d, t);
    }
    case HK_OP_HYPOT:
    {
        HkVal px = scale(s, x, tx, t);
        HkVal py = scale(s, y, ty, t);
        return over(s, add(s, px, py, t), r, t);
    }
    case HK_OP_POW: {
        /* y x^(y-1) tx + (x == 0 ? 0 : r log x) ty */
        HkVal dx = HK_NOVAL, dy = HK_NOVAL;
        if (tx != HK_NOVAL) {
            HkVal ym1 = emit2(s, HK_OP_FSUB, y, real(s, 1.0, e), type_of(s, y));
            HkVal pw = emit2(s, HK_OP_POW, x, ym1, t);
            dx = scale(s, emit2(s, HK_OP_FMUL, y, pw, t), tx, t);
        }
        if (ty != HK_NOVAL) {
            HkVal l = emit2(s, HK_OP_FMUL, r, emit1(s, HK_OP_LOG, x, type_of(s, x)), t);
            HkVal z = real(s, 0.0, e);
            HkVal at0 = fcmp(s, HK_P_OEQ, x, z);
            HkVal zt = real(s, 0.0, t);
            dy = scale(s, sel(s, at0, zt, l, t), ty, t);
        }
        return add(s, dx, dy, t);
    }
    default:
        return HK_NOVAL;
    }
}

/* ---- refusals ------------------------------------------------------------ */

/* Refuses node at of g (the kernel itself, or a func it calls). */
static void refuse(Jvp *s, HkFunc *g, const HkInst *at, const char *why)
{
    const HkPositions *p = hk_positions(s->r, g);
    const char *pos = p != NULL ? hk_pos(p, at) : "?";
    const char *in = g == s->f ? ""
                     : hk_asprintf(s->a, " of func '%s'", g->name);
    hk_error(hk_run_diags(s->r), &s->f->module->src, at->loc,
             "'%s': jvp refuses node %s (%s)%s: %s; differentiate a kernel "
             "without it", s->f->name, pos, hk_ops[at->op].mnemonic, in, why);
    s->failed = 1;
}

/* ---- one instruction ----------------------------------------------------- */

static int is_real(HkType t)
{
    return t.elem == HK_F32 || t.elem == HK_F64;
}

/* The tangent of i's one real result, or HK_NOVAL for zero. */
static HkVal rule(Jvp *s, HkInst *i)
{
    HkType t = i->type;
    HkVal r = i->res[0];
    HkVal a = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    HkVal b = i->nops > 1 ? i->ops[1] : HK_NOVAL;
    HkVal ta = a != HK_NOVAL ? tan_of(s, a) : HK_NOVAL;
    HkVal tb = b != HK_NOVAL ? tan_of(s, b) : HK_NOVAL;
    switch (i->op) {
    case HK_OP_CONST:
    case HK_OP_SITOFP:
    case HK_OP_UITOFP:
    case HK_OP_RANDOM:
        return HK_NOVAL;
    case HK_OP_LOAD:
        if (i->slot < 0 || !s->in[i->slot])
            return HK_NOVAL;
        {
            HkInst *n = hk_inst_new(s->f, HK_OP_LOAD, s->loc);
            n->slot = s->tslot[i->slot];
            HkVal v = hk_inst_result(s->f, n, t, hk_asprintf(s->a, "%s.dot", s->base));
            place(s, n);
            return v;
        }
    case HK_OP_FADD: {
        HkVal sum = add(s, ta, tb, t);
        return sum == HK_NOVAL ? HK_NOVAL : full(s, sum, t);
    }
    case HK_OP_FSUB:
        if (tb == HK_NOVAL)
            return ta == HK_NOVAL ? HK_NOVAL : full(s, ta, t);
        if (ta == HK_NOVAL)
            return full(s, emit1(s, HK_OP_FNEG, tb, type_of(s, tb)), t);
        return emit2(s, HK_OP_FSUB, ta, tb, t);
    case HK_OP_FMUL:
    {
        HkVal p = scale(s, b, ta, t);
        HkVal q = scale(s, a, tb, t);
        return add(s, p, q, t);
    }
    case HK_OP_FDIV: {
        /* (ta - r tb) / b */
        HkVal n = ta;
        if (tb != HK_NOVAL) {
            HkVal rt = emit2(s, HK_OP_FMUL, r, tb, t);
            n = ta == HK_NOVAL ? emit1(s, HK_OP_FNEG, rt, t)
                               : emit2(s, HK_OP_FSUB, ta, rt, t);
        }
        return over(s, n, b, t);
    }
    case HK_OP_FNEG:
        return ta == HK_NOVAL ? HK_NOVAL : emit1(s, HK_OP_FNEG, ta, t);
    case HK_OP_FPEXT:
    case HK_OP_FPTRUNC:
    case HK_OP_TRANSPOSE:
    case HK_OP_SUM:
        return ta == HK_NOVAL ? HK_NOVAL : emit1(s, i->op, ta, t);
    case HK_OP_EXTRACT: {
        if (ta == HK_NOVAL)
            return HK_NOVAL;
        HkVal v = emit1(s, HK_OP_EXTRACT, ta, t);
        HkInst *n = s->f->values[v].def;
        n->nimm = i->nimm;
        memcpy(n->imm, i->imm, sizeof n->imm);
        return v;
    }
    case HK_OP_INSERT: {
        if (ta == HK_NOVAL && tb == HK_NOVAL)
            return HK_NOVAL;
        HkVal fa = full(s, ta, type_of(s, a));
        HkVal fb = full(s, tb, type_of(s, b));
        HkVal v = emit2(s, HK_OP_INSERT, fa, fb, t);
        HkInst *n = s->f->values[v].def;
        n->nimm = i->nimm;
        memcpy(n->imm, i->imm, sizeof n->imm);
        return v;
    }
    case HK_OP_BUILD: {
        int any = 0;
        for (uint32_t k = 0; k < i->nops; k++)
            any |= tan_of(s, i->ops[k]) != HK_NOVAL;
        if (!any)
            return HK_NOVAL;
        HkVal *ops = hk_alloc(s->a, i->nops * sizeof *ops);
        for (uint32_t k = 0; k < i->nops; k++)
            ops[k] = full(s, tan_of(s, i->ops[k]), type_of(s, i->ops[k]));
        return emit(s, HK_OP_BUILD, ops, i->nops, t);
    }
    case HK_OP_SELECT: {
        HkVal tx = tan_of(s, b), ty = tan_of(s, i->ops[2]);
        if (tx == HK_NOVAL && ty == HK_NOVAL)
            return HK_NOVAL;
        /* the tangent selects: the untaken side's never reaches it */
        HkVal fx = full(s, tx, t);
        HkVal fy = full(s, ty, t);
        return sel(s, a, fx, fy, t);
    }
    case HK_OP_MINIMUM: return minmax(s, HK_P_OLT, a, b, ta, tb, t);
    case HK_OP_MAXIMUM: return minmax(s, HK_P_OGT, a, b, ta, tb, t);
    case HK_OP_CLIP: {
        /* minimum(maximum(x, lo), hi), each by its rule */
        HkVal m = emit2(s, HK_OP_MAXIMUM, a, b, t);
        HkVal tm = minmax(s, HK_P_OGT, a, b, ta, tb, t);
        return minmax(s, HK_P_OLT, m, i->ops[2], tm, tan_of(s, i->ops[2]), t);
    }
    case HK_OP_DOT:
    case HK_OP_CROSS:
    case HK_OP_MATVEC:
    case HK_OP_MATMUL:
        /* bilinear: op(ta, b) + op(a, tb) */
    {
        HkVal p = ta == HK_NOVAL ? HK_NOVAL : emit2(s, i->op, ta, b, t);
        HkVal q = tb == HK_NOVAL ? HK_NOVAL : emit2(s, i->op, a, tb, t);
        return add(s, p, q, t);
    }
    case HK_OP_NORM:
        /* dot(a, ta) / r: at 0, 0/0 (NaN) */
        return ta == HK_NOVAL ? HK_NOVAL
                              : emit2(s, HK_OP_FDIV, emit2(s, HK_OP_DOT, a, ta, t),
                                      r, t);
    case HK_OP_ATAN2:
    case HK_OP_HYPOT:
    case HK_OP_POW:
        if (ta == HK_NOVAL && tb == HK_NOVAL)
            return HK_NOVAL;
        return math2(s, i, a, b, r);
    default:
        if (hk_ops[i->op].rule == HK_R_MATH1 || i->op == HK_OP_ABS)
            return ta == HK_NOVAL ? HK_NOVAL : math1(s, i, a, r, ta);
        return HK_NOVAL;
    }
}

/* What this step refuses, by op; NULL when i is differentiated. */
static const char *refused(const Jvp *s, const HkInst *i)
{
    if (hk_ops[i->op].rule == HK_R_LANE)
        return "a reduction over the samples is not differentiated";
    switch (i->op) {
    case HK_OP_RAW_DEVICE:
        return "this op is not differentiated yet";
    case HK_OP_PROD:
        return is_real(i->type) ? "prod is not differentiated yet" : NULL;
    case HK_OP_LOAD:
    case HK_OP_STORE:
        if (i->has_index && i->slot >= 0 && (s->in[i->slot] || s->out[i->slot]))
            return "an indexed access of an active slot is not differentiated yet";
        return NULL;
    default:
        return NULL;
    }
}

/* The tangent store after a store to an active output slot. */
static void store_tangent(Jvp *s, HkInst *i)
{
    HkVal v = i->ops[0];
    s->base = s->f->slots[i->slot].name;
    HkVal t = full(s, tan_of(s, v), s->f->slots[i->slot].type);
    HkInst *n = hk_inst_new(s->f, HK_OP_STORE, s->loc);
    hk_inst_set_ops(s->f, n, &t, 1);
    n->slot = s->tslot[i->slot];
    place(s, n);
}

/* Names tangent t "<base>.dot" when the rule made it (first: the values
 * before the rule ran) and the name is free. */
static void name_tangent(Jvp *s, HkVal t, uint32_t first)
{
    if (t < first)
        return;
    const char *want = hk_asprintf(s->a, "%s.dot", s->base);
    size_t n = strlen(want);
    if (hk_symtab_get(s->f->syms, want, n) != UINT32_MAX)
        return;
    const char *old = s->f->values[t].name;
    hk_symtab_del(s->f->syms, old, strlen(old));
    s->f->values[t].name = want;
    hk_symtab_put(s->f->syms, want, n, t);
}

/* Refuses g's derivative's name, <g>_jvp, when the module has a func of
 * that name jvp did not make. */
static void name_free(Jvp *s, const HkFunc *g)
{
    HkModule *m = g->module;
    const char *name = hk_asprintf(s->a, "%s_jvp", g->name);
    uint32_t idx = hk_func_index(m, name, strlen(name));
    if (idx == UINT32_MAX || m->funcs[idx]->jvp_made)
        return;
    hk_error(hk_run_diags(s->r), &m->src, m->funcs[idx]->loc,
             "'%s': jvp names the derivative of func '%s' '%s', which the "
             "module already has", s->f->name, g->name, name);
    s->failed = 1;
}

/* Refuses every node of g, and of the funcs it calls (each once: seen,
 * by function index), that jvp does not differentiate. */
static void refuse_in(Jvp *s, HkFunc *g, uint8_t *seen)
{
    HkModule *m = g->module;
    for (const HkInst *i = g->body.first; i != NULL; i = hk_preorder_next(i)) {
        const char *why = refused(s, i);
        if (why != NULL)
            refuse(s, g, i, why);
        if (i->op == HK_OP_CALL && i->callee < m->nfuncs && !seen[i->callee]) {
            seen[i->callee] = 1;
            name_free(s, m->funcs[i->callee]);
            refuse_in(s, m->funcs[i->callee], seen);
        }
    }
}

/* Refuses every node this step does not differentiate, before anything
 * changes (the positions are the primal's); whether one was. */
static int refuse_all(Jvp *s)
{
    refuse_in(s, s->f, hk_alloc(s->a, s->f->module->nfuncs + 1u));
    return s->failed;
}

/* ---- which values may carry a tangent ----------------------------------- */

/* Marks v active; whether it was not. */
static int mark(Jvp *s, HkVal v)
{
    if (s->act[v])
        return 0;
    s->act[v] = 1;
    return 1;
}

static int any_active(const Jvp *s, const HkInst *i, uint32_t from)
{
    for (uint32_t k = from; k < i->nops; k++)
        if (s->act[i->ops[k]])
            return 1;
    return 0;
}

static int act_block(Jvp *s, const HkBlock *b);

/* Marks result (or carried value) k of region op i active when some
 * region's yield k is; whether anything changed. */
static int act_yields(Jvp *s, const HkInst *i, const HkVal *vals)
{
    int ch = 0;
    for (uint32_t r = 0; r < i->nregions; r++) {
        const HkInst *y = hk_block_yield(&i->regions[r]);
        for (uint32_t k = 0; y != NULL && k < y->nops && k < i->nres; k++)
            if (is_real(type_of(s, vals[k])) && s->act[y->ops[k]])
                ch |= mark(s, vals[k]);
    }
    return ch;
}

/* One step of the activity of i's results; whether anything changed. */
static int act_inst(Jvp *s, const HkInst *i)
{
    int ch = 0;
    switch (i->op) {
    case HK_OP_LOOP: {
        uint32_t first = i->has_count ? 1u : 0u;
        for (uint32_t k = 0; k < i->nres; k++)
            if (is_real(type_of(s, i->iters[k])) && s->act[i->ops[first + k]])
                ch |= mark(s, i->iters[k]);
        ch |= act_block(s, &i->regions[0]);
        ch |= act_yields(s, i, i->iters);
        for (uint32_t k = 0; k < i->nres; k++)
            if (s->act[i->iters[k]])
                ch |= mark(s, i->res[k]);
        return ch;
    }
    case HK_OP_IF:
    case HK_OP_DISPATCH:
        for (uint32_t r = 0; r < i->nregions; r++)
            ch |= act_block(s, &i->regions[r]);
        return ch | act_yields(s, i, i->res);
    case HK_OP_LOAD:
        return i->slot >= 0 && s->in[i->slot] ? mark(s, i->res[0]) : 0;
    case HK_OP_CALL:
        for (uint32_t k = 0; k < i->nres && any_active(s, i, 0); k++)
            if (is_real(type_of(s, i->res[k])))
                ch |= mark(s, i->res[k]);
        return ch;
    case HK_OP_CONST:
    case HK_OP_SITOFP:
    case HK_OP_UITOFP:
    case HK_OP_RANDOM:
    case HK_OP_FLOOR:
    case HK_OP_CEIL:
        return 0;
    default:
        if (i->nres == 1 && is_real(i->type) && any_active(s, i, 0))
            return mark(s, i->res[0]);
        return 0;
    }
}

static int act_block(Jvp *s, const HkBlock *b)
{
    int ch = 0;
    for (const HkInst *i = b->first; i != NULL; i = i->next)
        ch |= act_inst(s, i);
    return ch;
}

static void differentiate(Jvp *s, HkInst *i);

/* Every instruction of blk, in order (a region's tangents stay in it). */
static void differentiate_block(Jvp *s, HkBlock *blk)
{
    HkInst *next;
    for (HkInst *i = blk->first; i != NULL; i = next) {
        next = i->next;
        differentiate(s, i);
    }
}

/* After the regions of region op i: each result k that need marks gets
 * a tangent result, "<result>.dot", after the primal results (m of
 * them), and every region yields its tangent (a zero one as 0.0) after
 * the primal values. */
static void extend_results(Jvp *s, HkInst *i, const uint8_t *need, uint32_t m)
{
    uint32_t n = i->nres;
    for (uint32_t r = 0; r < i->nregions; r++) {
        HkInst *y = i->regions[r].last;
        HkVal *ops = hk_alloc(s->a, (n + m) * sizeof *ops);
        memcpy(ops, y->ops, n * sizeof *ops);
        s->at = y;
        s->loc = y->loc;
        uint32_t j = n;
        for (uint32_t k = 0; k < n; k++) {
            if (!need[k])
                continue;
            s->base = s->f->values[i->res[k]].name;
            ops[j++] = full(s, tan_of(s, y->ops[k]), type_of(s, i->res[k]));
        }
        hk_inst_set_ops(s->f, y, ops, n + m);
    }
    HkVal *res = hk_alloc(s->a, (n + m) * sizeof *res);
    memcpy(res, i->res, n * sizeof *res);
    uint32_t j = n;
    for (uint32_t k = 0; k < n; k++) {
        if (!need[k])
            continue;
        HkVal p = i->res[k];
        res[j] = hk_value_new(s->f, type_of(s, p),
                              hk_asprintf(s->a, "%s.dot", s->f->values[p].name),
                              HK_DEF_INST, i, j, i->loc);
        s->tan[p] = res[j];
        j++;
    }
    i->res = res;
    i->nres = n + m;
}

/* After the regions of if or dispatch i: each real result whose yields
 * have a tangent in some region gets a tangent result. */
static void branch_results(Jvp *s, HkInst *i)
{
    uint32_t n = i->nres, m = 0;
    uint8_t *need = hk_alloc(s->a, n + 1u);
    for (uint32_t k = 0; k < n; k++) {
        if (!is_real(type_of(s, i->res[k])))
            continue;
        for (uint32_t r = 0; r < i->nregions && !need[k]; r++) {
            const HkInst *y = hk_block_yield(&i->regions[r]);
            need[k] = y != NULL && k < y->nops &&
                      tan_of(s, y->ops[k]) != HK_NOVAL;
        }
        m += need[k];
    }
    if (m > 0)
        extend_results(s, i, need, m);
}

/* ---- calls and funcs ------------------------------------------------------ */

static HkFunc *jvp_func(Jvp *s, HkFunc *g);

/* Appends to i's results a tangent "<result>.dot" for each real one
 * (after the primal results, in order) and records them. */
static void tangent_results(Jvp *s, HkInst *i)
{
    uint32_t n = i->nres, m = 0;
    for (uint32_t k = 0; k < n; k++)
        m += (uint32_t)is_real(type_of(s, i->res[k]));
    HkVal *res = hk_alloc(s->a, (n + m) * sizeof *res);
    memcpy(res, i->res, n * sizeof *res);
    for (uint32_t k = 0, j = n; k < n; k++) {
        HkVal p = i->res[k];
        if (!is_real(type_of(s, p)))
            continue;
        res[j] = hk_value_new(s->f, type_of(s, p),
                              hk_asprintf(s->a, "%s.dot", s->f->values[p].name),
                              HK_DEF_INST, i, j, i->loc);
        s->tan[p] = res[j++];
    }
    i->res = res;
    i->nres = n + m;
}

/* A call with an active argument calls the callee's derivative func
 * instead, @<callee>_jvp: the arguments, then the tangent of each real
 * one (0.0 when it has none); the results, then the tangent of each
 * real one. */
static void differentiate_call(Jvp *s, HkInst *i)
{
    if (!any_active(s, i, 0))
        return;
    HkFunc *g = s->f->module->funcs[i->callee];
    HkFunc *gj = jvp_func(s, g);
    if (gj == NULL)
        return;
    uint32_t n = i->nops, m = gj->nparams - n;
    HkVal *ops = hk_alloc(s->a, (n + m) * sizeof *ops);
    memcpy(ops, i->ops, n * sizeof *ops);
    s->at = i;
    s->loc = i->loc;
    for (uint32_t k = 0, j = n; k < n; k++) {
        HkVal v = i->ops[k];
        if (!is_real(type_of(s, v)))
            continue;
        s->base = s->f->values[v].name;
        ops[j++] = full(s, tan_of(s, v), type_of(s, v));
    }
    hk_inst_set_ops(s->f, i, ops, n + m);
    i->callee = hk_func_index(s->f->module, gj->name, strlen(gj->name));
    tangent_results(s, i);
}

/* The tangent parameters of h: "<param>.dot" after the primal ones, one
 * per real parameter, active from the start. */
static void tangent_params(Jvp *t)
{
    HkFunc *h = t->f;
    uint32_t n = h->nparams, m = 0;
    for (uint32_t k = 0; k < n; k++)
        m += (uint32_t)is_real(type_of(t, h->params[k]));
    HkVal *params = hk_alloc(t->a, (n + m) * sizeof *params);
    memcpy(params, h->params, n * sizeof *params);
    for (uint32_t k = 0, j = n; k < n; k++) {
        HkVal p = h->params[k];
        if (!is_real(type_of(t, p)))
            continue;
        params[j] = hk_value_new(h, type_of(t, p),
                                 hk_asprintf(t->a, "%s.dot", h->values[p].name),
                                 HK_DEF_PARAM, NULL, j, h->values[p].loc);
        t->tan[p] = params[j++];
        t->act[p] = 1;
    }
    h->params = params;
    h->nparams = n + m;
}

/* The ret of h returns the tangent of each real result after the
 * primal results (0.0 when it has none). */
static void tangent_ret(Jvp *t)
{
    HkFunc *h = t->f;
    HkInst *ret = h->body.last;
    uint32_t n = h->nrtypes, m = 0;
    for (uint32_t k = 0; k < n; k++)
        m += (uint32_t)is_real(h->rtypes[k]);
    HkVal *ops = hk_alloc(t->a, (n + m) * sizeof *ops);
    HkType *rt = hk_alloc(t->a, (n + m) * sizeof *rt);
    memcpy(ops, ret->ops, n * sizeof *ops);
    memcpy(rt, h->rtypes, n * sizeof *rt);
    t->at = ret;
    t->loc = ret->loc;
    for (uint32_t k = 0, j = n; k < n; k++) {
        if (!is_real(h->rtypes[k]))
            continue;
        t->base = h->values[ret->ops[k]].name;
        rt[j] = h->rtypes[k];
        ops[j++] = full(t, tan_of(t, ret->ops[k]), h->rtypes[k]);
    }
    hk_inst_set_ops(h, ret, ops, n + m);
    h->rtypes = rt;
    h->nrtypes = n + m;
}

/* The derivative func of g, @<g>_jvp, made once per module: g's copy
 * with every real parameter and result active; NULL after a
 * diagnostic. */
static HkFunc *jvp_func(Jvp *s, HkFunc *g)
{
    HkModule *m = g->module;
    const char *name = hk_asprintf(s->a, "%s_jvp", g->name);
    uint32_t idx = hk_func_index(m, name, strlen(name));
    if (idx != UINT32_MAX)  /* made before: refuse_in refused any other */
        return m->funcs[idx];
    HkFunc *h = hk_func_copy(m, g, name);
    h->jvp_made = 1;
    Jvp t;
    memset(&t, 0, sizeof t);
    t.r = s->r;
    t.f = h;
    t.a = s->a;
    t.in = t.out = hk_alloc(s->a, 1);
    t.ntan = h->nvalues;
    t.tan = hk_alloc(s->a, (t.ntan + 1) * sizeof *t.tan);
    for (uint32_t v = 0; v < t.ntan; v++)
        t.tan[v] = HK_NOVAL;
    t.act = hk_alloc(s->a, t.ntan + 1u);
    tangent_params(&t);
    while (act_block(&t, &h->body))
        ;
    uint32_t floor = h->nserials;
    differentiate_block(&t, &h->body);
    tangent_ret(&t);
    hk_dce_from(h, floor);
    s->failed |= t.failed;
    return h;
}

/* Loop i: each carried value that may depend on an active input gets a
 * carried tangent "<carried>.dot" after the primal ones, entering as the
 * init's tangent (0.0 when it has none), yielded as the yield's and
 * leaving as a result "<result>.dot".  The tangents ride the primal's
 * trips, so every trip bound and break_if position holds for them. */
static void differentiate_loop(Jvp *s, HkInst *i)
{
    uint32_t n = i->nres, m = 0, first = i->has_count ? 1u : 0u;
    for (uint32_t k = 0; k < n; k++)
        m += s->act[i->iters[k]];
    if (m == 0) {
        differentiate_block(s, &i->regions[0]);
        return;
    }
    HkVal *ops = hk_alloc(s->a, (i->nops + m) * sizeof *ops);
    HkVal *iters = hk_alloc(s->a, (n + m) * sizeof *iters);
    memcpy(ops, i->ops, i->nops * sizeof *ops);
    memcpy(iters, i->iters, n * sizeof *iters);
    s->at = i;
    s->loc = i->loc;
    for (uint32_t k = 0, j = n; k < n; k++) {
        HkVal c = i->iters[k];
        if (!s->act[c])
            continue;
        s->base = s->f->values[c].name;
        ops[first + j] = full(s, tan_of(s, i->ops[first + k]), type_of(s, c));
        iters[j] = hk_value_new(s->f, type_of(s, c),
                                hk_asprintf(s->a, "%s.dot", s->base),
                                HK_DEF_ITER, i, j, i->loc);
        s->tan[c] = iters[j++];
    }
    hk_inst_set_ops(s->f, i, ops, i->nops + m);
    i->iters = iters;
    differentiate_block(s, &i->regions[0]);
    uint8_t *need = hk_alloc(s->a, n + 1u);
    for (uint32_t k = 0; k < n; k++)
        need[k] = s->act[iters[k]];
    extend_results(s, i, need, m);
}

static void differentiate(Jvp *s, HkInst *i)
{
    if (i->op == HK_OP_LOOP) {
        differentiate_loop(s, i);
        return;
    }
    if (i->op == HK_OP_CALL) {
        differentiate_call(s, i);
        return;
    }
    if (i->op == HK_OP_IF || i->op == HK_OP_DISPATCH) {
        for (uint32_t r = 0; r < i->nregions; r++)
            differentiate_block(s, &i->regions[r]);
        branch_results(s, i);
        return;
    }
    s->at = i->next;
    s->blk = i->block;
    s->loc = i->loc;
    if (i->op == HK_OP_STORE) {
        if (i->slot >= 0 && s->out[i->slot])
            store_tangent(s, i);
        return;
    }
    if (i->nres != 1 || !is_real(i->type))
        return;
    HkVal r = i->res[0];
    s->base = s->f->values[r].name;
    uint32_t first = s->f->nvalues;
    HkVal t = rule(s, i);
    if (t == HK_NOVAL || r >= s->ntan)
        return;
    name_tangent(s, t, first);
    s->tan[r] = t;
}

/* ---- activity ------------------------------------------------------------ */

static int readable(HkRole role)
{
    return role == HK_ROLE_PER_SAMPLE || role == HK_ROLE_VEC_IN ||
           role == HK_ROLE_MAT_IN || role == HK_ROLE_UNIFORM ||
           role == HK_ROLE_MUTABLE;
}

/* Marks the slots a list ("a:b") names in mark; -1 after a diagnostic. */
static int mark_list(Jvp *s, const char *list, const char *key, uint8_t *mark,
                     int output)
{
    const char *p = list;
    while (*p != '\0') {
        const char *e = strchr(p, ':');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
        uint32_t id = hk_symtab_get(s->f->syms, p, n);
        const char *name = hk_strndup(s->a, p, n);
        if (id == UINT32_MAX || !(id & HK_SYM_SLOT)) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, s->f->loc,
                     "'%s': jvp{%s=...} names '%s', which is not a slot of "
                     "the kernel", s->f->name, key, name);
            return -1;
        }
        const HkSlot *sl = &s->f->slots[id & ~HK_SYM_SLOT];
        int ok = is_real(sl->type) &&
                 (output ? sl->role == HK_ROLE_MUTABLE : readable(sl->role));
        if (!ok) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, sl->loc,
                     "'%s': jvp{%s=...} names slot '%s', which is not a real "
                     "%s slot (%s)", s->f->name, key, name,
                     output ? "output (mutable)"
                            : "input (per_sample, vec_in, mat_in, uniform, mutable)",
                     hk_roles[sl->role].name);
            return -1;
        }
        mark[id & ~HK_SYM_SLOT] = 1;
        p += n;
        if (*p == ':')
            p++;
    }
    return 0;
}

/* The active slots: the options' lists, else every real input and
 * output; the real slots of other roles refuse (not yet differentiated)
 * unless the lists leave them out. */
static int activity(Jvp *s)
{
    uint32_t n = s->f->nslots;
    const char *wrt = hk_option(s->r, "wrt", NULL);
    const char *of = hk_option(s->r, "of", NULL);
    if (wrt != NULL && mark_list(s, wrt, "wrt", s->in, 0) != 0)
        return -1;
    if (of != NULL && mark_list(s, of, "of", s->out, 1) != 0)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        const HkSlot *sl = &s->f->slots[k];
        if (!is_real(sl->type))
            continue;
        if (wrt == NULL && readable(sl->role))
            s->in[k] = 1;
        if (of == NULL && sl->role == HK_ROLE_MUTABLE)
            s->out[k] = 1;
        unsigned acc = hk_roles[sl->role].access;
        int in_unread = (acc & HK_ACC_R) && !readable(sl->role) && wrt == NULL;
        int out_unwritten =
            (acc & HK_ACC_W) && sl->role != HK_ROLE_MUTABLE && of == NULL;
        if (in_unread || out_unwritten) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, sl->loc,
                     "'%s': jvp does not differentiate a real %s slot ('%s') "
                     "yet; name the active slots with jvp{wrt=...,of=...}",
                     s->f->name, hk_roles[sl->role].name, sl->name);
            return -1;
        }
    }
    return 0;
}

/* ---- the pass ------------------------------------------------------------ */

int hk_pass_jvp(HawkPassRun *r, HkFunc *f)
{
    if (!f->is_kernel)
        return 0;
    HkArena *a = f->module->arena;
    Jvp s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.f = f;
    s.a = a;
    uint32_t n = f->nslots;
    s.in = hk_alloc(a, n + 1);
    s.out = hk_alloc(a, n + 1);
    s.tslot = hk_alloc(a, (n + 1) * sizeof *s.tslot);
    if (activity(&s) != 0 || refuse_all(&s))
        return 1;
    const char *name = hk_asprintf(a, "%s_jvp", f->name);
    if (hk_func_index(f->module, name, strlen(name)) < f->module->nfuncs) {
        hk_error(hk_run_diags(r), &f->module->src, f->loc,
                 "'%s': jvp names its kernel '%s', which the module already "
                 "has", f->name, name);
        return 1;
    }
    for (uint32_t k = 0; k < n; k++) {
        s.tslot[k] = -1;
        if (!s.in[k] && !s.out[k])
            continue;
        const HkSlot sl = f->slots[k];
        s.tslot[k] = hk_slot_add(f, hk_asprintf(a, "%s.dot", sl.name), sl.role,
                                 sl.type, sl.loc);
        if (s.tslot[k] < 0) {
            hk_error(hk_run_diags(r), &f->module->src, sl.loc,
                     "'%s': jvp names the tangent of '%s' '%s.dot', which the "
                     "kernel already has", f->name, sl.name, sl.name);
            return 1;
        }
    }
    s.ntan = f->nvalues;
    s.tan = hk_alloc(a, (s.ntan + 1) * sizeof *s.tan);
    for (uint32_t v = 0; v < s.ntan; v++)
        s.tan[v] = HK_NOVAL;
    s.act = hk_alloc(a, s.ntan + 1u);
    while (act_block(&s, &f->body))
        ;
    uint32_t floor = f->nserials;
    differentiate_block(&s, &f->body);
    /* a tangent only a comparison or an inactive output read is dead */
    hk_dce_from(f, floor);
    uint32_t fi = hk_func_index(f->module, f->name, strlen(f->name));
    hk_symtab_del(f->module->fsyms, f->name, strlen(f->name));
    f->name = name;
    hk_symtab_put(f->module->fsyms, name, strlen(name), fi);
    return 0;
}
