/* jvp.c -- forward-mode differentiation: a kernel becomes its Jacobian-
 * vector product, <name>_jvp, which keeps every primal slot and
 * computation and adds a tangent slot <slot>.dot beside each active slot
 * (the same role and type): the tangents of the active inputs in, the
 * tangents of the active outputs out.  Each instruction's tangent is
 * written right after it by the rule of its op (rules below; the kinks
 * docs/Passes.md's table states); a value that does not depend on an
 * active input has no tangent (zero, never written), so integer, mask
 * and index values and everything computed from inactive slots cost
 * nothing.  Active by default: every real slot a kernel reads
 * (per_sample, vec_in, mat_in, lookup, wide_in, uniform, mutable) and
 * every real slot it writes (mutable, out, wide_out, accum_out);
 * jvp{wrt=a:b,of=c} narrows them.  A gather, tape row, cell or
 * scattered accum of an active plane has its tangent at the same index.  An if or dispatch
 * is differentiated per branch: its tangents stay in the branch, and
 * each real result with a tangent in some branch gets a tangent result.
 * A loop carries a tangent beside each carried value that may depend on
 * an active input (found before anything changes, to a fixed point over
 * the trips).  A call with an active argument calls the callee's
 * derivative func, <f>_jvp, made once per module.  A tangent nothing
 * reads is removed at the end.  A lane op, raw_device or a real prod, in
 * the kernel or a func it calls, is refused by name.
 * docs/Passes.md, "jvp". */
#include <string.h>

#include "diff.h"

/* The tangent write after a store or accum to an active output slot:
 * the same op into the tangent slot, at the same row or cell. */
static void store_tangent(Diff *s, HkInst *i)
{
    HkVal v = i->ops[0];
    s->base = s->f->slots[i->slot].name;
    HkVal ops[2] = {hk_diff_full(s, hk_diff_tan(s, v), hk_diff_type(s, v)),
                    i->has_index ? i->ops[1] : HK_NOVAL};
    HkInst *n = hk_inst_new(s->f, i->op, s->loc);
    hk_inst_set_ops(s->f, n, ops, i->has_index ? 2u : 1u);
    n->has_index = i->has_index;
    n->slot = s->tslot[i->slot];
    hk_diff_place(s, n);
}

/* Names tangent t "<base>.dot" when the rule made it (first: the values
 * before the rule ran) and the name is free. */
static void name_tangent(Diff *s, HkVal t, uint32_t first)
{
    if (t < first)
        return;
    const char *want = hk_asprintf(s->a, "%s.dot", s->base);
    size_t n = strlen(want);
    if (hk_names_get(hk_func_syms(s->f), want, n) != UINT32_MAX)
        return;
    const char *old = hk_value(s->f, t)->name;
    hk_names_del(hk_func_syms(s->f), old, strlen(old));
    hk_value(s->f, t)->name = want;
    hk_names_put(hk_func_syms(s->f), want, n, t);
}

/* Refuses every node of g, and of the funcs it calls (each once: seen,
 * by function index), that jvp does not differentiate. */
static void refuse_in(Diff *s, HkFunc *g, uint8_t *seen)
{
    HkModule *m = g->module;
    for (const HkInst *i = g->body.first; i != NULL; i = hk_preorder_next(i)) {
        const char *why = hk_diff_refused(s, i);
        if (why != NULL)
            hk_diff_refuse(s, g, i, why);
        if (i->op == HK_OP_CALL && i->x->callee < m->nfuncs && !seen[i->x->callee] &&
            hk_diff_custom(s, m->funcs[i->x->callee]) == NULL) {
            seen[i->x->callee] = 1;
            hk_diff_name_free(s, m->funcs[i->x->callee], "derivative");
            refuse_in(s, m->funcs[i->x->callee], seen);
        }
    }
}

/* Refuses every node this step does not differentiate, before anything
 * changes (the positions are the primal's); whether one was. */
static int refuse_all(Diff *s)
{
    if (hk_diff_refuse_deep(s))
        return 1;
    refuse_in(s, s->f, hk_alloc(s->a, s->f->module->nfuncs + 1u));
    return s->failed;
}


