/* vjp.c -- reverse-mode differentiation: a kernel becomes its vector-
 * Jacobian product, <name>_vjp, which keeps every primal slot and
 * computation and adds a cotangent slot <slot>.bar beside each active
 * slot: an active output's holds the cotangent w the caller gives, an
 * active input's receives J^T w (a mutable slot active both ways has one,
 * read then written).  After the primal, the reverse sweep visits the
 * instructions last to first and gives each active operand its share of
 * the result's adjoint: for an elementwise op the forward rule (rules.def,
 * diff_rules.c) with that operand's tangent seeded by the adjoint (the
 * rule is linear in the tangents and its Jacobian diagonal, so that is
 * its transpose), summed when the operand was broadcast; the structural
 * ops (sum, prod, transpose, extract, insert, build, dot, norm, cross,
 * matvec, matmul, fpext, fptrunc) by their own transposes.
 * A straight line needs no tape: every primal value is still there; an
 * if or dispatch is reversed by recomputing the branch it ran, a call by
 * calling the callee's reverse derivative <f>_vjp, a loop by rerunning
 * its trips (vjp_loop.c).  A uniform's cotangent sums over the samples:
 * it is a shared accum_out plane, one cell per component; a table's is
 * an accum_out plane of its type, each gather adding into the cell it
 * read; a scattered accum's value gets its cell's cotangent, gathered,
 * and a tape row's value that row of the tape's cotangent, wherever the
 * write is (a region's copy holds the read in the write's place).
 * docs/Passes.md, "vjp". */
#include <string.h>

#include "vjp.h"
#include "uses.h"


static HkType type_of(const Vjp *v, HkVal x)
{
    return hk_diff_type(&v->d, x);
}

/* ---- adjoints ------------------------------------------------------------ */

/* The per-value tables over the function's values as they are: no
 * tangent, no adjoint, none active. */
static void values(Vjp *v)
{
    hk_diff_values(&v->d);
    v->adj = hk_alloc(v->d.a, (v->d.ntan + 1) * sizeof *v->adj);
    for (uint32_t x = 0; x < v->d.ntan; x++)
        v->adj[x] = HK_NOVAL;
}

/* c summed to type t when it is of a higher rank (t was broadcast). */
static HkVal fit(Vjp *v, HkVal c, HkType t)
{
    if (c == HK_NOVAL || type_of(v, c).rank == t.rank)
        return c;
    return hk_diff_emit1(&v->d, HK_OP_SUM, c, t);
}

/* Adds contribution c to the adjoint *slot of a value of type t. */
void hk_vjp_add_to(Vjp *v, HkVal *slot, HkVal c, HkType t)
{
    c = fit(v, c, t);
    if (c == HK_NOVAL)
        return;
    *slot = *slot == HK_NOVAL ? c : hk_diff_emit2(&v->d, HK_OP_FADD, *slot, c, t);
}

void hk_vjp_add_adj(Vjp *v, HkVal x, HkVal c)
{
    if (x < v->d.ntan && v->d.act[x]) {
        v->d.base = hk_value(v->d.f, x)->name;
        hk_vjp_add_to(v, &v->adj[x], c, type_of(v, x));
    }
}

/* The value x is a share of the adjoint of (a write's cotangent read),
 * or HK_NOVAL. */
static HkVal wadj_of(const Vjp *v, HkVal x)
{
    return x < v->nwadj && v->wadj[x] != 0 ? v->wadj[x] - 1 : HK_NOVAL;
}

static void set_wadj(Vjp *v, HkVal x, HkVal target)
{
    uint32_t cap = v->nwadj;
    HkVal *w = hk_grow(v->d.a, v->wadj, &cap, x + 1, sizeof *w);
    for (uint32_t k = v->nwadj; k < cap; k++)
        w[k] = 0;
    v->wadj = w;
    v->nwadj = cap;
    v->wadj[x] = target + 1;
}

/* ---- transposes ---------------------------------------------------------- */

/* An op with static component indices (extract, insert) on a and b. */
static HkVal with_imm(Vjp *v, const HkInst *i, HkOp op, HkVal a, HkVal b,
                      HkType t)
{
    HkVal r = b == HK_NOVAL ? hk_diff_emit1(&v->d, op, a, t)
                            : hk_diff_emit2(&v->d, op, a, b, t);
    HkInst *n = hk_value(v->d.f, r)->def;
    n->x->nimm = i->x->nimm;
    memcpy(n->x->imm, i->x->imm, sizeof n->x->imm);
    return r;
}

/* Component k of x, row-major (x itself at rank 0). */
HkVal hk_vjp_part(Vjp *v, HkVal x, uint32_t k)
{
    HkType t = type_of(v, x);
    if (t.rank == 0)
        return x;
    HkVal r = hk_diff_emit1(&v->d, HK_OP_EXTRACT, x, hk_scalar(t.elem));
    HkInst *n = hk_value(v->d.f, r)->def;
    n->x->nimm = t.rank;
    n->x->imm[0] = t.rank == 1 ? (int64_t)k : (int64_t)(k / t.dim[1]);
    n->x->imm[1] = t.rank == 1 ? 0 : (int64_t)(k % t.dim[1]);
    return r;
}

/* Per-slot table p of n entries (each of size bytes) copied into one of
 * n + 1, the new entry set to fill. */
static void *grow_slots(HkArena *a, const void *p, uint32_t n, size_t size,
                        const void *fill)
{
    unsigned char *q = hk_alloc(a, (n + 2u) * size);
    memcpy(q, p, n * size);
    memcpy(q + n * size, fill, size);
    return q;
}

/* Each per-slot table one entry longer, for the slot about to be added
 * (a cotangent, a tape, a local), its entry the default. */
static void grow_tables(Vjp *v)
{
    Diff *d = &v->d;
    uint32_t n = d->f->nslots;
    int32_t none = -1;
    HkVal nov = HK_NOVAL;
    const HkInst *null = NULL;
    uint8_t zero = 0;
    d->in = grow_slots(d->a, d->in, n, sizeof *d->in, &zero);
    d->out = grow_slots(d->a, d->out, n, sizeof *d->out, &zero);
    d->tslot = grow_slots(d->a, d->tslot, n, sizeof *d->tslot, &none);
    v->bslot = grow_slots(d->a, v->bslot, n, sizeof *v->bslot, &none);
    v->store = grow_slots(d->a, v->store, n, sizeof *v->store, &null);
    v->every = grow_slots(d->a, v->every, n, sizeof *v->every, &zero);
    v->sadj = grow_slots(d->a, v->sadj, n, sizeof *v->sadj, &nov);
    v->tape_w = grow_slots(d->a, v->tape_w, n, sizeof *v->tape_w, &nov);
    v->tape_loc = grow_slots(d->a, v->tape_loc, n, sizeof *v->tape_loc, &none);
}

int32_t hk_vjp_add_local(Vjp *v, const char *name, HkType t)
{
    Diff *d = &v->d;
    grow_tables(v);
    /* a name the kernel has: "<name>.2", ... */
    int32_t s = hk_slot_add(d->f, name, HK_ROLE_LOCAL, t, d->loc);
    for (uint32_t k = 2; s < 0; k++)
        s = hk_slot_add(d->f, hk_asprintf(d->a, "%s.%u", name, k), HK_ROLE_LOCAL, t,
                        d->loc);
    return s;
}

/* The transpose of matrix x. */
static HkVal transposed(Vjp *v, HkVal x)
{
    HkType t = type_of(v, x);
    uint32_t rows = t.dim[0];
    t.dim[0] = t.dim[1];
    t.dim[1] = rows;
    return hk_diff_emit1(&v->d, HK_OP_TRANSPOSE, x, t);
}

/* The outer product R x^T of vectors R (N) and x (M): an N x M matrix. */
static HkVal outer(Vjp *v, HkVal R, HkVal x, HkType mt)
{
    uint32_t n = mt.dim[0], m = mt.dim[1];
    HkVal *c = hk_alloc(v->d.a, (size_t)n * m * sizeof *c);
    for (uint32_t r = 0; r < n; r++) {
        HkVal ri = hk_vjp_part(v, R, r);
        for (uint32_t k = 0; k < m; k++)
            c[r * m + k] = hk_diff_emit2(&v->d, HK_OP_FMUL, ri, hk_vjp_part(v, x, k),
                                         hk_scalar(mt.elem));
    }
    return hk_diff_emit(&v->d, HK_OP_BUILD, c, n * m, mt);
}

/* A matrix of type mt, zero but for row `row`, which is vector R: the
 * transpose of taking a row out (extract m, r). */
static HkVal row_into(Vjp *v, HkVal R, uint32_t row, HkType mt)
{
    uint32_t n = mt.dim[0], m = mt.dim[1];
    HkVal *c = hk_alloc(v->d.a, (size_t)n * m * sizeof *c);
    HkVal zero = hk_diff_real(&v->d, 0.0, hk_scalar(mt.elem));
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t k = 0; k < m; k++)
            c[r * m + k] = r == row ? hk_vjp_part(v, R, k) : zero;
    return hk_diff_emit(&v->d, HK_OP_BUILD, c, n * m, mt);
}

