/* legalize.c -- the lowering decisions every writer shares, written as
 * ordinary HIR, so each writer only spells ops (docs/Passes.md):
 *
 *   clip x, lo, hi   ->  minimum(maximum(x, lo), hi)   (LangRef: exactly
 *                        those two ops, in that order)
 *   rsqrt x          ->  fdiv 1.0, sqrt x              (the division
 *                        rounds on its own)
 *   dispatch %s      ->  dispatch minimum(maximum(%s, 0), K - 1): the
 *                        case LangRef runs, so a writer switches on the
 *                        selector as it is (K >= 2; one case needs none)
 *
 * Rank-0 instances only: the lowering runs it after scalarize; a tensor
 * op is left for scalarize to take apart first.  The op rewritten keeps
 * its result value, so no use is touched and the pass is linear. */
#include "passes.h"

/* A new instruction of op on ops, of type t, named after v with suffix,
 * inserted before at. */
static HkVal emit_before(HkFunc *f, HkInst *at, HkOp op, const HkVal *ops,
                         uint32_t nops, HkType t, HkVal v, const char *suffix)
{
    HkInst *n = hk_inst_new(f, op, at->loc);
    hk_inst_set_ops(f, n, ops, nops);
    const char *name =
        hk_asprintf(f->module->arena, "%s.%s", f->values[v].name, suffix);
    HkVal r = hk_inst_result(f, n, t, name);
    hk_insert_before(at, n);
    return r;
}

/* clip x, lo, hi: a maximum before it, then i itself becomes the minimum. */
static void legalize_clip(HkFunc *f, HkInst *i)
{
    HkVal v = i->res[0];
    HkVal max_ops[2] = {i->ops[0], i->ops[1]};
    HkVal m = emit_before(f, i, HK_OP_MAXIMUM, max_ops, 2, i->type, v, "max");
    HkVal min_ops[2] = {m, i->ops[2]};
    i->op = HK_OP_MINIMUM;
    hk_inst_set_ops(f, i, min_ops, 2);
}

/* rsqrt x: the constant 1 and sqrt x before it, then i itself becomes the
 * division. */
static void legalize_rsqrt(HkFunc *f, HkInst *i)
{
    HkVal v = i->res[0];
    HkInst *one = hk_inst_new(f, HK_OP_CONST, i->loc);
    one->cst.n = 1;
    one->cst.f = hk_alloc(f->module->arena, sizeof *one->cst.f);
    one->cst.f[0] = 1.0;
    HkVal c = hk_inst_result(
        f, one, i->type, hk_asprintf(f->module->arena, "%s.one", f->values[v].name));
    hk_insert_before(i, one);
    HkVal s = emit_before(f, i, HK_OP_SQRT, &i->ops[0], 1, i->type, v, "sqrt");
    HkVal div_ops[2] = {c, s};
    i->op = HK_OP_FDIV;
    hk_inst_set_ops(f, i, div_ops, 2);
}

/* An i64 constant c before at. */
static HkVal i64_const(HkFunc *f, HkInst *at, int64_t c, const char *name)
{
    HkInst *k = hk_inst_new(f, HK_OP_CONST, at->loc);
    k->cst.n = 1;
    k->cst.i = hk_alloc(f->module->arena, sizeof *k->cst.i);
    k->cst.i[0] = c;
    HkType t = f->values[at->ops[0]].type;
    HkVal v = hk_inst_result(f, k, t, name);
    hk_insert_before(at, k);
    return v;
}

/* Whether v is the i64 constant c. */
static int is_const(const HkFunc *f, HkVal v, int64_t c)
{
    const HkValue *x = &f->values[v];
    return x->kind == HK_DEF_INST && x->def->op == HK_OP_CONST &&
           x->def->cst.n == 1 && x->def->cst.i != NULL &&
           x->def->cst.i[0] == c;
}

/* Whether selector v is already minimum(maximum(_, 0), last): a second
 * run of the pass changes nothing. */
static int held(const HkFunc *f, HkVal v, int64_t last)
{
    const HkValue *x = &f->values[v];
    if (x->kind != HK_DEF_INST || x->def->op != HK_OP_MINIMUM ||
        !is_const(f, x->def->ops[1], last))
        return 0;
    const HkValue *y = &f->values[x->def->ops[0]];
    return y->kind == HK_DEF_INST && y->def->op == HK_OP_MAXIMUM &&
           is_const(f, y->def->ops[1], 0);
}

/* dispatch %s of K >= 2 cases: its selector held to [0, K - 1]. */
static void legalize_dispatch(HkFunc *f, HkInst *i)
{
    int64_t last = (int64_t)i->nregions - 1;
    HkVal s = i->ops[0];
    if (last < 1 || held(f, s, last))
        return;
    HkArena *a = f->module->arena;
    const char *base = f->values[s].name;
    HkVal zero = i64_const(f, i, 0, hk_asprintf(a, "%s.zero", base));
    HkVal top = i64_const(f, i, last, hk_asprintf(a, "%s.last", base));
    HkType t = f->values[s].type;
    HkVal lo_ops[2] = {s, zero};
    HkVal lo = emit_before(f, i, HK_OP_MAXIMUM, lo_ops, 2, t, s, "lo");
    HkVal case_ops[2] = {lo, top};
    HkVal c = emit_before(f, i, HK_OP_MINIMUM, case_ops, 2, t, s, "case");
    i->ops[0] = c;
}

int hk_pass_legalize(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (i->op == HK_OP_DISPATCH && i->nops >= 1)
            legalize_dispatch(f, i);
        if (i->nres != 1 || i->type.rank != 0)
            continue;
        if (i->op == HK_OP_CLIP && i->nops == 3)
            legalize_clip(f, i);
        else if (i->op == HK_OP_RSQRT && i->nops == 1)
            legalize_rsqrt(f, i);
    }
    return 0;
}
