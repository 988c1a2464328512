/* vjp_loop.c -- the reverse of a loop, by recomputation.
 *
 * The reverse sweep needs, for each trip of a loop, the values the trip
 * started with, last trip first.  A reverse loop runs once per trip the
 * primal completed, t = last ... first; in each it gets the values trip t
 * started with, recomputes trip t's body from them, sweeps it, and
 * carries the adjoints of the carried values to the trip before, with the
 * shares of the values and slots the body reads from outside.  It gets
 * the values one of two ways:
 *
 * - from a tape: the primal loop stores each carried value, component by
 *   component, into row t - LO of a local "<carried>.tape" (LangRef
 *   "Locals") as trip t starts, and the reverse loads it back; K body
 *   runs for K trips, and the tape's rows on the stack;
 * - by recomputation: the reverse reruns the primal's trips before t from
 *   the loop's inits (an inner loop of t - LO trips, without the break_if
 *   and the effects: those trips did not break, and their effects
 *   happened); no memory beyond the primal's, K (K + 1) / 2 body runs.
 *
 * use_tape chooses (docs/Passes.md, "vjp").
 *
 * The trips completed are known statically when the loop has static
 * bounds and no break_if; otherwise the primal loop carries a counter,
 * "<result>.bar.n", the index after the last completed trip (a trip that
 * breaks does not count: the results are the values it started with).
 * When the body writes into an active output before its break_if (a
 * tape row, a scattered accum), the trip that broke made those writes:
 * its part up to the break_if is reversed first (partial_trip). */
#include <string.h>

#include "uses.h"
#include "vjp.h"

static HkType type_of(const Vjp *v, HkVal x)
{
    return hk_diff_type(&v->d, x);
}

static int breaks(const HkInst *L)
{
    for (const HkInst *x = L->x->regions[0].first; x != NULL; x = x->next)
        if (x->op == HK_OP_BREAK_IF)
            return 1;
    return 0;
}

/* The loop's static trip bound K. */
static int64_t bound(const HkInst *L)
{
    return L->x->has_count ? L->x->max_trip : L->x->hi - L->x->lo;
}

/* Adds to loop L a carried i64 "<base>.bar.c" from LO, yielding its
 * index + 1: its result is LO + the trips completed. */
static HkVal add_counter(Vjp *v, HkInst *L)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    uint32_t n = L->nres;
    HkVal init = hk_diff_int(d, L->x->lo, hk_scalar(HK_I64), NULL, L);
    HkInst *y = L->x->regions[0].last;
    HkVal one = hk_diff_int(d, 1, hk_scalar(HK_I64), NULL, L);
    HkInst *add = hk_inst_new(f, HK_OP_ADD, y->loc);
    HkVal ops2[2] = {L->x->ivar, one};
    hk_inst_set_ops(f, add, ops2, 2);
    HkVal next = hk_inst_result(f, add, hk_scalar(HK_I64),
                                hk_asprintf(d->a, "%s.bar.c1", d->base));
    hk_insert_before(y, add);

    HkVal *ops = hk_alloc(d->a, (L->nops + 1) * sizeof *ops);
    memcpy(ops, L->ops, L->nops * sizeof *ops);
    ops[L->nops] = init;
    hk_inst_set_ops(f, L, ops, L->nops + 1);
    HkVal *yops = hk_alloc(d->a, (y->nops + 1) * sizeof *yops);
    memcpy(yops, y->ops, y->nops * sizeof *yops);
    yops[y->nops] = next;
    hk_inst_set_ops(f, y, yops, y->nops + 1);

    HkVal *iters = hk_alloc(d->a, (n + 1) * sizeof *iters);
    HkVal *res = hk_alloc(d->a, (n + 1) * sizeof *res);
    if (n > 0) {
        memcpy(iters, L->x->iters, n * sizeof *iters);
        memcpy(res, hk_res(L), n * sizeof *res);
    }
    iters[n] = hk_value_new(f, hk_scalar(HK_I64),
                            hk_asprintf(d->a, "%s.bar.c", d->base),
                            HK_DEF_ITER, L, n, L->loc);
    res[n] = hk_value_new(f, hk_scalar(HK_I64),
                          hk_asprintf(d->a, "%s.bar.n", d->base),
                          HK_DEF_INST, L, n, L->loc);
    L->x->iters = iters;
    hk_inst_put_res(L, res, n + 1);
    hk_vjp_grow(v);
    return res[n];
}

/* The index after loop L's last completed trip: its HI when that is
 * static, else a counter's result. */
