/* dse.c -- dead store elimination.
 *
 * A `store` is dead when a later `store` of the same block writes the same
 * place (the same slot, the same index value or none) before anything can
 * read it: LangRef makes the last store win, so the C unit would assign
 * the element twice (cppcheck's redundantAssignment) and the first value
 * is never seen.  What can read it in between: a `load` or `gather` of the
 * slot, an `accum` into it, a region op whose body does any of those, and
 * a `break_if` of the block (the loop may leave with the first value).
 *
 * Each block is scanned once from its end, keeping per slot the place the
 * nearest later store writes; a read of the slot forgets it.  Which slots
 * a region reads is computed once per region op, bottom-up, so the pass is
 * linear in the function's size. */
#include "passes.h"

typedef struct {
    HkFunc *f;
    uint64_t *reads;        /* by serial: slots a region op's body reads */
    HkInst **later;         /* by slot: the nearest later store, or NULL */
} Dse;

/* The slot bit of s; slots past 63 share the last bit (conservative: a
 * read of any of them forgets all of them). */
static uint64_t slot_bit(int32_t s)
{
    return UINT64_C(1) << (s < 63 ? (uint32_t)s : 63u);
}

/* The slots instruction i reads itself (not through its regions). */
static uint64_t own_reads(const HkInst *i)
{
    if (i->slot < 0)
        return 0;
    switch (i->op) {
    case HK_OP_STORE:
    case HK_OP_BUMP:
        return 0;
    default:
        return slot_bit(i->slot); /* load, gather, accum, anything new */
    }
}

/* Fills s->reads for the region ops of b; returns the slots b reads. */
static uint64_t summarize(Dse *s, const HkBlock *b)
{
    uint64_t all = 0;
    for (const HkInst *i = b->first; i; i = i->next) {
        uint64_t r = own_reads(i);
        for (uint32_t k = 0; k < i->x->nregions; k++)
            r |= summarize(s, &i->x->regions[k]);
        if (i->x->nregions != 0 && i->serial < s->f->nserials)
            s->reads[i->serial] = r;
        all |= r;
    }
    return all;
}

/* The slots i reads, its regions included. */
static uint64_t reads_of(const Dse *s, const HkInst *i)
{
    uint64_t r = own_reads(i);
    if (i->x->nregions != 0)
        r |= i->serial < s->f->nserials ? s->reads[i->serial] : ~UINT64_C(0);
    return r;
}

/* Whether store b writes exactly the place store a writes. */
static int same_place(const HkFunc *f, const HkInst *a, const HkInst *b)
{
    if (a->slot != b->slot || a->has_index != b->has_index)
        return 0;
    if (a->has_index && a->ops[a->nops - 1] != b->ops[b->nops - 1])
        return 0;
    /* the whole value: a store writes every component of its slot type */
    HkType ta = hk_value(f, a->ops[0])->type, tb = hk_value(f, b->ops[0])->type;
    return hk_components(ta) == hk_components(tb);
}

/* Forgets the later stores of every slot in mask. */
static void forget(Dse *s, uint64_t mask)
{
    for (uint32_t k = 0; k < s->f->nslots; k++)
        if (mask & slot_bit((int32_t)k))
            s->later[k] = NULL;
}

static void scan_block(Dse *s, HkBlock *b)
{
    for (uint32_t k = 0; k < s->f->nslots; k++)
        s->later[k] = NULL;
    for (HkInst *i = b->last, *prev; i; i = prev) {
        prev = i->prev;
        if (i->op == HK_OP_BREAK_IF) {
            forget(s, ~UINT64_C(0));
        } else if (i->op == HK_OP_STORE) {
            HkInst *l = s->later[i->slot];
            if (l != NULL && same_place(s->f, i, l))
                hk_inst_remove(i);
            else
                s->later[i->slot] = i;
        } else {
            forget(s, reads_of(s, i));
        }
    }
    /* the inner blocks, each with its own view (what follows the region
     * op in b is not known inside it) */
    for (HkInst *i = b->first; i; i = i->next)
        for (uint32_t k = 0; k < i->x->nregions; k++)
            scan_block(s, &i->x->regions[k]);
}

int hk_pass_dse(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    if (!f->is_kernel)
        return 0; /* a func has no slots */
    HkArena *a = f->module->arena;
    Dse s = {f, hk_alloc(a, (f->nserials + 1u) * sizeof *s.reads),
             hk_alloc(a, (f->nslots + 1u) * sizeof *s.later)};
    summarize(&s, &f->body);
    scan_block(&s, &f->body);
    return 0;
}