static void differentiate(Diff *s, HkInst *i);

/* Every instruction of blk, in order (a region's tangents stay in it). */
static void differentiate_block(Diff *s, HkBlock *blk)
{
    HkInst *next;
    for (HkInst *i = blk->first; i != NULL; i = next) {
        next = i->next;
        differentiate(s, i);
    }
}

/* vals (n of them) followed by a new value "<name>.dot" of the same type
 * for each one need marks (NULL: each real one), defined as kind by def
 * at its place in the list (located at def, or at the value without
 * one); each is recorded as its value's tangent, and *total receives
 * the new count. */
static HkVal *with_tangents(Diff *s, const HkVal *vals, uint32_t n,
                            const uint8_t *need, HkDefKind kind, HkInst *def,
                            uint32_t *total)
{
    HkVal *out = hk_alloc(s->a, (2 * n + 1) * sizeof *out);
    memcpy(out, vals, n * sizeof *out);
    uint32_t j = n;
    for (uint32_t k = 0; k < n; k++) {
        HkVal p = vals[k];
        HkValue pv = (*hk_value(s->f, p));
        if (need != NULL ? !need[k] : !hk_diff_is_real(pv.type))
            continue;
        out[j] = hk_value_new(s->f, pv.type, hk_asprintf(s->a, "%s.dot", pv.name),
                              kind, def, j, def != NULL ? def->loc : pv.loc);
        s->tan[p] = out[j++];
    }
    *total = j;
    return out;
}

/* After the regions of region op i: each result k that need marks gets
 * a tangent result, "<result>.dot", after the primal results (m of
 * them), and every region yields its tangent (a zero one as 0.0) after
 * the primal values. */
static void extend_results(Diff *s, HkInst *i, const uint8_t *need, uint32_t m)
{
    uint32_t n = i->nres;
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        HkInst *y = i->x->regions[r].last;
        HkVal *ops = hk_alloc(s->a, (n + m) * sizeof *ops);
        memcpy(ops, y->ops, n * sizeof *ops);
        s->at = y;
        s->loc = y->loc;
        uint32_t j = n;
        for (uint32_t k = 0; k < n; k++) {
            if (!need[k])
                continue;
            s->base = hk_value(s->f, hk_res(i)[k])->name;
            ops[j++] = hk_diff_full(s, hk_diff_tan(s, y->ops[k]), hk_diff_type(s, hk_res(i)[k]));
        }
        hk_inst_set_ops(s->f, y, ops, n + m);
    }
    uint32_t total;
    HkVal *res = with_tangents(s, hk_res(i), n, need, HK_DEF_INST, i, &total);
    hk_inst_put_res(i, res, total);
}

/* After the regions of if or dispatch i: each real result whose yields
 * have a tangent in some region gets a tangent result. */
static void branch_results(Diff *s, HkInst *i)
{
    uint32_t n = i->nres, m = 0;
    uint8_t *need = hk_alloc(s->a, n + 1u);
    for (uint32_t k = 0; k < n; k++) {
        if (!hk_diff_is_real(hk_diff_type(s, hk_res(i)[k])))
            continue;
        for (uint32_t r = 0; r < i->x->nregions && !need[k]; r++) {
            const HkInst *y = hk_block_yield(&i->x->regions[r]);
            need[k] = y != NULL && k < y->nops &&
                      hk_diff_tan(s, y->ops[k]) != HK_NOVAL;
        }
        m += need[k];
    }
    if (m > 0)
        extend_results(s, i, need, m);
}

/* ---- calls and funcs ------------------------------------------------------ */

static HkFunc *jvp_func(Diff *s, HkFunc *g);

/* A call with an active argument calls the callee's derivative func
 * instead, @<callee>_jvp: the arguments, then the tangent of each real
 * one (0.0 when it has none); the results, then the tangent of each
 * real one. */