static HkVal trips_end(Vjp *v, HkInst *L)
{
    if (!L->x->has_count && !breaks(L))
        return HK_NOVAL;
    return add_counter(v, L);
}

/* The inner loop of reverse trip t: L's trips before t rerun from L's
 * inits, "loop %<i>.re = LO to %t max K", with the body's copy minus
 * break_if and effects; its results are the values trip t starts
 * with, entered in map for L's carried values (n of them). */
static HkInst *rerun(Vjp *v, const HkInst *L, uint32_t n, HkVal t)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    uint32_t first = L->x->has_count ? 1u : 0u;
    HkInst *I = hk_inst_new(f, HK_OP_LOOP, d->loc);
    I->x->lo = L->x->lo;
    I->x->has_count = 1;
    I->x->max_trip = bound(L);
    HkVal *ops = hk_alloc(d->a, (n + 2) * sizeof *ops);
    ops[0] = t;
    memcpy(ops + 1, L->ops + first, n * sizeof *ops);
    hk_inst_set_ops(f, I, ops, n + 1);
    uint32_t nmap = f->nvalues;
    HkVal *map = hk_valmap_new(f, nmap);
    const HkValue *iv = hk_value(f, L->x->ivar);
    I->x->ivar = hk_value_new(f, iv->type, hk_asprintf(d->a, "%s.re", iv->name),
                           HK_DEF_IVAR, I, 0, L->loc);
    map[L->x->ivar] = I->x->ivar;
    I->x->iters = hk_alloc(d->a, (n + 1) * sizeof *I->x->iters);
    HkType *types = hk_alloc(d->a, (n + 1) * sizeof *types);
    const char **names = hk_alloc(d->a, (n + 1) * sizeof *names);
    for (uint32_t k = 0; k < n; k++) {
        const HkValue *c = hk_value(f, L->x->iters[k]);
        I->x->iters[k] = hk_value_new(f, c->type, hk_asprintf(d->a, "%s.re", c->name),
                                   HK_DEF_ITER, I, k, L->loc);
        map[L->x->iters[k]] = I->x->iters[k];
        types[k] = c->type;
        names[k] = hk_asprintf(d->a, "%s.at", c->name);
    }
    hk_inst_set_results(f, I, types, names, n);
    hk_inst_add_regions(f, I, 1);
    /* the trips rerun only for the values trip t starts with: their
     * writes are reversed in their own trips, not here */
    v->rerun = 1;
    hk_vjp_recompute(v, &L->x->regions[0], &I->x->regions[0], map, nmap);
    v->rerun = 0;
    const HkInst *y = hk_block_yield(&L->x->regions[0]);
    HkVal *yops = hk_alloc(d->a, (n + 1) * sizeof *yops);
    for (uint32_t k = 0; k < n; k++)
        yops[k] = hk_valmap_get(map, nmap, y->ops[k]);
    HkInst *yi = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, yi, yops, n);
    hk_block_append(&I->x->regions[0], yi);
    hk_diff_place(d, I);
    hk_vjp_grow(v);
    for (uint32_t x = 0; x < nmap; x++)
        if (map[x] != HK_NOVAL)
            hk_diff_inherit(d, map[x], x);
    return I;
}

/* The reverse loop's carried values: the adjoint of each carried value
 * L has one for (need), then the share of each outer value and slot. */
typedef struct {
    const HkInst *L;
    uint32_t n, nc;      /* L's primal carried values; those with adjoints */
    uint8_t *need;
    Outer o;
    HkInst *R;
    int32_t *tape;       /* carried value k -> its tape's first local (one
                            per component), or NULL: recomputation */
    int own;             /* L's body makes an own-column write (the last
                            trip's wins: last_writer) */
    HkVal ran;           /* whether the trip that broke ran and made its
                            writes (partial_trip), or HK_NOVAL */
} Rev;

/* ---- the tape ------------------------------------------------------------- */

/* The instructions of b at any depth: the size of a trip's body. */
static uint64_t body_size(const HkBlock *b)
{
    uint64_t n = 0;
    for (const HkInst *x = b->first; x != NULL; x = x->next) {
        n++;
        for (uint32_t r = 0; r < x->x->nregions; r++)
            n += body_size(&x->x->regions[r]);
    }
    return n;
}

/* The components of a value of type t: one row of a tape each. */
static uint32_t comps_of(HkType t)
{
    return t.rank == 0 ? 1u : hk_components(t);
}

/* The element a tape of values of element e keeps: an i1 as an i32 0 or
 * 1 (a local holds no i1). */