/* The adjoint of a in p = prod a of adjoint R: the transpose of jvp's
 * recurrence, backwards over the left fold p_k = p_(k-1) c_k: c_k gets
 * R_k p_(k-1), and p_(k-1) gets R_(k-1) = R_k c_k; c_0 gets R_0.  The
 * partial products are recomputed first, in the primal's order. */
static HkVal prod_adjoint(Vjp *v, HkVal a, HkVal R, HkType ta)
{
    uint32_t n = hk_components(ta);
    HkType t = hk_scalar(ta.elem);
    HkVal *c = hk_alloc(v->d.a, n * sizeof *c);
    HkVal *p = hk_alloc(v->d.a, n * sizeof *p);
    HkVal *adj = hk_alloc(v->d.a, n * sizeof *adj);
    for (uint32_t k = 0; k < n; k++) {
        c[k] = hk_vjp_part(v, a, k);
        p[k] = c[0];
        if (k > 0 && k + 1 < n)  /* p_(n-1), the result, is not read */
            p[k] = hk_diff_emit2(&v->d, HK_OP_FMUL, p[k - 1], c[k], t);
    }
    for (uint32_t k = n - 1; k > 0; k--) {
        adj[k] = hk_diff_emit2(&v->d, HK_OP_FMUL, R, p[k - 1], t);
        R = hk_diff_emit2(&v->d, HK_OP_FMUL, R, c[k], t);
    }
    adj[0] = R;
    return hk_diff_emit(&v->d, HK_OP_BUILD, adj, n, ta);
}

/* The ops whose transpose is not the seeded forward rule; whether i is
 * one (its operands' shares then given). */
static int structural(Vjp *v, HkInst *i, HkVal R)
{
    HkVal a = i->nops > 0 ? i->ops[0] : HK_NOVAL;
    HkVal b = i->nops > 1 ? i->ops[1] : HK_NOVAL;
    HkType ta = a != HK_NOVAL ? type_of(v, a) : i->type;
    HkType tb = b != HK_NOVAL ? type_of(v, b) : i->type;
    Diff *d = &v->d;
    switch (i->op) {
    case HK_OP_SUM:
        hk_vjp_add_adj(v, a, hk_diff_full(d, R, ta));
        return 1;
    case HK_OP_PROD:
        if (hk_diff_is_real(ta))
            hk_vjp_add_adj(v, a, prod_adjoint(v, a, R, ta));
        return 1;
    case HK_OP_TRANSPOSE:
        hk_vjp_add_adj(v, a, hk_diff_emit1(d, HK_OP_TRANSPOSE, R, ta));
        return 1;
    case HK_OP_FPEXT:
        hk_vjp_add_adj(v, a, hk_diff_emit1(d, HK_OP_FPTRUNC, R, ta));
        return 1;
    case HK_OP_FPTRUNC:
        hk_vjp_add_adj(v, a, hk_diff_emit1(d, HK_OP_FPEXT, R, ta));
        return 1;
    case HK_OP_EXTRACT:
        /* a row of a matrix has no insert to transpose it: a build */
        if (ta.rank == 2 && i->x->nimm == 1)
            hk_vjp_add_adj(v, a, row_into(v, R, (uint32_t)i->x->imm[0], ta));
        else
            hk_vjp_add_adj(v, a, with_imm(v, i, HK_OP_INSERT, hk_diff_real(d, 0.0, ta), R, ta));
        return 1;
    case HK_OP_INSERT:
        if (d->act[a])
            hk_vjp_add_adj(v, a, with_imm(v, i, HK_OP_INSERT, R, hk_diff_real(d, 0.0, tb), ta));
        if (d->act[b])
            hk_vjp_add_adj(v, b, with_imm(v, i, HK_OP_EXTRACT, R, HK_NOVAL, tb));
        return 1;
    case HK_OP_BUILD:
        for (uint32_t k = 0; k < i->nops; k++)
            if (d->act[i->ops[k]])
                hk_vjp_add_adj(v, i->ops[k], hk_vjp_part(v, R, k));
        return 1;
    case HK_OP_DOT:
        if (d->act[a])
            hk_vjp_add_adj(v, a, hk_diff_emit2(d, HK_OP_FMUL, R, b, ta));
        if (d->act[b])
            hk_vjp_add_adj(v, b, hk_diff_emit2(d, HK_OP_FMUL, R, a, tb));
        return 1;
    case HK_OP_NORM: {
        /* (a / r) R, the transpose of jvp's dot(a / r, ta), and 0 where
         * R is (a zero adjoint adds nothing, even at a = 0) */
        HkVal u = hk_diff_emit2(d, HK_OP_FDIV, a, hk_res(i)[0], ta);
        hk_vjp_add_adj(v, a, hk_diff_guard(d, R, hk_diff_emit2(d, HK_OP_FMUL, u, R, ta)));
        return 1;
    }
    case HK_OP_CROSS:
        if (d->act[a])
            hk_vjp_add_adj(v, a, hk_diff_emit2(d, HK_OP_CROSS, b, R, ta));
        if (d->act[b])
            hk_vjp_add_adj(v, b, hk_diff_emit2(d, HK_OP_CROSS, R, a, tb));
        return 1;
    case HK_OP_MATVEC:
        if (d->act[a])
            hk_vjp_add_adj(v, a, outer(v, R, b, ta));
        if (d->act[b])
            hk_vjp_add_adj(v, b, hk_diff_emit2(d, HK_OP_MATVEC, transposed(v, a), R, tb));
        return 1;
    case HK_OP_MATMUL:
        if (d->act[a])
            hk_vjp_add_adj(v, a, hk_diff_emit2(d, HK_OP_MATMUL, R, transposed(v, b), ta));
        if (d->act[b])
            hk_vjp_add_adj(v, b, hk_diff_emit2(d, HK_OP_MATMUL, transposed(v, a), R, tb));
        return 1;
    default:
        return 0;
    }
}

/* Gives each active operand of i its share of R, the adjoint of i's
 * result.  An elementwise op: the forward rule with that operand's
 * tangent seeded by R and every other tangent zero (an operand named
 * twice is seeded once, its shares summed by the rule). */
static void transpose(Vjp *v, HkInst *i, HkVal R)
{
    Diff *d = &v->d;
    d->base = hk_value(d->f, hk_res(i)[0])->name;
    if (structural(v, i, R))
        return;
    DiffShared shared;
    memset(&shared, 0, sizeof shared);
    d->shared = &shared;
    for (uint32_t k = 0; k < i->nops; k++) {
        HkVal a = i->ops[k];
        int seen = 0;
        for (uint32_t j = 0; j < k; j++)
            seen |= i->ops[j] == a;
        if (seen || a >= d->ntan || !d->act[a] || !hk_diff_is_real(type_of(v, a)))
            continue;
        d->tan[a] = R;
        d->base = hk_value(d->f, hk_res(i)[0])->name;
        HkVal c = hk_diff_rule(d, i);
        d->tan[a] = HK_NOVAL;
        hk_vjp_add_adj(v, a, c);
    }
    d->shared = NULL;
}


/* The name a region op's reverse values are named after: its first
 * result's, or "if" / "dispatch" when it has none. */
static const char *region_base(const Vjp *v, const HkInst *i)
{
    return i->nres > 0 ? hk_value(v->d.f, hk_res(i)[0])->name : hk_ops[i->op].mnemonic;
}

/* ---- writes into active outputs --------------------------------------- */

int hk_vjp_writes(const Vjp *v, const HkInst *x)
{
    const Diff *d = &v->d;
    if (x->slot < 0 || (uint32_t)x->slot >= d->f->nslots || !d->out[x->slot])
        return 0;
    HkRole role = d->f->slots[x->slot].role;
    if (role == HK_ROLE_LOCAL)  /* read from its row, then zeroed */
        return x->op == HK_OP_STORE;
    if (!x->has_index)  /* an own-column write in a branch (refuse_in) */
        return x->block->parent != NULL && !hk_is_dyn(d->f->slots[x->slot].type) &&
               (x->op == HK_OP_STORE || x->op == HK_OP_ACCUM);
    return (x->op == HK_OP_ACCUM && role == HK_ROLE_ACCUM_OUT) ||
           (x->op == HK_OP_STORE && role == HK_ROLE_OUT);
}

int hk_vjp_write_copy(const Vjp *v, const HkInst *x)
{
    return x->nres == 1 && wadj_of(v, hk_res(x)[0]) != HK_NOVAL;
}

void hk_vjp_row_store(Vjp *v, HkVal x, int32_t slot, HkVal row)
{
    Diff *d = &v->d;
    HkInst *st = hk_inst_new(d->f, HK_OP_STORE, d->loc);
    HkVal ops[2] = {x, row};
    hk_inst_set_ops(d->f, st, ops, 2);
    st->slot = slot;
    st->has_index = 1;
    hk_diff_place(d, st);
}

HkVal hk_vjp_row_load(Vjp *v, int32_t slot, HkVal row, const char *name)
{
    Diff *d = &v->d;
    HkInst *ld = hk_inst_new(d->f, HK_OP_LOAD, d->loc);
    hk_inst_set_ops(d->f, ld, &row, 1);
    ld->slot = slot;
    ld->has_index = 1;
    HkVal r = hk_inst_result(d->f, ld, hk_scalar((HkElem)d->f->slots[slot].type.elem),
                             name);
    hk_diff_place(d, ld);
    return r;
}

