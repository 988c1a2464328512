/* legalize.c -- the lowering decisions every writer shares, written as
 * ordinary HIR, so each writer only spells ops (docs/Passes.md):
 *
 *   clip x, lo, hi   ->  minimum(maximum(x, lo), hi)   (LangRef: exactly
 *                        those two ops, in that order)
 *   rsqrt x          ->  fdiv 1.0, sqrt x              (the division
 *                        rounds on its own)
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

int hk_pass_legalize(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (i->nres != 1 || i->type.rank != 0)
            continue;
        if (i->op == HK_OP_CLIP && i->nops == 3)
            legalize_clip(f, i);
        else if (i->op == HK_OP_RSQRT && i->nops == 1)
            legalize_rsqrt(f, i);
    }
    return 0;
}