static HkElem tape_elem(HkElem e)
{
    return e == HK_I1 ? HK_I32 : e;
}

/* A tape's rows on the stack that loops=auto takes at most. */
#define AUTO_TAPE_BYTES 4096u

/* Whether loop L (n carried values) keeps a tape.  Only a loop of the
 * kernel's body itself: its reverse runs once, where a loop in a branch
 * or in another loop is reversed wherever that region is recomputed.
 * loops=recompute never, loops=tape always; loops=auto (the default)
 * when the rerun trips cost more than the tape and the tape takes at most
 * AUTO_TAPE_BYTES: (K - 1) / 2 extra body runs per trip on average
 * against three accesses per carried component (its store, its load, its
 * row zeroed as the sample starts), so (K - 1) B > 6 C for B instructions
 * in the body and C components. */
static int use_tape(Vjp *v, const HkInst *L, uint32_t n)
{
    Diff *d = &v->d;
    const char *mode = hk_option(d->r, "loops", "auto");
    int64_t k = bound(L);
    if (strcmp(mode, "recompute") == 0 || !d->f->is_kernel ||
        L->block != &d->f->body || k < 1 || k > INT32_MAX)
        return 0;
    if (strcmp(mode, "tape") == 0)
        return 1;
    uint64_t c = 0, bytes = 0;
    for (uint32_t j = 0; j < n; j++) {
        HkType t = type_of(v, L->x->iters[j]);
        c += comps_of(t);
        bytes += comps_of(t) * (uint64_t)k * hk_elem_bytes(tape_elem((HkElem)t.elem));
    }
    return bytes <= AUTO_TAPE_BYTES &&
           (uint64_t)(k - 1) * body_size(&L->x->regions[0]) > 6u * c;
}

/* The row of trip index i: i - LO. */
static HkVal tape_row(Vjp *v, const HkInst *L, HkVal i)
{
    Diff *d = &v->d;
    if (L->x->lo == 0)
        return i;
    HkType i64 = hk_scalar(HK_I64);
    return hk_diff_emit2(d, HK_OP_SUB, i, hk_diff_int(d, L->x->lo, i64, NULL, NULL), i64);
}

/* L's tape: a local "<carried>.tape" (".tape.<c>" per component of a
 * tensor) of K rows for each carried value, and at the top of L's body
 * the stores of the values the trip starts with into row i - LO. */
static void make_tape(Vjp *v, Rev *rv)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    uint32_t k = (uint32_t)bound(L);
    HkInst *at = d->at;
    HkBlock *blk = d->blk;
    d->at = L->x->regions[0].first;
    d->base = hk_value(f, L->x->ivar)->name;
    HkVal row = tape_row(v, L, L->x->ivar);
    rv->tape = hk_alloc(d->a, (rv->n + 1) * sizeof *rv->tape);
    for (uint32_t j = 0; j < rv->n; j++) {
        HkVal c = L->x->iters[j];
        HkType t = type_of(v, c);
        uint32_t nc = comps_of(t);
        d->base = hk_value(f, c)->name;
        for (uint32_t m = 0; m < nc; m++) {
            const char *name = nc == 1 ? hk_asprintf(d->a, "%s.tape", hk_value(f, c)->name)
                                       : hk_asprintf(d->a, "%s.tape.%u", hk_value(f, c)->name, m);
            int32_t s = hk_vjp_add_local(v, name, hk_vec(tape_elem((HkElem)t.elem), k));
            if (m == 0)
                rv->tape[j] = s;
            HkVal x = hk_vjp_part(v, c, m);
            if (t.elem == HK_I1) {
                HkType i32 = hk_scalar(HK_I32);
                HkVal ops[3] = {x, hk_diff_int(d, 1, i32, NULL, NULL),
                                hk_diff_int(d, 0, i32, NULL, NULL)};
                x = hk_diff_emit(d, HK_OP_SELECT, ops, 3, i32);
            }
            hk_vjp_row_store(v, x, s, row);
        }
    }
    hk_vjp_grow(v);
    d->at = at;
    d->blk = blk;
}

/* The values trip t of L started with, loaded from its tape at the
 * insertion point. */