/* Row k of tape cotangent w (<K x T> or <K x N x T>): an extract. */
static HkVal static_row(Vjp *v, HkVal w, int64_t k, HkType rowt)
{
    HkVal e = hk_diff_emit1(&v->d, HK_OP_EXTRACT, w, rowt);
    HkInst *n = hk_value(v->d.f, e)->def;
    n->x->nimm = 1;
    n->x->imm[0] = k;
    return e;
}

/* Tape slot s's cotangent w copied, once, into locals "<s>.bar.rows"
 * (".rows.<n>" per component of a <N x T> row) right after w's load:
 * HIR reads a tensor only at static indices, a local at a runtime row. */
static void rows_local(Vjp *v, int32_t s, HkVal w)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    HkType wt = type_of(v, w);
    uint32_t k = wt.dim[0], nc = wt.rank == 2 ? wt.dim[1] : 1u;
    HkElem e = (HkElem)wt.elem;
    const char *base = f->slots[s].name;
    for (uint32_t m = 0; m < nc; m++) {
        const char *name = nc == 1 ? hk_asprintf(d->a, "%s.bar.rows", base)
                                   : hk_asprintf(d->a, "%s.bar.rows.%u", base, m);
        int32_t l = hk_vjp_add_local(v, name, hk_vec(e, k));
        if (m == 0)
            v->tape_loc[s] = l;
    }
    HkInst *at = d->at;
    HkBlock *blk = d->blk;
    d->at = hk_value(f, w)->def->next;
    d->base = base;
    for (uint32_t r = 0; r < k; r++) {
        HkVal row = hk_diff_int(d, (int64_t)r, hk_scalar(HK_I64), NULL, NULL);
        for (uint32_t m = 0; m < nc; m++)
            hk_vjp_row_store(v, hk_vjp_part(v, w, r * nc + m),
                             v->tape_loc[s] + (int32_t)m, row);
    }
    hk_vjp_grow(v);
    d->at = at;
    d->blk = blk;
}

/* Row r of tape slot s's cotangent (<K x T> or <K x N x T>), r held to
 * [0, K - 1] as the store holds it: a constant row extracted, a runtime
 * row loaded from the rows' locals (legalize clamps the row). */
static HkVal tape_row(Vjp *v, int32_t s, HkVal r, HkType rowt)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    HkVal w = v->tape_w[s];
    HkType wt = type_of(v, w);
    const HkInst *rd = hk_value(f, r)->kind == HK_DEF_INST ? hk_value(f, r)->def : NULL;
    if (rd != NULL && rd->op == HK_OP_CONST && rd->x->cst.i != NULL) {
        int64_t k = rd->x->cst.i[0];
        k = k < 0 ? 0 : k > (int64_t)wt.dim[0] - 1 ? (int64_t)wt.dim[0] - 1 : k;
        return static_row(v, w, k, rowt);
    }
    if (v->tape_loc[s] < 0)
        rows_local(v, s, w);
    uint32_t nc = rowt.rank == 0 ? 1u : rowt.dim[0];
    HkVal *parts = hk_alloc(d->a, (nc + 1) * sizeof *parts);
    for (uint32_t m = 0; m < nc; m++)
        parts[m] = hk_vjp_row_load(v, v->tape_loc[s] + (int32_t)m, r,
                                   hk_asprintf(d->a, "%s.bar.row", f->slots[s].name));
    return rowt.rank == 0 ? parts[0] : hk_diff_emit(d, HK_OP_BUILD, parts, nc, rowt);
}

/* The cotangent of row r of active local slot s, read and then zeroed
 * at the insertion point: the store being reversed overwrote the row,
 * so what the loads after it read came from this store, and nothing
 * before it reaches them. */
static HkVal local_row(Vjp *v, int32_t s, HkVal r)
{
    Diff *d = &v->d;
    int32_t b = v->bslot[s];
    HkVal w = hk_vjp_row_load(v, b, r, hk_asprintf(d->a, "%s.bar.w", d->f->slots[s].name));
    HkType t = hk_scalar((HkElem)d->f->slots[s].type.elem);
    hk_vjp_row_store(v, hk_diff_full(d, HK_NOVAL, t), b, r);
    return w;
}

/* Adds c, the adjoint of a load of row r of active local slot s, to its
 * cotangent's row in place. */
static void local_add(Vjp *v, int32_t s, HkVal r, HkVal c)
{
    Diff *d = &v->d;
    int32_t b = v->bslot[s];
    const char *base = d->f->slots[s].name;
    d->base = base;
    HkType t = hk_scalar((HkElem)d->f->slots[s].type.elem);
    HkVal old = hk_vjp_row_load(v, b, r, hk_asprintf(d->a, "%s.bar.r", base));
    hk_vjp_row_store(v, hk_diff_emit2(d, HK_OP_FADD, old, c, t), b, r);
}

/* The cotangent of what write x wrote, read at the insertion point, its
 * index through map (nmap entries; NULL: x's own): the cell of a
 * scattered accum, the row of a tape store. */
static HkVal write_read(Vjp *v, const HkInst *x, const HkVal *map, uint32_t nmap)
{
    Diff *d = &v->d;
    HkType t = type_of(v, x->ops[0]);
    d->base = d->f->slots[x->slot].name;
    if (!x->has_index) {
        /* the sample's own cotangent, read here: its own value, whose
         * share this read is; in a loop, when this trip made the last
         * write (v->gate) */
        HkInst *n = hk_inst_new(d->f, HK_OP_LOAD, d->loc);
        n->slot = v->bslot[x->slot];
        HkVal w = hk_inst_result(d->f, n, t, hk_asprintf(d->a, "%s.bar.w", d->base));
        hk_diff_place(d, n);
        if (x->block->parent != NULL && x->block->parent->op == HK_OP_LOOP &&
            v->gate != HK_NOVAL)
            w = hk_diff_sel(d, v->gate, w, hk_diff_full(d, HK_NOVAL, t), t);
        return w;
    }
    HkVal at = map != NULL ? hk_valmap_get(map, nmap, x->ops[1]) : x->ops[1];
    if (d->f->slots[x->slot].role == HK_ROLE_LOCAL)
        return local_row(v, x->slot, at);
    if (x->op == HK_OP_STORE)
        return tape_row(v, x->slot, at, t);
    HkInst *n = hk_inst_new(d->f, HK_OP_GATHER, d->loc);
    hk_inst_set_ops(d->f, n, &at, 1);
    n->slot = v->bslot[x->slot];
    n->has_index = 1;
    HkVal w = hk_inst_result(d->f, n, t, hk_asprintf(d->a, "%s.bar.w", d->base));
    hk_diff_place(d, n);
    return w;
}

/* The copy of write x in a recomputed region nb: its cotangent read,
 * recorded as a share of the adjoint of the written value's copy. */
static void copy_write(Vjp *v, const HkInst *x, HkBlock *nb, HkVal *map,
                       uint32_t nmap)
{
    DiffPoint p = hk_diff_enter(&v->d, nb);
    HkVal r = write_read(v, x, map, nmap);
    set_wadj(v, r, hk_valmap_get(map, nmap, x->ops[0]));
    hk_diff_leave(&v->d, p);
}

/* ---- branches: recomputed in the reverse sweep --------------------------- */


/* Grows the per-value tables to the function's values, after clones. */
void hk_vjp_grow(Vjp *v)
{
    Diff *d = &v->d;
    uint32_t n = d->f->nvalues;
    if (n <= d->ntan)
        return;
    HkVal *tan = hk_alloc(d->a, (n + 1) * sizeof *tan);
    HkVal *adj = hk_alloc(d->a, (n + 1) * sizeof *adj);
    uint8_t *act = hk_alloc(d->a, n + 1u);
    memcpy(tan, d->tan, d->ntan * sizeof *tan);
    memcpy(adj, v->adj, d->ntan * sizeof *adj);
    memcpy(act, d->act, d->ntan);
    for (uint32_t x = d->ntan; x < n; x++)
        tan[x] = adj[x] = HK_NOVAL;
    d->tan = tan;
    v->adj = adj;
    d->act = act;
    d->ntan = n;
    hk_diff_grow_wild(d);
}

/* Marks in inside the values defined in op i's regions, at any depth,
 * with i's own index and carried values. */
static void mark_inside(const HkInst *i, uint8_t *inside)
{
    if (i->x->ivar != HK_NOVAL)
        inside[i->x->ivar] = 1;
    for (uint32_t k = 0; i->x->iters != NULL && k < i->nres; k++)
        inside[i->x->iters[k]] = 1;
    for (uint32_t r = 0; r < i->x->nregions; r++)
        for (const HkInst *x = i->x->regions[r].first; x != NULL; x = x->next) {
            for (uint32_t k = 0; k < x->nres; k++)
                inside[hk_res(x)[k]] = 1;
            mark_inside(x, inside);
        }
}

/* Adds u to o's values when it is a real active value from outside
 * (inside) not seen yet. */
static void outer_use(const Vjp *v, HkVal u, const uint8_t *inside,
                      uint8_t *seen, Outer *o)
{
    if (inside[u] || seen[u] || !v->d.act[u] || !hk_diff_is_real(type_of(v, u)))
        return;
    seen[u] = 1;
    o->vals[o->nvals++] = u;
}

