/* fp-domain.c -- the fp-domain analysis: every divisor, sqrt, rsqrt, log*,
 * asin, acos, atanh, acosh and pow base of a kernel, proven in its domain
 * (safe, with the reason) or not (unknown, with why); the reals compared
 * with == or != (fp_equality_sites) and the NaN and infinity literals
 * (literal_specials).  Under fp-domain=refuse each unknown site is refused
 * (rule fp.domain).
 *
 * Two provers run in one forward pass in walk order, which defines every
 * value before its uses: the contract's sign rules (sign.c) and an interval
 * per value (interval.c).  A site is safe when either proves it; it is
 * marked by_interval when only the intervals do.  Both speak for non-NaN
 * operands only.
 */
#include <math.h>
#include <string.h>

#include "embedded.h"
#include "interval.h"

/* What the provers know about every value of one kernel, by HkVal. */
typedef struct {
    HkArena *arena;
    const HkFunc *f;
    HkIv *iv;
    HkSignFact *sign;
} Facts;

/* ---- the interval of each value ---------------------------------------- */

/* Every value an element type holds (a real: the whole line). */
static HkIv type_range(HkElem e)
{
    switch (e) {
    case HK_I1: return hk_iv(0.0, 1.0);
    case HK_I32: return hk_iv(-0x1p31, 0x1p31 - 1.0);
    case HK_U32: return hk_iv(0.0, 0x1p32 - 1.0);
    case HK_I64: return hk_iv(-0x1p63, 0x1p63);
    default: return hk_iv_full();
    }
}

/* An integer as an interval of doubles holding it. */
static HkIv int_point(int64_t x)
{
    double d = (double)x;
    if (x >= -(INT64_C(1) << 53) && x <= (INT64_C(1) << 53))
        return hk_iv(d, d);
    return hk_iv(nextafter(d, -INFINITY), nextafter(d, INFINITY));
}

/* r as the range of an integer result of type e: r itself when all of it
 * fits e (nothing wraps), else everything e holds. */
static HkIv int_fit(HkIv r, HkElem e)
{
    HkIv t = type_range(e);
    if (hk_iv_is_empty(r))
        return r;
    r = hk_iv(ceil(r.lo), floor(r.hi));
    if (r.lo < t.lo || r.hi > t.hi || (e == HK_I64 && r.hi >= 0x1p63))
        return t;
    return r;
}

/* r saturated into the range of e. */
static HkIv clamp_to(HkIv r, HkElem e)
{
    HkIv t = type_range(e);
    return hk_iv_min(hk_iv_max(r, hk_iv(t.lo, t.lo)), hk_iv(t.hi, t.hi));
}

/* Component k of constant c as an interval (an f32 literal as its float,
 * NaN as nothing: a claim is about numbers). */
static HkIv const_component(const HkInst *c, uint32_t k)
{
    HkElem e = (HkElem)c->type.elem;
    if (c->x->cst.n == 0)
        return hk_iv(0.0, 0.0);
    k = k < c->x->cst.n ? k : 0;  /* one literal fills every component */
    if (hk_is_float(e)) {
        double v = c->x->cst.f ? c->x->cst.f[k] : 0.0;
        v = e == HK_F32 ? (double)(float)v : v;
        return isnan(v) ? hk_iv_empty() : hk_iv(v, v);
    }
    return int_point(c->x->cst.i ? c->x->cst.i[k] : 0);
}

/* The hull of components [first, first + count) of constant c. */
static HkIv const_iv(const HkInst *c, uint32_t first, uint32_t count)
{
    HkIv r = hk_iv_empty();
    for (uint32_t k = first; k < first + count; k++)
        r = hk_iv_hull(r, const_component(c, k));
    /* all NaN: no number, and no claim either */
    return hk_iv_is_empty(r) ? hk_iv_full() : r;
}