static HkVal *tape_read(Vjp *v, const Rev *rv, HkVal t)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    d->base = hk_value(f, L->x->ivar)->name;
    HkVal row = tape_row(v, L, t);
    HkVal *start = hk_alloc(d->a, (rv->n + 1) * sizeof *start);
    for (uint32_t j = 0; j < rv->n; j++) {
        HkVal c = L->x->iters[j];
        HkType t0 = type_of(v, c);
        uint32_t nc = comps_of(t0);
        HkVal *parts = hk_alloc(d->a, (nc + 1) * sizeof *parts);
        d->base = hk_value(f, c)->name;
        for (uint32_t m = 0; m < nc; m++) {
            parts[m] = hk_vjp_row_load(v, rv->tape[j] + (int32_t)m, row,
                                       hk_asprintf(d->a, "%s.tape.r", hk_value(f, c)->name));
            if (t0.elem == HK_I1) {
                HkVal ops[2] = {parts[m], hk_diff_int(d, 0, hk_scalar(HK_I32), NULL, NULL)};
                parts[m] = hk_diff_emit(d, HK_OP_ICMP, ops, 2, hk_scalar(HK_I1));
                hk_value(f, parts[m])->def->pred = HK_P_NE;
            }
        }
        start[j] = t0.rank == 0 ? parts[0] : hk_diff_emit(d, HK_OP_BUILD, parts, nc, t0);
    }
    hk_vjp_grow(v);
    return start;
}

/* The reverse loop R over L's completed trips, "loop %<i>.bar = LO to
 * (HI | %end max K)", its carried values entering as L's results'
 * adjoints (0.0 for none) and as zero shares; placed at the insertion
 * point, its body empty. */
static HkInst *reverse_head(Vjp *v, Rev *rv, HkVal end)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    uint32_t m = rv->nc + rv->o.nvals + rv->o.nslots;
    HkVal *ops = hk_alloc(d->a, (m + 2) * sizeof *ops);
    HkType *types = hk_alloc(d->a, (m + 1) * sizeof *types);
    const char **in = hk_alloc(d->a, (m + 1) * sizeof *in);
    const char **out = hk_alloc(d->a, (m + 1) * sizeof *out);
    uint32_t j = 0, first = end != HK_NOVAL ? 1u : 0u;
    for (uint32_t k = 0; k < rv->n; k++) {
        if (!rv->need[k])
            continue;
        const char *c = hk_value(f, L->x->iters[k])->name;
        d->base = hk_value(f, hk_res(L)[k])->name;
        types[j] = type_of(v, hk_res(L)[k]);
        ops[first + j] = hk_diff_full(d, v->adj[hk_res(L)[k]], types[j]);
        in[j] = hk_asprintf(d->a, "%s.bar", c);
        out[j++] = hk_asprintf(d->a, "%s.bar.s",
                               hk_value(f, L->ops[(L->x->has_count ? 1u : 0u) + k])->name);
    }
    for (uint32_t k = 0; k < rv->o.nvals; k++, j++) {
        const char *nm = hk_value(f, rv->o.vals[k])->name;
        d->base = nm;
        types[j] = type_of(v, rv->o.vals[k]);
        ops[first + j] = hk_diff_full(d, HK_NOVAL, types[j]);
        in[j] = hk_asprintf(d->a, "%s.bar.l", nm);
        out[j] = hk_asprintf(d->a, "%s.bar.s", nm);
    }
    for (uint32_t k = 0; k < rv->o.nslots; k++, j++) {
        const HkSlot *sl = &f->slots[rv->o.slots[k]];
        d->base = sl->name;
        types[j] = sl->type;
        ops[first + j] = hk_diff_full(d, HK_NOVAL, types[j]);
        in[j] = hk_asprintf(d->a, "%s.bar.l", sl->name);
        out[j] = hk_asprintf(d->a, "%s.bar.s", sl->name);
    }
    HkInst *R = hk_inst_new(f, HK_OP_LOOP, d->loc);
    R->x->lo = L->x->lo;
    if (end != HK_NOVAL) {
        R->x->has_count = 1;
        R->x->max_trip = bound(L);
        ops[0] = end;
    } else {
        R->x->hi = L->x->hi;
    }
    hk_inst_set_ops(f, R, ops, first + m);
    const HkValue *iv = hk_value(f, L->x->ivar);
    R->x->ivar = hk_value_new(f, iv->type, hk_asprintf(d->a, "%s.bar", iv->name),
                           HK_DEF_IVAR, R, 0, d->loc);
    R->x->iters = hk_alloc(d->a, (m + 1) * sizeof *R->x->iters);
    for (uint32_t k = 0; k < m; k++)
        R->x->iters[k] = hk_value_new(f, types[k], in[k], HK_DEF_ITER, R, k, d->loc);
    hk_inst_set_results(f, R, types, out, m);
    hk_inst_add_regions(f, R, 1);
    hk_diff_place(d, R);
    hk_vjp_grow(v);
    return R;
}

