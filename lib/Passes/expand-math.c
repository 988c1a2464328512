/* expand-math.c -- under math=hawk, each rank-0 math op that hawk's own
 * math implements (lib/Math/math.hir, hk_math_func) becomes a copy of its
 * body: basic IEEE operations in a fixed order, which every writer spells
 * and every IEEE 754 target computes alike.  The lowering does not run
 * it: the writers call each function (hk_math_called), so a unit's size
 * does not grow with its math ops; a pipeline runs it to see, bound or
 * transform the operations themselves.  The copies are located at the op
 * and named after its result ("%e.hawk_pow2.acc3"); an op hawk has no
 * function for, a tensor op (scalarize first) and an op on an integer
 * operand stay as they are.  docs/Passes.md, "expand-math". */
#include "embedded.h"
#include "uses.h"

/* The library function that replaces i, or NULL: rank 0 only (the
 * lowering runs scalarize first; a rank-0 op has rank-0 operands). */
static const HkFunc *replacement(HawkContext *ctx, const HkFunc *f,
                                 const HkInst *i)
{
    if (i->nres != 1 || i->type.rank != 0)
        return NULL;
    return hk_math_for(ctx, f, i);
}

int hk_pass_expand_math(HawkPassRun *r, HkFunc *f)
{
    HkProfile prof;
    if (hk_profile_read(r, &prof) != 0)
        return 1;
    if (prof.math != HK_MATH_HAWK)
        return 0;
    HawkContext *ctx = hawk_pass_context(r);
    HkArena *a = f->module->arena;
    uint32_t nrepl = f->nvalues;
    HkVal *repl = hk_valmap_new(f, nrepl);
    uint32_t n = 0;
    HkInst *next;
    for (HkInst *i = f->body.first; i != NULL; i = next) {
        next = hk_preorder_next(i);
        const HkFunc *g = replacement(ctx, f, i);
        if (g == NULL)
            continue;
        /* an operand may be an op expanded before: its replacement */
        HkVal args[2];
        for (uint32_t k = 0; k < i->nops && k < 2; k++)
            args[k] = hk_valmap_get(repl, nrepl, i->ops[k]);
        HkVal out;
        const char *prefix = hk_asprintf(a, "%s.", hk_value(f, hk_res(i)[0])->name);
        if (hk_inline_at(r, f, i, g, args, prefix, i->loc, &out) != 0)
            return 1;
        repl[hk_res(i)[0]] = out;
        hk_inst_remove(i);
        n++;
    }
    if (n != 0)
        hk_remap_uses(f, repl, nrepl);
    return 0;
}