/* The instruction defining v, or NULL for an index, carry or parameter. */
static const HkInst *def_of(const HkFunc *f, HkVal v)
{
    const HkValue *x = hk_value(f, v);
    return x->kind == HK_DEF_INST ? x->def : NULL;
}

/* extract: the components taken, when the source spells them (a const or
 * a build), else the source's hull. */
static HkIv extract_iv(const Facts *F, const HkInst *i)
{
    HkVal v = i->ops[0];
    HkType t = hk_value(F->f, v)->type;
    uint32_t first = hk_flat_index(t, i->x->imm, i->x->nimm);
    uint32_t count = t.rank == 2 && i->x->nimm == 1 ? t.dim[1] : 1u;
    const HkInst *d = def_of(F->f, v);
    if (d != NULL && d->op == HK_OP_CONST)
        return const_iv(d, first, count);
    if (d != NULL && d->op == HK_OP_BUILD && first + count <= d->nops) {
        HkIv r = hk_iv_empty();
        for (uint32_t k = first; k < first + count; k++)
            r = hk_iv_hull(r, F->iv[d->ops[k]]);
        return r;
    }
    return F->iv[v];
}

/* The hull of every operand (build). */
static HkIv hull_of_ops(const Facts *F, const HkInst *i)
{
    HkIv r = hk_iv_empty();
    for (uint32_t k = 0; k < i->nops; k++)
        r = hk_iv_hull(r, F->iv[i->ops[k]]);
    return r;
}

/* Components of v's type: the terms of a fold over it. */
static uint32_t ncomp(const Facts *F, HkVal v)
{
    return hk_components(hk_value(F->f, v)->type);
}

/* The shape-only and selection ops, the same on reals and integers. */
static int structural(const Facts *F, const HkInst *i, HkIv *r)
{
    const HkIv *iv = F->iv;
    switch (i->op) {
    case HK_OP_SELECT: *r = hk_iv_hull(iv[i->ops[1]], iv[i->ops[2]]); return 1;
    case HK_OP_EXTRACT: *r = extract_iv(F, i); return 1;
    case HK_OP_INSERT: *r = hk_iv_hull(iv[i->ops[0]], iv[i->ops[1]]); return 1;
    case HK_OP_BUILD: *r = hull_of_ops(F, i); return 1;
    case HK_OP_TRANSPOSE: *r = iv[i->ops[0]]; return 1;
    case HK_OP_MINIMUM: *r = hk_iv_min(iv[i->ops[0]], iv[i->ops[1]]); return 1;
    case HK_OP_MAXIMUM: *r = hk_iv_max(iv[i->ops[0]], iv[i->ops[1]]); return 1;
    case HK_OP_CLIP:
        /* minimum(maximum(x, lo), hi), exactly those two ops */
        *r = hk_iv_min(hk_iv_max(iv[i->ops[0]], iv[i->ops[1]]), iv[i->ops[2]]);
        return 1;
    default: return 0;
    }
}

/* The interval of an integer result (wrapping arithmetic). */
static HkIv int_result(const Facts *F, const HkInst *i, HkElem e)
{
    const HkIv *iv = F->iv;
    HkIv r, a = i->nops > 0 ? iv[i->ops[0]] : hk_iv_full();
    if (i->op == HK_OP_CONST || i->op == HK_OP_TABLE)  /* a table: any entry */
        return const_iv(i, 0, i->x->cst.n ? i->x->cst.n : 1);
    if (structural(F, i, &r))
        return r;
    switch (i->op) {
    case HK_OP_ADD: return int_fit(hk_iv_add(a, iv[i->ops[1]]), e);
    case HK_OP_SUB: return int_fit(hk_iv_sub(a, iv[i->ops[1]]), e);
    case HK_OP_MUL: return int_fit(hk_iv_mul(a, iv[i->ops[1]]), e);
    case HK_OP_NEG: return int_fit(hk_iv_neg(a), e);
    case HK_OP_ABS: return int_fit(e == HK_U32 ? a : hk_iv_abs(a), e);
    case HK_OP_SEXT:
    case HK_OP_ZEXT:
    case HK_OP_TRUNC: return int_fit(a, e);
    case HK_OP_SUM: return int_fit(hk_iv_sum_of(a, ncomp(F, i->ops[0])), e);
    case HK_OP_PROD: return int_fit(hk_iv_prod_of(a, ncomp(F, i->ops[0])), e);
    case HK_OP_FPTOSI:
        /* truncation toward zero, saturating; NaN converts to 0 */
        r = hk_iv_is_empty(a) ? a : clamp_to(hk_iv(trunc(a.lo), trunc(a.hi)), e);
        return hk_iv_hull(r, hk_iv(0.0, 0.0));
    default: return type_range(e);
    }
}

