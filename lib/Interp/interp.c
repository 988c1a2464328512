/* interp.c -- the interpreter's walk: the frame of values, control flow,
 * the planes of the args struct and the entry (interp.h).  Each
 * instruction is the host unit's (lib/Host) and the C unit's twin, done
 * on values instead of emitted: the same component layout (a value holds
 * its components; a rank-0 operand of a tensor op reads its one), the
 * same plane addressing, the same order. */
#include <math.h>
#include <string.h>

#include "interpint.h"

enum { ST_OK = 0, ST_NULL = 1, ST_RANGE = 2 };

struct HkInterp {
    HkArena *a;
    HawkContext *ctx;
    HkDiags *d;
    const HkLowered *l;
    const HkFunc *f;
    int fnmode;              /* a math function: its uniforms are the
                                arguments, its store the result */
    HkAbiLayout abi;
    int32_t *by_slot;        /* slot -> its member, or -1; in fnmode,
                                its place among the uniforms */
    HkWord **locals;         /* slot -> a local's rows, NULL for planes */
    const HkAbiField **guard;/* the guard masks' members */
    uint32_t nguard;
    HkWord *vals;            /* the frame: each value's components */
    uint32_t *off;           /* value -> its first component in vals */
    uint32_t *tmp;           /* loop (by serial) -> room for its yield */
    HkInterp **fn;           /* math function id -> its interpreter */
    /* the current call */
    const unsigned char *args;
    int64_t sample, n;
    HkWord fnargs[2], fnres;
    int broke;               /* a break_if fired in the innermost loop */
    int failed;
};

static HkInterp *make(HkArena *a, HawkContext *ctx, const HkLowered *l,
                      HkDiags *d, int fnmode);

/* ---- the frame ------------------------------------------------------------- */

static uint32_t comps_of(HkType t)
{
    return hk_is_dyn(t) ? 1u : hk_components(t);
}

static HkType type_of(const HkInterp *ip, HkVal v)
{
    return hk_value(ip->f, v)->type;
}

static HkElem elem_of(const HkInterp *ip, HkVal v)
{
    return (HkElem)type_of(ip, v).elem;
}

/* Component k of v (its one component at rank 0: a broadcast). */
static HkWord comp(const HkInterp *ip, HkVal v, uint32_t k)
{
    return ip->vals[ip->off[v] + (comps_of(type_of(ip, v)) == 1 ? 0u : k)];
}

static HkWord *dest(HkInterp *ip, HkVal v)
{
    return &ip->vals[ip->off[v]];
}

/* Each value's room, then each loop's room for its yielded values. */
static void layout(HkInterp *ip)
{
    const HkFunc *f = ip->f;
    uint32_t at = 0;
    ip->off = hk_alloc(ip->a, (f->nvalues + 1u) * sizeof *ip->off);
    for (uint32_t v = 0; v < f->nvalues; v++) {
        ip->off[v] = at;
        at += comps_of(hk_value(f, v)->type);
    }
    ip->tmp = hk_alloc(ip->a, (f->nserials + 1u) * sizeof *ip->tmp);
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (i->op != HK_OP_LOOP)
            continue;
        ip->tmp[i->serial] = at;
        for (uint32_t k = 0; k < i->nres; k++)
            at += comps_of(type_of(ip, hk_res(i)[k]));
    }
    ip->vals = hk_alloc(ip->a, (at + 1u) * sizeof *ip->vals);
}

static void fail(HkInterp *ip, const HkInst *i, const char *what)
{
    if (ip->failed)
        return;
    ip->failed = 1;
    hk_error(ip->d, &ip->f->module->src, i != NULL ? i->loc : ip->f->loc,
             "interpreter: %s", what);
}

/* ---- memory ---------------------------------------------------------------- */

static HkWord read_elem(HkElem e, const unsigned char *p)
{
    HkWord w;
    w.u = 0;
    switch (e) {
    case HK_F64: memcpy(&w.d, p, sizeof w.d); break;
    case HK_F32: memcpy(&w.f, p, sizeof w.f); break;
    case HK_I64: memcpy(&w.i, p, sizeof w.i); break;
    case HK_I32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        w.i = v;
        break;
    }
    case HK_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        w.u = v;
        break;
    }
    case HK_I1: w.u = p[0] != 0; break;
    case HK_VOID: break;
    }
    return w;
}

