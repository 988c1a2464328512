/* scalarize.c -- lowers every tensor operation to rank-0 operations in
 * LangRef's evaluation order, so that every backend spells each product
 * and fold once, the same way.
 *
 * Walking in program order, each static tensor value gets an array of its
 * components (rank-0 values, row-major): computed per component for
 * component-wise ops, one `const` per component for constants, moved for
 * extract/insert/build/transpose, and expanded in fold order for dot, norm,
 * cross, matvec, matmul, sum and prod.  Loop-carried values and the results
 * of `if` and `dispatch` are split into one value per component, and so are
 * the operands of their `yield`s.
 *
 * Tensors remain only at the seams with planes and signatures: a tensor
 * `load` (or func parameter, or call result) stays and is followed by an
 * `extract` of each component that is used; a computed tensor that is
 * stored, accumulated, returned or passed to a call is rebuilt by a `build`
 * just before.  A tensor that is loaded and stored unchanged is stored as
 * it is.  Components of %v are named %v.0, %v.1 ... (%v.r.c for rank 2);
 * a fold's products are %v.m0 ..., its partial sums %v.a1 ..., and its
 * last step takes over %v itself. */
#include <string.h>

#include "fault.h"
#include "passes.h"
#include "uses.h"

typedef struct {
    HawkPassRun *run;
    HkFunc *f;
    HkArena *a;
    uint32_t nmap;      /* values that existed before the pass */
    HkVal *repl;        /* rank-0 value -> the value replacing it */
    HkVal **comps;      /* static tensor value -> its components */
    uint8_t *kept;      /* tensor whose definition stays (load, param...) */
    HkInst **built;     /* computed tensor -> its latest build */
    HkInst **splits;    /* extracts made here: removed at the end if unused */
    uint32_t nsplits, capsplits;
    HkInst *before;     /* new instructions go before this one */
    HkLoc loc;
    int failed;
} Sc;

static int is_tensor(HkType t)
{
    return t.rank >= 1 && !hk_is_dyn(t);
}

static HkType type_of(const Sc *s, HkVal v)
{
    return hk_value(s->f, v)->type;
}

static const char *name_of(const Sc *s, HkVal v)
{
    return hk_value(s->f, v)->name;
}

/* The type of i's (first) result, as the printer and verifier see it. */
static HkType rtype(const Sc *s, const HkInst *i)
{
    return type_of(s, hk_res(i)[0]);
}

/* The rank-0 value standing for v now. */
static HkVal scalar(const Sc *s, HkVal v)
{
    return hk_valmap_get(s->repl, s->nmap, v);
}

/* "v.k" for component k of v, "v.r.c" for a rank-2 v. */
static const char *comp_name(Sc *s, HkVal v, uint32_t k)
{
    HkType t = type_of(s, v);
    if (t.rank == 2)
        return hk_asprintf(s->a, "%s.%u.%u", name_of(s, v), k / t.dim[1],
                           k % t.dim[1]);
    return hk_asprintf(s->a, "%s.%u", name_of(s, v), k);
}

static const char *sub_name(Sc *s, const char *base, char what, uint32_t k)
{
    return hk_asprintf(s->a, "%s.%c%u", base, what, k);
}

/* The components of tensor v, or NULL after a diagnostic. */
static const HkVal *comps_of(Sc *s, HkVal v)
{
    if (v < s->nmap && s->comps[v] != NULL)
        return s->comps[v];
    if (!s->failed)
        hk_error(hk_run_diags(s->run), &s->f->module->src, s->loc,
                 "scalarize: no components for %%%s", name_of(s, v));
    s->failed = 1;
    return NULL;
}

/* Component k of tensor v (v itself after a failure, to carry on). */
static HkVal comp(Sc *s, HkVal v, uint32_t k)
{
    const HkVal *c = comps_of(s, v);
    return c != NULL ? c[k] : v;
}

static HkVal *new_comps(Sc *s, HkVal v)
{
    uint32_t n = hk_components(type_of(s, v));
    HkVal *c = hk_alloc(s->a, (n + 1u) * sizeof *c);
    s->comps[v] = c;
    return c;
}

/* ---- emitting --------------------------------------------------------- */

