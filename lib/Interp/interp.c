/* interp.c -- the interpreter's walk: frames of values, calls, control
 * flow and the entry (interp.h).  It evaluates the kernel as verified,
 * before any pass of the lowering, from LangRef's semantics alone: the
 * tensor ops in LangRef's order (interp_tensor.c), a call by running the
 * callee, clip, rsqrt, runtime counts, selectors and indices clamped as
 * LangRef states (interp_planes.c), hawk's math by running math.hir's
 * functions.  So inline, scalarize, legalize and the rest of the
 * lowering, which both units share, are checked by it, not assumed. */
#include <math.h>
#include <string.h>

#include "fault.h"
#include "interpint.h"
#include "passes.h"

enum { ST_OK = 0, ST_NULL = 1, ST_RANGE = 2 };

/* The frames of one module's funcs, by index. */
struct HkFrames {
    const HkModule *m;
    HkInterp **by_index;
    HkFrames *next;
};

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

HkWord hk_interp_comp(const HkInterp *ip, HkVal v, uint32_t k)
{
    return ip->vals[ip->off[v] + (comps_of(type_of(ip, v)) == 1 ? 0u : k)];
}

HkWord *hk_interp_dest(HkInterp *ip, HkVal v)
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

void hk_interp_fail(HkInterp *ip, const HkInst *i, const char *what)
{
    if (ip->root->failed)
        return;
    ip->root->failed = 1;
    hk_error(ip->d, &ip->f->module->src, i != NULL ? i->loc : ip->f->loc,
             "interpreter: %s", what);
}

static int failed(const HkInterp *ip)
{
    return ip->root->failed;
}

/* A frame for f, of root's launch. */
static HkInterp *frame(HkInterp *root, const HkFunc *f)
{
    HkInterp *ip = hk_alloc(root->a, sizeof *ip);
    ip->a = root->a;
    ip->ctx = root->ctx;
    ip->d = root->d;
    ip->l = root->l;
    ip->f = f;
    ip->root = root;
    layout(ip);
    return ip;
}

/* The frame of func g, made when first called; one per func suffices,
 * since calls do not recurse (the verifier refuses a cycle). */
static HkInterp *frame_of(HkInterp *ip, const HkModule *m, uint32_t index)
{
    HkInterp *root = ip->root;
    HkFrames *fs = root->frames;
    while (fs != NULL && fs->m != m)
        fs = fs->next;
    if (fs == NULL) {
        fs = hk_alloc(root->a, sizeof *fs);
        fs->m = m;
        fs->by_index = hk_alloc(root->a, (m->nfuncs + 1u) * sizeof *fs->by_index);
        fs->next = root->frames;
        root->frames = fs;
    }
    if (fs->by_index[index] == NULL)
        fs->by_index[index] = frame(root, m->funcs[index]);
    return fs->by_index[index];
}

/* ---- calls ------------------------------------------------------------------- */

static void run_block(HkInterp *ip, const HkBlock *b);

/* Runs func frame g over its parameters, already set; its ret, or NULL
 * after a failure. */
static const HkInst *run_func(HkInterp *g)
{
    run_block(g, &g->f->body);
    const HkInst *ret = g->f->body.last;
    if (failed(g))
        return NULL;
    if (ret == NULL || ret->op != HK_OP_RET) {
        hk_interp_fail(g, ret, "a func whose body does not end in ret");
        return NULL;
    }
    return ret;
}

/* call @g(args): each argument's components to g's parameter, g's body,
 * then each returned value's components to the call's result. */
static void call(HkInterp *ip, const HkInst *i)
{
    const HkModule *m = ip->f->module;
    HkInterp *g = frame_of(ip, m, i->x->callee);
    for (uint32_t k = 0; k < i->nops && k < g->f->nparams; k++) {
        uint32_t c = comps_of(type_of(g, g->f->params[k]));
        for (uint32_t j = 0; j < c; j++)
            hk_interp_dest(g, g->f->params[k])[j] =
                hk_interp_comp(ip, i->ops[k], j);
    }
    const HkInst *ret = run_func(g);
    if (ret == NULL)
        return;
    for (uint32_t k = 0; k < i->nres && k < ret->nops; k++) {
        uint32_t c = comps_of(type_of(ip, hk_res(i)[k]));
        for (uint32_t j = 0; j < c; j++)
            hk_interp_dest(ip, hk_res(i)[k])[j] =
                hk_interp_comp(g, ret->ops[k], j);
    }
}

