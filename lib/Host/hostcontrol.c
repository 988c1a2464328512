/* hostcontrol.c -- loop, break_if, if and dispatch.
 *
 * Values that cross a region's edge (loop-carried values, the results of
 * if and dispatch) live in entry-block allocas, as the C's non-const
 * locals do; mem2reg turns them into phis.  A trip assigns every carried
 * value at its yield, after all yielded values are computed, so a
 * break_if leaves the loop with the values the trip started with
 * (LangRef "Breaks"). */
#include "hostint.h"

/* One alloca per component of each of the n values vals. */
static LLVMValueRef **slots_for(HkHostGen *g, const HkVal *vals, uint32_t n)
{
    LLVMValueRef **s = hk_alloc(g->a, (n + 1u) * sizeof *s);
    for (uint32_t k = 0; k < n; k++) {
        HkType t = hk_host_type(g, vals[k]);
        uint32_t c = hk_components(t);
        s[k] = hk_alloc(g->a, (c + 1u) * sizeof *s[k]);
        for (uint32_t j = 0; j < c; j++)
            s[k][j] = hk_host_alloca(g, hk_host_elem(g, (HkElem)t.elem),
                                     hk_value(g->f, vals[k])->name);
    }
    return s;
}

/* Stores the components of vals into slots: all read first, then all
 * written (the values are SSA, so no temporary is needed). */
static void assign(HkHostGen *g, LLVMValueRef **slots, const HkVal *like,
                   const HkVal *vals, uint32_t n)
{
    uint32_t at = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = hk_components(hk_host_type(g, like[k]));
        for (uint32_t j = 0; j < c; j++)
            LLVMBuildStore(g->b, hk_host_comp(g, vals[at], j), slots[k][j]);
        at++;
    }
}

/* Binds each of vals to the current contents of its slots. */
static void bind_from(HkHostGen *g, LLVMValueRef **slots, const HkVal *vals,
                      uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        HkType t = hk_host_type(g, vals[k]);
        uint32_t c = hk_components(t);
        LLVMValueRef *v = hk_alloc(g->a, (c + 1u) * sizeof *v);
        for (uint32_t j = 0; j < c; j++)
            v[j] = LLVMBuildLoad2(g->b, hk_host_elem(g, (HkElem)t.elem),
                                  slots[k][j], "");
        g->vals[vals[k]] = v;
    }
}

/* Lowers region b, then assigns its yield to slots and branches to join
 * (unless the region already ended). */
static void region(HkHostGen *g, HkBlock *b, LLVMValueRef **slots,
                   const HkInst *owner, LLVMBasicBlockRef join)
{
    hk_host_block_body(g, b);
    const HkInst *y = hk_block_yield(b);
    if (y != NULL && owner->nres > 0) {
        if (y->nops != owner->nres) {
            hk_host_fail(g, y, "a yield that does not match its results");
            return;
        }
        assign(g, slots, hk_res(owner), y->ops, owner->nres);
    }
    LLVMBuildBr(g->b, join);
}

/* The end of the loop's index range: hi, or the runtime count legalize
 * held to [lo, lo + K] (the scalar form checked on entry), at which
 * clamp(n - lo, 0, K) trips have run. */
static LLVMValueRef loop_end(HkHostGen *g, HkInst *i)
{
    if (!i->x->has_count)
        return hk_host_i64(g, i->x->hi);
    return hk_host_comp(g, i->ops[0], 0);
}