/* The products a fold of the two-operand op i adds up, one term each. */
static HkIv products(const Facts *F, const HkInst *i)
{
    HkVal x = i->ops[0], y = i->ops[1];
    return x == y ? hk_iv_sqr(F->iv[x]) : hk_iv_mul(F->iv[x], F->iv[y]);
}

/* The interval of a real result of the folds and products. */
static int fold_result(const Facts *F, const HkInst *i, HkIv *r)
{
    const HkIv *iv = F->iv;
    HkVal x = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    switch (i->op) {
    case HK_OP_DOT: *r = hk_iv_sum_of(products(F, i), ncomp(F, x)); return 1;
    case HK_OP_NORM:
        *r = hk_iv_sqrt(hk_iv_sum_of(hk_iv_sqr(iv[x]), ncomp(F, x)));
        return 1;
    case HK_OP_CROSS: *r = hk_iv_sub(products(F, i), products(F, i)); return 1;
    case HK_OP_MATVEC:
    case HK_OP_MATMUL:
        /* a row of m (of a) has dim[1] terms */
        *r = hk_iv_sum_of(products(F, i), hk_value(F->f, x)->type.dim[1]);
        return 1;
    case HK_OP_SUM: *r = hk_iv_sum_of(iv[x], ncomp(F, x)); return 1;
    case HK_OP_PROD: *r = hk_iv_prod_of(iv[x], ncomp(F, x)); return 1;
    default: return 0;
    }
}

/* bitcast of an integer in a to real e: the bits of the non-negative
 * reals, +0 to +inf, order as the reals do, so such an interval maps
 * endpoint to endpoint; any other bits may be negative or NaN. */
static HkIv bits_to_real(HkIv a, HkElem e)
{
    double top = e == HK_F64 ? 9218868437227405312.0 : 2139095040.0; /* +inf */
    if (hk_iv_is_empty(a) || a.lo < 0.0 || a.hi > top)
        return hk_iv_full();
    int64_t lo = (int64_t)ceil(a.lo), hi = (int64_t)floor(a.hi);
    if (e == HK_F32) {
        uint32_t bl = (uint32_t)lo, bh = (uint32_t)hi;
        float fl, fh;
        memcpy(&fl, &bl, sizeof fl);
        memcpy(&fh, &bh, sizeof fh);
        return hk_iv((double)fl, (double)fh);
    }
    double dl, dh;
    memcpy(&dl, &lo, sizeof dl);
    memcpy(&dh, &hi, sizeof dh);
    return hk_iv(dl, dh);
}