/* A new instruction before the one being lowered. */
static HkInst *emit_inst(Sc *s, HkOp op, const HkVal *ops, uint32_t n)
{
    HkInst *i = hk_inst_new(s->f, op, s->loc);
    hk_inst_set_ops(s->f, i, ops, n);
    hk_insert_before(s->before, i);
    return i;
}

/* Makes v, a value whose definition was lowered away, i's one result. */
static void adopt(Sc *s, HkInst *i, HkVal v)
{
    hk_inst_put_res(i, &v, 1);
    HkValue *val = hk_value(s->f, v);
    i->type = val->type;
    val->kind = HK_DEF_INST;
    val->def = i;
    val->index = 0;
}

/* op on ops giving an element of type e: a new value named name, or the
 * existing value take when it is not HK_NOVAL. */
static HkVal emit(Sc *s, HkOp op, HkElem e, const HkVal *ops, uint32_t n,
                  const char *name, HkVal take)
{
    HkInst *i = emit_inst(s, op, ops, n);
    if (take != HK_NOVAL) {
        adopt(s, i, take);
        return take;
    }
    return hk_inst_result(s->f, i, hk_scalar(e), name);
}

static HkVal emit2(Sc *s, HkOp op, HkElem e, HkVal a, HkVal b,
                   const char *name, HkVal take)
{
    HkVal ops[2] = {a, b};
    return emit(s, op, e, ops, 2, name, take);
}

/* Sets extract x's static indices for flat component k of type t. */
static void set_index(HkInst *x, HkType t, uint32_t k)
{
    x->x->nimm = t.rank;
    if (t.rank == 2) {
        x->x->imm[0] = k / t.dim[1];
        x->x->imm[1] = k % t.dim[1];
    } else {
        x->x->imm[0] = k;
    }
}

/* Places x after *pos (at the start of b when *pos is NULL); x becomes
 * the new *pos so that a run of insertions keeps its order. */
static void place_after(HkInst **pos, HkBlock *b, HkInst *x)
{
    if (*pos != NULL)
        hk_insert_after(*pos, x);
    else if (b->first != NULL)
        hk_insert_before(b->first, x);
    else
        hk_block_append(b, x);
    *pos = x;
}

/* The flat component extract x takes from v, or -1 when x is not a
 * rank-0 extract of v. */
static int64_t extract_index(const Sc *s, const HkInst *x, HkVal v)
{
    if (x == NULL || x->op != HK_OP_EXTRACT || x->nops != 1 || x->ops[0] != v)
        return -1;
    HkType t = type_of(s, v);
    if (x->x->nimm != t.rank)
        return -1;
    return hk_flat_index(t, x->x->imm, x->x->nimm);
}

/* The instruction after pos, or the first of b when pos is NULL. */
static HkInst *after(HkInst *pos, HkBlock *b)
{
    return pos != NULL ? pos->next : b->first;
}

/* Extracts component k of v after pos (at the start of b when NULL). */
static HkVal new_extract(Sc *s, HkVal v, uint32_t k, HkBlock *b, HkInst *pos)
{
    HkType t = type_of(s, v);
    HkInst *x = hk_inst_new(s->f, HK_OP_EXTRACT, s->loc);
    hk_inst_set_ops(s->f, x, &v, 1);
    set_index(x, t, k);
    HkVal c = hk_inst_result(s->f, x, hk_scalar(t.elem), comp_name(s, v, k));
    place_after(&pos, b, x);
    s->splits = hk_grow(s->a, s->splits, &s->capsplits, s->nsplits + 1,
                        sizeof *s->splits);
    s->splits[s->nsplits++] = x;
    return c;
}

/* Keeps tensor v, defined just before the position after pos (the start
 * of b when pos is NULL), as it is, and gives it one extract per
 * component there: the extracts already standing there are taken as they
 * are (so scalar-form input comes out unchanged), the missing ones are
 * made in index order and removed at the end if unused.  Returns the last
 * extract of the run, after which the next insertion goes. */
static HkInst *split(Sc *s, HkVal v, HkBlock *b, HkInst *pos)
{
    uint32_t n = hk_components(type_of(s, v));
    HkVal *c = new_comps(s, v);
    for (uint32_t k = 0; k < n; k++)
        c[k] = HK_NOVAL;
    int64_t k;
    for (HkInst *x = after(pos, b); (k = extract_index(s, x, v)) >= 0;
         x = x->next)
        if (c[k] == HK_NOVAL)
            c[k] = hk_res(x)[0];
    for (uint32_t j = 0; j < n; j++)
        if (c[j] == HK_NOVAL)
            c[j] = new_extract(s, v, j, b,
                               j > 0 ? hk_value(s->f, c[j - 1])->def : pos);
    s->kept[v] = 1;
    while (extract_index(s, after(pos, b), v) >= 0)
        pos = after(pos, b);
    return pos;
}