/* Adds to o what the instructions of op i's regions, at any depth, use
 * from outside (inside), first use first. */
static void outer_uses(Vjp *v, const HkInst *i, const uint8_t *inside,
                       uint8_t *seen, uint8_t *sseen, Outer *o)
{
    Diff *d = &v->d;
    for (uint32_t r = 0; r < i->x->nregions; r++)
        for (const HkInst *x = i->x->regions[r].first; x != NULL; x = x->next) {
            if (x->op == HK_OP_GATHER && x->slot >= 0 && d->in[x->slot])
                o->effects = 1;
            if (hk_vjp_writes(v, x) || hk_vjp_write_copy(v, x))
                o->effects = o->writes = 1;
            /* a load of an active local adds into its cotangent's row */
            if (x->op == HK_OP_LOAD && x->has_index && x->slot >= 0 && d->in[x->slot])
                o->effects = 1;
            else if (x->op == HK_OP_LOAD && x->slot >= 0 && d->in[x->slot] &&
                !sseen[x->slot]) {
                sseen[x->slot] = 1;
                o->slots[o->nslots++] = x->slot;
            }
            for (uint32_t k = 0; k < x->nops; k++)
                outer_use(v, x->ops[k], inside, seen, o);
            /* a write's copy adds to the written value's adjoint */
            if (hk_vjp_write_copy(v, x))
                outer_use(v, wadj_of(v, hk_res(x)[0]), inside, seen, o);
            outer_uses(v, x, inside, seen, sseen, o);
        }
}

void hk_vjp_outer(Vjp *v, const HkInst *i, Outer *o)
{
    Diff *d = &v->d;
    uint32_t n = d->f->nvalues;
    uint8_t *inside = hk_alloc(d->a, n + 1u), *seen = hk_alloc(d->a, n + 1u);
    uint8_t *sseen = hk_alloc(d->a, d->f->nslots + 1u);
    memset(o, 0, sizeof *o);
    o->vals = hk_alloc(d->a, (n + 1) * sizeof *o->vals);
    o->slots = hk_alloc(d->a, (d->f->nslots + 1) * sizeof *o->slots);
    mark_inside(i, inside);
    outer_uses(v, i, inside, seen, sseen, o);
}

/* A new value of the function standing for old value x in a copy,
 * "<name>.re", defined as kind k by def. */
static HkVal copy_of(Vjp *v, HkVal x, HkDefKind k, HkInst *def, uint32_t index)
{
    Diff *d = &v->d;
    const HkValue *old = hk_value(d->f, x);
    return hk_value_new(d->f, old->type, hk_asprintf(d->a, "%s.re", old->name),
                        k, def, index, old->loc);
}

static HkVal copy_block(Vjp *v, const HkBlock *b, HkBlock *nb, HkVal *map,
                        uint32_t nmap, int nested, int to_break);

/* Copies instruction x into the end of nb, its operands through map, its
 * regions whole (their yields and break_ifs included, their effects
 * not). */
static void copy_dispatch(Vjp *v, const HkInst *x, HkBlock *nb, HkVal *map,
                          uint32_t nmap);

static void copy_inst(Vjp *v, const HkInst *x, HkBlock *nb, HkVal *map,
                      uint32_t nmap)
{
    Diff *d = &v->d;
    if (x->op == HK_OP_DISPATCH) {
        copy_dispatch(v, x, nb, map, nmap);
        return;
    }
    HkInst *c = hk_inst_copy_shell(d->a, x, d->f->nserials++);
    HkVal *ops = hk_alloc(d->a, (x->nops + 1) * sizeof *ops);
    for (uint32_t k = 0; k < x->nops; k++)
        ops[k] = hk_valmap_get(map, nmap, x->ops[k]);
    hk_inst_set_ops(d->f, c, ops, x->nops);
    hk_inst_size_res(d->a, c, x->nres);
    for (uint32_t k = 0; k < x->nres; k++)
        map[hk_res(x)[k]] = hk_res(c)[k] = copy_of(v, hk_res(x)[k], HK_DEF_INST, c, k);
    HkVal share = x->nres == 1 ? wadj_of(v, hk_res(x)[0]) : HK_NOVAL;
    if (share != HK_NOVAL)
        set_wadj(v, hk_res(c)[0], hk_valmap_get(map, nmap, share));
    if (x->x->ivar != HK_NOVAL)
        map[x->x->ivar] = c->x->ivar = copy_of(v, x->x->ivar, HK_DEF_IVAR, c, 0);
    if (x->x->iters != NULL) {
        c->x->iters = hk_alloc(d->a, (x->nres + 1) * sizeof *c->x->iters);
        for (uint32_t k = 0; k < x->nres; k++)
            map[x->x->iters[k]] = c->x->iters[k] =
                copy_of(v, x->x->iters[k], HK_DEF_ITER, c, k);
    }
    hk_block_append(nb, c);
    if (x->x->nregions == 0)
        return;
    hk_inst_add_regions(d->f, c, x->x->nregions);
    for (uint32_t r = 0; r < x->x->nregions; r++)
        copy_block(v, &x->x->regions[r], &c->x->regions[r], map, nmap, 1, 0);
}

/* The if of case c on, of dispatch x's copy, at the insertion point:
 * case c when kv == c, else the rest of the chain (the last case the
 * final else).  Its results are active where x's are. */