void hk_host_loop(HkHostGen *g, HkInst *i)
{
    uint32_t off = i->x->has_count ? 1u : 0u;
    uint32_t n = i->nres;
    HkBlock *body = &i->x->regions[0];
    const HkInst *y = hk_block_yield(body);
    if (i->nops != off + n || (n > 0 && (y == NULL || y->nops != n))) {
        hk_host_fail(g, i, "a loop whose inits or yield do not match its "
                           "carried values");
        return;
    }
    LLVMValueRef **carried = slots_for(g, i->x->iters, n);
    assign(g, carried, i->x->iters, i->ops + off, n);
    LLVMValueRef end = loop_end(g, i);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
    LLVMValueRef iv = hk_host_alloca(g, i64, hk_value(g->f, i->x->ivar)->name);
    LLVMBuildStore(g->b, hk_host_i64(g, i->x->lo), iv);
    LLVMBasicBlockRef head = hk_host_block(g, "loop.head");
    LLVMBasicBlockRef trip = hk_host_block(g, "loop.body");
    LLVMBasicBlockRef exit = hk_host_block(g, "loop.exit");
    LLVMBuildBr(g->b, head);

    LLVMPositionBuilderAtEnd(g->b, head);
    LLVMValueRef k = LLVMBuildLoad2(g->b, i64, iv, "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, k, end, ""), trip,
                    exit);

    LLVMPositionBuilderAtEnd(g->b, trip);
    hk_host_bind1(g, i->x->ivar, k);
    bind_from(g, carried, i->x->iters, n);
    HkHostLoop ctx = {exit, g->loop};
    g->loop = &ctx;
    hk_host_block_body(g, body);
    g->loop = ctx.outer;
    if (n > 0)
        assign(g, carried, i->x->iters, y->ops, n);
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, k, hk_host_i64(g, 1), ""), iv);
    LLVMBuildBr(g->b, head);

    LLVMPositionBuilderAtEnd(g->b, exit);
    bind_from(g, carried, hk_res(i), n);
}

/* Leaves the innermost loop when the condition holds. */
void hk_host_break_if(HkHostGen *g, HkInst *i)
{
    if (g->loop == NULL) {
        hk_host_fail(g, i, "break_if outside a loop");
        return;
    }
    LLVMBasicBlockRef cont = hk_host_block(g, "loop.cont");
    LLVMBuildCondBr(g->b, hk_host_comp(g, i->ops[0], 0), g->loop->exit, cont);
    LLVMPositionBuilderAtEnd(g->b, cont);
}

void hk_host_if(HkHostGen *g, HkInst *i)
{
    LLVMValueRef **res = slots_for(g, hk_res(i), i->nres);
    LLVMBasicBlockRef then_bb = hk_host_block(g, "if.then");
    LLVMBasicBlockRef else_bb = hk_host_block(g, "if.else");
    LLVMBasicBlockRef join = hk_host_block(g, "if.end");
    LLVMBuildCondBr(g->b, hk_host_comp(g, i->ops[0], 0), then_bb, else_bb);
    LLVMPositionBuilderAtEnd(g->b, then_bb);
    region(g, &i->x->regions[0], res, i, join);
    LLVMPositionBuilderAtEnd(g->b, else_bb);
    if (i->x->nregions > 1)
        region(g, &i->x->regions[1], res, i, join);
    else
        LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    bind_from(g, res, hk_res(i), i->nres);
}

/* Case sel runs (legalize held it to [0, K - 1]), then counts itself in
 * its mix cell; the last case is the switch's default, as in the C. */
void hk_host_dispatch(HkHostGen *g, HkInst *i)
{
    uint32_t ncase = i->x->nregions;
    LLVMValueRef **res = slots_for(g, hk_res(i), i->nres);
    LLVMValueRef sel = hk_host_comp(g, i->ops[0], 0);
    LLVMBasicBlockRef join = hk_host_block(g, "dispatch.end");
    LLVMBasicBlockRef *bb = hk_alloc(g->a, (ncase + 1u) * sizeof *bb);
    for (uint32_t k = 0; k < ncase; k++)
        bb[k] = hk_host_block(g, hk_asprintf(g->a, "case%u", k));
    LLVMValueRef sw = LLVMBuildSwitch(g->b, sel, bb[ncase - 1], ncase - 1);
    for (uint32_t k = 0; k + 1 < ncase; k++)
        LLVMAddCase(sw, hk_host_i64(g, k), bb[k]);
    for (uint32_t k = 0; k < ncase && !g->failed; k++) {
        LLVMPositionBuilderAtEnd(g->b, bb[k]);
        hk_host_block_body(g, &i->x->regions[k]);
        const HkInst *y = hk_block_yield(&i->x->regions[k]);
        if (y != NULL && i->nres > 0)
            assign(g, res, hk_res(i), y->ops, i->nres);
        hk_host_mix_bump(g, i->slot, hk_host_i64(g, k));
        LLVMBuildBr(g->b, join);
    }
    LLVMPositionBuilderAtEnd(g->b, join);
    bind_from(g, res, hk_res(i), i->nres);
}