static void differentiate_call(Diff *s, HkInst *i)
{
    if (!hk_diff_any_active(s, i, 0))
        return;
    HkFunc *g = s->f->module->funcs[i->x->callee];
    HkFunc *gj = hk_diff_custom(s, g);
    if (gj == NULL)
        gj = jvp_func(s, g);
    if (gj == NULL)
        return;
    uint32_t n = i->nops, m = gj->nparams - n;
    HkVal *ops = hk_alloc(s->a, (n + m) * sizeof *ops);
    memcpy(ops, i->ops, n * sizeof *ops);
    s->at = i;
    s->loc = i->loc;
    for (uint32_t k = 0, j = n; k < n; k++) {
        HkVal v = i->ops[k];
        if (!hk_diff_is_real(hk_diff_type(s, v)))
            continue;
        s->base = hk_value(s->f, v)->name;
        ops[j++] = hk_diff_full(s, hk_diff_tan(s, v), hk_diff_type(s, v));
    }
    hk_inst_set_ops(s->f, i, ops, n + m);
    i->x->callee = hk_func_index(s->f->module, gj->name, strlen(gj->name));
    uint32_t total;
    HkVal *res = with_tangents(s, hk_res(i), i->nres, NULL, HK_DEF_INST, i, &total);
    hk_inst_put_res(i, res, total);
}

/* The tangent parameters of h: "<param>.dot" after the primal ones, one
 * per real parameter, active from the start. */
static void tangent_params(Diff *t)
{
    HkFunc *h = t->f;
    uint32_t n = h->nparams;
    h->params = with_tangents(t, h->params, n, NULL, HK_DEF_PARAM, NULL,
                              &h->nparams);
    for (uint32_t k = 0; k < n; k++)
        t->act[h->params[k]] = t->tan[h->params[k]] != HK_NOVAL;
}

/* The ret of h returns the tangent of each real result after the
 * primal results (0.0 when it has none). */
static void tangent_ret(Diff *t)
{
    HkFunc *h = t->f;
    HkInst *ret = h->body.last;
    uint32_t n = h->nrtypes, m = 0;
    for (uint32_t k = 0; k < n; k++)
        m += (uint32_t)hk_diff_is_real(h->rtypes[k]);
    HkVal *ops = hk_alloc(t->a, (n + m) * sizeof *ops);
    HkType *rt = hk_alloc(t->a, (n + m) * sizeof *rt);
    memcpy(ops, ret->ops, n * sizeof *ops);
    memcpy(rt, h->rtypes, n * sizeof *rt);
    t->at = ret;
    t->loc = ret->loc;
    for (uint32_t k = 0, j = n; k < n; k++) {
        if (!hk_diff_is_real(h->rtypes[k]))
            continue;
        t->base = hk_value(h, ret->ops[k])->name;
        rt[j] = h->rtypes[k];
        ops[j++] = hk_diff_full(t, hk_diff_tan(t, ret->ops[k]), h->rtypes[k]);
    }
    hk_inst_set_ops(h, ret, ops, n + m);
    h->rtypes = rt;
    h->nrtypes = n + m;
}

/* The derivative func of g, @<g>_jvp, made once per module: g's copy
 * with every real parameter and result active; NULL after a
 * diagnostic. */
static HkFunc *jvp_func(Diff *s, HkFunc *g)
{
    int made;
    HkFunc *h = hk_diff_func_copy(s, g, &made);
    if (!made)
        return h;
    Diff t;
    hk_diff_init(&t, s->r, h, s->pass, s->sfx);
    hk_diff_values(&t);
    tangent_params(&t);
    hk_diff_settle(&t);
    uint32_t floor = h->nserials;
    differentiate_block(&t, &h->body);
    tangent_ret(&t);
    hk_dce_from(h, floor);
    s->failed |= t.failed;
    return h;
}

/* Loop i: each carried value that may depend on an active input gets a
 * carried tangent "<carried>.dot" after the primal ones, entering as the
 * init's tangent (0.0 when it has none), yielded as the yield's and
 * leaving as a result "<result>.dot".  The tangents ride the primal's
 * trips, so every trip bound and break_if position holds for them. */