/* hawk's math function id (math.hir's function, see hk_mathfn_id) at x
 * (and y), run as a call; its frame made at the first call. */
static HkWord hawk_math(HkInterp *ip, uint32_t id, HkWord x, HkWord y)
{
    HkInterp *root = ip->root;
    if (root->mathfr[id] == NULL) {
        const HkFunc *fn = hk_math_func(ip->ctx, hk_mathfn_op(id),
                                        hk_mathfn_elem(id));
        root->mathfr[id] = frame_of(ip, fn->module,
                                    hk_func_index(fn->module, fn->name,
                                                  strlen(fn->name)));
    }
    HkInterp *g = root->mathfr[id];
    HkWord in[2] = {x, y};
    for (uint32_t k = 0; k < g->f->nparams && k < 2; k++)
        hk_interp_dest(g, g->f->params[k])[0] = in[k];
    const HkInst *ret = run_func(g);
    return ret != NULL && ret->nops == 1 ? hk_interp_comp(g, ret->ops[0], 0) : x;
}

/* ---- component-wise ops ------------------------------------------------------ */

static HkWord op2(HkOp op, HkElem e, HkWord x, HkWord y)
{
    int ok = 1;
    return hk_interp_op(op, (HkPred)0, e, e, x, y, x, &ok);
}

/* A math op's component: an integer operand converted first (sitofp),
 * then hawk's function (math=hawk: fn, its id) or the C library's; rsqrt the
 * division of 1 by the C library's sqrt. */
static HkWord math_comp(HkInterp *ip, const HkInst *i, uint32_t fn,
                        HkElem e, HkElem oe, HkWord x, HkWord y)
{
    int ok = 1;
    if (!hk_is_float(oe)) {
        x = hk_interp_op(HK_OP_SITOFP, (HkPred)0, e, oe, x, x, x, &ok);
        y = hk_interp_op(HK_OP_SITOFP, (HkPred)0, e, oe, y, y, y, &ok);
    }
    if (i->op == HK_OP_RSQRT) {
        HkWord one, s = hk_interp_libm(HK_OP_SQRT, e, x, y, &ok);
        one.u = 0;
        if (e == HK_F32)
            one.f = 1.0f;
        else
            one.d = 1.0;
        return op2(HK_OP_FDIV, e, one, s);
    }
    if (fn != UINT32_MAX)
        return hawk_math(ip, fn, x, y);
    HkWord r = hk_interp_libm(i->op, e, x, y, &ok);
    if (!ok)
        hk_interp_fail(ip, i, hk_asprintf(ip->a, "'%s' calls no libm function",
                                          hk_ops[i->op].mnemonic));
    return r;
}

/* One component of i from x, y, z. */
static HkWord elem_comp(HkInterp *ip, const HkInst *i, uint32_t fn,
                        HkElem e, HkElem oe, HkWord x, HkWord y, HkWord z)
{
    HkRule r = hk_ops[i->op].rule;
    if (r == HK_R_MATH1 || r == HK_R_MATH2)
        return math_comp(ip, i, fn, e, oe, x, y);
    if (r == HK_R_CLIP)  /* minimum(maximum(x, lo), hi), exactly */
        return op2(HK_OP_MINIMUM, e, op2(HK_OP_MAXIMUM, e, x, y), z);
    int ok = 1;
    HkWord w = hk_interp_elem(i, e, oe, x, y, z, &ok);
    if (!ok)
        hk_interp_fail(ip, i, hk_asprintf(ip->a, "'%s' is not interpreted",
                                          hk_ops[i->op].mnemonic));
    return w;
}

