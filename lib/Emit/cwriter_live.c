/* cwriter_live.c -- what the C spells of a scalar kernel.  dce has removed
 * every unused pure op, but a region op keeps all its results and carried
 * values while one is used, a carried value that only feeds its own next
 * trip looks used, and a one-case dispatch needs no selector.  Spelled,
 * each would be a local the compiler warns about (-Wunused) or dead code
 * (MISRA C:2012 Rule 2.2).
 *
 * So liveness is marked from the effects outward (stores, accumulates,
 * bumps, mix counts, breaks, branch conditions and trip counts): a value
 * is live when a live instruction reads it; a carried value is live when
 * its result or a live instruction in the body reads it, and then its
 * init and its yield operand are live too.  A worklist makes it linear in
 * the kernel's size.
 *
 * Before that, a plane element read a second time with no write to its
 * plane between is mapped to the first read (canon), and an op that takes
 * one value twice reads what hk_cw_reads says: the C spells such ops by
 * their result (cwriter_expr.c). */
#include "passctx.h"
#include "cwriter.h"

typedef struct {
    HkCW *w;
    uint8_t *in_body;     /* by serial: the instruction is in the kernel */
    uint8_t *acts;        /* by serial: an `if` with an effect inside */
    uint8_t *live;        /* by value */
    HkVal *work;
    uint32_t n, cap;
} Live;

static void mark(Live *lv, HkVal v)
{
    v = lv->w->canon[v];
    if (lv->live[v])
        return;
    lv->live[v] = 1;
    lv->work = hk_grow(lv->w->a, lv->work, &lv->cap, lv->n + 1,
                       sizeof *lv->work);
    lv->work[lv->n++] = v;
}

static uint32_t count_offset(const HkInst *l)
{
    return l->x->has_count ? 1u : 0u;
}

/* Carried value k of loop l is live: so are its local, its result's
 * source, its init and what its yield slot assigns. */
static void carried_live(Live *lv, const HkInst *l, uint32_t k)
{
    mark(lv, l->x->iters[k]);
    mark(lv, hk_res(l)[k]);
    mark(lv, l->ops[count_offset(l) + k]);
    const HkInst *y = hk_block_yield(&l->x->regions[0]);
    if (y != NULL && k < y->nops)
        mark(lv, y->ops[k]);
}

/* Whether i goes once its results are unused: reads and pure ops. */
static int removable(const HkInst *i)
{
    if (i->op == HK_OP_LOAD || i->op == HK_OP_GATHER)
        return 1;
    unsigned fl = hk_ops[i->op].flags;
    return (fl & HK_F_PURE) != 0 && (fl & HK_F_REGION) == 0 && i->nres == 1;
}

/* v has just become live: what defines it becomes live. */
static void visit(Live *lv, HkVal v)
{
    const HkFunc *f = lv->w->f;
    const HkValue *val = hk_value(f, v);
    const HkInst *d = val->def;
    /* Values of instructions a pass removed stay in the table. */
    if (d == NULL || d->serial >= f->nserials || !lv->in_body[d->serial])
        return;
    if (val->kind == HK_DEF_ITER ||
        (val->kind == HK_DEF_INST && d->op == HK_OP_LOOP)) {
        carried_live(lv, d, val->index);
        return;
    }
    if (val->kind != HK_DEF_INST)
        return;
    if (d->op == HK_OP_IF || d->op == HK_OP_DISPATCH) {
        /* an `if` with no effect is spelled for its results alone */
        if (d->op == HK_OP_IF)
            mark(lv, d->ops[0]);
        for (uint32_t r = 0; r < d->x->nregions; r++) {
            const HkInst *y = hk_block_yield(&d->x->regions[r]);
            if (y != NULL && val->index < y->nops)
                mark(lv, y->ops[val->index]);
        }
        return;
    }
    for (uint32_t k = 0; k < d->nops; k++)
        if (hk_cw_reads(lv->w, d, k))
            mark(lv, d->ops[k]);
}

