/* clone.c -- copying IR: the one instruction copier (hk_inst_copy_shell,
 * which the inliner uses too), and a deep copy of one kernel and the
 * funcs it may call, in a new module, so a target lowers the IR as the
 * caller left it (after any passes the caller ran) without changing the
 * caller's module.
 *
 * Values keep their indices and instructions their serials and locations:
 * walk positions, diagnostics and side tables read the copy exactly as
 * they read the original.
 */
#include <string.h>

#include "ir.h"

static void *dup(HkArena *a, const void *p, size_t n)
{
    if (p == NULL || n == 0)
        return NULL;
    void *q = hk_alloc(a, n);
    memcpy(q, p, n);
    return q;
}

static void clone_block(HkArena *a, HkFunc *nf, const HkBlock *from,
                        HkBlock *to);

HkInst *hk_inst_copy_shell(HkArena *a, const HkInst *i, uint32_t serial)
{
    HkInst *c = hk_alloc_packed(a, sizeof *c, _Alignof(HkInst));
    *c = *i;  /* every field, so one added to HkInst is copied too */
    c->serial = serial;
    c->prev = c->next = NULL;
    c->block = NULL;
    c->nres = c->nops = 0;
    c->r.many = NULL;
    c->ops = NULL;
    if (i->x != &hk_inst_ext_none) {
        HkInstExt *x = dup(a, i->x, sizeof *x);
        x->iters = NULL;
        x->ivar = HK_NOVAL;
        x->nregions = 0;
        x->regions = NULL;
        x->cst.f = dup(a, i->x->cst.f, i->x->cst.f ? i->x->cst.n * sizeof *x->cst.f : 0);
        x->cst.i = dup(a, i->x->cst.i, i->x->cst.i ? i->x->cst.n * sizeof *x->cst.i : 0);
        x->text = i->x->text ? hk_strdup(a, i->x->text) : NULL;
        c->x = x;
    }
    return c;
}

/* A copy of i whose result, index and carried values point back at it. */
static HkInst *clone_inst(HkArena *a, HkFunc *nf, const HkInst *i)
{
    HkInst *c = hk_inst_copy_shell(a, i, i->serial);
    hk_inst_size_res(a, c, i->nres);
    if (i->nres > 0)
        memcpy(hk_res(c), hk_res(i), i->nres * sizeof *hk_res(i));
    c->nops = i->nops;
    c->ops = dup(a, i->ops, i->nops * sizeof *i->ops);
    if (c->x != &hk_inst_ext_none) {
        c->x->ivar = i->x->ivar;
        c->x->iters = dup(a, i->x->iters, i->x->iters ? i->nres * sizeof *i->x->iters : 0);
    }
    for (uint32_t r = 0; r < i->nres; r++)
        hk_value(nf, hk_res(i)[r])->def = c;
    if (i->x->ivar != HK_NOVAL)
        hk_value(nf, i->x->ivar)->def = c;
    for (uint32_t r = 0; c->x->iters != NULL && r < i->nres; r++)
        hk_value(nf, i->x->iters[r])->def = c;
    if (i->x->nregions != 0) {  /* a region op: its record is its own */
        c->x->nregions = i->x->nregions;
        c->x->regions = hk_alloc(a, i->x->nregions * sizeof *c->x->regions);
    }
    for (uint32_t k = 0; k < i->x->nregions; k++) {
        c->x->regions[k].parent = c;
        c->x->regions[k].func = nf;
        clone_block(a, nf, &i->x->regions[k], &c->x->regions[k]);
    }
    return c;
}

static void clone_block(HkArena *a, HkFunc *nf, const HkBlock *from,
                        HkBlock *to)
{
    for (const HkInst *i = from->first; i != NULL; i = i->next)
        hk_block_append(to, clone_inst(a, nf, i));
}

/* Values and slots, same indices (the name table is made when asked). */
static void clone_names(HkArena *a, HkFunc *nf, const HkFunc *f)
{
    hk_func_reserve_values(nf, f->nvalues);
    for (uint32_t v = 0; v < f->nvalues; v++) {
        HkValue *val = hk_value(nf, hk_value_slot(nf));
        *val = *hk_value(f, v);
        val->name = hk_strdup(a, val->name);
    }
    nf->slots = dup(a, f->slots, f->nslots * sizeof *f->slots);
    nf->nslots = nf->cap_slots = f->nslots;
    for (uint32_t s = 0; s < f->nslots; s++)
        nf->slots[s].name = hk_strdup(a, f->slots[s].name);
}

