/* vjp_sink.c -- own-column stores sunk out of branches before the
 * reverse sweep.
 *
 * An own-column write (a store, or an own-column accum, which stores)
 * into an active output at the top level of the regions of an if or a
 * dispatch becomes one write after it: the op gains a result, each
 * region yields the value it wrote or, where it writes nothing, the
 * output's value before the op (the kernel's load of the slot, or one
 * placed before the kernel-level instruction that holds the op).  The kernel writes the
 * same bits, and the sweep meets one write where the op was: at the
 * kernel's top level, or in an enclosing region or loop body, where the
 * rules for a write there apply (sunk again out of an enclosing branch).
 * So an output that is an active input too passes its input through the
 * branches that do not write it, and the exclusive cases of a dispatch
 * that each write it are one write.
 *
 * Left as they are (for the refusals to name): a write deeper in the
 * op (in a loop of a region), a region that reads the slot, writes of
 * different ops, a region that writes nothing to a write-only output or
 * inside a loop (where the value before the op is the last trip's). */
#include <string.h>

#include "vjp.h"

/* Counts the writes to slot s and the other uses of it in b, at any
 * depth. */
static void uses_of(const HkBlock *b, int32_t s, uint32_t *writes, uint32_t *reads)
{
    for (const HkInst *x = b->first; x != NULL; x = x->next) {
        if (x->slot == s) {
            if (x->op == HK_OP_STORE || x->op == HK_OP_ACCUM)
                (*writes)++;
            else
                (*reads)++;
        }
        for (uint32_t r = 0; r < x->x->nregions; r++)
            uses_of(&x->x->regions[r], s, writes, reads);
    }
}

/* Whether an instruction of the kernel's body before K writes slot s,
 * at any depth. */
static int written_before(const HkFunc *f, const HkInst *K, int32_t s)
{
    uint32_t writes = 0, reads = 0;
    for (const HkInst *x = f->body.first; x != K; x = x->next) {
        if (x->slot == s && (x->op == HK_OP_STORE || x->op == HK_OP_ACCUM))
            writes++;
        for (uint32_t r = 0; r < x->x->nregions; r++)
            uses_of(&x->x->regions[r], s, &writes, &reads);
    }
    return writes != 0;
}

/* The own-column write of slot s at b's top level, or NULL. */
static HkInst *top_write(const HkBlock *b, int32_t s)
{
    for (HkInst *x = b->first; x != NULL; x = x->next)
        if ((x->op == HK_OP_STORE || x->op == HK_OP_ACCUM) && x->slot == s &&
            !x->has_index)
            return x;
    return NULL;
}

/* The instruction of the kernel's body that holds x; whether a loop
 * holds x (*looped). */
static HkInst *kernel_level(const HkFunc *f, HkInst *x, int *looped)
{
    *looped = 0;
    while (x->block != &f->body) {
        x = x->block->parent;
        *looped |= x->op == HK_OP_LOOP;
    }
    return x;
}

/* An if with one region gets an empty else. */
static void add_else(HkFunc *f, HkInst *X)
{
    HkBlock old = X->x->regions[0];
    hk_inst_add_regions(f, X, 2);
    X->x->regions[0].first = old.first;
    X->x->regions[0].last = old.last;
    for (HkInst *x = old.first; x != NULL; x = x->next)
        x->block = &X->x->regions[0];
}

/* Region b yields val after what it yields already. */
static void yield_also(HkFunc *f, HkBlock *b, HkVal val, HkLoc loc)
{
    HkInst *y = (HkInst *)hk_block_yield(b);
    if (y == NULL) {
        y = hk_inst_new(f, HK_OP_YIELD, loc);
        hk_block_append(b, y);
    }
    HkVal *ops = hk_alloc(f->module->arena, (y->nops + 2) * sizeof *ops);
    if (y->nops > 0)
        memcpy(ops, y->ops, y->nops * sizeof *ops);
    ops[y->nops] = val;
    hk_inst_set_ops(f, y, ops, y->nops + 1);
}

/* X gains a result of type t, "<name>.sunk"; returns it. */
static HkVal add_result(HkFunc *f, HkInst *X, HkType t, const char *name)
{
    uint32_t n = X->nres;
    HkVal *res = hk_alloc(f->module->arena, (n + 2) * sizeof *res);
    if (n > 0)
        memcpy(res, hk_res(X), n * sizeof *res);
    res[n] = hk_value_new(f, t, hk_asprintf(f->module->arena, "%s.sunk", name),
                          HK_DEF_INST, X, n, X->loc);
    hk_inst_put_res(X, res, n + 1);
    if (n == 0)
        X->type = t;
    return res[n];
}