/* Whether x is one of the extracts split took as a component. */
static int is_component(const Sc *s, const HkInst *x)
{
    HkVal v = x->ops[0];
    int64_t k = extract_index(s, x, v);
    return k >= 0 && v < s->nmap && s->kept[v] && s->comps[v][k] == hk_res(x)[0];
}

/* Whether block outer is inner or encloses it. */
static int encloses(const HkBlock *outer, const HkBlock *inner)
{
    for (const HkBlock *b = inner; b != NULL;
         b = b->parent != NULL ? b->parent->block : NULL)
        if (b == outer)
            return 1;
    return 0;
}

/* Tensor v as one value for an op that takes it whole: kept tensors as
 * they are; computed ones by a `build`, which takes over v's name the
 * first time and is reused wherever it dominates (an earlier build in this
 * region or an enclosing one); elsewhere a new "v.build". */
static HkVal materialize(Sc *s, HkVal v)
{
    if (v >= s->nmap || s->kept[v])
        return v;
    const HkInst *prev = s->built[v];
    if (prev != NULL && encloses(prev->block, s->before->block))
        return hk_res(prev)[0];
    const HkVal *c = comps_of(s, v);
    if (c == NULL)
        return v;
    HkType t = type_of(s, v);
    HkInst *b = emit_inst(s, HK_OP_BUILD, c, hk_components(t));
    if (prev == NULL)
        adopt(s, b, v);
    else
        hk_inst_result(s->f, b, t,
                       hk_asprintf(s->a, "%s.build", name_of(s, v)));
    s->built[v] = b;
    return hk_res(b)[0];
}

/* ---- folds in LangRef's order ----------------------------------------- */

/* ((t0 op t1) op t2) ...: partial results base.a1 ..., the last one named
 * name (or taking over take).  One term is the result itself. */
static HkVal left_fold(Sc *s, HkOp op, HkElem e, const HkVal *t, uint32_t n,
                       const char *base, const char *name, HkVal take)
{
    HkVal acc = t[0];
    for (uint32_t k = 1; k < n; k++) {
        int last = k + 1 == n;
        const char *step = last ? name : sub_name(s, base, 'a', k);
        acc = emit2(s, op, e, acc, t[k], step, last ? take : HK_NOVAL);
    }
    return acc;
}

/* The products a[k*sa] * b[k*sb], all first (base.m0 ...), then their left
 * fold: LangRef's dot, and each row or cell of matvec and matmul. */
static HkVal dot_chain(Sc *s, HkElem e, const HkVal *a, uint32_t sa,
                       const HkVal *b, uint32_t sb, uint32_t n,
                       const char *base, const char *name, HkVal take)
{
    HkVal *p = hk_alloc(s->a, (n + 1u) * sizeof *p);
    for (uint32_t k = 0; k < n; k++)
        p[k] = emit2(s, HK_OP_FMUL, e, a[k * sa], b[k * sb],
                     n == 1 ? name : sub_name(s, base, 'm', k),
                     n == 1 ? take : HK_NOVAL);
    if (hk_plant("scalarize-fold"))  /* the test hook: a wrong order */
        for (uint32_t k = 0; k < n / 2; k++) {
            HkVal t = p[k];
            p[k] = p[n - 1 - k];
            p[n - 1 - k] = t;
        }
    return left_fold(s, HK_OP_FADD, e, p, n, base, name, take);
}

static void lower_dot(Sc *s, HkInst *i)
{
    const HkVal *a = comps_of(s, i->ops[0]), *b = comps_of(s, i->ops[1]);
    if (a == NULL || b == NULL)
        return;
    HkVal r = hk_res(i)[0];
    dot_chain(s, rtype(s, i).elem, a, 1, b, 1, type_of(s, i->ops[0]).dim[0],
              name_of(s, r), name_of(s, r), r);
}

