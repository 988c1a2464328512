/* hostmathfn.c -- hawk's called math functions (hk_math_called) in the
 * host module: each an internal function built once per module from the
 * lowering the C writer spells the runtime unit's from (hk_lower_mathfn),
 * so the host build and the C unit compute the same operations in the
 * same order. */
#include "hostint.h"

/* Builds id's function into g's module as fn. */
static void build(HkHostGen *g, uint32_t id, LLVMValueRef fn)
{
    const HkLowered *l = g->l->mathfn[id];
    if (l == NULL) {
        hk_host_fail(g, NULL, hk_asprintf(g->a, "hawk's %s is not lowered",
                                          hk_mathfn_name(id)));
        return;
    }
    HkHostGen s = {0};
    s.a = g->a;
    s.l = l;
    s.f = l->kernel;
    s.d = g->d;
    s.ctx = g->ctx;
    s.mod = g->mod;
    s.td = g->td;
    s.fn = fn;
    s.fnmode = 1;
    s.vals = hk_alloc(g->a, (s.f->nvalues + 1u) * sizeof *s.vals);
    s.entry_bb = LLVMAppendBasicBlockInContext(g->ctx, fn, "entry");
    s.b = LLVMCreateBuilderInContext(g->ctx);
    LLVMPositionBuilderAtEnd(s.b, s.entry_bb);
    hk_host_block_body(&s, &s.f->body);
    LLVMDisposeBuilder(s.b);
    if (s.failed)
        g->failed = 1;
}

LLVMValueRef hk_host_mathfn_call(HkHostGen *g, uint32_t id, LLVMValueRef *args,
                                 unsigned n)
{
    LLVMTypeRef t = hk_host_elem(g, hk_mathfn_elem(id));
    LLVMTypeRef params[2] = {t, t};
    LLVMTypeRef ft = LLVMFunctionType(t, params, n, 0);
    const char *name = hk_mathfn_name(id);
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (fn == NULL) {
        fn = LLVMAddFunction(g->mod, name, ft);
        LLVMSetLinkage(fn, LLVMInternalLinkage);
        build(g, id, fn);
    }
    return LLVMBuildCall2(g->b, ft, fn, args, n, "");
}