static void differentiate_loop(Diff *s, HkInst *i)
{
    uint32_t n = i->nres, m = 0, first = i->x->has_count ? 1u : 0u;
    for (uint32_t k = 0; k < n; k++)
        m += s->act[i->x->iters[k]];
    if (m == 0) {
        differentiate_block(s, &i->x->regions[0]);
        return;
    }
    uint8_t *need = hk_alloc(s->a, n + 1u);
    HkVal *ops = hk_alloc(s->a, (i->nops + m) * sizeof *ops);
    memcpy(ops, i->ops, i->nops * sizeof *ops);
    s->at = i;
    s->loc = i->loc;
    for (uint32_t k = 0, j = i->nops; k < n; k++) {
        HkVal c = i->x->iters[k];
        need[k] = s->act[c];
        if (!need[k])
            continue;
        s->base = hk_value(s->f, c)->name;
        ops[j++] = hk_diff_full(s, hk_diff_tan(s, i->ops[first + k]),
                                hk_diff_type(s, c));
    }
    hk_inst_set_ops(s->f, i, ops, i->nops + m);
    uint32_t carried;
    i->x->iters = with_tangents(s, i->x->iters, n, need, HK_DEF_ITER, i, &carried);
    differentiate_block(s, &i->x->regions[0]);
    extend_results(s, i, need, m);
}

static void differentiate(Diff *s, HkInst *i)
{
    if (i->op == HK_OP_LOOP) {
        differentiate_loop(s, i);
        return;
    }
    if (i->op == HK_OP_CALL) {
        differentiate_call(s, i);
        return;
    }
    if (i->op == HK_OP_IF || i->op == HK_OP_DISPATCH) {
        for (uint32_t r = 0; r < i->x->nregions; r++)
            differentiate_block(s, &i->x->regions[r]);
        branch_results(s, i);
        return;
    }
    s->at = i->next;
    s->blk = i->block;
    s->loc = i->loc;
    if (i->op == HK_OP_STORE || i->op == HK_OP_ACCUM) {
        if (i->slot >= 0 && s->out[i->slot])
            store_tangent(s, i);
        return;
    }
    if (i->nres != 1 || !hk_diff_is_real(i->type))
        return;
    HkVal r = hk_res(i)[0];
    s->base = hk_value(s->f, r)->name;
    uint32_t first = s->f->nvalues;
    HkVal t = hk_diff_rule(s, i);
    if (t == HK_NOVAL || r >= s->ntan)
        return;
    /* a rule of rank-0 tangents broadcast by the primal: the result's */
    t = hk_diff_full(s, t, i->type);
    name_tangent(s, t, first);
    s->tan[r] = t;
}


/* ---- the pass ------------------------------------------------------------ */

int hk_pass_jvp(HawkPassRun *r, HkFunc *f)
{
    if (!f->is_kernel)
        return 0;
    HkArena *a = f->module->arena;
    Diff s;
    hk_diff_init(&s, r, f, "jvp", "dot");
    s.roles = 1u << HK_ROLE_LOOKUP | 1u << HK_ROLE_WIDE_IN | 1u << HK_ROLE_OUT |
              1u << HK_ROLE_WIDE_OUT | 1u << HK_ROLE_ACCUM_OUT;
    if (hk_diff_slots(&s) != 0 || refuse_all(&s))
        return 1;
    const char *name = hk_diff_kernel_name(&s);
    if (name == NULL)
        return 1;
    hk_diff_origin(&s);
    uint32_t n = f->nslots;  /* the primal's: the tangent slots follow */
    for (uint32_t k = 0; k < n; k++) {
        s.tslot[k] = -1;
        if (!s.in[k] && !s.out[k])
            continue;
        const HkSlot sl = f->slots[k];
        s.tslot[k] = hk_slot_add(f, hk_asprintf(a, "%s.dot", sl.name), sl.role,
                                 sl.type, sl.loc);
        if (s.tslot[k] < 0) {
            hk_error(hk_run_diags(r), &f->module->src, sl.loc,
                     "'%s': jvp names the tangent of '%s' '%s.dot', which the "
                     "kernel already has", f->name, sl.name, sl.name);
            return 1;
        }
    }
    hk_diff_values(&s);
    hk_diff_settle(&s);
    uint32_t floor = f->nserials;
    differentiate_block(&s, &f->body);
    /* a tangent only a comparison or an inactive output read is dead */
    hk_dce_from(f, floor);
    hk_diff_rename(&s, name);
    return 0;
}