/* sqrt(dot(a, a)): the dot named r.dot, then the sqrt takes over r. */
static void lower_norm(Sc *s, HkInst *i)
{
    const HkVal *a = comps_of(s, i->ops[0]);
    if (a == NULL)
        return;
    HkVal r = hk_res(i)[0];
    HkElem e = rtype(s, i).elem;
    const char *base = name_of(s, r);
    HkVal d = dot_chain(s, e, a, 1, a, 1, type_of(s, i->ops[0]).dim[0], base,
                        hk_asprintf(s->a, "%s.dot", base), HK_NOVAL);
    emit(s, HK_OP_SQRT, e, &d, 1, NULL, r);
}

/* x_k = a_{k+1} * b_{k+2} - a_{k+2} * b_{k+1} (indices mod 3), which is
 * LangRef's [a1*b2 - a2*b1, a2*b0 - a0*b2, a0*b1 - a1*b0]. */
static void lower_cross(Sc *s, HkInst *i)
{
    const HkVal *a = comps_of(s, i->ops[0]), *b = comps_of(s, i->ops[1]);
    if (a == NULL || b == NULL)
        return;
    HkVal r = hk_res(i)[0];
    HkElem e = rtype(s, i).elem;
    HkVal *c = new_comps(s, r);
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t p = (k + 1) % 3, q = (k + 2) % 3;
        const char *name = comp_name(s, r, k);
        HkVal m0 = emit2(s, HK_OP_FMUL, e, a[p], b[q],
                         sub_name(s, name, 'm', 0), HK_NOVAL);
        HkVal m1 = emit2(s, HK_OP_FMUL, e, a[q], b[p],
                         sub_name(s, name, 'm', 1), HK_NOVAL);
        c[k] = emit2(s, HK_OP_FSUB, e, m0, m1, name, HK_NOVAL);
    }
}

/* y_r = dot(row r of m, v). */
static void lower_matvec(Sc *s, HkInst *i)
{
    const HkVal *m = comps_of(s, i->ops[0]), *v = comps_of(s, i->ops[1]);
    if (m == NULL || v == NULL)
        return;
    HkType mt = type_of(s, i->ops[0]);
    HkElem e = rtype(s, i).elem;
    HkVal r = hk_res(i)[0];
    HkVal *c = new_comps(s, r);
    for (uint32_t row = 0; row < mt.dim[0]; row++) {
        const char *name = comp_name(s, r, row);
        c[row] = dot_chain(s, e, m + row * mt.dim[1], 1, v, 1, mt.dim[1],
                           name, name, HK_NOVAL);
    }
}

/* c_rc = left fold over k of a_rk * b_kc, products first. */
static void lower_matmul(Sc *s, HkInst *i)
{
    const HkVal *a = comps_of(s, i->ops[0]), *b = comps_of(s, i->ops[1]);
    if (a == NULL || b == NULL)
        return;
    HkType rt = rtype(s, i);
    uint32_t rows = rt.dim[0], cols = rt.dim[1];
    uint32_t inner = type_of(s, i->ops[0]).dim[1];
    HkVal r = hk_res(i)[0];
    HkVal *c = new_comps(s, r);
    for (uint32_t k = 0; k < rows * cols; k++) {
        const char *name = comp_name(s, r, k);
        c[k] = dot_chain(s, rt.elem, a + (k / cols) * inner, 1, b + k % cols,
                         cols, inner, name, name, HK_NOVAL);
    }
}

/* sum and prod: a left fold over the components in row-major order. */
static int lower_reduce(Sc *s, HkInst *i)
{
    HkElem e = rtype(s, i).elem;
    HkOp op;
    if (hk_is_float(e))
        op = i->op == HK_OP_SUM ? HK_OP_FADD : HK_OP_FMUL;
    else if (hk_is_int(e))
        op = i->op == HK_OP_SUM ? HK_OP_ADD : HK_OP_MUL;
    else
        return 0;
    const HkVal *a = comps_of(s, i->ops[0]);
    if (a == NULL)
        return 1;
    HkVal r = hk_res(i)[0];
    uint32_t n = hk_components(type_of(s, i->ops[0]));
    if (n == 1)
        s->repl[r] = a[0];
    else
        left_fold(s, op, e, a, n, name_of(s, r), name_of(s, r), r);
    return 1;
}

/* ---- moves ------------------------------------------------------------ */

