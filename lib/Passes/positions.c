/* positions.c -- the positions analysis: the walk of a function and the
 * walk position of every instruction (the contract's <pos>), by serial, so a
 * pass or the report names a node in O(1). */
#include "embedded.h"

/* Walks f once and names every instruction's position by serial. */
int hk_pass_positions(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    HkArena *a = f->module->arena;
    HkPositions *p = hk_alloc(a, sizeof *p);
    hk_walk(a, f, &p->walk);
    uint32_t n = f->nserials;
    p->nserials = n;
    p->pos = hk_alloc(a, (n ? n : 1) * sizeof *p->pos);
    p->order = hk_alloc(a, (n ? n : 1) * sizeof *p->order);
    for (uint32_t k = 0; k < p->walk.n; k++) {
        const HkWalkEntry *e = &p->walk.items[k];
        p->pos[e->inst->serial] = hk_walk_pos(a, e);
        p->order[e->inst->serial] = k;
    }
    hk_analysis_set(r, f, HK_PASS_POSITIONS, p);
    return 0;
}

/* The cached positions of f, computed on first use. */
const HkPositions *hk_positions(HawkPassRun *r, HkFunc *f)
{
    return hk_analysis_get(r, f, HK_PASS_POSITIONS);
}

/* The position of i: "kernel" for NULL, "?" for an instruction the
 * walk did not see. */
const char *hk_pos(const HkPositions *p, const HkInst *i)
{
    if (i == NULL)
        return "kernel";
    /* An instruction created after the walk has no position yet. */
    const char *s = i->serial < p->nserials ? p->pos[i->serial] : NULL;
    return s != NULL ? s : "?";
}

/* "  <pos> <mnemonic>  ; line N" per instruction, in walk order. */
void hk_print_positions(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkPositions *p = result;
    hk_buf_printf(b, "positions @%s:\n", f->name);
    for (uint32_t k = 0; k < p->walk.n; k++) {
        const HkInst *i = p->walk.items[k].inst;
        hk_buf_printf(b, "  %s %s  ; line %u\n", p->pos[i->serial],
                      hk_ops[i->op].mnemonic, hk_line(&f->module->src, i->loc));
    }
}