/* A component-wise op over every component, rank-0 operands broadcast. */
static void elementwise(HkInterp *ip, const HkInst *i)
{
    HkElem e = elem_of(ip, hk_res(i)[0]);
    HkElem oe = elem_of(ip, i->ops[0]);
    uint32_t n = comps_of(type_of(ip, hk_res(i)[0]));
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    /* hawk's function where the lowering calls one: math=hawk, operands
     * of the result's type */
    uint32_t fn = ip->l->profile.math == HK_MATH_HAWK &&
                          hk_math_operands(ip->f, i)
                      ? hk_mathfn_id(i->op, e)
                      : UINT32_MAX;
    for (uint32_t k = 0; k < n && !failed(ip); k++) {
        HkWord x = hk_interp_comp(ip, i->ops[0], k);
        HkWord y = i->nops > 1 ? hk_interp_comp(ip, i->ops[1], k) : x;
        HkWord z = i->nops > 2 ? hk_interp_comp(ip, i->ops[2], k) : x;
        out[k] = elem_comp(ip, i, fn, e, oe, x, y, z);
    }
}

static void tensor(HkInterp *ip, const HkInst *i)
{
    HkVal b = i->nops > 1 ? i->ops[1] : i->ops[0];
    if (hk_interp_fold(i->op, type_of(ip, i->ops[0]), type_of(ip, b),
                       hk_interp_dest(ip, i->ops[0]), hk_interp_dest(ip, b),
                       hk_interp_dest(ip, hk_res(i)[0])) != 0)
        hk_interp_fail(ip, i, hk_asprintf(ip->a, "'%s' is not interpreted",
                                          hk_ops[i->op].mnemonic));
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
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < n; k++)
        out[k] = const_word(i, k, (HkElem)t.elem);
}

/* table %k, [...]: entry clamp(k, 0, N - 1) (LangRef "Tables"). */
static void table(HkInterp *ip, const HkInst *i)
{
    int64_t k = hk_interp_comp(ip, i->ops[0], 0).i;
    int64_t last = (int64_t)i->x->cst.n - 1;
    k = k < 0 ? 0 : k > last ? last : k;
    hk_interp_dest(ip, hk_res(i)[0])[0] =
        const_word(i, (uint32_t)k, (HkElem)type_of(ip, hk_res(i)[0]).elem);
}

static void extract(HkInterp *ip, const HkInst *i)
{
    uint32_t first =
        hk_flat_index(type_of(ip, i->ops[0]), i->x->imm, i->x->nimm);
    uint32_t n = comps_of(type_of(ip, hk_res(i)[0]));
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < n; k++)
        out[k] = hk_interp_comp(ip, i->ops[0], first + k);
}

/* insert v, s, idx: a copy of v with one component replaced by s. */
static void insert(HkInterp *ip, const HkInst *i)
{
    HkType t = type_of(ip, i->ops[0]);
    uint32_t at = hk_flat_index(t, i->x->imm, i->x->nimm), n = comps_of(t);
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < n; k++)
        out[k] = hk_interp_comp(ip, i->ops[0], k);
    out[at] = hk_interp_comp(ip, i->ops[1], 0);
}

static void build(HkInterp *ip, const HkInst *i)
{
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    for (uint32_t k = 0; k < i->nops; k++)
        out[k] = hk_interp_comp(ip, i->ops[k], 0);
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
            ip->vals[at + j] = hk_interp_comp(ip, vals[k], j);
        at += c;
    }
    at = room;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = comps_of(type_of(ip, to[k]));
        memcpy(hk_interp_dest(ip, to[k]), &ip->vals[at], c * sizeof *ip->vals);
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
            hk_interp_dest(ip, to[k])[j] = hk_interp_comp(ip, vals[k], j);
    }
}

/* ---- control flow -------------------------------------------------------------- */

/* The index after a loop's last trip: hi, or with a runtime count n,
 * lo + clamp(n - lo, 0, K) (LangRef "Runtime counts": n - lo saturates,
 * so a count at or below lo runs none). */
static int64_t loop_end(const HkInterp *ip, const HkInst *i)
{
    if (!i->x->has_count)
        return i->x->hi;
    int64_t n = hk_interp_comp(ip, i->ops[0], 0).i, lo = i->x->lo;
    if (n <= lo)
        return lo;
    return n - lo < i->x->max_trip ? n : lo + i->x->max_trip;
}

