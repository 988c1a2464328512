/* hostsamples.c -- the sample loop, a function of its own:
 *
 *   void <entry>.samples(<members of args>..., i64 base, i64 end,
 *                        i64 n_samples)
 *
 * runs samples base .. end - 1 in ascending order, skipping a sample whose
 * guard mask is set.  It is built twice.  The entry calls the copy whose
 * plane pointers are noalias when no plane the unit writes overlaps
 * another plane over the samples it touches (the caller's usual case):
 * LLVM may then vectorize across samples without run-time alias checks.
 * Any other call runs the plain copy.  Either way every sample computes
 * what the serial C computes, in the same order, so the bytes agree. */
#include <string.h>

#include "hostint.h"

/* Whether any guard mask of the sample is set (NULL: unguarded). */
static LLVMValueRef masked(HkHostGen *g)
{
    LLVMValueRef any = NULL;
    const HkInterfaceResult *iface = g->l->iface;
    for (uint32_t k = 0; k < iface->nguard; k++) {
        const HkAbiField *m = hk_abi_field(&g->abi, iface->guard[k]);
        if (m == NULL) {
            hk_host_fail(g, NULL, hk_asprintf(g->a, "guard '%s' is no member",
                                              iface->guard[k]));
            return NULL;
        }
        LLVMValueRef set = hk_host_mask(g, (int32_t)iface->rows[m->row].slot);
        any = any == NULL ? set : LLVMBuildOr(g->b, any, set, "");
    }
    return any;
}

/* Each local of the kernel: its rows, an array in the entry block of
 * the function being built. */
static void make_locals(HkHostGen *g)
{
    g->local = hk_alloc(g->a, (g->f->nslots + 1u) * sizeof *g->local);
    for (uint32_t s = 0; s < g->f->nslots; s++) {
        const HkSlot *sl = &g->f->slots[s];
        if (sl->role != HK_ROLE_LOCAL)
            continue;
        g->local[s] = hk_host_alloca_n(g, hk_host_mem_elem(g, (HkElem)sl->type.elem),
                                       hk_host_i64(g, (int64_t)sl->type.dim[0]),
                                       sl->name);
    }
}

/* Every row of every local 0 (all bits clear: +0.0 or 0), as each sample
 * starts (LangRef "Locals"). */
static void zero_locals(HkHostGen *g)
{
    for (uint32_t s = 0; s < g->f->nslots; s++) {
        if (g->local[s] == NULL)
            continue;
        const HkSlot *sl = &g->f->slots[s];
        uint64_t bytes = (uint64_t)sl->type.dim[0] * hk_elem_bytes((HkElem)sl->type.elem);
        LLVMBuildMemSet(g->b, g->local[s],
                        LLVMConstInt(LLVMInt8TypeInContext(g->ctx), 0, 0),
                        hk_host_i64(g, (int64_t)bytes), 8);
    }
}

/* for (i = base; i < end; ++i) { if (!masked) body } */
static void sample_loop(HkHostGen *g, LLVMValueRef base, LLVMValueRef end)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
    LLVMValueRef iv = hk_host_alloca(g, i64, "i");
    make_locals(g);
    LLVMBuildStore(g->b, base, iv);
    LLVMBasicBlockRef head = hk_host_block(g, "sample.head");
    LLVMBasicBlockRef body = hk_host_block(g, "sample.body");
    LLVMBasicBlockRef next = hk_host_block(g, "sample.next");
    LLVMBasicBlockRef done = hk_host_block(g, "done");
    LLVMBuildBr(g->b, head);

    LLVMPositionBuilderAtEnd(g->b, head);
    g->sample = LLVMBuildLoad2(g->b, i64, iv, "i");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, g->sample, end, ""),
                    body, done);

    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef skip = masked(g);
    if (skip != NULL) {
        LLVMBasicBlockRef run = hk_host_block(g, "sample.run");
        LLVMBuildCondBr(g->b, skip, next, run);
        LLVMPositionBuilderAtEnd(g->b, run);
    }
    zero_locals(g);
    hk_host_block_body(g, &g->f->body);
    LLVMBuildBr(g->b, next);

    LLVMPositionBuilderAtEnd(g->b, next);
    LLVMBuildStore(g->b, LLVMBuildAdd(g->b, g->sample, hk_host_i64(g, 1), ""),
                   iv);
    LLVMBuildBr(g->b, head);

    LLVMPositionBuilderAtEnd(g->b, done);
    LLVMBuildRetVoid(g->b);
}

/* LLVM's noalias attribute on parameter k of fn. */
static void noalias(HkHostGen *g, LLVMValueRef fn, uint32_t k)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
    LLVMAddAttributeAtIndex(fn, k + 1u,
                            LLVMCreateEnumAttribute(g->ctx, kind, 0));
}