/* The interval of a real result, before it is fitted to its type. */
static HkIv real_result(const Facts *F, const HkInst *i, HkElem e)
{
    const HkIv *iv = F->iv;
    HkIv r, a = i->nops > 0 ? iv[i->ops[0]] : hk_iv_full();
    HkIv b = i->nops > 1 ? iv[i->ops[1]] : hk_iv_full();
    if (i->op == HK_OP_CONST || i->op == HK_OP_TABLE)  /* a table: any entry */
        return const_iv(i, 0, i->x->cst.n ? i->x->cst.n : 1);
    if (structural(F, i, &r) || fold_result(F, i, &r))
        return r;
    switch (hk_ops[i->op].rule) {
    case HK_R_MATH1: return hk_iv_math1(i->op, a, e);
    case HK_R_MATH2: return hk_iv_math2(i->op, a, b, e);
    default: break;
    }
    switch (i->op) {
    case HK_OP_FADD: return hk_iv_add(a, b);
    case HK_OP_FSUB: return hk_iv_sub(a, b);
    case HK_OP_FMUL: return i->ops[0] == i->ops[1] ? hk_iv_sqr(a) : hk_iv_mul(a, b);
    case HK_OP_FDIV: return hk_iv_div(a, b);
    case HK_OP_FNEG: return hk_iv_neg(a);
    case HK_OP_ABS: return hk_iv_abs(a);
    case HK_OP_SITOFP:
    case HK_OP_UITOFP:
    case HK_OP_FPEXT:
    case HK_OP_FPTRUNC: return a;  /* rounded by the fit */
    case HK_OP_BITCAST: return bits_to_real(a, e);
    default: return hk_iv_full();  /* loads, gathers, calls, draws */
    }
}

/* A loop index runs over [lo, hi - 1], or [lo, lo + max - 1] with a
 * runtime count. */
static HkIv index_range(const HkInst *loop)
{
    int64_t lo = loop->x->lo, top = loop->x->hi - 1;
    if (loop->x->has_count)
        top = loop->x->max_trip - 1 > INT64_MAX - lo ? INT64_MAX
                                                  : lo + (loop->x->max_trip - 1);
    if (top < lo)
        top = lo;  /* a loop that never runs: no value at all */
    return hk_iv_hull(int_point(lo), int_point(top));
}

/* A yield of an if or dispatch region widens the parent's results. */
static void yield_into(Facts *F, const HkInst *y)
{
    const HkInst *p = y->block->parent;
    if (p == NULL || (p->op != HK_OP_IF && p->op != HK_OP_DISPATCH))
        return;  /* a loop's results stay unknown: no fixpoint */
    for (uint32_t k = 0; k < y->nops && k < p->nres; k++)
        F->iv[hk_res(p)[k]] = hk_iv_hull(F->iv[hk_res(p)[k]], F->iv[y->ops[k]]);
}

/* Records what i defines, reading only values defined before it. */
static void step(Facts *F, const HkInst *i)
{
    if (i->op == HK_OP_LOOP) {
        F->iv[i->x->ivar] = index_range(i);
        return;
    }
    if (i->op == HK_OP_IF || i->op == HK_OP_DISPATCH) {
        for (uint32_t k = 0; k < i->nres; k++)
            F->iv[hk_res(i)[k]] = hk_iv_empty();  /* filled by the yields */
        return;
    }
    if (i->op == HK_OP_YIELD) {
        yield_into(F, i);
        return;
    }
    if (i->nres != 1 || i->op == HK_OP_CALL)
        return;
    HkVal v = hk_res(i)[0];
    HkElem e = (HkElem)i->type.elem;
    F->iv[v] = hk_is_float(e) ? hk_iv_fit(real_result(F, i, e), e)
                              : int_result(F, i, e);
    F->sign[v] = hk_sign_rule(F->arena, F->f, i, F->sign);
}

/* Facts before the walk: every value anything its type holds. */
static void facts_init(Facts *F, const HkFunc *f)
{
    F->arena = f->module->arena;
    F->f = f;
    F->iv = hk_alloc(F->arena, (f->nvalues + 1) * sizeof *F->iv);
    F->sign = hk_alloc(F->arena, (f->nvalues + 1) * sizeof *F->sign);
    for (uint32_t v = 0; v < f->nvalues; v++)
        F->iv[v] = type_range((HkElem)hk_value(f, v)->type.elem);
}

/* ---- the sites ----------------------------------------------------------- */

/* What a site needs of its operand: ops.def's Domain column. */
typedef HkDomainNeed Need;

