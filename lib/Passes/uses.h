/* uses.h -- value bookkeeping shared by the transform passes: use counts,
 * and value maps rewritten in one sweep.  Everything is allocated from the
 * function's module arena. */
#ifndef HAWK_USES_H
#define HAWK_USES_H

#include "ir.h"

/* The number of operand slots of f (nested regions included) that name
 * each value: an array of f->nvalues counts. */
uint32_t *hk_use_counts(HkFunc *f);

/* A value map of n entries, each HK_NOVAL (no replacement). */
HkVal *hk_valmap_new(HkFunc *f, uint32_t n);

/* v's replacement in map (n entries), or v itself when it has none. */
HkVal hk_valmap_get(const HkVal *map, uint32_t n, HkVal v);

/* Rewrites the operands of every instruction of f, nested regions
 * included, through map: the one sweep that replaces uses after a
 * transform. */
void hk_remap_uses(HkFunc *f, const HkVal *map, uint32_t n);

/* Inserts i right after pos, in pos's block. */
void hk_insert_after(HkInst *pos, HkInst *i);

#endif