/* A component becomes a use of it; a row of a matrix, its components. */
static void lower_extract(Sc *s, HkInst *i)
{
    HkVal v = i->ops[0];
    HkType t = type_of(s, v);
    const HkVal *c = comps_of(s, v);
    if (c == NULL)
        return;
    if (i->x->nimm == t.rank) {
        s->repl[hk_res(i)[0]] = c[hk_flat_index(t, i->x->imm, i->x->nimm)];
        return;
    }
    HkVal *row = new_comps(s, hk_res(i)[0]);
    uint32_t start = hk_flat_index(t, i->x->imm, i->x->nimm);
    memcpy(row, c + start, t.dim[1] * sizeof *row);
}

static void lower_insert(Sc *s, HkInst *i)
{
    HkType t = type_of(s, i->ops[0]);
    const HkVal *c = comps_of(s, i->ops[0]);
    if (c == NULL)
        return;
    HkVal *n = new_comps(s, hk_res(i)[0]);
    memcpy(n, c, hk_components(t) * sizeof *n);
    n[hk_flat_index(t, i->x->imm, i->x->nimm)] = scalar(s, i->ops[1]);
}

static void lower_build(Sc *s, HkInst *i)
{
    HkVal *c = new_comps(s, hk_res(i)[0]);
    for (uint32_t k = 0; k < i->nops; k++)
        c[k] = scalar(s, i->ops[k]);
}

static void lower_transpose(Sc *s, HkInst *i)
{
    HkType t = type_of(s, i->ops[0]);
    const HkVal *m = comps_of(s, i->ops[0]);
    if (m == NULL)
        return;
    HkVal *c = new_comps(s, hk_res(i)[0]);
    for (uint32_t r = 0; r < t.dim[0]; r++)
        for (uint32_t col = 0; col < t.dim[1]; col++)
            c[col * t.dim[0] + r] = m[r * t.dim[1] + col];
}

/* One rank-0 const per component (a single literal fills them all). */
static void lower_const(Sc *s, HkInst *i)
{
    HkType t = rtype(s, i);
    HkVal r = hk_res(i)[0];
    HkVal *c = new_comps(s, r);
    for (uint32_t k = 0; k < hk_components(t); k++) {
        uint32_t from = k < i->x->cst.n ? k : 0;
        HkInst *x = emit_inst(s, HK_OP_CONST, NULL, 0);
        x->x->cst.n = 1;
        if (i->x->cst.f != NULL) {
            x->x->cst.f = hk_alloc(s->a, sizeof *x->x->cst.f);
            x->x->cst.f[0] = i->x->cst.f[from];
        }
        if (i->x->cst.i != NULL) {
            x->x->cst.i = hk_alloc(s->a, sizeof *x->x->cst.i);
            x->x->cst.i[0] = i->x->cst.i[from];
        }
        c[k] = hk_inst_result(s->f, x, hk_scalar(t.elem), comp_name(s, r, k));
    }
}

/* A component-wise op per component, rank-0 operands reused as they are. */
static void lower_elem(Sc *s, HkInst *i)
{
    HkType t = rtype(s, i);
    HkVal r = hk_res(i)[0];
    HkVal *c = new_comps(s, r);
    HkVal *ops = hk_alloc(s->a, (i->nops + 1u) * sizeof *ops);
    for (uint32_t k = 0; k < hk_components(t); k++) {
        for (uint32_t j = 0; j < i->nops; j++)
            ops[j] = is_tensor(type_of(s, i->ops[j])) ? comp(s, i->ops[j], k)
                                                      : scalar(s, i->ops[j]);
        HkInst *x = emit_inst(s, i->op, ops, i->nops);
        x->pred = i->pred;
        c[k] = hk_inst_result(s->f, x, hk_scalar(t.elem), comp_name(s, r, k));
    }
}

/* ---- instructions that stay ------------------------------------------- */

/* Keeps i: rank-0 operands through the replacement map, tensor operands
 * whole, tensor results extracted right after it. */
static void keep(Sc *s, HkInst *i)
{
    for (uint32_t k = 0; k < i->nops; k++)
        i->ops[k] = is_tensor(type_of(s, i->ops[k])) ? materialize(s, i->ops[k])
                                                     : scalar(s, i->ops[k]);
    HkInst *pos = i;
    for (uint32_t k = 0; k < i->nres; k++)
        if (is_tensor(type_of(s, hk_res(i)[k])))
            pos = split(s, hk_res(i)[k], i->block, pos);
}