/* ORDER HkDomainNeed (ir.h) */
static const struct {
    const char *needs;        /* the site's needs field */
    const char *phrase;       /* "is not proven <phrase>" */
} need_text[] = {
    {"", ""},
    {"positive", "positive"},
    {"nonneg", "nonneg"},
    {"> -1", "> -1"},
    {"[-1, 1]", "in [-1, 1]"},
    {"(-1, 1)", "in (-1, 1)"},
    {">= 1", ">= 1"},
    {"positive, or nonneg with a positive exponent",
     "positive, nor nonneg with a positive exponent"},
};
_Static_assert(sizeof need_text / sizeof need_text[0] == HK_DOM_COUNT,
               "need_text: one row per HkDomainNeed");

/* What op needs of its domain operand (ops.def's Domain column);
 * HK_DOM_NONE when it is no site. */
static Need need_of(HkOp op)
{
    return hk_ops[op].domain;
}

/* "divisor", "base" or "operand": the operand a site's verdict is about. */
static const char *what_of(HkOp op)
{
    return op == HK_OP_FDIV ? "divisor" : op == HK_OP_POW ? "base" : "operand";
}

/* Whether a sign fact meets need n (sign rules know no other bound). */
static int sign_meets(Need n, HkSign s)
{
    switch (n) {
    case HK_DOM_POSITIVE: return s == HK_SIGN_POSITIVE;
    case HK_DOM_NONNEG:
    case HK_DOM_GT_M1: return s != HK_SIGN_UNKNOWN;
    default: return 0;
    }
}

/* Whether every number in a meets need n. */
static int iv_meets(Need n, HkIv a)
{
    if (hk_iv_is_empty(a))
        return 0;
    switch (n) {
    case HK_DOM_POSITIVE: return a.lo > 0.0;
    case HK_DOM_NONNEG: return a.lo >= 0.0;
    case HK_DOM_GT_M1: return a.lo > -1.0;
    case HK_DOM_UNIT: return a.lo >= -1.0 && a.hi <= 1.0;
    case HK_DOM_OPEN_UNIT: return a.lo > -1.0 && a.hi < 1.0;
    case HK_DOM_GE_1: return a.lo >= 1.0;
    default: return 0;
    }
}

/* Whether no number in a meets need n: a libm operand proven outside
 * its domain.  Not for a divisor (a negative one is no domain error) nor
 * pow (a negative base is one only for a non-integer exponent). */
static int iv_violates(Need n, HkIv a)
{
    if (hk_iv_is_empty(a))
        return 0; /* NaN only: NaN in, NaN out, no domain error */
    switch (n) {
    case HK_DOM_POSITIVE: return a.hi <= 0.0;
    case HK_DOM_NONNEG: return a.hi < 0.0;
    case HK_DOM_GT_M1: return a.hi <= -1.0;
    case HK_DOM_UNIT: return a.hi < -1.0 || a.lo > 1.0;
    case HK_DOM_OPEN_UNIT: return a.hi <= -1.0 || a.lo >= 1.0;
    case HK_DOM_GE_1: return a.hi < 1.0;
    default: return 0;
    }
}

/* "[lo, hi]" in the value's element type. */
static void put_iv(HkBuf *b, HkIv a, HkElem e)
{
    hk_buf_puts(b, "[");
    hk_put_number(b, a.lo, e);
    hk_buf_puts(b, ", ");
    hk_put_number(b, a.hi, e);
    hk_buf_puts(b, "]");
}

