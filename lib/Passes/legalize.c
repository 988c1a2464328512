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
 *   loop %i = lo to %n max K
 *                    ->  loop %i = lo to minimum(maximum(%n, lo), lo + K)
 *                        max K: the end at which clamp(n - lo, 0, K)
 *                        trips have run, so a writer counts from lo to the
 *                        end as it is and nothing subtracts
 *   table %k, [...]  ->  table minimum(maximum(%k, 0), N - 1), [...]:
 *                        the entry LangRef reads, unless the IR already
 *                        shows the index inside the N entries
 *   gather %p, %k    ->  gather %p, clamp_index %p, %k: every plane index
 *                        the index-clamp rule does not prove (also indexed
 *                        stores and accums; an own-position write into a
 *                        runtime-length plane becomes the indexed store at
 *                        clamp_index %w)
 *
 * Rank-0 instances only: the lowering runs it after scalarize; a tensor
 * op is left for scalarize to take apart first.  The op rewritten keeps
 * its result value, so no use is touched and the pass is linear. */
#include "embedded.h"
#include "fault.h"

/* A new instruction of op on ops, of type t, named after v with suffix,
 * inserted before at. */
static HkVal emit_before(HkFunc *f, HkInst *at, HkOp op, const HkVal *ops,
                         uint32_t nops, HkType t, HkVal v, const char *suffix)
{
    HkInst *n = hk_inst_new(f, op, at->loc);
    hk_inst_set_ops(f, n, ops, nops);
    const char *name =
        hk_asprintf(f->module->arena, "%s.%s", hk_value(f, v)->name, suffix);
    HkVal r = hk_inst_result(f, n, t, name);
    hk_insert_before(at, n);
    return r;
}

/* clip x, lo, hi: a maximum before it, then i itself becomes the minimum. */
static void legalize_clip(HkFunc *f, HkInst *i)
{
    HkVal v = hk_res(i)[0];
    /* the test hook plants the clamp the other way round, the minimum
     * first: another answer when lo > hi */
    int planted = hk_plant("legalize-clamp");
    HkOp first = planted ? HK_OP_MINIMUM : HK_OP_MAXIMUM;
    HkVal first_ops[2] = {i->ops[0], i->ops[planted ? 2 : 1]};
    HkVal m = emit_before(f, i, first, first_ops, 2, i->type, v, "max");
    HkVal last_ops[2] = {m, i->ops[planted ? 1 : 2]};
    i->op = planted ? HK_OP_MAXIMUM : HK_OP_MINIMUM;
    hk_inst_set_ops(f, i, last_ops, 2);
}

/* rsqrt x: the constant 1 and sqrt x before it, then i itself becomes the
 * division. */
static void legalize_rsqrt(HkFunc *f, HkInst *i)
{
    HkVal v = hk_res(i)[0];
    HkInst *one = hk_inst_new(f, HK_OP_CONST, i->loc);
    one->x->cst.n = 1;
    one->x->cst.f = hk_alloc(f->module->arena, sizeof *one->x->cst.f);
    one->x->cst.f[0] = 1.0;
    HkVal c = hk_inst_result(
        f, one, i->type, hk_asprintf(f->module->arena, "%s.one", hk_value(f, v)->name));
    hk_insert_before(i, one);
    HkVal s = emit_before(f, i, HK_OP_SQRT, &i->ops[0], 1, i->type, v, "sqrt");
    HkVal div_ops[2] = {c, s};
    i->op = HK_OP_FDIV;
    hk_inst_set_ops(f, i, div_ops, 2);
}

/* An integer constant c of v's type before at. */
static HkVal i64_const(HkFunc *f, HkInst *at, HkVal v, int64_t c,
                       const char *name)
{
    HkInst *k = hk_inst_new(f, HK_OP_CONST, at->loc);
    k->x->cst.n = 1;
    k->x->cst.i = hk_alloc(f->module->arena, sizeof *k->x->cst.i);
    k->x->cst.i[0] = c;
    HkVal r = hk_inst_result(f, k, hk_value(f, v)->type, name);
    hk_insert_before(at, k);
    return r;
}

