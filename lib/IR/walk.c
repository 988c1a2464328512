/* walk.c -- walking a function's instructions: walk positions
 * (docs/LangRef.md "Walk positions") and the plain pre-order step.
 *
 * One pre-order pass numbers every instruction within its scope: the
 * function's top level, or the innermost loop that holds it.  An if or a
 * dispatch is not a scope: its regions continue their holder's numbering.
 * Loops are numbered in pre-order over the whole function.
 */
#include "ir.h"

typedef struct {
    HkArena *a;
    HkWalk *w;
    uint32_t cap_items, cap_loops;
} Walker;

static void walk_block(Walker *k, const HkBlock *b, int32_t loop, uint32_t depth,
                       uint32_t *ord);

/* Appends the entry of i. */
static void add_entry(Walker *k, HkInst *i, int32_t loop, uint32_t ord, uint32_t depth)
{
    HkWalk *w = k->w;
    w->items = hk_grow(k->a, w->items, &k->cap_items, w->n + 1, sizeof *w->items);
    HkWalkEntry *e = &w->items[w->n++];
    e->inst = i;
    e->loop = loop;
    e->k = ord;
    e->depth = depth;
}

/* A loop opens a new scope numbered from 0; its number is taken before
 * its body is walked, which makes the numbering pre-order. */
static void walk_loop(Walker *k, HkInst *i, uint32_t depth)
{
    HkWalk *w = k->w;
    w->loops = hk_grow(k->a, w->loops, &k->cap_loops, w->nloops + 1, sizeof *w->loops);
    int32_t n = (int32_t)w->nloops;
    w->loops[w->nloops++] = i;
    uint32_t ord = 0;
    for (uint32_t r = 0; r < i->x->nregions; r++)
        walk_block(k, &i->x->regions[r], n, depth + 1, &ord);
}

/* The instructions of b in order, numbered on from *ord in scope loop. */
static void walk_block(Walker *k, const HkBlock *b, int32_t loop, uint32_t depth,
                       uint32_t *ord)
{
    for (HkInst *i = b->first; i; i = i->next) {
        add_entry(k, i, loop, (*ord)++, depth);
        if (hk_ops[i->op].rule == HK_R_LOOP) {
            walk_loop(k, i, depth);
            continue;
        }
        for (uint32_t r = 0; r < i->x->nregions; r++)
            walk_block(k, &i->x->regions[r], loop, depth, ord);
    }
}

void hk_walk(HkArena *a, const HkFunc *f, HkWalk *w)
{
    Walker k = {a, w, 0, 0};
    w->items = NULL;
    w->n = 0;
    w->nloops = 0;
    w->loops = NULL;
    uint32_t ord = 0;
    walk_block(&k, &f->body, -1, 0, &ord);
}

const char *hk_walk_pos(HkArena *a, const HkWalkEntry *e)
{
    if (e->loop < 0)
        return hk_asprintf(a, "%u", e->k);
    return hk_asprintf(a, "loop%d.%u", e->loop, e->k);
}

/* ---- pre-order ---------------------------------------------------------- */

/* The instruction after i in pre-order: its next sibling, else the first
 * instruction of the parent's next non-empty region, else further up. */
static HkInst *after(const HkInst *i)
{
    while (i != NULL) {
        if (i->next != NULL)
            return i->next;
        const HkInst *parent = i->block ? i->block->parent : NULL;
        if (parent == NULL)
            return NULL;
        uint32_t r = (uint32_t)(i->block - parent->x->regions) + 1;
        for (; r < parent->x->nregions; r++)
            if (parent->x->regions[r].first != NULL)
                return parent->x->regions[r].first;
        i = parent;
    }
    return NULL;
}

HkInst *hk_preorder_next(const HkInst *i)
{
    for (uint32_t r = 0; r < i->x->nregions; r++)
        if (i->x->regions[r].first != NULL)
            return i->x->regions[r].first;
    return after(i);
}