/* The trips from lo while the index is below the end; a trip assigns the
 * carried values at its yield, so a break leaves the values the trip
 * started with. */
static void loop(HkInterp *ip, const HkInst *i)
{
    uint32_t first = i->x->has_count ? 1u : 0u, n = i->nres;
    const HkInst *y = hk_block_yield(&i->x->regions[0]);
    if (i->nops != first + n || (n > 0 && (y == NULL || y->nops != n))) {
        hk_interp_fail(ip, i, "a loop whose inits or yield do not match "
                              "its carried values");
        return;
    }
    set_each(ip, i->x->iters, i->ops + first, n);
    int64_t end = loop_end(ip, i);
    for (int64_t k = i->x->lo; k < end && !failed(ip); k++) {
        hk_interp_dest(ip, i->x->ivar)[0].i = k;
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
        hk_interp_fail(ip, y, "a yield that does not match its results");
        return;
    }
    run_block(ip, b);
    if (i->nres > 0 && !failed(ip))
        set_each(ip, hk_res(i), y->ops, i->nres);
}

/* dispatch %sel: case clamp(sel, 0, K - 1), counted in its mix cell. */
static void dispatch(HkInterp *ip, const HkInst *i)
{
    int64_t k = hk_interp_comp(ip, i->ops[0], 0).i;
    int64_t last = (int64_t)i->x->nregions - 1;
    k = k < 0 ? 0 : k > last ? last : k;
    region(ip, i, &i->x->regions[k]);
    hk_interp_bump(ip, i, k);
}

static void break_if(HkInterp *ip, const HkInst *i)
{
    /* directly in a loop body, as the verifier holds it */
    if (i->block->parent == NULL || i->block->parent->op != HK_OP_LOOP) {
        hk_interp_fail(ip, i, "break_if outside a loop");
        return;
    }
    ip->broke = hk_interp_comp(ip, i->ops[0], 0).u != 0;
}

/* The ops with an effect or a region, and the moves. */
static int run_special(HkInterp *ip, const HkInst *i)
{
    switch (i->op) {
    case HK_OP_CONST: constant(ip, i); return 1;
    case HK_OP_TABLE: table(ip, i); return 1;
    case HK_OP_EXTRACT: extract(ip, i); return 1;
    case HK_OP_INSERT: insert(ip, i); return 1;
    case HK_OP_BUILD: build(ip, i); return 1;
    case HK_OP_LOAD: hk_interp_load(ip, i); return 1;
    case HK_OP_GATHER: hk_interp_gather(ip, i); return 1;
    case HK_OP_CLAMP_INDEX: hk_interp_clamp_index(ip, i); return 1;
    case HK_OP_STORE: hk_interp_store(ip, i); return 1;
    case HK_OP_ACCUM: hk_interp_accum(ip, i); return 1;
    case HK_OP_BUMP: hk_interp_bump(ip, i, 0); return 1;
    case HK_OP_LOOP: loop(ip, i); return 1;
    case HK_OP_BREAK_IF: break_if(ip, i); return 1;
    case HK_OP_IF:
        if (hk_interp_comp(ip, i->ops[0], 0).u != 0)
            region(ip, i, &i->x->regions[0]);
        else if (i->x->nregions > 1)
            region(ip, i, &i->x->regions[1]);
        return 1;
    case HK_OP_DISPATCH: dispatch(ip, i); return 1;
    case HK_OP_CALL: call(ip, i); return 1;
    case HK_OP_YIELD:
    case HK_OP_RET: return 1;
    default: return 0;
    }
}

static void run_inst(HkInterp *ip, const HkInst *i)
{
    if (run_special(ip, i))
        return;
    if (hk_ops[i->op].flags & HK_F_FOLD) {
        tensor(ip, i);
        return;
    }
    if ((hk_ops[i->op].flags & HK_F_ELEM) && i->nres == 1) {
        elementwise(ip, i);
        return;
    }
    /* random, raw_device, the lane ops and at: what no target builds */
    hk_interp_fail(ip, i, hk_asprintf(ip->a, "'%s' is not interpreted",
                                      hk_ops[i->op].mnemonic));
}