/* The operands an emitted instruction reads whatever else is live: those
 * of effects, breaks, branch conditions, selectors and trip counts. */
static void mark_roots(Live *lv, const HkInst *i)
{
    switch (i->op) {
    case HK_OP_IF:
        if (lv->acts[i->serial])
            mark(lv, i->ops[0]);
        return;
    case HK_OP_DISPATCH:
        /* A dispatch of one case runs it without a switch. */
        if (i->x->nregions > 1)
            mark(lv, i->ops[0]);
        return;
    case HK_OP_LOOP:
        if (i->x->has_count)
            mark(lv, i->ops[0]);
        return;
    case HK_OP_YIELD:
    case HK_OP_RET:
        return;
    default:
        break;
    }
    if (!removable(i) && i->op != HK_OP_LOOP)
        for (uint32_t k = 0; k < i->nops; k++)
            mark(lv, i->ops[k]);
}

/* Whether operand k of live instruction i is spelled: a yield slot or a
 * loop init only for a live destination. */
static int spelled(const Live *lv, const HkInst *i, uint32_t k)
{
    if (i->op == HK_OP_DISPATCH)
        return i->x->nregions > 1;
    if (i->op == HK_OP_LOOP)
        return k < count_offset(i) || lv->live[i->x->iters[k - count_offset(i)]];
    if (i->op != HK_OP_YIELD)
        return 1;
    const HkInst *owner = i->block->parent;
    if (owner == NULL || k >= owner->nres)
        return 0;
    if (owner->op == HK_OP_LOOP)
        return lv->live[owner->x->iters[k]];
    return lv->live[hk_res(owner)[k]];
}

/* ---- one value per plane element ------------------------------------------ */

/* Whether a value defined in block from is visible in block to and still
 * holds the plane's element there: from encloses to, and no loop between
 * them writes slot s (its next trip would read the new value). */
static int read_visible(const HkCW *w, const HkBlock *from, const HkBlock *to,
                        int32_t s)
{
    for (const HkBlock *b = to; b != NULL;
         b = b->parent != NULL ? b->parent->block : NULL) {
        if (b == from)
            return 1;
        const HkInst *p = b->parent;
        if (p != NULL && p->op == HK_OP_LOOP && p->serial < w->f->nserials &&
            w->loop_writes[p->serial] != NULL && w->loop_writes[p->serial][s])
            return 0;
    }
    return 0;
}

/* The plane element a read takes: a rank-0 load, or an extract of a
 * loaded tensor.  0 when i reads none. */
static int element_of(const HkCW *w, const HkInst *i, int32_t *slot,
                      uint32_t *comp)
{
    if (i->op == HK_OP_LOAD && i->has_index)
        return 0;  /* a local's row: which one, the index says at run time */
    if (i->op == HK_OP_LOAD && hk_value(w->f, hk_res(i)[0])->type.rank == 0) {
        *slot = i->slot;
        *comp = 0;
        return 1;
    }
    if (i->op != HK_OP_EXTRACT)
        return 0;
    const HkValue *src = hk_value(w->f, i->ops[0]);
    HkType t = src->type;
    if (src->kind != HK_DEF_INST || src->def == NULL ||
        src->def->op != HK_OP_LOAD || i->x->nimm != t.rank)
        return 0;
    *slot = src->def->slot;
    *comp = hk_flat_index(t, i->x->imm, i->x->nimm);
    return 1;
}

/* Chains of reads by slot and component: head[slot][comp] is the last
 * read of that element + 1, each read links the one before it. */
static uint32_t *read_head(HkCW *w, int32_t slot, uint32_t comp)
{
    if (w->read_head[slot] == NULL) {
        HkType t = w->f->slots[slot].type;
        uint32_t n = hk_is_dyn(t) ? 1u : hk_components(t);
        w->read_head[slot] = hk_alloc(w->a, (n + 1u) * sizeof **w->read_head);
    }
    return &w->read_head[slot][comp];
}

/* A later read of an element an earlier value holds, with no write to
 * its plane between, is that value: canon maps it there. */