/* Where a recomputed trip starts: the values it starts with, and the
 * last instruction before its body's copy (the sweep stops there). */
typedef struct {
    HkVal *start;
    HkInst *stop;
} Trip;

/* Trip t of L recomputed at the end of the insertion block: the values
 * it starts with read from the tape, or L's trips before t rerun from the
 * inits (the inner loop), then t's body
 * copied from the values they give, whole or (to_break) up to its
 * break_if, whose condition's copy it returns; the copies active where
 * their originals are, each original's copy in *mapp (*nmapp entries)
 * when mapp is not NULL. */
static HkVal trip_copy(Vjp *v, const Rev *rv, HkVal t, int to_break, Trip *tr,
                       HkVal **mapp, uint32_t *nmapp)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    if (rv->tape != NULL) {
        tr->start = tape_read(v, rv, t);
        tr->stop = d->blk->last;
    } else {
        tr->stop = rerun(v, L, rv->n, t);
        tr->start = hk_res(tr->stop);
    }
    uint32_t nmap = f->nvalues;
    HkVal *map = hk_valmap_new(f, nmap);
    map[L->x->ivar] = t;
    for (uint32_t k = 0; k < rv->n; k++)
        map[L->x->iters[k]] = tr->start[k];
    HkVal cond = HK_NOVAL;
    if (to_break)
        cond = hk_vjp_recompute_to_break(v, &L->x->regions[0], d->blk, map, nmap);
    else
        hk_vjp_recompute(v, &L->x->regions[0], d->blk, map, nmap);
    hk_vjp_grow(v);
    for (uint32_t x = 0; x < nmap; x++)
        if (map[x] != HK_NOVAL)
            hk_diff_inherit(d, map[x], x);
    if (mapp != NULL) {
        *mapp = map;
        *nmapp = nmap;
    }
    return cond;
}

/* Whether L's body itself makes an own-column write into an active
 * output (hk_vjp_writes; vjp.c's branch_store_rule takes one there). */
static int own_write(const Vjp *v, const HkInst *L)
{
    for (const HkInst *x = L->x->regions[0].first; x != NULL; x = x->next)
        if (!x->has_index && hk_vjp_writes(v, x))
            return 1;
    return 0;
}

/* Whether reverse trip R->ivar sweeps the trip that made L's last
 * own-column write: the first reverse trip (the last trip completed),
 * unless the trip that broke ran and wrote (rv->ran), whose part
 * partial_trip sweeps ungated. */
static HkVal last_writer(Vjp *v, const Rev *rv)
{
    Diff *d = &v->d;
    HkType i64 = hk_scalar(HK_I64), i1 = hk_scalar(HK_I1);
    HkVal ops[2] = {rv->R->x->ivar, hk_diff_int(d, rv->L->x->lo, i64, NULL, NULL)};
    HkVal first = hk_diff_emit(d, HK_OP_ICMP, ops, 2, i1);
    hk_value(d->f, first)->def->pred = HK_P_EQ;
    if (rv->ran == HK_NOVAL)
        return first;
    HkInst *c = hk_inst_new(d->f, HK_OP_CONST, d->loc);
    c->x->cst.n = 1;
    c->x->cst.i = hk_alloc(d->a, sizeof *c->x->cst.i);
    c->x->cst.i[0] = 0;
    HkVal no = hk_inst_result(d->f, c, i1, hk_asprintf(d->a, "%s.bar.k", d->base));
    hk_diff_place(d, c);
    HkVal sel[3] = {rv->ran, no, first};
    return hk_diff_emit(d, HK_OP_SELECT, sel, 3, i1);
}

/* The body of reverse loop R: trip t = (end - 1 + LO) - index; L's
 * trips before t rerun; trip t recomputed and swept, the outer values'
 * and slots' adjoints accumulating on R's carried shares; a yield of
 * the carried values' adjoints at trip t's start and of the shares. */
