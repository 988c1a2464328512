/* mathfn.c -- the math functions units call (hk_math_called): each is
 * lowered once per context as a kernel of its own, the same lowering
 * every kernel has, so the C writer and the host writer spell it from
 * one scalar IR (docs/EmbeddedC.md, "Math").  The kernel is built as
 * text after math.hir's and parsed with it: the call is inlined like any
 * other, and the function's body is hawk's math as written. */
#include <string.h>

#include "passctx.h"
#include "lower.h"

extern const char hk_math_text[];
extern const size_t hk_math_text_len;

/* "hawk_fn_sin_f64": the kernel's name is not the function's, which
 * math.hir has. */
static const char *kernel_name(HkArena *a, uint32_t id)
{
    return hk_asprintf(a, "hawk_fn_%s", hk_mathfn_name(id) + strlen("hawk_"));
}

/* "kernel @hawk_fn_sin_f64(%x: uniform f64, %result: mutable f64)
 * {...}": g's parameters are the kernel's uniforms, named as math.hir
 * names them (atan2's %y first), so the C function's are too. */
static const char *kernel_text(HkArena *a, uint32_t id, const HkFunc *g)
{
    const char *name = hk_mathfn_name(id);
    const char *t = hk_mathfn_elem(id) == HK_F32 ? "f32" : "f64";
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "\nkernel @%s(", kernel_name(a, id));
    for (uint32_t k = 0; k < g->nparams; k++)
        hk_buf_printf(&b, "%%%s: uniform %s, ", hk_value(g, g->params[k])->name,
                      t);
    hk_buf_printf(&b, "%%result: mutable %s) {\n", t);
    for (uint32_t k = 0; k < g->nparams; k++) {
        const char *p = hk_value(g, g->params[k])->name;
        hk_buf_printf(&b, "  %%%s.v = load %%%s : %s\n", p, p, t);
    }
    hk_buf_printf(&b, "  %%r = call @%s(", name);
    for (uint32_t k = 0; k < g->nparams; k++)
        hk_buf_printf(&b, "%s%%%s.v", k ? ", " : "",
                      hk_value(g, g->params[k])->name);
    hk_buf_printf(&b, ") : %s\n  store %%r, %%result\n  ret\n}\n", t);
    return hk_buf_cstr(&b);
}

/* Whether f's body ends in the store of the result, then ret: what both
 * writers spell as the function's one return, its last statement. */
static int result_last(const HkFunc *f)
{
    const HkInst *ret = f->body.last;
    return ret != NULL && ret->op == HK_OP_RET && ret->prev != NULL &&
           ret->prev->op == HK_OP_STORE;
}

/* math.hir and every called function's kernel, parsed and verified
 * once per context; NULL after a diagnostic. */
static HkModule *kernels_module(HawkContext *ctx)
{
    struct HkRegistry *r = hk_registry(ctx);
    if (r->mathfn_module != NULL)
        return r->mathfn_module;
    HkArena *a = ctx->arena;
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_put(&b, hk_math_text, hk_math_text_len);
    for (uint32_t id = 0; id < HK_MATHFN_COUNT; id++) {
        const HkFunc *g =
            hk_math_func(ctx, hk_mathfn_op(id), hk_mathfn_elem(id));
        if (g == NULL)
            return NULL;
        hk_buf_puts(&b, kernel_text(a, id, g));
    }
    HkModule *m = hawk_parse(ctx, "<hawk math>", hk_buf_cstr(&b), b.len);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return NULL;
    r->mathfn_module = m;
    return m;
}

const HkLowered *hk_lower_mathfn(HawkContext *ctx, uint32_t id)
{
    if (id >= HK_MATHFN_COUNT)
        return NULL;
    struct HkRegistry *r = hk_registry(ctx);
    if (r->mathfn[id] != NULL)
        return r->mathfn[id];
    HkModule *m = kernels_module(ctx);
    if (m == NULL)
        return NULL;
    const char *kname = kernel_name(ctx->arena, id);
    uint32_t ki = hk_func_index(m, kname, strlen(kname));
    if (ki >= m->nfuncs)
        return NULL;
    HkLowered *out = hk_alloc(ctx->arena, sizeof *out);
    if (hk_lower(ctx, m, m->funcs[ki], NULL, NULL, 0, out) != 0 ||
        !result_last(out->kernel))
        return NULL;
    r->mathfn[id] = out;
    return out;
}

uint32_t hk_mathfn_of(const HkLowered *l, const HkInst *i)
{
    if (l->profile.math != HK_MATH_HAWK || !hk_math_called(i->op) ||
        i->type.rank != 0 || !hk_math_operands(l->kernel, i))
        return UINT32_MAX;
    return hk_mathfn_id(i->op, (HkElem)i->type.elem);
}