static void write_elem(HkElem e, unsigned char *p, HkWord w)
{
    switch (e) {
    case HK_F64: memcpy(p, &w.d, sizeof w.d); break;
    case HK_F32: memcpy(p, &w.f, sizeof w.f); break;
    case HK_I64: memcpy(p, &w.i, sizeof w.i); break;
    case HK_I32: {
        int32_t v = (int32_t)w.i;
        memcpy(p, &v, sizeof v);
        break;
    }
    case HK_U32: {
        uint32_t v = (uint32_t)w.u;
        memcpy(p, &v, sizeof v);
        break;
    }
    case HK_I1: p[0] = (unsigned char)(w.u != 0); break;
    case HK_VOID: break;
    }
}

static const HkAbiField *member(HkInterp *ip, const HkInst *i)
{
    int32_t k = i->slot >= 0 ? ip->by_slot[i->slot] : -1;
    if (k < 0) {
        fail(ip, i, "a slot without a member");
        return &ip->abi.fields[0];
    }
    return &ip->abi.fields[k];
}

/* The plane member m points to. */
static unsigned char *plane(const HkInterp *ip, const HkAbiField *m)
{
    unsigned char *p;
    memcpy(&p, ip->args + m->offset, sizeof p);
    return p;
}

/* The runtime length after plane member m. */
static int64_t plane_len(const HkInterp *ip, const HkAbiField *m)
{
    int64_t n;
    memcpy(&n, ip->args + (m + 1)->offset, sizeof n);
    return n;
}

static HkWord read_at(const HkInterp *ip, const HkAbiField *m, int64_t idx)
{
    return read_elem(m->elem, plane(ip, m) + (size_t)idx * m->elem_bytes);
}

static void write_at(const HkInterp *ip, const HkAbiField *m, int64_t idx,
                     HkWord w)
{
    write_elem(m->elem, plane(ip, m) + (size_t)idx * m->elem_bytes, w);
}

/* Element (c * n_samples) + sample of a per-sample plane. */
static int64_t soa(const HkInterp *ip, uint32_t c)
{
    return (int64_t)c * ip->n + ip->sample;
}

/* ---- plane ops ------------------------------------------------------------- */

static void load(HkInterp *ip, const HkInst *i)
{
    HkWord *out = dest(ip, hk_res(i)[0]);
    if (ip->fnmode) {  /* argument k: its place among the uniforms */
        int32_t k = ip->by_slot[i->slot];
        out[0] = ip->fnargs[k < 2 ? k : 0];
        return;
    }
    if (ip->locals[i->slot] != NULL) {  /* legalize held the row inside */
        out[0] = ip->locals[i->slot][comp(ip, i->ops[0], 0).i];
        return;
    }
    const HkAbiField *m = member(ip, i);
    uint32_t n = comps_of(type_of(ip, hk_res(i)[0]));
    for (uint32_t c = 0; c < n; c++)
        out[c] = m->kind == HK_ABI_VALUE
                     ? read_elem(m->elem, ip->args + m->offset + (size_t)c * m->elem_bytes)
                     : read_at(ip, m, soa(ip, c));
}

/* The index operand of i (legalize clamped or proved it). */
static int64_t index_of(const HkInterp *ip, const HkInst *i)
{
    return comp(ip, i->ops[i->nops - 1], 0).i;
}

static void gather(HkInterp *ip, const HkInst *i)
{
    dest(ip, hk_res(i)[0])[0] = read_at(ip, member(ip, i), index_of(ip, i));
}

static void clamp_index(HkInterp *ip, const HkInst *i)
{
    const HkSlot *s = &ip->f->slots[i->slot];
    int64_t k = i->nops == 1 ? comp(ip, i->ops[0], 0).i : ip->sample;
    int64_t len = hk_is_dyn(s->type) ? plane_len(ip, member(ip, i))
                                     : (int64_t)s->type.dim[0];
    if (k > len - 1)
        k = len - 1;
    if (k < 0)
        k = 0;
    dest(ip, hk_res(i)[0])[0].i = k;
}

/* A store: the result of a math function, a tape row, a runtime-length
 * plane at its index, or the sample's own column. */