LLVMValueRef hk_host_samples_fn(HkHostGen *g, int no_alias)
{
    uint32_t n = g->abi.nfields;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
    LLVMTypeRef *params = hk_alloc(g->a, (n + 4u) * sizeof *params);
    for (uint32_t k = 0; k < n; k++)
        params[k] = hk_host_member_type(g, k);
    params[n] = params[n + 1] = params[n + 2] = i64;
    LLVMTypeRef ft =
        LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, n + 3, 0);
    const char *name = hk_asprintf(g->a, "%s.samples%s",
                                   LLVMGetValueName2(g->fn, &(size_t){0}),
                                   no_alias ? ".noalias" : "");
    LLVMValueRef fn = LLVMAddFunction(g->mod, name, ft);
    LLVMSetLinkage(fn, LLVMInternalLinkage);

    /* the state of the entry, put back below */
    LLVMValueRef entry_fn = g->fn, entry_n = g->n_samples;
    LLVMBasicBlockRef entry_bb = g->entry_bb;
    LLVMValueRef *entry_field = g->field;

    g->fn = fn;
    g->field = hk_alloc(g->a, (n + 1u) * sizeof *g->field);
    for (uint32_t k = 0; k < n; k++) {
        g->field[k] = LLVMGetParam(fn, k);
        LLVMSetValueName2(g->field[k], g->abi.fields[k].name,
                          strlen(g->abi.fields[k].name));
        if (no_alias && g->abi.fields[k].kind == HK_ABI_PLANE)
            noalias(g, fn, k);
    }
    g->n_samples = LLVMGetParam(fn, n + 2);
    LLVMSetValueName2(g->n_samples, "n_samples", 9);
    g->vals = hk_alloc(g->a, (g->f->nvalues + 1u) * sizeof *g->vals);
    g->entry_bb = hk_host_block(g, "entry");
    LLVMPositionBuilderAtEnd(g->b, g->entry_bb);
    sample_loop(g, LLVMGetParam(fn, n), LLVMGetParam(fn, n + 1));

    g->fn = entry_fn;
    g->n_samples = entry_n;
    g->entry_bb = entry_bb;
    g->field = entry_field;
    return fn;
}

void hk_host_call_samples(HkHostGen *g, LLVMValueRef fn, LLVMValueRef base,
                          LLVMValueRef end)
{
    uint32_t n = g->abi.nfields;
    LLVMValueRef *args = hk_alloc(g->a, (n + 4u) * sizeof *args);
    for (uint32_t k = 0; k < n; k++)
        args[k] = g->field[k];
    args[n] = base;
    args[n + 1] = end;
    args[n + 2] = g->n_samples;
    LLVMBuildCall2(g->b, LLVMGlobalGetValueType(fn), fn, args, n + 3, "");
}

/* The bytes [lo, hi) plane member k touches over samples [base, end):
 * SoA components at (c * n_samples) + i, a runtime-length plane whole,
 * the shared cells whole. */
static void touched(HkHostGen *g, uint32_t k, LLVMValueRef base,
                    LLVMValueRef end, LLVMValueRef *lo, LLVMValueRef *hi)
{
    const HkAbiField *m = &g->abi.fields[k];
    LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
    LLVMValueRef first = hk_host_i64(g, 0), last;
    switch (m->addr) {
    case HK_ABI_SOA:
        first = base;
        last = LLVMBuildAdd(
            g->b,
            LLVMBuildMul(g->b, hk_host_i64(g, (int64_t)m->comps - 1),
                         g->n_samples, ""),
            end, "");
        break;
    case HK_ABI_FLAT_LEN:
        last = g->field[k + 1];
        break;
    default:
        last = hk_host_i64(g, (int64_t)m->comps);
        break;
    }
    LLVMValueRef p = LLVMBuildPtrToInt(g->b, g->field[k], i64, "");
    LLVMValueRef size = hk_host_i64(g, (int64_t)m->elem_bytes);
    *lo = LLVMBuildAdd(g->b, p, LLVMBuildMul(g->b, first, size, ""), "");
    *hi = LLVMBuildAdd(g->b, p, LLVMBuildMul(g->b, last, size, ""), "");
}

LLVMValueRef hk_host_disjoint(HkHostGen *g, LLVMValueRef base,
                              LLVMValueRef end)
{
    uint32_t n = g->abi.nfields;
    LLVMValueRef *lo = hk_alloc(g->a, (n + 1u) * sizeof *lo);
    LLVMValueRef *hi = hk_alloc(g->a, (n + 1u) * sizeof *hi);
    for (uint32_t k = 0; k < n; k++)
        if (g->abi.fields[k].kind == HK_ABI_PLANE)
            touched(g, k, base, end, &lo[k], &hi[k]);
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 1, 0);
    for (uint32_t a = 0; a < n; a++) {
        for (uint32_t b = a + 1; b < n; b++) {
            const HkAbiField *x = &g->abi.fields[a], *y = &g->abi.fields[b];
            if (x->kind != HK_ABI_PLANE || y->kind != HK_ABI_PLANE ||
                (!x->written && !y->written))
                continue; /* two planes that are only read may overlap */
            /* one instruction per statement (argument order is open) */
            LLVMValueRef below = LLVMBuildICmp(g->b, LLVMIntULE, hi[a], lo[b], "");
            LLVMValueRef above = LLVMBuildICmp(g->b, LLVMIntULE, hi[b], lo[a], "");
            LLVMValueRef apart = LLVMBuildOr(g->b, below, above, "");
            ok = LLVMBuildAnd(g->b, ok, apart, "");
        }
    }
    return ok;
}