static HkInst *case_copy(Vjp *v, const HkInst *x, uint32_t c, HkVal kv,
                         HkVal *map, uint32_t nmap)
{
    Diff *d = &v->d;
    HkVal ops[2] = {kv, hk_diff_int(d, (int64_t)c, type_of(v, kv), NULL, NULL)};
    HkVal eq = hk_diff_emit(d, HK_OP_ICMP, ops, 2, hk_scalar(HK_I1));
    hk_value(d->f, eq)->def->pred = HK_P_EQ;
    HkType *types = hk_alloc(d->a, (x->nres + 1) * sizeof *types);
    const char **names = hk_alloc(d->a, (x->nres + 1) * sizeof *names);
    for (uint32_t k = 0; k < x->nres; k++) {
        types[k] = type_of(v, hk_res(x)[k]);
        names[k] = hk_asprintf(d->a, "%s.re", hk_value(d->f, hk_res(x)[k])->name);
    }
    HkInst *ni = hk_vjp_if(v, eq, types, names, x->nres);
    hk_vjp_grow(v);
    for (uint32_t k = 0; k < x->nres; k++)
        hk_diff_inherit(d, hk_res(ni)[k], hk_res(x)[k]);
    copy_block(v, &x->x->regions[c], &ni->x->regions[0], map, nmap, 1, 0);
    if (c + 2 == x->x->nregions) {
        copy_block(v, &x->x->regions[c + 1], &ni->x->regions[1], map, nmap, 1, 0);
        return ni;
    }
    DiffPoint p = hk_diff_enter(d, &ni->x->regions[1]);
    HkInst *rest = case_copy(v, x, c + 1, kv, map, nmap);
    HkInst *y = hk_inst_new(d->f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(d->f, y, hk_res(rest), rest->nres);
    hk_block_append(&ni->x->regions[1], y);
    hk_diff_leave(d, p);
    return ni;
}

/* Dispatch x copied into a recomputed region nb: the case the primal
 * ran, clamp(sel, 0, K - 1), without counting it again in the mix slot
 * (the primal counted it): a chain of ifs on "case == c"; a one-case
 * dispatch's case in line. */
static void copy_dispatch(Vjp *v, const HkInst *x, HkBlock *nb, HkVal *map,
                          uint32_t nmap)
{
    Diff *d = &v->d;
    DiffPoint p = hk_diff_enter(d, nb);
    d->base = region_base(v, x);
    if (x->x->nregions == 1) {
        copy_block(v, &x->x->regions[0], nb, map, nmap, 0, 0);
        const HkInst *y = hk_block_yield(&x->x->regions[0]);
        for (uint32_t k = 0; y != NULL && k < x->nres && k < y->nops; k++)
            map[hk_res(x)[k]] = hk_valmap_get(map, nmap, y->ops[k]);
    } else {
        HkVal sel = hk_valmap_get(map, nmap, x->ops[0]);
        HkType st = type_of(v, sel);
        HkVal lo = hk_diff_int(d, 0, st, NULL, NULL);
        HkVal hi = hk_diff_int(d, (int64_t)x->x->nregions - 1, st, NULL, NULL);
        HkVal kv = hk_diff_emit2(d, HK_OP_MAXIMUM, sel, lo, st);
        kv = hk_diff_emit2(d, HK_OP_MINIMUM, kv, hi, st);
        HkInst *ni = case_copy(v, x, 0, kv, map, nmap);
        for (uint32_t k = 0; k < x->nres; k++)
            map[hk_res(x)[k]] = hk_res(ni)[k];
    }
    hk_diff_leave(d, p);
}

/* Copies block b into nb: its instructions but those with an effect,
 * and, in a region nested in the one recomputed, its yield and the
 * break_if of a loop, which that region's own computation needs. */
static HkVal copy_block(Vjp *v, const HkBlock *b, HkBlock *nb, HkVal *map,
                        uint32_t nmap, int nested, int to_break)
{
    for (const HkInst *x = b->first; x != NULL; x = x->next) {
        if (to_break && x->op == HK_OP_BREAK_IF)
            return hk_valmap_get(map, nmap, x->ops[0]);
        if (hk_vjp_writes(v, x)) {
            if (!v->rerun)
                copy_write(v, x, nb, map, nmap);
            continue;
        }
        /* a dispatch's count is its one effect: its copy does not count */
        int keep = x->op == HK_OP_DISPATCH ||
                   (nested && (x->op == HK_OP_YIELD || x->op == HK_OP_BREAK_IF));
        if (!keep && (x->op == HK_OP_YIELD || (hk_ops[x->op].flags & HK_F_SIDE) != 0))
            continue;
        copy_inst(v, x, nb, map, nmap);
    }
    return HK_NOVAL;
}

void hk_vjp_recompute(Vjp *v, const HkBlock *b, HkBlock *nb, HkVal *map,
                      uint32_t nmap)
{
    copy_block(v, b, nb, map, nmap, 0, 0);
}

HkVal hk_vjp_recompute_to_break(Vjp *v, const HkBlock *b, HkBlock *nb,
                                HkVal *map, uint32_t nmap)
{
    return copy_block(v, b, nb, map, nmap, 0, 1);
}

/* The reverse of branch b of region op i into the empty region nb: b
 * recomputed, each result's adjoint given to b's yielded value, the
 * sweep over the copies, and a yield of the shares of every outer value
 * and slot (0.0 for none).  The outer adjoints are local to the branch:
 * saved, cleared and put back. */
static void reverse_branch(Vjp *v, const HkInst *i, const HkBlock *b,
                           HkBlock *nb, const Outer *o)
{
    Diff *d = &v->d;
    HkVal *saved = hk_alloc(d->a, (o->nvals + o->nslots + 1) * sizeof *saved);
    for (uint32_t k = 0; k < o->nvals; k++) {
        saved[k] = v->adj[o->vals[k]];
        v->adj[o->vals[k]] = HK_NOVAL;
    }
    for (uint32_t k = 0; k < o->nslots; k++) {
        saved[o->nvals + k] = v->sadj[o->slots[k]];
        v->sadj[o->slots[k]] = HK_NOVAL;
    }
    uint32_t nmap = d->f->nvalues;
    HkVal *map = hk_valmap_new(d->f, nmap);
    if (b != NULL)
        hk_vjp_recompute(v, b, nb, map, nmap);
    hk_vjp_grow(v);
    for (uint32_t x = 0; x < nmap; x++)
        if (map[x] != HK_NOVAL)
            hk_diff_inherit(d, map[x], x);
    d->at = NULL;
    d->blk = nb;
    HkInst *last = nb->last;
    const HkInst *y = b != NULL ? hk_block_yield(b) : NULL;
    for (uint32_t k = 0; y != NULL && k < i->nres && k < y->nops; k++)
        if (v->adj[hk_res(i)[k]] != HK_NOVAL)
            hk_vjp_add_adj(v, hk_valmap_get(map, nmap, y->ops[k]), v->adj[hk_res(i)[k]]);
    for (HkInst *x = last; x != NULL; x = x->prev)
        hk_vjp_reverse(v, x);
    uint32_t n = o->nvals + o->nslots;
    HkVal *ops = hk_alloc(d->a, (n + 1) * sizeof *ops);
    for (uint32_t k = 0; k < o->nvals; k++) {
        d->base = hk_value(d->f, o->vals[k])->name;
        ops[k] = hk_diff_full(d, v->adj[o->vals[k]], type_of(v, o->vals[k]));
        v->adj[o->vals[k]] = saved[k];
    }
    for (uint32_t k = 0; k < o->nslots; k++) {
        const HkSlot *sl = &d->f->slots[o->slots[k]];
        d->base = sl->name;
        ops[o->nvals + k] = hk_diff_full(d, v->sadj[o->slots[k]], sl->type);
        v->sadj[o->slots[k]] = saved[o->nvals + k];
    }
    HkInst *yi = hk_inst_new(d->f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(d->f, yi, ops, n);
    hk_block_append(nb, yi);
}

HkInst *hk_vjp_if(Vjp *v, HkVal cond, const HkType *types,
                  const char **names, uint32_t n)
{
    Diff *d = &v->d;
    HkInst *ni = hk_inst_new(d->f, HK_OP_IF, d->loc);
    hk_inst_set_ops(d->f, ni, &cond, 1);
    hk_inst_add_regions(d->f, ni, 2);
    hk_inst_set_results(d->f, ni, types, names, n);
    if (n == 1)
        ni->type = types[0];
    hk_diff_place(d, ni);
    return ni;
}

/* A new two-region if on cond, placed at the insertion point, whose
 * results take the outer values' and slots' types, named
 * "<name>.bar.s". */
static HkInst *new_if(Vjp *v, HkVal cond, const Outer *o)
{
    Diff *d = &v->d;
    uint32_t n = o->nvals + o->nslots;
    HkType *types = hk_alloc(d->a, (n + 1) * sizeof *types);
    const char **names = hk_alloc(d->a, (n + 1) * sizeof *names);
    for (uint32_t k = 0; k < o->nvals; k++) {
        types[k] = type_of(v, o->vals[k]);
        names[k] = hk_asprintf(d->a, "%s.bar.s", hk_value(d->f, o->vals[k])->name);
    }
    for (uint32_t k = 0; k < o->nslots; k++) {
        types[o->nvals + k] = d->f->slots[o->slots[k]].type;
        names[o->nvals + k] =
            hk_asprintf(d->a, "%s.bar.s", d->f->slots[o->slots[k]].name);
    }
    return hk_vjp_if(v, cond, types, names, n);
}

/* An i64 (the selector's type) constant c, placed at the insertion
 * point. */
/* The reverse of dispatch i from case c on, as an if on "case == c"
 * whose else holds the rest; the case is k, the selector held to
 * [0, K - 1].  The new if is placed at the insertion point. */
static HkInst *case_chain(Vjp *v, const HkInst *i, const Outer *o, HkVal k,
                          uint32_t c)
{
    Diff *d = &v->d;
    d->base = region_base(v, i);
    HkType kt = type_of(v, k);
    HkVal cv = hk_diff_int(&v->d, (int64_t)c, kt, NULL, NULL);
    HkVal ops[2] = {k, cv};
    HkVal eq = hk_diff_emit(d, HK_OP_ICMP, ops, 2, hk_scalar(HK_I1));
    hk_value(d->f, eq)->def->pred = HK_P_EQ;
    HkInst *ni = new_if(v, eq, o);
    reverse_branch(v, i, &i->x->regions[c], &ni->x->regions[0], o);
    if (c + 2 == i->x->nregions) {
        reverse_branch(v, i, &i->x->regions[c + 1], &ni->x->regions[1], o);
        return ni;
    }
    d->at = NULL;
    d->blk = &ni->x->regions[1];
    HkInst *inner = case_chain(v, i, o, k, c + 1);
    HkInst *yi = hk_inst_new(d->f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(d->f, yi, hk_res(inner), inner->nres);
    hk_block_append(&ni->x->regions[1], yi);
    return ni;
}

/* The reverse of if or dispatch i at the insertion point: a branch on
 * the same condition (a dispatch: the case it ran, by a chain of ifs,
 * since a dispatch also counts its case) whose branches recompute the
 * primal branch and sweep it, yielding each outer value's and slot's
 * share, then added to their adjoints.  Recomputing the branch, rather
 * than keeping its values, needs no storage (a loop in it is reversed
 * by recomputation too). */
static void reverse_region(Vjp *v, HkInst *i)
{
    Diff *d = &v->d;
    int any = 0;
    for (uint32_t k = 0; k < i->nres; k++)
        any |= hk_res(i)[k] < d->ntan && v->adj[hk_res(i)[k]] != HK_NOVAL;
    Outer o;
    hk_vjp_outer(v, i, &o);
    if ((!any && !o.writes) || (o.nvals + o.nslots == 0 && !o.effects))
        return;
    HkInst *at = d->at;
    HkBlock *blk = d->blk;
    HkInst *ni;
    d->base = region_base(v, i);
    if (i->op == HK_OP_IF) {
        ni = new_if(v, i->ops[0], &o);
        for (uint32_t r = 0; r < 2; r++)
            reverse_branch(v, i, r < i->x->nregions ? &i->x->regions[r] : NULL,
                           &ni->x->regions[r], &o);
    } else if (i->x->nregions == 1) {
        HkVal tv = hk_diff_int(d, 1, hk_scalar(HK_I1), NULL, NULL);
        ni = new_if(v, tv, &o);
        reverse_branch(v, i, &i->x->regions[0], &ni->x->regions[0], &o);
        reverse_branch(v, i, NULL, &ni->x->regions[1], &o);
    } else {
        HkVal sel = i->ops[0];
        HkType st = type_of(v, sel);
        HkVal lo = hk_diff_int(d, 0, st, NULL, NULL);
        HkVal hi = hk_diff_int(d, (int64_t)i->x->nregions - 1, st, NULL, NULL);
        HkVal k = hk_diff_emit2(d, HK_OP_MAXIMUM, sel, lo, st);
        k = hk_diff_emit2(d, HK_OP_MINIMUM, k, hi, st);
        ni = case_chain(v, i, &o, k, 0);
    }
    d->at = at;
    d->blk = blk;
    for (uint32_t k = 0; k < o.nvals; k++) {
        d->base = hk_value(d->f, o.vals[k])->name;
        hk_vjp_add_to(v, &v->adj[o.vals[k]], hk_res(ni)[k], type_of(v, o.vals[k]));
    }
    for (uint32_t k = 0; k < o.nslots; k++) {
        d->base = d->f->slots[o.slots[k]].name;
        hk_vjp_add_to(v, &v->sadj[o.slots[k]], hk_res(ni)[o.nvals + k],
               d->f->slots[o.slots[k]].type);
    }
}

/* ---- calls and funcs ------------------------------------------------------ */

static HkFunc *vjp_func(Vjp *v, HkFunc *g);

/* A call with an adjoint on a result calls the callee's reverse
 * derivative, @<callee>_vjp: the arguments, then each real result's
 * adjoint (0.0 for none); it returns each real argument's share. */
static void reverse_call(Vjp *v, HkInst *i)
{
    Diff *d = &v->d;
    int any = 0;
    for (uint32_t k = 0; k < i->nres; k++)
        any |= hk_res(i)[k] < d->ntan && v->adj[hk_res(i)[k]] != HK_NOVAL;
    if (!any || !hk_diff_any_active(d, i, 0))
        return;
    HkFunc *g = d->f->module->funcs[i->x->callee];
    HkFunc *gv = hk_diff_custom(d, g);
    if (gv == NULL)
        gv = vjp_func(v, g);
    if (gv == NULL)
        return;
    uint32_t n = i->nops, m = gv->nparams - n;
    HkVal *ops = hk_alloc(d->a, (n + m + 1) * sizeof *ops);
    memcpy(ops, i->ops, n * sizeof *ops);
    for (uint32_t k = 0, j = n; k < i->nres; k++) {
        HkVal r = hk_res(i)[k];
        if (!hk_diff_is_real(type_of(v, r)))
            continue;
        d->base = hk_value(d->f, r)->name;
        ops[j++] = hk_diff_full(d, v->adj[r], type_of(v, r));
    }
    HkInst *c = hk_inst_new(d->f, HK_OP_CALL, d->loc);
    hk_inst_set_ops(d->f, c, ops, n + m);
    c->x->callee = hk_func_index(d->f->module, gv->name, strlen(gv->name));
    HkType *types = hk_alloc(d->a, (gv->nrtypes + 1) * sizeof *types);
    const char **names = hk_alloc(d->a, (gv->nrtypes + 1) * sizeof *names);
    HkVal *to = hk_alloc(d->a, (gv->nrtypes + 1) * sizeof *to);
    for (uint32_t k = 0, j = 0; k < n; k++) {
        if (!hk_diff_is_real(type_of(v, i->ops[k])))
            continue;
        to[j] = i->ops[k];
        types[j] = type_of(v, i->ops[k]);
        names[j++] = hk_asprintf(d->a, "%s.bar.s", hk_value(d->f, i->ops[k])->name);
    }
    hk_inst_set_results(d->f, c, types, names, gv->nrtypes);
    if (gv->nrtypes == 1)
        c->type = types[0];
    hk_diff_place(d, c);
    HkVal *res = hk_res(c);
    hk_vjp_grow(v);
    for (uint32_t j = 0; j < gv->nrtypes; j++)
        hk_vjp_add_adj(v, to[j], res[j]);
}

/* The reverse derivative func of g, @<g>_vjp, made once per module: g's
 * copy taking, after g's parameters, the adjoint "<value>.bar" of each
 * real result (named after the value g returns there) and returning the
 * share of each real parameter, after recomputing g's body and sweeping
 * it; NULL after a diagnostic. */
static HkFunc *vjp_func(Vjp *v, HkFunc *g)
{
    Diff *d = &v->d;
    int made;
    HkFunc *h = hk_diff_func_copy(d, g, &made);
    if (!made)
        return h;
    Vjp w;
    memset(&w, 0, sizeof w);
    hk_diff_init(&w.d, d->r, h, d->pass, d->sfx);
    values(&w);
    for (uint32_t k = 0; k < h->nparams; k++)
        w.d.act[h->params[k]] = 1;
    hk_diff_settle(&w.d);
    HkInst *ret = h->body.last;
    HkInst *last = ret->prev;
    w.d.at = ret;
    w.d.loc = ret->loc;
    uint32_t floor = h->nserials;
    /* the results' adjoints: new parameters after g's */
    uint32_t np = h->nparams, nr = 0;
    for (uint32_t k = 0; k < h->nrtypes; k++)
        nr += (uint32_t)hk_diff_is_real(h->rtypes[k]);
    HkVal *params = hk_alloc(d->a, (np + nr + 1) * sizeof *params);
    memcpy(params, h->params, np * sizeof *params);
    for (uint32_t k = 0, j = np; k < h->nrtypes; k++) {
        if (!hk_diff_is_real(h->rtypes[k]))
            continue;
        HkVal rv = ret->ops[k];
        params[j] = hk_value_new(h, h->rtypes[k],
                                 hk_asprintf(d->a, "%s.bar", hk_value(h, rv)->name),
                                 HK_DEF_PARAM, NULL, j, ret->loc);
        hk_vjp_grow(&w);
        hk_vjp_add_adj(&w, rv, params[j++]);
    }
    for (HkInst *x = last; x != NULL; x = x->prev)
        hk_vjp_reverse(&w, x);
    /* the parameters' shares, returned */
    uint32_t nq = 0;
    for (uint32_t k = 0; k < np; k++)
        nq += (uint32_t)hk_diff_is_real(type_of(&w, h->params[k]));
    HkVal *ops = hk_alloc(d->a, (nq + 1) * sizeof *ops);
    HkType *rt = hk_alloc(d->a, (nq + 1) * sizeof *rt);
    for (uint32_t k = 0, j = 0; k < np; k++) {
        HkVal p = h->params[k];
        if (!hk_diff_is_real(type_of(&w, p)))
            continue;
        w.d.base = hk_value(h, p)->name;
        rt[j] = type_of(&w, p);
        ops[j] = hk_diff_full(&w.d, w.adj[p], rt[j]);
        j++;
    }
    hk_inst_set_ops(h, ret, ops, nq);
    h->params = params;
    h->nparams = np + nr;
    h->rtypes = rt;
    h->nrtypes = nq;
    /* the copy's primal results are no longer returned: dead code of
     * its own, removed with the dead shares */
    (void)floor;
    hk_dce_from(h, 0);
    d->failed |= w.d.failed;
    return h;
}

/* ---- the sweep ----------------------------------------------------------- */

/* The transpose of gather i from an active table: the element's adjoint
 * added into the same (clamped) cell of the table's cotangent plane,
 * which sums the shares of every sample and of every read. */
static void scatter_share(Vjp *v, const HkInst *i)
{
    Diff *d = &v->d;
    HkVal ops[2] = {v->adj[hk_res(i)[0]], i->ops[0]};
    HkInst *n = hk_inst_new(d->f, HK_OP_ACCUM, d->loc);
    hk_inst_set_ops(d->f, n, ops, 2);
    n->slot = v->bslot[i->slot];
    n->has_index = 1;
    hk_diff_place(d, n);
}

void hk_vjp_reverse(Vjp *v, HkInst *i)
{
    Diff *d = &v->d;
    if (i->op == HK_OP_IF || i->op == HK_OP_DISPATCH) {
        reverse_region(v, i);
        return;
    }
    if (i->op == HK_OP_CALL) {
        reverse_call(v, i);
        return;
    }
    if (i->op == HK_OP_LOOP) {
        hk_vjp_reverse_loop(v, i);
        return;
    }
    HkVal share = i->nres == 1 ? wadj_of(v, hk_res(i)[0]) : HK_NOVAL;
    if (share != HK_NOVAL) {
        hk_vjp_add_adj(v, share, hk_res(i)[0]);
        return;
    }
    if (i->op == HK_OP_GATHER) {
        if (i->slot >= 0 && d->in[i->slot] && v->adj[hk_res(i)[0]] != HK_NOVAL)
            scatter_share(v, i);
        return;
    }
    if (hk_vjp_writes(v, i)) {
        HkVal x = i->ops[0];
        if (x < d->ntan && d->act[x]) {
            HkVal w = write_read(v, i, NULL, 0);
            hk_vjp_grow(v);
            hk_vjp_add_adj(v, x, w);
        }
        return;
    }
    if (i->op == HK_OP_LOAD && i->has_index) {
        if (i->slot >= 0 && d->in[i->slot] && v->adj[hk_res(i)[0]] != HK_NOVAL)
            local_add(v, i->slot, i->ops[0], v->adj[hk_res(i)[0]]);
        return;
    }
    if (i->op == HK_OP_LOAD) {
        if (i->slot >= 0 && d->in[i->slot] && v->adj[hk_res(i)[0]] != HK_NOVAL) {
            d->base = d->f->slots[i->slot].name;
            hk_vjp_add_to(v, &v->sadj[i->slot], v->adj[hk_res(i)[0]],
                   d->f->slots[i->slot].type);
        }
        return;
    }
    if (i->nres != 1 || hk_res(i)[0] >= d->ntan || !hk_diff_is_real(i->type))
        return;
    HkVal R = v->adj[hk_res(i)[0]];
    if (R != HK_NOVAL)
        transpose(v, i, R);
}

/* The cotangents of the active outputs, read first: a stored value's
 * adjoint starts as its slot's cotangent; an output never stored is
 * its input, whose adjoint it is. */
static void seed(Vjp *v)
{
    Diff *d = &v->d;
    for (uint32_t k = 0; k < d->f->nslots; k++) {
        if (!d->out[k] || hk_is_dyn(d->f->slots[k].type) ||
            d->f->slots[k].role == HK_ROLE_LOCAL)
            continue;  /* a shared plane's cells: at each accum */
        const HkSlot *sl = &d->f->slots[k];
        d->base = sl->name;
        HkInst *n = hk_inst_new(d->f, HK_OP_LOAD, d->loc);
        n->slot = v->bslot[k];
        HkVal w = hk_inst_result(d->f, n, sl->type,
                                 hk_asprintf(d->a, "%s.bar.w", sl->name));
        hk_diff_place(d, n);
        v->tape_w[k] = w;
        if (v->store[k] != NULL)
            hk_vjp_add_adj(v, v->store[k]->ops[0], w);
        else if (d->in[k] && sl->role != HK_ROLE_OUT && !v->every[k])
            hk_vjp_add_to(v, &v->sadj[k], w, sl->type);
    }
}

/* Writes each active input's cotangent: a store into its mutable
 * cotangent slot, or, for a uniform, an accum per component into cell
 * c of its shared plane (the sum over the samples). */
static void finish(Vjp *v)
{
    Diff *d = &v->d;
    for (uint32_t k = 0; k < d->f->nslots; k++) {
        if (!d->in[k] || hk_is_dyn(d->f->slots[k].type) ||
            d->f->slots[k].role == HK_ROLE_LOCAL)
            continue;  /* a table's shares went in at each gather; a
                          local's at each load */
        const HkSlot *sl = &d->f->slots[k];
        d->base = sl->name;
        HkVal g = hk_diff_full(d, v->sadj[k], sl->type);
        if (sl->role != HK_ROLE_UNIFORM) {
            HkInst *n = hk_inst_new(d->f, HK_OP_STORE, d->loc);
            hk_inst_set_ops(d->f, n, &g, 1);
            n->slot = v->bslot[k];
            hk_diff_place(d, n);
            continue;
        }
        uint32_t nc = hk_components(sl->type);
        for (uint32_t c = 0; c < nc; c++) {
            HkVal at = hk_diff_int(d, c, hk_scalar(HK_I64), sl->name, NULL);
            HkVal ops[2] = {hk_vjp_part(v, g, c), at};
            HkInst *n = hk_inst_new(d->f, HK_OP_ACCUM, d->loc);
            hk_inst_set_ops(d->f, n, ops, 2);
            n->slot = v->bslot[k];
            n->has_index = 1;
            hk_diff_place(d, n);
        }
    }
}

/* ---- refusals ------------------------------------------------------------ */

/* The kernel-level instruction that holds i (i itself at the top). */
static const HkInst *top_of(const HkInst *i)
{
    while (i->block->parent != NULL)
        i = i->block->parent;
    return i;
}

/* Why reverse mode does not take node i of g yet (in_region: inside a
 * loop, if or dispatch, whose reverse recomputes it; last: per slot,
 * the position (from 1) among the kernel-level instructions of the last one
 * holding a store to it, pos: each kernel-level instruction's position,
 * by serial), beyond the shared refusals and the stores; NULL when it
 * does.  The recomputation runs after every store of the kernel, so a
 * load it repeats must come after the last store to its slot. */
static const char *unsupported(const HkInst *i, int in_region,
                               const uint32_t *last, const uint32_t *pos)
{
    if (!in_region)
        return NULL;
    if (i->op == HK_OP_RANDOM)
        return "a region is recomputed in reverse, and a random draw cannot be";
    if (i->op == HK_OP_LOAD && i->slot >= 0 && last != NULL &&
        last[i->slot] >= pos[top_of(i)->serial])
        return "a region is recomputed in reverse, after the kernel's stores, "
               "so it cannot load a slot the kernel stores into in that region "
               "or after it";
    return NULL;
}

/* Why reverse mode does not take store i into an active local (the
 * block of the last store to each local so far: at), or NULL.  The
 * reverse of a store reads its row's cotangent and zeroes it where the
 * store's region is recomputed, once: in the kernel's body or a region
 * of an op of it, one store per local in a block (two would be read in
 * the order they ran, not reversed). */
static const char *local_rule(const HkFunc *f, const HkInst *i, const HkBlock **at)
{
    const HkInst *P = i->block->parent;
    if (P != NULL && P->block != &f->body)
        return "a store to a real local nested in two regions, whose reverse "
               "would read the row's cotangent where the outer region is "
               "recomputed and again where the inner one is";
    if (P != NULL && at[i->slot] == i->block)
        return "a second store to a real local in one loop or branch";
    at[i->slot] = i->block;
    return NULL;
}

/* Why reverse mode does not take tape store i into active tape sl (its
 * stores so far: stored), or NULL: a row written twice would need the
 * overwritten value's cotangent to be zero, so one store writes each
 * row once: outside loops, or in one loop (not nested) at the loop's
 * index, the trips' rows inside the tape. */
static const char *tape_rule(const HkInst *i, const HkSlot *sl, uint8_t *stored)
{
    if (stored[i->slot])
        return "a second store to an active tape";
    stored[i->slot] = 1;
    const HkInst *L = NULL;
    for (const HkInst *p = i->block->parent; p != NULL; p = p->block->parent) {
        if (p->op != HK_OP_LOOP)
            continue;
        if (L != NULL)
            return "a tape row written inside nested loops";
        L = p;
    }
    if (L == NULL)
        return NULL;
    if (i->ops[1] != L->x->ivar)
        return "a tape row written inside a loop at a row other than the "
               "loop's index, which the trips may write twice";
    int64_t trips = L->x->has_count ? L->x->max_trip : L->x->hi - L->x->lo;
    if (L->x->lo < 0 || L->x->lo + trips > (int64_t)sl->type.dim[0])
        return "a tape row the loop's trips may write outside the tape, "
               "clamped onto one row twice";
    return NULL;
}

/* Whether store i, in the body of loop L, runs on every trip and L runs
 * at least one: a static count above 0, no break_if, i not in a branch. */
static int every_trip(const HkInst *L, const HkInst *i)
{
    if (L->op != HK_OP_LOOP || i->block != &L->x->regions[0] ||
        L->x->has_count || L->x->hi <= L->x->lo)
        return 0;
    for (const HkInst *x = L->x->regions[0].first; x != NULL; x = x->next)
        if (x->op == HK_OP_BREAK_IF)
            return 0;
    return 1;
}

/* Why reverse mode does not take store (or own-column accum) i inside
 * a region, or NULL.  In a branch it is transposed where it is (its
 * value gets the cotangent when the branch ran it); in a loop the last
 * trip's store wins, and an output that is an active input too would
 * pass its input through when the branch does not store, or no trip
 * does: taken when every trip stores (v->every). */
static const char *branch_store_rule(Vjp *v, const HkInst *i)
{
    const Diff *d = &v->d;
    const HkInst *L = i->block->parent;
    int in_loop = 0;
    for (const HkInst *p = L; p != NULL; p = p->block->parent)
        in_loop |= p->op == HK_OP_LOOP;
    /* the last trip's write wins: taken in the body of a loop of the
     * kernel's body, where the reverse knows the last trip that wrote
     * (vjp_loop.c, last_writer) */
    if (in_loop && (L->op != HK_OP_LOOP || L->block != &d->f->body))
        return "a store to an active output in a branch of a loop or in a "
               "loop not of the kernel's body, where the reverse does not know "
               "which trip stored last";
    if (d->in[i->slot] && in_loop && every_trip(L, i)) {
        v->every[i->slot] = 1;
        return NULL;
    }
    if (d->in[i->slot])
        return in_loop ? "a store inside a loop that a trip may skip (a runtime "
                         "count, a break_if) to an output that is an active "
                         "input too, whose value passes through when no trip stores"
                       : "a store inside a branch to an output that is an active input "
                         "too, whose value passes through when the branch does not store";
    return NULL;
}

/* Refuses what reverse mode does not take in g and the funcs it calls
 * (each once: seen, by function index). */
typedef struct {
    uint8_t *seen;           /* by function index: refused already */
    const uint32_t *last;    /* unsupported's */
    const uint32_t *pos;
    uint8_t *stored;         /* by slot: stored already */
    const HkBlock **at;      /* local_rule's */
} Refuse;

static void refuse_in(Vjp *v, HkFunc *g, Refuse *rf)
{
    Diff *d = &v->d;
    HkModule *m = g->module;
    uint8_t *stored = rf->stored;
    for (const HkInst *i = g->body.first; i != NULL; i = hk_preorder_next(i)) {
        const char *why = hk_diff_refused(d, i);
        int top = i->block == &g->body;
        if (why == NULL)
            why = unsupported(i, !top, g == d->f ? rf->last : NULL, rf->pos);
        int active = g == d->f && i->slot >= 0 && (d->in[i->slot] || d->out[i->slot]);
        int local = active && d->f->slots[i->slot].role == HK_ROLE_LOCAL;
        int shared = active && hk_is_dyn(d->f->slots[i->slot].type);
        int write = i->op == HK_OP_STORE || i->op == HK_OP_ACCUM;
        if (local) {
            if (why == NULL && write)
                why = local_rule(d->f, i, rf->at);
        } else if (why == NULL && write && shared && (i->op == HK_OP_STORE || !i->has_index))
            why = "a write into the own position of a shared plane keeps "
                  "whichever sample the launch ran last, not a function of "
                  "one sample's inputs";
        else if (why == NULL && i->op == HK_OP_STORE && active &&
                 d->f->slots[i->slot].role == HK_ROLE_OUT)
            why = tape_rule(i, &d->f->slots[i->slot], stored);
        else if (why == NULL && write && active && !shared) {
            if (stored[i->slot])
                why = "a second store to an active output";
            else if (!top)
                why = branch_store_rule(v, i);
            stored[i->slot] = 1;
            if (top)
                v->store[i->slot] = (HkInst *)i;
        }
        if (why == NULL && i->op == HK_OP_LOAD && active && !local && stored[i->slot])
            why = "a load of an active slot after a store to it";
        if (why != NULL)
            hk_diff_refuse(d, g, i, why);
        if (i->op == HK_OP_CALL && i->x->callee < m->nfuncs && !rf->seen[i->x->callee] &&
            hk_diff_custom(d, m->funcs[i->x->callee]) == NULL) {
            rf->seen[i->x->callee] = 1;
            hk_diff_name_free(d, m->funcs[i->x->callee], "reverse derivative");
            refuse_in(v, m->funcs[i->x->callee], rf);
        }
    }
}

/* What reverse mode does not take yet, beyond the shared refusals, in
 * the kernel and the funcs it calls: the stores refuse_in names, a load
 * of an active slot (not a local) after a store to it; and in a loop, if
 * or dispatch (recomputed in the reverse sweep), a random draw or a load
 * of a slot the kernel stores into there or after it. */
static int refuse_all(Vjp *v)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    if (hk_diff_refuse_deep(d))
        return 1;
    uint32_t *last = hk_alloc(d->a, (f->nslots + 1u) * sizeof *last);
    uint32_t *pos = hk_alloc(d->a, (f->nserials + 1u) * sizeof *pos);
    uint32_t n = 0;
    for (const HkInst *t = f->body.first; t != NULL; t = t->next)
        pos[t->serial] = ++n;
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == HK_OP_STORE && i->slot >= 0)
            last[i->slot] = pos[top_of(i)->serial];
    Refuse rf = {hk_alloc(d->a, f->module->nfuncs + 1u), last, pos,
                 hk_alloc(d->a, f->nslots + 1u),
                 hk_alloc(d->a, (f->nslots + 1u) * sizeof *rf.at)};
    refuse_in(v, f, &rf);
    return d->failed;
}

/* ---- the pass ------------------------------------------------------------ */

/* The role of active slot k's cotangent slot and its type (*t): what
 * the kernel writes J^T w into for an input, what the caller gives w in
 * for an output.  An input's is mutable of its type (one slot, read then
 * written, when the input is a mutable output too); a uniform's a shared
 * accum_out of one cell per component and a table's an accum_out of the
 * table's type, both summing over the samples; a per-sample accum_out's
 * a mutable of its type, read; a shared accum_out's a lookup of its
 * type, read at each cell the kernel added to. */
static HkRole bar_role(const HkSlot *sl, HkType *t)
{
    *t = sl->type;
    switch (sl->role) {
    case HK_ROLE_UNIFORM:
        *t = hk_scalar(sl->type.elem);
        t->rank = 1;
        t->dim[0] = HK_DYN;
        return HK_ROLE_ACCUM_OUT;
    case HK_ROLE_LOOKUP:
    case HK_ROLE_WIDE_IN:
        return HK_ROLE_ACCUM_OUT;
    case HK_ROLE_ACCUM_OUT:
        return hk_is_dyn(sl->type) ? HK_ROLE_LOOKUP : HK_ROLE_MUTABLE;
    case HK_ROLE_LOCAL:
        return HK_ROLE_LOCAL;
    default:
        return HK_ROLE_MUTABLE;
    }
}

/* The cotangent slot of active slot k: <slot>.bar, of bar_role. */
static int add_bar(Vjp *v, uint32_t k)
{
    Diff *d = &v->d;
    const HkSlot sl = d->f->slots[k];
    HkType t;
    HkRole role = bar_role(&sl, &t);
    if (sl.role == HK_ROLE_ACCUM_OUT && hk_is_dyn(sl.type) && sl.type.rank != 1) {
        hk_error(hk_run_diags(d->r), &d->f->module->src, sl.loc,
                 "'%s': vjp does not differentiate a shared accum_out of rows "
                 "('%s'); name the active slots with vjp{wrt=...,of=...}",
                 d->f->name, sl.name);
        return -1;
    }
    grow_tables(v);
    v->bslot[k] = hk_slot_add(d->f, hk_asprintf(d->a, "%s.bar", sl.name), role,
                              t, sl.loc);
    if (v->bslot[k] >= 0)
        return 0;
    hk_error(hk_run_diags(d->r), &d->f->module->src, sl.loc,
             "'%s': vjp names the cotangent of '%s' '%s.bar', which the "
             "kernel already has", d->f->name, sl.name, sl.name);
    return -1;
}

/* The locals from slot first on (the cotangents and tapes the sweep
 * made) that no instruction names any more (the dead code gone: a
 * carried value the recomputed trips do not read, a local whose
 * cotangent no load reaches) removed, the other slots renumbered. */
static void drop_unused_locals(HkFunc *f, uint32_t first)
{
    if (first >= f->nslots)
        return;
    HkArena *a = f->module->arena;
    int32_t *to = hk_alloc(a, (f->nslots + 1u) * sizeof *to);
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->slot >= (int32_t)first && (uint32_t)i->slot < f->nslots)
            to[i->slot] = 1;
    uint32_t n = first;
    for (uint32_t s = first; s < f->nslots; s++) {
        const char *name = f->slots[s].name;
        hk_names_del(hk_func_syms(f), name, strlen(name));
        if (!to[s] && f->slots[s].role == HK_ROLE_LOCAL) {
            to[s] = -1;
            continue;
        }
        to[s] = (int32_t)n;
        f->slots[n] = f->slots[s];
        hk_names_put(hk_func_syms(f), name, strlen(name), HK_SYM_SLOT | n);
        n++;
    }
    f->nslots = n;
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->slot >= (int32_t)first)
            i->slot = to[i->slot];
}