static void store(HkInterp *ip, const HkInst *i)
{
    if (ip->fnmode) {
        ip->fnres = comp(ip, i->ops[0], 0);
        return;
    }
    if (ip->locals[i->slot] != NULL) {
        ip->locals[i->slot][index_of(ip, i)] = comp(ip, i->ops[0], 0);
        return;
    }
    const HkAbiField *m = member(ip, i);
    uint32_t n = comps_of(type_of(ip, i->ops[0]));
    if (ip->f->slots[i->slot].role == HK_ROLE_OUT) {
        int64_t row = index_of(ip, i);
        for (uint32_t c = 0; c < n; c++)
            write_at(ip, m, (row * (int64_t)n + c) * ip->n + ip->sample,
                     comp(ip, i->ops[0], c));
        return;
    }
    if (m->addr == HK_ABI_FLAT_LEN) {
        write_at(ip, m, index_of(ip, i), comp(ip, i->ops[0], 0));
        return;
    }
    for (uint32_t c = 0; c < n; c++)
        write_at(ip, m, soa(ip, c), comp(ip, i->ops[0], c));
}

/* An own-column accumulate stores; a scattered one adds into its cell,
 * wrapping on integers. */
static void accum(HkInterp *ip, const HkInst *i)
{
    if (!i->has_index) {
        store(ip, i);
        return;
    }
    const HkAbiField *m = member(ip, i);
    int64_t k = index_of(ip, i);
    HkWord old = read_at(ip, m, k), v = comp(ip, i->ops[0], 0), sum;
    sum.u = 0;
    if (m->elem == HK_F64)
        sum.d = old.d + v.d;
    else if (m->elem == HK_F32)
        sum.f = old.f + v.f;
    else
        sum = hk_interp_norm(m->elem, old.u + v.u);
    write_at(ip, m, k, sum);
}

/* Cell k of a u32 counter plane (finished_count, mix) += 1, wrapping. */
static void bump_cell(HkInterp *ip, const HkInst *i, int64_t k)
{
    const HkAbiField *m = member(ip, i);
    HkWord old = read_at(ip, m, k);
    write_at(ip, m, k, hk_interp_norm(HK_U32, old.u + 1u));
}

/* ---- component-wise ops ------------------------------------------------------ */

static void run_block(HkInterp *ip, const HkBlock *b);

/* Math function id of hawk's math on x (and y): its lowered kernel,
 * interpreted, made when first called. */
static HkWord mathfn(HkInterp *ip, const HkInst *i, uint32_t id, HkWord x,
                     HkWord y)
{
    if (ip->fn[id] == NULL) {
        const HkLowered *ml = ip->l->mathfn[id];
        if (ml == NULL)
            ml = hk_lower_mathfn(ip->ctx, id);
        if (ml != NULL)
            ip->fn[id] = make(ip->a, ip->ctx, ml, ip->d, 1);
        if (ip->fn[id] == NULL) {
            fail(ip, i, "hawk's math function is not interpreted");
            return x;
        }
    }
    HkInterp *g = ip->fn[id];
    g->fnargs[0] = x;
    g->fnargs[1] = y;
    run_block(g, &g->f->body);
    if (g->failed)
        ip->failed = 1;
    return g->fnres;
}

static HkWord math_comp(HkInterp *ip, const HkInst *i, HkElem e, HkWord x,
                        HkWord y)
{
    int ok = 1;
    uint32_t id = hk_mathfn_of(ip->l, i);
    if (id != UINT32_MAX)
        return mathfn(ip, i, id, x, y);
    HkWord r = hk_interp_libm(i->op, e, x, y, &ok);
    if (!ok)
        fail(ip, i, hk_asprintf(ip->a, "'%s' calls no libm function",
                                hk_ops[i->op].mnemonic));
    return r;
}