/* Whether v is the i64 constant c. */
static int is_const(const HkFunc *f, HkVal v, int64_t c)
{
    const HkValue *x = hk_value(f, v);
    return x->kind == HK_DEF_INST && x->def->op == HK_OP_CONST &&
           x->def->x->cst.n == 1 && x->def->x->cst.i != NULL &&
           x->def->x->cst.i[0] == c;
}

int hk_legal_held(const HkFunc *f, HkVal v, int64_t lo, int64_t hi)
{
    const HkValue *x = hk_value(f, v);
    /* a constant in range needs no hold (const-fold makes them) */
    if (x->kind == HK_DEF_INST && x->def->op == HK_OP_CONST &&
        x->type.rank == 0 && x->def->x->cst.i != NULL) {
        int64_t c = hk_const_int(&x->def->x->cst, 0);
        return c >= lo && c <= hi;
    }
    if (x->kind != HK_DEF_INST || x->def->op != HK_OP_MINIMUM ||
        !is_const(f, x->def->ops[1], hi))
        return 0;
    const HkValue *y = hk_value(f, x->def->ops[0]);
    return y->kind == HK_DEF_INST && y->def->op == HK_OP_MAXIMUM &&
           is_const(f, y->def->ops[1], lo);
}

int hk_legal_trip_end(const HkFunc *f, const HkInst *loop)
{
    return !loop->x->has_count ||
           (loop->x->max_trip <= INT64_MAX - loop->x->lo &&
            hk_legal_held(f, loop->ops[0], loop->x->lo, loop->x->lo + loop->x->max_trip));
}

/* v held to [lo, hi] before at: minimum(maximum(v, lo), hi), the new
 * values named after v with the suffixes. */
static HkVal hold(HkFunc *f, HkInst *at, HkVal v, int64_t lo, int64_t hi,
                  const char *lo_name, const char *hi_name, const char *res)
{
    HkArena *a = f->module->arena;
    const char *base = hk_value(f, v)->name;
    HkVal lo_c = i64_const(f, at, v, lo, hk_asprintf(a, "%s.%s", base, lo_name));
    HkVal hi_c = i64_const(f, at, v, hi, hk_asprintf(a, "%s.%s", base, hi_name));
    HkType t = hk_value(f, v)->type;
    HkVal lo_ops[2] = {v, lo_c};
    HkVal m = emit_before(f, at, HK_OP_MAXIMUM, lo_ops, 2, t, v, "lo");
    HkVal hi_ops[2] = {m, hi_c};
    return emit_before(f, at, HK_OP_MINIMUM, hi_ops, 2, t, v, res);
}

/* dispatch %s of K >= 2 cases: its selector held to [0, K - 1]. */
static void legalize_dispatch(HkFunc *f, HkInst *i)
{
    int64_t last = (int64_t)i->x->nregions - 1;
    HkVal s = i->ops[0];
    if (last < 1 || hk_legal_held(f, s, 0, last))
        return;
    i->ops[0] = hold(f, i, s, 0, last, "zero", "last", "case");
}

int hk_legal_table(const HkFunc *f, const HkInst *i)
{
    const char *why;
    return i->op != HK_OP_TABLE || i->nops != 1 ||
           hk_index_classify(f->module->arena, f, i, &why) == HK_IDX_PROVEN;
}

/* table %k of N entries: its index held to [0, N - 1]. */
static void legalize_table(HkFunc *f, HkInst *i)
{
    if (hk_legal_table(f, i))
        return;
    i->ops[0] = hold(f, i, i->ops[0], 0, (int64_t)i->x->cst.n - 1, "first",
                     "last", "entry");
}

