/* uses.c -- use counts and value maps for the transform passes. */
#include "uses.h"

uint32_t *hk_use_counts(HkFunc *f)
{
    uint32_t *uses = hk_alloc(f->module->arena,
                              (f->nvalues + 1u) * sizeof *uses);
    for (const HkInst *i = f->body.first; i; i = hk_preorder_next(i))
        for (uint32_t k = 0; k < i->nops; k++)
            uses[i->ops[k]]++;
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

void hk_remap_uses(HkFunc *f, const HkVal *map, uint32_t n)
{
    for (HkInst *i = f->body.first; i; i = hk_preorder_next(i))
        for (uint32_t k = 0; k < i->nops; k++)
            i->ops[k] = hk_valmap_get(map, n, i->ops[k]);
}

void hk_insert_after(HkInst *pos, HkInst *i)
{
    if (pos->next != NULL) {
        hk_insert_before(pos->next, i);
        return;
    }
    hk_block_append(pos->block, i);
}