/* ---- regions ---------------------------------------------------------- */

static void lower_block(Sc *s, HkBlock *b);

/* Number of values vals[0..n) becomes once tensors are split. */
static uint32_t flat_count(const Sc *s, const HkVal *vals, uint32_t n)
{
    uint32_t total = 0;
    for (uint32_t k = 0; k < n; k++) {
        HkType t = type_of(s, vals[k]);
        total += is_tensor(t) ? hk_components(t) : 1;
    }
    return total;
}

/* One new value of i (result or carried value) per component of v. */
static void split_def(Sc *s, HkInst *i, HkVal v, HkDefKind kind, HkVal *out,
                      uint32_t *j)
{
    HkType t = type_of(s, v);
    HkVal *c = new_comps(s, v);
    HkLoc loc = hk_value(s->f, v)->loc;
    for (uint32_t k = 0; k < hk_components(t); k++) {
        c[k] = hk_value_new(s->f, hk_scalar(t.elem), comp_name(s, v, k), kind,
                            i, *j, loc);
        out[(*j)++] = c[k];
    }
}

/* Rank-0 result or carried value v keeps its place as number *j. */
static void keep_def(Sc *s, HkVal v, HkVal *out, uint32_t *j)
{
    hk_value_set_index(hk_value(s->f, v), *j);
    out[(*j)++] = v;
}

/* The results of region op i, tensors split into their components. */
static void split_results(Sc *s, HkInst *i)
{
    uint32_t n = flat_count(s, hk_res(i), i->nres), j = 0;
    HkVal *res = hk_alloc(s->a, (n + 1u) * sizeof *res);
    for (uint32_t k = 0; k < i->nres; k++) {
        if (is_tensor(type_of(s, hk_res(i)[k])))
            split_def(s, i, hk_res(i)[k], HK_DEF_INST, res, &j);
        else
            keep_def(s, hk_res(i)[k], res, &j);
    }
    hk_inst_put_res(i, res, n);
    if (n == 1)
        i->type = type_of(s, res[0]);
}

/* The operands vals[0..n) with each tensor replaced by its components. */
static uint32_t flatten(Sc *s, const HkVal *vals, uint32_t n, HkVal *out)
{
    uint32_t j = 0;
    for (uint32_t k = 0; k < n; k++) {
        HkType t = type_of(s, vals[k]);
        if (!is_tensor(t)) {
            out[j++] = scalar(s, vals[k]);
            continue;
        }
        for (uint32_t c = 0; c < hk_components(t); c++)
            out[j++] = comp(s, vals[k], c);
    }
    return j;
}

/* A loop: inits and carried values split like its results, then its body. */
static void lower_loop(Sc *s, HkInst *i)
{
    uint32_t off = i->x->has_count ? 1u : 0u;
    uint32_t n = flat_count(s, hk_res(i), i->nres), j = 0;
    HkVal *ops = hk_alloc(s->a, (off + n + 1u) * sizeof *ops);
    HkVal *iters = hk_alloc(s->a, (n + 1u) * sizeof *iters);
    if (off)
        ops[0] = scalar(s, i->ops[0]);
    if (i->nops > off)
        flatten(s, i->ops + off, i->nops - off, ops + off);
    for (uint32_t k = 0; k < i->nres; k++) {
        if (is_tensor(type_of(s, i->x->iters[k])))
            split_def(s, i, i->x->iters[k], HK_DEF_ITER, iters, &j);
        else
            keep_def(s, i->x->iters[k], iters, &j);
    }
    i->ops = ops;
    i->nops = off + n;
    i->x->iters = iters;
    split_results(s, i);
    lower_block(s, &i->x->regions[0]);
}

/* if and dispatch: the condition or selector, the results, the regions. */
static void lower_branch(Sc *s, HkInst *i)
{
    for (uint32_t k = 0; k < i->nops; k++)
        i->ops[k] = scalar(s, i->ops[k]);
    split_results(s, i);
    for (uint32_t r = 0; r < i->x->nregions; r++)
        lower_block(s, &i->x->regions[r]);
}

static void lower_yield(Sc *s, HkInst *i)
{
    uint32_t n = flat_count(s, i->ops, i->nops);
    HkVal *ops = hk_alloc(s->a, (n + 1u) * sizeof *ops);
    flatten(s, i->ops, i->nops, ops);
    i->ops = ops;
    i->nops = n;
}