static void reverse_body(Vjp *v, Rev *rv, HkVal last)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    HkInst *R = rv->R;
    d->at = NULL;
    d->blk = &R->x->regions[0];
    d->base = hk_value(f, L->x->ivar)->name;
    HkVal ops2[2] = {last, R->x->ivar};
    HkVal t = hk_diff_emit(d, HK_OP_SUB, ops2, 2, hk_scalar(HK_I64));
    HkVal gate = v->gate;
    if (rv->own)
        v->gate = last_writer(v, rv);
    Trip tr;
    HkVal *map;
    uint32_t nmap;
    trip_copy(v, rv, t, 0, &tr, &map, &nmap);
    v->gate = gate;
    HkInst *last_copy = d->blk->last;

    /* the shares accumulate on R's carried values; saved, put back */
    uint32_t no = rv->o.nvals, ns = rv->o.nslots, nc = rv->nc;
    HkVal *saved = hk_alloc(d->a, (no + ns + 1) * sizeof *saved);
    for (uint32_t k = 0; k < no; k++) {
        saved[k] = v->adj[rv->o.vals[k]];
        v->adj[rv->o.vals[k]] = R->x->iters[nc + k];
    }
    for (uint32_t k = 0; k < ns; k++) {
        saved[no + k] = v->sadj[rv->o.slots[k]];
        v->sadj[rv->o.slots[k]] = R->x->iters[nc + no + k];
    }
    const HkInst *y = hk_block_yield(&L->x->regions[0]);
    for (uint32_t k = 0, j = 0; k < rv->n; k++)
        if (rv->need[k])
            hk_vjp_add_adj(v, hk_valmap_get(map, nmap, y->ops[k]), R->x->iters[j++]);
    for (HkInst *x = last_copy; x != tr.stop; x = x->prev)
        hk_vjp_reverse(v, x);

    uint32_t m = nc + no + ns;
    HkVal *yops = hk_alloc(d->a, (m + 1) * sizeof *yops);
    for (uint32_t k = 0, j = 0; k < rv->n; k++) {
        if (!rv->need[k])
            continue;
        d->base = hk_value(f, L->x->iters[k])->name;
        yops[j++] = hk_diff_full(d, v->adj[tr.start[k]], type_of(v, L->x->iters[k]));
    }
    for (uint32_t k = 0; k < no; k++) {
        d->base = hk_value(f, rv->o.vals[k])->name;
        yops[nc + k] = hk_diff_full(d, v->adj[rv->o.vals[k]],
                                    type_of(v, rv->o.vals[k]));
        v->adj[rv->o.vals[k]] = saved[k];
    }
    for (uint32_t k = 0; k < ns; k++) {
        const HkSlot *sl = &f->slots[rv->o.slots[k]];
        d->base = sl->name;
        yops[nc + no + k] = hk_diff_full(d, v->sadj[rv->o.slots[k]], sl->type);
        v->sadj[rv->o.slots[k]] = saved[no + k];
    }
    HkInst *yi = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, yi, yops, m);
    hk_block_append(d->blk, yi);
}

/* Whether x, or an instruction of its regions at any depth, is a write
 * into an active output (hk_vjp_writes) or such a write's copy. */
static int has_write(const Vjp *v, const HkInst *x)
{
    if (hk_vjp_writes(v, x) || hk_vjp_write_copy(v, x))
        return 1;
    for (uint32_t r = 0; r < x->x->nregions; r++)
        for (const HkInst *y = x->x->regions[r].first; y != NULL; y = y->next)
            if (has_write(v, y))
                return 1;
    return 0;
}

/* Whether such a write comes before the break_if of L's body: then the
 * trip that broke made it. */
static int writes_before_break(const Vjp *v, const HkInst *L)
{
    int seen = 0;
    for (const HkInst *x = L->x->regions[0].first; x != NULL; x = x->next) {
        if (x->op == HK_OP_BREAK_IF)
            return seen;
        seen = seen || has_write(v, x);
    }
    return 0;  /* no break_if: no trip broke */
}

/* The index one past L's last possible trip: HI, or for a runtime
 * count %n, %n held to [LO, LO + max] (the trips run, LangRef "Runtime
 * counts"). */
static HkVal trips_limit(Vjp *v, const HkInst *L)
{
    Diff *d = &v->d;
    HkType i64 = hk_scalar(HK_I64);
    if (!L->x->has_count)
        return hk_diff_int(d, L->x->hi, i64, NULL, NULL);
    HkVal lo = hk_diff_int(d, L->x->lo, i64, NULL, NULL);
    HkVal hi = hk_diff_int(d, L->x->lo + L->x->max_trip, i64, NULL, NULL);
    HkVal n = hk_diff_emit2(d, HK_OP_MAXIMUM, L->ops[0], lo, i64);
    return hk_diff_emit2(d, HK_OP_MINIMUM, n, hi, i64);
}

/* The partial trip of a loop that broke: the trip at index `end` (the
 * one after the last completed) ran when end is before the limit, and
 * made its writes before its break_if.  Its reverse, before the
 * completed trips': an if on "end < limit" whose branch reruns the trips
 * before it, recomputes the body up to the break_if and, in an if on the
 * break condition, sweeps that part from the writes' cotangents; it
 * yields the shares of the values the trip started with, which are the
 * loop's results, and of the outer values and slots, added to their
 * adjoints. */
