/* uses.c -- use counts and value maps for the transform passes. */
#include "uses.h"

static void count_block(const HkBlock *b, uint32_t *uses)
{
    for (const HkInst *i = b->first; i; i = i->next) {
        for (uint32_t k = 0; k < i->nops; k++)
            uses[i->ops[k]]++;
        for (uint32_t r = 0; r < i->nregions; r++)
            count_block(&i->regions[r], uses);
    }
}

uint32_t *hk_use_counts(HkFunc *f)
{
    uint32_t *uses = hk_alloc(f->module->arena,
                              (f->nvalues + 1u) * sizeof *uses);
    count_block(&f->body, uses);
    return uses;
}

HkVal *hk_valmap_new(HkFunc *f, uint32_t n)
{
    HkVal *map = hk_alloc(f->module->arena, (n + 1u) * sizeof *map);
    for (uint32_t v = 0; v < n; v++)
        map[v] = HK_NOVAL;
    return map;
}

HkVal hk_valmap_get(const HkVal *map, uint32_t n, HkVal v)
{
    return v < n && map[v] != HK_NOVAL ? map[v] : v;
}

void hk_remap_block(HkBlock *b, const HkVal *map, uint32_t n)
{
    for (HkInst *i = b->first; i; i = i->next) {
        for (uint32_t k = 0; k < i->nops; k++)
            i->ops[k] = hk_valmap_get(map, n, i->ops[k]);
        for (uint32_t r = 0; r < i->nregions; r++)
            hk_remap_block(&i->regions[r], map, n);
    }
}

void hk_insert_after(HkInst *pos, HkInst *i)
{
    if (pos->next != NULL) {
        hk_insert_before(pos->next, i);
        return;
    }
    hk_block_append(pos->block, i);
}