static void run_block(HkInterp *ip, const HkBlock *b)
{
    for (const HkInst *i = b->first; i != NULL && !ip->broke && !failed(ip);
         i = i->next)
        run_inst(ip, i);
}

/* ---- the entry ------------------------------------------------------------------- */

/* The kernel's frame: its values, its locals, the args struct the units
 * take and the guard masks. */
static HkInterp *root_frame(HkArena *a, HawkContext *ctx, const HkLowered *l,
                            HkDiags *d)
{
    HkInterp *ip = hk_alloc(a, sizeof *ip);
    ip->a = a;
    ip->ctx = ctx;
    ip->d = d;
    ip->l = l;
    ip->f = l->source != NULL ? l->source : l->kernel;
    ip->root = ip;
    ip->mathfr = hk_alloc(a, (HK_MATHFN_COUNT + 1u) * sizeof *ip->mathfr);
    layout(ip);
    ip->locals = hk_alloc(a, (ip->f->nslots + 1u) * sizeof *ip->locals);
    for (uint32_t s = 0; s < ip->f->nslots; s++)
        if (ip->f->slots[s].role == HK_ROLE_LOCAL)
            ip->locals[s] =
                hk_alloc(a, ip->f->slots[s].type.dim[0] * sizeof(HkWord));
    return ip;
}

HkInterp *hk_interp_new(HkArena *a, HawkContext *ctx, const HkLowered *l,
                        HkDiags *d)
{
    HkInterp *ip = root_frame(a, ctx, l, d);
    int32_t *lowered;
    if (hk_plane_members(a, l, &ip->abi, &lowered) != 0) {
        hk_error(d, &ip->f->module->src, ip->f->loc,
                 "interpreter: '%s' has no C layout for its interface",
                 ip->f->name);
        return NULL;
    }
    /* the slots of the kernel as written are the lowered kernel's, in
     * the same order (the lowering adds none); one past them has no
     * member, refused where it is named */
    ip->by_slot = hk_alloc(a, (ip->f->nslots + 1u) * sizeof *ip->by_slot);
    for (uint32_t s = 0; s < ip->f->nslots; s++)
        ip->by_slot[s] = s < l->kernel->nslots ? lowered[s] : -1;
    const HkInterfaceResult *iface = l->iface;
    ip->guard = hk_alloc(a, (iface->nguard + 1u) * sizeof *ip->guard);
    for (uint32_t k = 0; k < iface->nguard; k++) {
        const HkAbiField *m = hk_abi_field(&ip->abi, iface->guard[k]);
        if (m != NULL)
            ip->guard[ip->nguard++] = m;
    }
    return ip;
}

/* The units' checks, in their order: 0, or the status they return. */
static int32_t checks(const HkInterp *ip, int64_t base, int64_t count,
                      int64_t n)
{
    if (ip->args == NULL)
        return ST_NULL;
    for (uint32_t k = 0; k < ip->abi.nfields; k++) {
        const HkAbiField *m = &ip->abi.fields[k];
        unsigned char *p = NULL;
        if (m->kind == HK_ABI_PLANE)
            memcpy(&p, ip->args + m->offset, sizeof p);
        if (m->kind == HK_ABI_PLANE && p == NULL)
            return ST_NULL;
    }
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
static int masked(HkInterp *ip)
{
    for (uint32_t k = 0; k < ip->nguard; k++)
        if (hk_interp_read(ip, NULL, ip->guard[k], ip->sample).u != 0)
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
        if (s > base && hk_plant("interp-stop")) {  /* the runner's test */
            hk_interp_fail(ip, NULL, "an injected stop (HAWK_PLANT=interp-stop)");
            break;
        }
        if (masked(ip))
            continue;
        /* each sample's locals start at zero (LangRef "Locals") */
        for (uint32_t k = 0; k < ip->f->nslots; k++)
            if (ip->locals[k] != NULL)
                memset(ip->locals[k], 0,
                       ip->f->slots[k].type.dim[0] * sizeof(HkWord));
        run_block(ip, &ip->f->body);
    }
    return ip->failed ? -1 : ST_OK;
}