/* Where an unbounded value comes from, or NULL when it is computed. */
static const char *origin(const Facts *F, HkVal v)
{
    const HkValue *x = hk_value(F->f, v);
    if (x->kind == HK_DEF_ITER)
        return "a loop-carried value";
    if (x->kind == HK_DEF_PARAM)
        return "a parameter";
    if (x->kind != HK_DEF_INST)
        return NULL;
    const HkInst *d = x->def;
    const char *slot = d->slot >= 0 ? F->f->slots[d->slot].name : "";
    switch (d->op) {
    case HK_OP_LOAD: return hk_asprintf(F->arena, "a load of %%%s", slot);
    case HK_OP_GATHER: return hk_asprintf(F->arena, "a gather from %%%s", slot);
    case HK_OP_AT:
        return hk_asprintf(F->arena, "a read of %%%s at another sample", slot);
    case HK_OP_LOOP: return "a loop result";
    case HK_OP_CALL: return "a call result";
    case HK_OP_RANDOM: return "a random draw";
    default: return NULL;
    }
}

/* "%x in [lo, hi]", naming where an unbounded x comes from. */
static void put_value(HkBuf *b, const Facts *F, HkVal v)
{
    HkIv a = F->iv[v];
    HkElem e = (HkElem)hk_value(F->f, v)->type.elem;
    HkIv t = type_range(e);
    hk_buf_printf(b, "%%%s in ", hk_value(F->f, v)->name);
    put_iv(b, a, e);
    const char *o = a.lo == t.lo && a.hi == t.hi ? origin(F, v) : NULL;
    if (o != NULL)
        hk_buf_printf(b, ", %s", o);
}

/* "in [lo, hi]": the reason of an interval proof. */
static const char *in_reason(const Facts *F, HkVal v)
{
    HkBuf b;
    hk_buf_init(&b, F->arena);
    hk_buf_puts(&b, "in ");
    put_iv(&b, F->iv[v], (HkElem)hk_value(F->f, v)->type.elem);
    return hk_buf_cstr(&b);
}

/* Judges the operand x of a site that needs n (not pow). */
static void judge(const Facts *F, HkVal x, Need n, HkDomainSite *s)
{
    if (sign_meets(n, F->sign[x].sign)) {
        s->verdict = HK_DOM_SAFE;
        s->reason = F->sign[x].why;
    } else if (iv_meets(n, F->iv[x])) {
        s->verdict = HK_DOM_SAFE;
        s->reason = in_reason(F, x);
        s->by_interval = 1;
    } else {
        HkBuf b;
        hk_buf_init(&b, F->arena);
        put_value(&b, F, x);
        /* a divisor outside "positive" may still be a number to divide by */
        int libm = s->inst->op != HK_OP_FDIV;
        s->verdict = libm && iv_violates(n, F->iv[x]) ? HK_DOM_VIOLATED
                                                      : HK_DOM_UNKNOWN;
        s->reason = hk_buf_cstr(&b);
        if (!libm && F->iv[x].lo == 0.0 && F->iv[x].hi == 0.0)
            s->wrong = hk_asprintf(F->arena,
                                   "the divisor of fdiv is 0 for every input "
                                   "(%s): the quotient is an infinity or NaN",
                                   s->reason);
    }
}

/* pow x, y: x positive, or x nonneg and y positive. */
static void judge_pow(const Facts *F, HkVal x, HkVal y, HkDomainSite *s)
{
    HkSign sx = F->sign[x].sign;
    HkIv ix = F->iv[x];
    s->verdict = HK_DOM_SAFE;
    if (sx == HK_SIGN_POSITIVE) {
        s->reason = F->sign[x].why;
    } else if (sx == HK_SIGN_NONNEG && F->sign[y].sign == HK_SIGN_POSITIVE) {
        s->reason = hk_asprintf(F->arena, "%s, exponent %s", F->sign[x].why,
                                F->sign[y].why);
    } else if (iv_meets(HK_DOM_POSITIVE, ix)) {
        s->reason = in_reason(F, x);
        s->by_interval = 1;
    } else if (iv_meets(HK_DOM_NONNEG, ix) && iv_meets(HK_DOM_POSITIVE, F->iv[y])) {
        s->reason = hk_asprintf(F->arena, "%s, exponent %s", in_reason(F, x),
                                in_reason(F, y));
        s->by_interval = 1;
    } else {
        HkBuf b;
        hk_buf_init(&b, F->arena);
        put_value(&b, F, x);
        if (sx != HK_SIGN_UNKNOWN || iv_meets(HK_DOM_NONNEG, ix)) {
            hk_buf_puts(&b, ", exponent ");
            put_value(&b, F, y);
        }
        s->verdict = HK_DOM_UNKNOWN;
        s->reason = hk_buf_cstr(&b);
    }
}