int hk_pass_vjp(HawkPassRun *r, HkFunc *f)
{
    if (!f->is_kernel)
        return 0;
    HkArena *a = f->module->arena;
    Vjp v;
    memset(&v, 0, sizeof v);
    Diff *d = &v.d;
    hk_diff_init(d, r, f, "vjp", "bar");
    d->roles = 1u << HK_ROLE_LOOKUP | 1u << HK_ROLE_WIDE_IN | 1u << HK_ROLE_OUT |
               1u << HK_ROLE_ACCUM_OUT;
    uint32_t n = f->nslots;
    v.bslot = hk_alloc(a, (n + 1) * sizeof *v.bslot);
    v.store = hk_alloc(a, (n + 1) * sizeof *v.store);
    v.every = hk_alloc(a, n + 1);
    v.sadj = hk_alloc(a, (n + 1) * sizeof *v.sadj);
    v.tape_w = hk_alloc(a, (n + 1) * sizeof *v.tape_w);
    v.tape_loc = hk_alloc(a, (n + 1) * sizeof *v.tape_loc);
    v.gate = HK_NOVAL;
    if (hk_diff_slots(d) != 0)
        return 1;
    const char *name = hk_diff_kernel_name(d);
    if (name == NULL)
        return 1;
    /* the primal as the pass found it, before the sink; a refused
     * kernel keeps the record it had (its writes sunk: the same bits) */
    const struct HkDerivOrigin *had = f->origin;
    hk_diff_origin(d);
    hk_vjp_sink_stores(&v);
    if (refuse_all(&v)) {
        f->origin = had;
        return 1;
    }
    for (uint32_t k = 0; k < n; k++) {
        v.bslot[k] = -1;
        v.tape_loc[k] = -1;
        v.sadj[k] = HK_NOVAL;
        if ((d->in[k] || d->out[k]) && add_bar(&v, k) != 0)
            return 1;
    }
    values(&v);
    hk_diff_settle(d);
    HkInst *ret = f->body.last;
    HkInst *last = ret->prev;
    d->at = ret;
    d->loc = ret->loc;
    uint32_t floor = f->nserials;
    seed(&v);
    for (HkInst *i = last; i != NULL; i = i->prev)
        hk_vjp_reverse(&v, i);
    finish(&v);
    hk_dce_from(f, floor);
    drop_unused_locals(f, n);
    hk_diff_rename(d, name);
    return 0;
}