/* A runtime-count loop: its count held to [lo, lo + K].  A bound past
 * INT64_MAX is left for the writers to refuse. */
static void legalize_trip_end(HkFunc *f, HkInst *i)
{
    if (hk_legal_trip_end(f, i) || i->x->max_trip > INT64_MAX - i->x->lo)
        return;
    i->ops[0] = hold(f, i, i->ops[0], i->x->lo, i->x->lo + i->x->max_trip, "first",
                     "stop", "end");
}

/* Whether i reads or writes a plane by index, or writes a runtime-length
 * plane at all. */
static int plane_access(const HkFunc *f, const HkInst *i)
{
    if (i->slot < 0 || i->nops == 0)
        return 0;
    if (i->op == HK_OP_GATHER || (i->op == HK_OP_LOAD && i->has_index))
        return 1;
    return (i->op == HK_OP_STORE || i->op == HK_OP_ACCUM) &&
           (i->has_index || hk_is_dyn(f->slots[i->slot].type));
}

int hk_legal_index(const HkFunc *f, const HkInst *i)
{
    const char *why;
    if (!plane_access(f, i))
        return 1;
    HkVal k = hk_index_operand(i);
    if (k == HK_NOVAL)
        return !hk_is_dyn(f->slots[i->slot].type);
    const HkValue *x = hk_value(f, k);
    if (x->kind == HK_DEF_INST && x->def->op == HK_OP_CLAMP_INDEX &&
        x->def->slot == i->slot)
        return 1;
    return !hk_is_dyn(f->slots[i->slot].type) &&
           hk_index_classify(f->module->arena, f, i, &why) == HK_IDX_PROVEN;
}

/* A clamp_index into i's plane of index k (HK_NOVAL: the sample's own
 * position) before i, named after k or the slot. */
static HkVal clamp_before(HkFunc *f, HkInst *i, HkVal k)
{
    HkArena *a = f->module->arena;
    HkInst *c = hk_inst_new(f, HK_OP_CLAMP_INDEX, i->loc);
    c->slot = i->slot;
    hk_inst_set_ops(f, c, &k, k == HK_NOVAL ? 0u : 1u);
    const char *name = k == HK_NOVAL
                           ? hk_asprintf(a, "%s.own", f->slots[i->slot].name)
                           : hk_asprintf(a, "%s.%s", hk_value(f, k)->name,
                                         f->slots[i->slot].name);
    HkVal r = hk_inst_result(f, c, hk_scalar(HK_I64), name);
    hk_insert_before(i, c);
    return r;
}

/* A plane access i whose index the analysis does not prove inside the
 * plane: its index clamped first.  An own-column write into a
 * runtime-length plane becomes the indexed store at the clamped own
 * position (an own-column accumulate stores, LangRef "sink"). */
static void legalize_index(HkFunc *f, HkInst *i)
{
    if (hk_legal_index(f, i))
        return;
    HkVal k = hk_index_operand(i);
    if (k != HK_NOVAL) {
        i->ops[i->nops - 1] = clamp_before(f, i, k);
        return;
    }
    HkVal ops[2] = {i->ops[0], clamp_before(f, i, HK_NOVAL)};
    i->op = HK_OP_STORE;
    i->has_index = 1;
    hk_inst_set_ops(f, i, ops, 2);
}

int hk_pass_legalize(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        legalize_index(f, i);
        if (i->op == HK_OP_DISPATCH && i->nops >= 1)
            legalize_dispatch(f, i);
        legalize_table(f, i);
        if (i->op == HK_OP_LOOP && i->x->has_count && i->nops >= 1)
            legalize_trip_end(f, i);
        if (i->nres != 1 || i->type.rank != 0)
            continue;
        if (i->op == HK_OP_CLIP && i->nops == 3)
            legalize_clip(f, i);
        else if (i->op == HK_OP_RSQRT && i->nops == 1)
            legalize_rsqrt(f, i);
    }
    return 0;
}