static void elementwise(HkInterp *ip, const HkInst *i)
{
    HkElem e = elem_of(ip, hk_res(i)[0]);
    HkElem oe = elem_of(ip, i->ops[0]);
    uint32_t n = comps_of(type_of(ip, hk_res(i)[0]));
    HkWord *out = dest(ip, hk_res(i)[0]);
    HkRule r = hk_ops[i->op].rule;
    for (uint32_t k = 0; k < n; k++) {
        HkWord x = comp(ip, i->ops[0], k);
        HkWord y = i->nops > 1 ? comp(ip, i->ops[1], k) : x;
        HkWord z = i->nops > 2 ? comp(ip, i->ops[2], k) : x;
        if (r == HK_R_MATH1 || r == HK_R_MATH2) {
            if (!hk_is_float(oe)) {
                fail(ip, i, "a libm function on an integer operand (int_libm)");
                return;
            }
            out[k] = math_comp(ip, i, e, x, y);
            continue;
        }
        int ok = 1;
        out[k] = hk_interp_elem(i, e, oe, x, y, z, &ok);
        if (!ok) {
            fail(ip, i, hk_asprintf(ip->a, "'%s' is not interpreted",
                                    hk_ops[i->op].mnemonic));
            return;
        }
    }
}

/* ---- moves ------------------------------------------------------------------- */

/* Component k of i's constant payload as a word of element type e. */
static HkWord const_word(const HkInst *i, uint32_t k, HkElem e)
{
    HkWord w;
    w.u = 0;
    if (e == HK_F64 || e == HK_F32) {
        double v = hk_const_real(&i->x->cst, k, e);
        if (e == HK_F32)
            w.f = (float)v;
        else
            w.d = v;
        /* a NaN is the C's NAN: positive, quiet, no payload */
        if (isnan(v)) {
            if (e == HK_F32) {
                uint32_t b = 0x7fc00000u;
                memcpy(&w.f, &b, sizeof b);
            } else {
                w.u = 0x7ff8000000000000ull;
            }
        }
        return w;
    }
    return hk_interp_norm(e, (uint64_t)hk_const_int(&i->x->cst, k));
}

static void constant(HkInterp *ip, const HkInst *i)
{
    HkType t = type_of(ip, hk_res(i)[0]);
    uint32_t n = comps_of(t);
    HkWord *out = dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < n; k++)
        out[k] = const_word(i, k, (HkElem)t.elem);
}

/* table %k, [...]: entry clamp(k, 0, N - 1) (LangRef "Tables"). */
static void table(HkInterp *ip, const HkInst *i)
{
    int64_t k = comp(ip, i->ops[0], 0).i, last = (int64_t)i->x->cst.n - 1;
    k = k < 0 ? 0 : k > last ? last : k;
    dest(ip, hk_res(i)[0])[0] =
        const_word(i, (uint32_t)k, (HkElem)type_of(ip, hk_res(i)[0]).elem);
}

static void extract(HkInterp *ip, const HkInst *i)
{
    uint32_t first = hk_flat_index(type_of(ip, i->ops[0]), i->x->imm, i->x->nimm);
    uint32_t n = comps_of(type_of(ip, hk_res(i)[0]));
    HkWord *out = dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < n; k++)
        out[k] = comp(ip, i->ops[0], first + k);
}

static void build(HkInterp *ip, const HkInst *i)
{
    HkWord *out = dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < i->nops; k++)
        out[k] = comp(ip, i->ops[k], 0);
}

/* Copies the components of each of vals (n) to room, then from room to
 * each of to: all read before any is written. */
static void assign(HkInterp *ip, const HkVal *to, const HkVal *vals,
                   uint32_t n, uint32_t room)
{
    uint32_t at = room;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = comps_of(type_of(ip, to[k]));
        for (uint32_t j = 0; j < c; j++)
            ip->vals[at + j] = comp(ip, vals[k], j);
        at += c;
    }
    at = room;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = comps_of(type_of(ip, to[k]));
        memcpy(dest(ip, to[k]), &ip->vals[at], c * sizeof *ip->vals);
        at += c;
    }
}

/* Sets each of to (n) to the components of vals, in order. */
static void set_each(HkInterp *ip, const HkVal *to, const HkVal *vals,
                     uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = comps_of(type_of(ip, to[k]));
        for (uint32_t j = 0; j < c; j++)
            dest(ip, to[k])[j] = comp(ip, vals[k], j);
    }
}

/* ---- control flow -------------------------------------------------------------- */

/* The trips from lo while the index is below hi, or the runtime count
 * legalize held to [lo, lo + K]; a trip assigns the carried values at
 * its yield, so a break leaves the values the trip started with. */