/* ---- the walk --------------------------------------------------------- */

static int touches_tensor(const Sc *s, const HkInst *i)
{
    for (uint32_t k = 0; k < i->nops; k++)
        if (is_tensor(type_of(s, i->ops[k])))
            return 1;
    for (uint32_t k = 0; k < i->nres; k++)
        if (is_tensor(type_of(s, hk_res(i)[k])))
            return 1;
    return 0;
}

/* Lowers i, a tensor op that goes away; returns 0 when i must stay. */
static int lower_away(Sc *s, HkInst *i)
{
    switch (i->op) {
    case HK_OP_CONST: lower_const(s, i); return 1;
    case HK_OP_EXTRACT: lower_extract(s, i); return 1;
    case HK_OP_INSERT: lower_insert(s, i); return 1;
    case HK_OP_BUILD: lower_build(s, i); return 1;
    case HK_OP_TRANSPOSE: lower_transpose(s, i); return 1;
    case HK_OP_DOT: lower_dot(s, i); return 1;
    case HK_OP_NORM: lower_norm(s, i); return 1;
    case HK_OP_CROSS: lower_cross(s, i); return 1;
    case HK_OP_MATVEC: lower_matvec(s, i); return 1;
    case HK_OP_MATMUL: lower_matmul(s, i); return 1;
    case HK_OP_SUM:
    case HK_OP_PROD: return lower_reduce(s, i);
    default: break;
    }
    if ((hk_ops[i->op].flags & HK_F_ELEM) && i->nres == 1 &&
        is_tensor(rtype(s, i))) {
        lower_elem(s, i);
        return 1;
    }
    return 0;
}

static void lower_inst(Sc *s, HkInst *i)
{
    s->before = i;
    s->loc = i->loc;
    switch (i->op) {
    case HK_OP_LOOP: lower_loop(s, i); return;
    case HK_OP_IF:
    case HK_OP_DISPATCH: lower_branch(s, i); return;
    case HK_OP_YIELD: lower_yield(s, i); return;
    default: break;
    }
    if (!touches_tensor(s, i)) {
        for (uint32_t k = 0; k < i->nops; k++)
            i->ops[k] = scalar(s, i->ops[k]);
        return;
    }
    if (i->op == HK_OP_EXTRACT && is_component(s, i))
        return;
    if (lower_away(s, i))
        hk_inst_remove(i);
    else
        keep(s, i);
}

/* Lowers the instructions from first to the end of its block. */
static void lower_from(Sc *s, HkInst *first)
{
    HkInst *next;
    for (HkInst *i = first; i; i = next) {
        next = i->next;
        lower_inst(s, i);
    }
}

static void lower_block(Sc *s, HkBlock *b)
{
    lower_from(s, b->first);
}

/* A func's tensor parameters stay whole; their components are extracted
 * at the top of the body. */
static void split_params(Sc *s)
{
    HkInst *pos = NULL;
    for (uint32_t p = 0; p < s->f->nparams; p++) {
        HkVal v = s->f->params[p];
        if (!is_tensor(type_of(s, v)))
            continue;
        s->loc = hk_value(s->f, v)->loc;
        pos = split(s, v, &s->f->body, pos);
    }
}

/* Removes the extracts made here that nothing uses. */
static void prune_splits(Sc *s)
{
    uint32_t *uses = hk_use_counts(s->f);
    for (uint32_t k = 0; k < s->nsplits; k++)
        if (uses[hk_res(s->splits[k])[0]] == 0)
            hk_inst_remove(s->splits[k]);
}

int hk_pass_scalarize(HawkPassRun *r, HkFunc *f)
{
    Sc s = {0};
    s.run = r;
    s.f = f;
    s.a = f->module->arena;
    s.nmap = f->nvalues;
    s.repl = hk_valmap_new(f, s.nmap);
    s.comps = hk_alloc(s.a, (s.nmap + 1u) * sizeof *s.comps);
    s.kept = hk_alloc(s.a, s.nmap + 1u);
    s.built = hk_alloc(s.a, (s.nmap + 1u) * sizeof *s.built);
    /* The parameters' extracts go first and are not lowered again. */
    HkInst *first = f->body.first;
    split_params(&s);
    lower_from(&s, first);
    if (s.failed)
        return 1;
    prune_splits(&s);
    return 0;
}