static void partial_trip(Vjp *v, Rev *rv, HkVal end)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    const HkInst *L = rv->L;
    uint32_t nc = rv->nc, no = rv->o.nvals, ns = rv->o.nslots, m = nc + no + ns;
    HkType *types = hk_alloc(d->a, (m + 1) * sizeof *types);
    const char **names = hk_alloc(d->a, (m + 1) * sizeof *names);
    HkVal *outer = hk_alloc(d->a, (m + 1) * sizeof *outer);
    for (uint32_t k = 0, j = 0; k < rv->n; k++)
        if (rv->need[k]) {
            types[j] = type_of(v, hk_res(L)[k]);
            names[j++] = hk_asprintf(d->a, "%s.bar.p", hk_value(f, hk_res(L)[k])->name);
        }
    for (uint32_t k = 0; k < no; k++) {
        types[nc + k] = type_of(v, rv->o.vals[k]);
        names[nc + k] = hk_asprintf(d->a, "%s.bar.p", hk_value(f, rv->o.vals[k])->name);
    }
    for (uint32_t k = 0; k < ns; k++) {
        types[nc + no + k] = f->slots[rv->o.slots[k]].type;
        names[nc + no + k] = hk_asprintf(d->a, "%s.bar.p", f->slots[rv->o.slots[k]].name);
    }
    d->base = hk_value(f, L->x->ivar)->name;
    HkVal ops2[2] = {end, trips_limit(v, L)};
    HkVal ran = hk_diff_emit(d, HK_OP_ICMP, ops2, 2, hk_scalar(HK_I1));
    hk_value(f, ran)->def->pred = HK_P_SLT;
    HkInst *P = hk_vjp_if(v, ran, types, names, m);

    /* the branch that ran: the trips before, the part, the sweep */
    DiffPoint here = hk_diff_enter(d, &P->x->regions[0]);
    Trip tr;
    HkVal gate = v->gate;
    v->gate = HK_NOVAL;  /* the trip that broke made the last write */
    HkVal cond = trip_copy(v, rv, end, 1, &tr, NULL, NULL);
    v->gate = gate;
    rv->ran = ran;
    HkInst *last_copy = d->blk->last;
    HkInst *S = hk_vjp_if(v, cond, types, names, m);
    for (uint32_t k = 0; k < no; k++) {
        outer[k] = v->adj[rv->o.vals[k]];
        v->adj[rv->o.vals[k]] = HK_NOVAL;
    }
    for (uint32_t k = 0; k < ns; k++) {
        outer[no + k] = v->sadj[rv->o.slots[k]];
        v->sadj[rv->o.slots[k]] = HK_NOVAL;
    }
    d->at = NULL;
    d->blk = &S->x->regions[0];
    for (HkInst *x = last_copy; x != tr.stop; x = x->prev)
        hk_vjp_reverse(v, x);
    HkVal *yops = hk_alloc(d->a, (m + 1) * sizeof *yops);
    for (uint32_t k = 0, j = 0; k < rv->n; k++)
        if (rv->need[k])
            yops[j++] = hk_diff_full(d, v->adj[tr.start[k]], type_of(v, L->x->iters[k]));
    for (uint32_t k = 0; k < no; k++) {
        yops[nc + k] = hk_diff_full(d, v->adj[rv->o.vals[k]], types[nc + k]);
        v->adj[rv->o.vals[k]] = outer[k];
    }
    for (uint32_t k = 0; k < ns; k++) {
        yops[nc + no + k] = hk_diff_full(d, v->sadj[rv->o.slots[k]], types[nc + no + k]);
        v->sadj[rv->o.slots[k]] = outer[no + k];
    }
    HkInst *y = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, y, yops, m);
    hk_block_append(&S->x->regions[0], y);
    /* the trip did not break there after all (cannot happen when it ran,
     * but the IR states both branches): nothing */
    d->blk = &S->x->regions[1];
    HkVal *zops = hk_alloc(d->a, (m + 1) * sizeof *zops);
    for (uint32_t k = 0; k < m; k++)
        zops[k] = hk_diff_full(d, HK_NOVAL, types[k]);
    y = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, y, zops, m);
    hk_block_append(&S->x->regions[1], y);
    y = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, y, hk_res(S), m);
    hk_block_append(&P->x->regions[0], y);
    /* no partial trip: nothing */
    d->blk = &P->x->regions[1];
    for (uint32_t k = 0; k < m; k++)
        zops[k] = hk_diff_full(d, HK_NOVAL, types[k]);
    y = hk_inst_new(f, HK_OP_YIELD, d->loc);
    hk_inst_set_ops(f, y, zops, m);
    hk_block_append(&P->x->regions[1], y);

    hk_diff_leave(d, here);
    hk_vjp_grow(v);
    for (uint32_t k = 0, j = 0; k < rv->n; k++)
        if (rv->need[k]) {
            d->base = hk_value(f, hk_res(L)[k])->name;
            hk_vjp_add_to(v, &v->adj[hk_res(L)[k]], hk_res(P)[j++], type_of(v, hk_res(L)[k]));
        }
    for (uint32_t k = 0; k < no; k++) {
        d->base = hk_value(f, rv->o.vals[k])->name;
        hk_vjp_add_to(v, &v->adj[rv->o.vals[k]], hk_res(P)[nc + k], types[nc + k]);
    }
    for (uint32_t k = 0; k < ns; k++) {
        d->base = f->slots[rv->o.slots[k]].name;
        hk_vjp_add_to(v, &v->sadj[rv->o.slots[k]], hk_res(P)[nc + no + k],
                      types[nc + no + k]);
    }
}