/* Sinks the writes to slot s out of X when it can (the file's comment). */
static void sink_slot(Vjp *v, HkInst *X, int32_t s)
{
    Diff *d = &v->d;
    HkFunc *f = d->f;
    uint32_t writes = 0, reads = 0;
    for (uint32_t r = 0; r < X->x->nregions; r++)
        uses_of(&X->x->regions[r], s, &writes, &reads);
    if (writes == 0 || reads != 0)
        return;
    uint32_t nr = X->x->nregions, top = 0;
    HkInst **w = hk_alloc(d->a, (nr + 2) * sizeof *w);
    HkInst *one = NULL;
    for (uint32_t r = 0; r < nr; r++) {
        w[r] = top_write(&X->x->regions[r], s);
        if (w[r] == NULL)
            continue;
        if (one != NULL && w[r]->op != one->op)
            return;
        one = w[r];
        top++;
    }
    int all = top == nr && !(X->op == HK_OP_IF && nr == 1);
    int readable = (hk_roles[f->slots[s].role].access & HK_ACC_R) != 0;
    /* one write in a branch to an output only: transposed where it is */
    if (top != writes || (top == 1 && !d->in[s] && !all))
        return;
    int looped;
    HkInst *K = kernel_level(f, X, &looped);
    if (!all && (!readable || looped))
        return;
    /* a write before K: the pass refuses the second store, and names the
     * user's own, not a load of the value before the op that the source
     * does not have */
    if (!all && written_before(f, K, s))
        return;
    HkType t = hk_value(f, one->ops[0])->type;
    HkVal prior = HK_NOVAL;
    /* the kernel's own load of the slot before K, when it has one */
    for (HkInst *x = f->body.first; !all && x != K && prior == HK_NOVAL; x = x->next)
        if (x->op == HK_OP_LOAD && x->slot == s)
            prior = hk_res(x)[0];
    if (!all && prior == HK_NOVAL) {
        HkInst *ld = hk_inst_new(f, HK_OP_LOAD, X->loc);
        ld->slot = s;
        prior = hk_inst_result(f, ld, t, hk_asprintf(d->a, "%s.prior", f->slots[s].name));
        hk_insert_before(K, ld);
    }
    HkVal res = add_result(f, X, t, f->slots[s].name);
    if (X->op == HK_OP_IF && X->x->nregions == 1)
        add_else(f, X);
    for (uint32_t r = 0; r < X->x->nregions; r++) {
        HkInst *x = r < nr ? w[r] : NULL;
        yield_also(f, &X->x->regions[r], x != NULL ? x->ops[0] : prior, X->loc);
        if (x != NULL)
            hk_inst_remove(x);
    }
    HkInst *ns = hk_inst_new(f, one->op, one->loc);
    hk_inst_set_ops(f, ns, &res, 1);
    ns->slot = s;
    if (X->next != NULL)
        hk_insert_before(X->next, ns);
    else  /* the end of a region without a yield */
        hk_block_append(X->block, ns);
}

static void sink_block(Vjp *v, HkBlock *b);

/* X's regions first (their inner ops' writes come up to their top
 * level), then each active output's writes out of X. */
static void sink_op(Vjp *v, HkInst *X)
{
    for (uint32_t r = 0; r < X->x->nregions; r++)
        sink_block(v, &X->x->regions[r]);
    if (X->op != HK_OP_IF && X->op != HK_OP_DISPATCH)
        return;
    const Diff *d = &v->d;
    for (uint32_t s = 0; s < d->f->nslots; s++)
        if (d->out[s] && !hk_is_dyn(d->f->slots[s].type) &&
            d->f->slots[s].role != HK_ROLE_LOCAL)
            sink_slot(v, X, (int32_t)s);
}

static void sink_block(Vjp *v, HkBlock *b)
{
    for (HkInst *x = b->first; x != NULL; x = x->next)
        if (x->x->nregions > 0)
            sink_op(v, x);
}

void hk_vjp_sink_stores(Vjp *v)
{
    sink_block(v, &v->d.f->body);
}