static HkFunc *clone_func(HkModule *nm, const HkFunc *f, const char *name)
{
    HkArena *a = nm->arena;
    HkFunc *nf = hk_func_new(nm, name, f->is_kernel, f->loc);
    nf->src_begin = f->src_begin;
    nf->src_end = f->src_end;
    nf->end = f->end;
    nf->derived = f->derived;
    nf->parsed = f->parsed;
    nf->made_by = f->made_by;
    nf->origin = f->origin;  /* immutable: shared by the copies */
    clone_names(a, nf, f);
    nf->params = dup(a, f->params, f->nparams * sizeof *f->params);
    nf->nparams = f->nparams;
    nf->rtypes = dup(a, f->rtypes, f->nrtypes * sizeof *f->rtypes);
    nf->nrtypes = f->nrtypes;
    nf->guard = f->guard;
    nf->sink = f->sink;
    nf->segmented = f->segmented;
    nf->fused_lanes = f->fused_lanes;
    nf->two_path = f->two_path;
    nf->rule_jvp = f->rule_jvp;
    nf->rule_vjp = f->rule_vjp;
    nf->rule_jvp_loc = f->rule_jvp_loc;
    nf->rule_vjp_loc = f->rule_vjp_loc;
    nf->fresh = f->fresh;
    nf->nserials = f->nserials;
    clone_block(a, nf, &f->body, &nf->body);
    return nf;
}

/* Enters function g of m (by index, UINT32_MAX for none) in seen and
 * the worklist, once. */
static void reach(uint32_t g, const HkModule *m, uint8_t *seen, uint32_t *work,
                  uint32_t *n)
{
    if (g < m->nfuncs && !seen[g]) {
        seen[g] = 1;
        work[(*n)++] = g;
    }
}

/* The index of f's derivative rule named name, or UINT32_MAX. */
static uint32_t rule_index(const HkModule *m, const char *name)
{
    return name != NULL ? hk_func_index(m, name, strlen(name)) : UINT32_MAX;
}

/* Marks in seen every function of m that k calls, directly or through
 * other functions (k included), and the derivative rules of those: a
 * worklist over function indices. */
static void mark_reached(HkArena *a, const HkModule *m, const HkFunc *k,
                         uint8_t *seen)
{
    uint32_t *work = hk_alloc(a, (m->nfuncs + 1) * sizeof *work);
    uint32_t n = 0;
    const HkFunc *f = k;
    for (;;) {
        for (const HkInst *c = f->body.first; c != NULL; c = hk_preorder_next(c))
            if (c->op == HK_OP_CALL)
                reach(c->x->callee, m, seen, work, &n);
        reach(rule_index(m, f->rule_jvp), m, seen, work, &n);
        reach(rule_index(m, f->rule_vjp), m, seen, work, &n);
        if (n == 0)
            return;
        f = m->funcs[work[--n]];
    }
}

HkModule *hk_module_clone_kernel(HkArena *a, const HkModule *m, const HkFunc *k)
{
    HkModule *nm = hk_module_new(a);
    nm->src = m->src;
    /* Only k and the functions it reaches: the other kernels and any
     * function k never calls are left out (verifying and lowering them
     * would be work for nothing), so every call's callee index is
     * renumbered. */
    uint8_t *seen = hk_alloc(a, m->nfuncs + 1u);
    mark_reached(a, m, k, seen);
    uint32_t *index = hk_alloc(a, (m->nfuncs + 1) * sizeof *index);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const HkFunc *f = m->funcs[i];
        index[i] = UINT32_MAX;
        if (f == k || (seen[i] && !f->is_kernel)) {
            index[i] = nm->nfuncs;
            clone_func(nm, f, f->name);
        }
    }
    for (uint32_t i = 0; i < nm->nfuncs; i++)
        for (HkInst *c = nm->funcs[i]->body.first; c != NULL;
             c = hk_preorder_next(c))
            if (c->op == HK_OP_CALL && c->x->callee < m->nfuncs)
                c->x->callee = index[c->x->callee];
    return nm;
}

HkFunc *hk_func_copy(HkModule *m, const HkFunc *f, const char *name)
{
    HkFunc *nf = clone_func(m, f, name);
    nf->derived = 1;
    nf->rule_jvp = nf->rule_vjp = NULL;  /* a copy is another function */
    return nf;
}