void hk_vjp_reverse_loop(Vjp *v, HkInst *L)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    Rev rv;
    memset(&rv, 0, sizeof rv);
    rv.L = L;
    rv.n = L->nres;
    rv.need = hk_alloc(d->a, rv.n + 1u);
    rv.ran = HK_NOVAL;
    rv.own = own_write(v, L);
    int any = 0;
    for (uint32_t k = 0; k < rv.n; k++) {
        HkVal c = L->x->iters[k];
        rv.need[k] = c < d->ntan && d->act[c] && hk_diff_is_real(type_of(v, c));
        rv.nc += rv.need[k];
        any |= rv.need[k] && v->adj[hk_res(L)[k]] != HK_NOVAL;
    }
    if (bound(L) <= 0) {  /* no trip runs: each result is its init */
        uint32_t first = L->x->has_count ? 1u : 0u;
        for (uint32_t k = 0; k < rv.n; k++)
            if (rv.need[k] && v->adj[hk_res(L)[k]] != HK_NOVAL)
                hk_vjp_add_adj(v, L->ops[first + k], v->adj[hk_res(L)[k]]);
        return;
    }
    hk_vjp_outer(v, L, &rv.o);
    if (!any && !rv.o.writes)
        return;
    HkInst *at = d->at;
    HkBlock *blk = d->blk;
    d->base = L->nres > 0 ? hk_value(f, hk_res(L)[0])->name : hk_value(f, L->x->ivar)->name;
    HkVal end = trips_end(v, L);
    if (use_tape(v, L, rv.n))
        make_tape(v, &rv);
    if (end != HK_NOVAL && writes_before_break(v, L))
        partial_trip(v, &rv, end);
    /* the last trip's index, end - 1 + LO (a constant without a counter) */
    d->base = hk_value(f, L->x->ivar)->name;
    HkVal last;
    if (end == HK_NOVAL) {
        last = hk_diff_int(d, L->x->hi - 1 + L->x->lo, hk_scalar(HK_I64), NULL, NULL);
    } else {
        HkVal ops2[2] = {end, hk_diff_int(d, L->x->lo - 1, hk_scalar(HK_I64), NULL, NULL)};
        last = hk_diff_emit(d, HK_OP_ADD, ops2, 2, hk_scalar(HK_I64));
    }
    rv.R = reverse_head(v, &rv, end);
    reverse_body(v, &rv, last);
    d->at = at;
    d->blk = blk;
    HkInst *R = rv.R;
    uint32_t first = L->x->has_count ? 1u : 0u, nc = rv.nc, no = rv.o.nvals;
    for (uint32_t k = 0, j = 0; k < rv.n; k++)
        if (rv.need[k])
            hk_vjp_add_adj(v, L->ops[first + k], hk_res(R)[j++]);
    for (uint32_t k = 0; k < no; k++) {
        d->base = hk_value(f, rv.o.vals[k])->name;
        hk_vjp_add_to(v, &v->adj[rv.o.vals[k]], hk_res(R)[nc + k],
                      type_of(v, rv.o.vals[k]));
    }
    for (uint32_t k = 0; k < rv.o.nslots; k++) {
        const HkSlot *sl = &f->slots[rv.o.slots[k]];
        d->base = sl->name;
        hk_vjp_add_to(v, &v->sadj[rv.o.slots[k]], hk_res(R)[nc + no + k], sl->type);
    }
}