static void loop(HkInterp *ip, const HkInst *i)
{
    uint32_t first = i->x->has_count ? 1u : 0u, n = i->nres;
    const HkInst *y = hk_block_yield(&i->x->regions[0]);
    if (i->nops != first + n || (n > 0 && (y == NULL || y->nops != n))) {
        fail(ip, i, "a loop whose inits or yield do not match its carried values");
        return;
    }
    set_each(ip, i->x->iters, i->ops + first, n);
    int64_t end = i->x->has_count ? comp(ip, i->ops[0], 0).i : i->x->hi;
    for (int64_t k = i->x->lo; k < end && !ip->failed; k++) {
        dest(ip, i->x->ivar)[0].i = k;
        run_block(ip, &i->x->regions[0]);
        if (ip->broke) {
            ip->broke = 0;
            break;
        }
        if (n > 0)
            assign(ip, i->x->iters, y->ops, n, ip->tmp[i->serial]);
    }
    set_each(ip, hk_res(i), i->x->iters, n);
}

/* Runs region b of op i and takes its yield as i's results. */
static void region(HkInterp *ip, const HkInst *i, const HkBlock *b)
{
    const HkInst *y = hk_block_yield(b);
    if (i->nres > 0 && (y == NULL || y->nops != i->nres)) {
        fail(ip, y, "a yield that does not match its results");
        return;
    }
    run_block(ip, b);
    if (i->nres > 0)
        set_each(ip, hk_res(i), y->ops, i->nres);
}


static void run_inst(HkInterp *ip, const HkInst *i)
{
    switch (i->op) {
    case HK_OP_CONST: constant(ip, i); return;
    case HK_OP_TABLE: table(ip, i); return;
    case HK_OP_EXTRACT: extract(ip, i); return;
    case HK_OP_BUILD: build(ip, i); return;
    case HK_OP_LOAD: load(ip, i); return;
    case HK_OP_GATHER: gather(ip, i); return;
    case HK_OP_CLAMP_INDEX: clamp_index(ip, i); return;
    case HK_OP_STORE: store(ip, i); return;
    case HK_OP_ACCUM: accum(ip, i); return;
    case HK_OP_BUMP: bump_cell(ip, i, 0); return;
    case HK_OP_LOOP: loop(ip, i); return;
    case HK_OP_BREAK_IF:
        /* directly in a loop body, as the verifier holds it */
        if (i->block->parent == NULL || i->block->parent->op != HK_OP_LOOP) {
            fail(ip, i, "break_if outside a loop");
            return;
        }
        ip->broke = comp(ip, i->ops[0], 0).u != 0;
        return;
    case HK_OP_IF:
        if (comp(ip, i->ops[0], 0).u != 0)
            region(ip, i, &i->x->regions[0]);
        else if (i->x->nregions > 1)
            region(ip, i, &i->x->regions[1]);
        return;
    case HK_OP_DISPATCH: {
        /* legalize held the selector to [0, K - 1]; the last case is the
         * default, as in the units */
        int64_t k = comp(ip, i->ops[0], 0).i;
        if (k < 0 || k >= (int64_t)i->x->nregions)
            k = (int64_t)i->x->nregions - 1;
        region(ip, i, &i->x->regions[k]);
        bump_cell(ip, i, k);
        return;
    }
    case HK_OP_YIELD:
    case HK_OP_RET: return;
    default: break;
    }
    if ((hk_ops[i->op].flags & HK_F_ELEM) && i->nres == 1) {
        elementwise(ip, i);
        return;
    }
    fail(ip, i, hk_asprintf(ip->a, "'%s' is not interpreted",
                            hk_ops[i->op].mnemonic));
}

static void run_block(HkInterp *ip, const HkBlock *b)
{
    for (const HkInst *i = b->first; i != NULL && !ip->broke && !ip->failed;
         i = i->next)
        run_inst(ip, i);
}

/* ---- the entry ------------------------------------------------------------------- */