static void canon_reads(HkCW *w)
{
    w->read_head = hk_alloc(w->a, (w->f->nslots + 1u) * sizeof *w->read_head);
    w->slot_gen = hk_alloc(w->a, (w->f->nslots + 1u) * sizeof *w->slot_gen);
    for (const HkInst *i = w->f->body.first; i != NULL; i = hk_preorder_next(i)) {
        int32_t slot;
        uint32_t comp;
        if ((i->op == HK_OP_STORE || i->op == HK_OP_ACCUM) && i->slot >= 0) {
            w->slot_gen[i->slot]++;
            continue;
        }
        if (!element_of(w, i, &slot, &comp))
            continue;
        uint32_t *head = read_head(w, slot, comp);
        uint32_t k = *head;
        while (k > 0 && !(w->reads[k - 1].gen == w->slot_gen[slot] &&
                          read_visible(w, w->reads[k - 1].block, i->block, slot)))
            k = w->reads[k - 1].prev;
        if (k > 0) {
            w->canon[hk_res(i)[0]] = w->reads[k - 1].val;
            continue;
        }
        w->reads = hk_grow(w->a, w->reads, &w->capreads, w->nreads + 1,
                           sizeof *w->reads);
        w->reads[w->nreads++] =
            (HkCWRead){i->block, hk_res(i)[0], w->slot_gen[slot], *head};
        *head = w->nreads;
    }
}

/* ---- liveness ---------------------------------------------------------------- */

/* Marks each `if` holding, at any depth, an instruction the C spells
 * whatever is live (a store, an accumulate, a bump, a dispatch, a loop):
 * its condition is read even when no result of it is.  Each `if` is
 * marked once, by the first effect met inside it, so the walk is linear. */
static void mark_acting(Live *lv, const HkInst *i)
{
    if (removable(i) || i->op == HK_OP_IF || i->op == HK_OP_YIELD ||
        i->op == HK_OP_RET)
        return;
    for (const HkInst *p = i->block->parent; p != NULL;
         p = p->block->parent) {
        if (p->op != HK_OP_IF)
            continue;
        if (lv->acts[p->serial])
            return;
        lv->acts[p->serial] = 1;
    }
}

void hk_cw_liveness(HkCW *w)
{
    HkFunc *f = w->f;
    canon_reads(w);
    Live lv = {w, hk_alloc(w->a, f->nserials + 1u),
               hk_alloc(w->a, f->nserials + 1u),
               hk_alloc(w->a, f->nvalues + 1u), NULL, 0, 0};
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (i->serial < f->nserials)
            lv.in_body[i->serial] = 1;
        mark_acting(&lv, i);
    }
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        mark_roots(&lv, i);
    while (lv.n > 0)
        visit(&lv, lv.work[--lv.n]);
    /* What the C omits, and the uses it spells. */
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (removable(i) && !lv.live[hk_res(i)[0]]) {
            w->skip[i->serial] = 1;
            continue;
        }
        for (uint32_t k = 0; k < i->nres; k++)
            w->dead[hk_res(i)[k]] = !lv.live[hk_res(i)[k]];
        if (i->op == HK_OP_LOOP)
            for (uint32_t k = 0; k < i->nres; k++)
                w->dead[i->x->iters[k]] = !lv.live[i->x->iters[k]];
        for (uint32_t k = 0; k < i->nops; k++)
            if (spelled(&lv, i, k) && hk_cw_reads(w, i, k))
                w->uses[w->canon[i->ops[k]]]++;
    }
    /* A tensor load stored as it is needs its components as locals. */
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (w->skip[i->serial] || i->op == HK_OP_EXTRACT)
            continue;
        for (uint32_t k = 0; k < i->nops; k++) {
            const HkValue *val = hk_value(f, i->ops[k]);
            if (val->kind == HK_DEF_INST && val->def != NULL &&
                val->def->op == HK_OP_LOAD && val->type.rank >= 1)
                w->whole[i->ops[k]] = 1;
        }
    }
}