/* ---- the result ---------------------------------------------------------- */

typedef struct {
    HkDomainResult *res;
    uint32_t cap_sites, cap_eq, cap_sp;
} Lists;

/* Appends the domain site i, when it is one. */
static void add_site(Lists *L, const Facts *F, const HkPositions *p,
                     const HkInst *i)
{
    Need n = need_of(i->op);
    if (n == HK_DOM_NONE)
        return;
    HkDomainResult *r = L->res;
    r->sites = hk_grow(F->arena, r->sites, &L->cap_sites, r->nsites + 1,
                       sizeof *r->sites);
    HkDomainSite *s = &r->sites[r->nsites++];
    memset(s, 0, sizeof *s);
    s->inst = i;
    s->pos = hk_pos(p, i);
    s->op = hk_ops[i->op].mnemonic;
    s->needs = need_text[n].needs;
    if (n == HK_DOM_POW)
        judge_pow(F, i->ops[0], i->ops[1], s);
    else
        judge(F, i->op == HK_OP_FDIV ? i->ops[1] : i->ops[0], n, s);
}

/* Appends i when it compares reals with == or != (ordered or not). */
static void add_equality(Lists *L, HkArena *a, const HkPositions *p,
                         const HkInst *i)
{
    if (i->op != HK_OP_FCMP || !(i->pred == HK_P_OEQ || i->pred == HK_P_ONE ||
                                 i->pred == HK_P_UEQ || i->pred == HK_P_UNE))
        return;
    HkDomainResult *r = L->res;
    r->equality = hk_grow(a, r->equality, &L->cap_eq, r->nequality + 1,
                          sizeof *r->equality);
    r->equality[r->nequality++] = hk_pos(p, i);
}

/* Appends one entry per special literal constant i spells, in the order
 * NAN, INFINITY, -INFINITY. */
static void add_specials(Lists *L, HkArena *a, const HkPositions *p,
                         const HkInst *i)
{
    static const char *const names[3] = {"NAN", "INFINITY", "-INFINITY"};
    int seen[3] = {0, 0, 0};
    HkElem e = (HkElem)i->type.elem;
    if ((i->op != HK_OP_CONST && i->op != HK_OP_TABLE) || !hk_is_float(e) ||
        i->x->cst.f == NULL)
        return;
    for (uint32_t k = 0; k < i->x->cst.n; k++) {
        /* the value the writers spell (an f32 literal rounded) */
        double v = hk_const_real(&i->x->cst, k, e);
        seen[0] |= isnan(v);
        seen[1] |= v == INFINITY;
        seen[2] |= v == -INFINITY;
    }
    HkDomainResult *r = L->res;
    for (int k = 0; k < 3; k++) {
        if (!seen[k])
            continue;
        r->specials = hk_grow(a, r->specials, &L->cap_sp, r->nspecials + 1,
                              sizeof *r->specials);
        HkSpecialSite *s = &r->specials[r->nspecials++];
        s->inst = i;
        s->pos = hk_pos(p, i);
        s->literal = names[k];
    }
}

/* Refuses every site of verdict v; returns whether any was.  A violated
 * site is refused whatever the policy: the call returns NaN (or a pole)
 * for every input, which is never what a kernel means, and the C unit's
 * checkers (cppcheck's invalidFunctionArg) reject it.  An unknown one is
 * refused under fp-domain=refuse. */