static HkInterp *make(HkArena *a, HawkContext *ctx, const HkLowered *l,
                      HkDiags *d, int fnmode)
{
    HkInterp *ip = hk_alloc(a, sizeof *ip);
    ip->a = a;
    ip->ctx = ctx;
    ip->d = d;
    ip->l = l;
    ip->f = l->kernel;
    ip->fnmode = fnmode;
    /* the form both writers take, so that every op is one the three
     * implementations spell alike (no tensor op, no call, no rsqrt) */
    if (hk_scalar_form_check(ip->f, d) != 0)
        return NULL;
    ip->fn = hk_alloc(a, (HK_MATHFN_COUNT + 1u) * sizeof *ip->fn);
    layout(ip);
    ip->locals = hk_alloc(a, (ip->f->nslots + 1u) * sizeof *ip->locals);
    for (uint32_t s = 0; s < ip->f->nslots; s++)
        if (ip->f->slots[s].role == HK_ROLE_LOCAL)
            ip->locals[s] = hk_alloc(a, ip->f->slots[s].type.dim[0] * sizeof(HkWord));
    if (fnmode) {
        ip->by_slot = hk_alloc(a, (ip->f->nslots + 1u) * sizeof *ip->by_slot);
        int32_t k = 0;
        for (uint32_t s = 0; s < ip->f->nslots; s++) {
            ip->by_slot[s] = k;
            k += ip->f->slots[s].role == HK_ROLE_UNIFORM;
        }
        return ip;
    }
    if (hk_plane_members(a, l, &ip->abi, &ip->by_slot) != 0) {
        hk_error(d, &ip->f->module->src, ip->f->loc,
                 "interpreter: '%s' has no C layout for its interface",
                 ip->f->name);
        return NULL;
    }
    const HkInterfaceResult *iface = l->iface;
    ip->guard = hk_alloc(a, (iface->nguard + 1u) * sizeof *ip->guard);
    for (uint32_t k = 0; k < iface->nguard; k++) {
        const HkAbiField *m = hk_abi_field(&ip->abi, iface->guard[k]);
        if (m != NULL)
            ip->guard[ip->nguard++] = m;
    }
    return ip;
}

HkInterp *hk_interp_new(HkArena *a, HawkContext *ctx, const HkLowered *l,
                        HkDiags *d)
{
    return make(a, ctx, l, d, 0);
}

/* The units' checks, in their order: 0, or the status they return. */
static int32_t checks(const HkInterp *ip, int64_t base, int64_t count,
                      int64_t n)
{
    if (ip->args == NULL)
        return ST_NULL;
    for (uint32_t k = 0; k < ip->abi.nfields; k++)
        if (ip->abi.fields[k].kind == HK_ABI_PLANE &&
            plane(ip, &ip->abi.fields[k]) == NULL)
            return ST_NULL;
    if (base < 0 || base > n || count < 0 || count > n - base)
        return ST_RANGE;
    HkSampleBound sb = hk_plane_sample_bound(&ip->abi);
    if (sb.max < INT64_MAX && n > sb.max)
        return ST_RANGE;
    for (uint32_t k = 0; k < ip->abi.nfields; k++)
        if (ip->abi.fields[k].kind == HK_ABI_LEN) {
            int64_t len;
            memcpy(&len, ip->args + ip->abi.fields[k].offset, sizeof len);
            if (len < 1)
                return ST_RANGE;
        }
    return ST_OK;
}

/* Whether a guard mask of the current sample is set. */
static int masked(const HkInterp *ip)
{
    for (uint32_t k = 0; k < ip->nguard; k++)
        if (read_at(ip, ip->guard[k], ip->sample).u != 0)
            return 1;
    return 0;
}

int32_t hk_interp_entry(HkInterp *ip, const void *args, int64_t base,
                        int64_t count, int64_t n_samples)
{
    ip->args = args;
    int32_t st = checks(ip, base, count, n_samples);
    if (st != ST_OK)
        return st;
    ip->n = n_samples;
    for (int64_t s = base; s < base + count && !ip->failed; s++) {
        ip->sample = s;
        if (masked(ip))
            continue;
        /* each sample's locals start at zero (LangRef "Locals") */
        for (uint32_t k = 0; k < ip->f->nslots; k++)
            if (ip->locals[k] != NULL)
                memset(ip->locals[k], 0, ip->f->slots[k].type.dim[0] * sizeof(HkWord));
        run_block(ip, &ip->f->body);
    }
    return ip->failed ? -1 : ST_OK;
}