static int refuse_sites(HawkPassRun *r, HkFunc *f, const HkDomainResult *d,
                        HkDomainVerdict v)
{
    int refused = 0;
    for (uint32_t k = 0; k < d->nsites; k++) {
        const HkDomainSite *s = &d->sites[k];
        if (s->verdict != v)
            continue;
        const char *what = what_of(s->inst->op);
        const char *why =
            v == HK_DOM_VIOLATED
                ? hk_asprintf(f->module->arena,
                              "the %s of %s is proven outside its domain, "
                              "which needs %s (%s): the call is NaN or a "
                              "pole for every input",
                              what, s->op, s->needs, s->reason)
                : hk_asprintf(f->module->arena,
                              "the %s of %s is not proven %s (%s)", what,
                              s->op, need_text[need_of(s->inst->op)].phrase,
                              s->reason);
        if (v == HK_DOM_VIOLATED)
            hk_refuse(r, f, s->inst, s->op, "fp.domain.violated", why,
                      "correct the operand, or spell the value meant (a "
                      "const nan or inf) instead of the call");
        else {
            static const HkFixOption fix = {
                "bound the operand (clip, maximum, abs plus a positive "
                "constant), or ",
                "fp-domain", "record", ""};
            hk_refuse_option(r, f, s->inst, s->op, "fp.domain", why, &fix);
        }
        refused = 1;
    }
    return refused;
}

int hk_pass_fp_domain(HawkPassRun *r, HkFunc *f)
{
    HkDomainResult *res = hk_alloc(f->module->arena, sizeof *res);
    if (!f->is_kernel) {
        hk_analysis_set(r, f, HK_PASS_FP_DOMAIN, res);
        return 0;
    }
    HkProfile prof;
    if (hk_profile_read(r, &prof) != 0)
        return 1;
    const HkPositions *p = hk_positions(r, f);
    if (p == NULL)
        return 1;
    Facts F;
    Lists L = {res, 0, 0, 0};
    facts_init(&F, f);
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        step(&F, i);
        add_site(&L, &F, p, i);
        add_equality(&L, F.arena, p, i);
        add_specials(&L, F.arena, p, i);
    }
    for (uint32_t k = 0; k < res->nsites; k++)
        if (res->sites[k].wrong != NULL &&
            hk_warn(r, f, res->sites[k].inst, res->sites[k].wrong) != 0)
            return 1;
    hk_analysis_set(r, f, HK_PASS_FP_DOMAIN, res);
    int refused = refuse_sites(r, f, res, HK_DOM_VIOLATED);
    if (prof.fp_domain == HK_FPD_REFUSE)
        refused |= refuse_sites(r, f, res, HK_DOM_UNKNOWN);
    return refused;
}

/* ---- print<fp-domain> ---------------------------------------------------- */

void hk_print_fp_domain(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkDomainResult *d = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "fp-domain @%s:\n", f->name);
    if (d->nsites == 0)
        hk_buf_puts(b, "  sites: none\n");
    for (uint32_t k = 0; k < d->nsites; k++) {
        const HkDomainSite *s = &d->sites[k];
        hk_buf_printf(b, "  site %s %s %s (%s): %s (%s)%s\n", s->pos, s->op,
                      what_of(s->inst->op), s->needs,
                      s->verdict == HK_DOM_SAFE      ? "safe"
                      : s->verdict == HK_DOM_VIOLATED ? "violated"
                                                       : "unknown",
                      s->reason, s->by_interval ? " (interval)" : "");
    }
    hk_buf_puts(b, "  fp_equality_sites:");
    for (uint32_t k = 0; k < d->nequality; k++)
        hk_buf_printf(b, "%s %s", k ? "," : "", d->equality[k]);
    hk_buf_puts(b, d->nequality ? "\n" : " none\n");
    hk_buf_puts(b, "  literal_specials:");
    for (uint32_t k = 0; k < d->nspecials; k++)
        hk_buf_printf(b, "%s %s %s", k ? "," : "", d->specials[k].pos,
                      d->specials[k].literal);
    hk_buf_puts(b, d->nspecials ? "\n" : " none\n");
}
