/* hostbody.c -- the instructions of a block, in order, and the map from
 * HIR values to LLVM values.
 *
 * Every HIR value maps to its components (one for rank 0): after scalarize
 * only loads, builds and the stores that take them are tensors, and a
 * component-wise op that is still a tensor is applied per component, so
 * the unit computes what the C computes from the same IR. */
#include "hostint.h"

LLVMTypeRef hk_host_elem(HkHostGen *g, HkElem e)
{
    switch (e) {
    case HK_F64: return LLVMDoubleTypeInContext(g->ctx);
    case HK_F32: return LLVMFloatTypeInContext(g->ctx);
    case HK_I64: return LLVMInt64TypeInContext(g->ctx);
    case HK_I32:
    case HK_U32: return LLVMInt32TypeInContext(g->ctx);
    case HK_I1: return LLVMInt1TypeInContext(g->ctx);
    case HK_VOID: break;
    }
    return LLVMVoidTypeInContext(g->ctx);
}

/* C's bool is a byte in memory. */
LLVMTypeRef hk_host_mem_elem(HkHostGen *g, HkElem e)
{
    return e == HK_I1 ? LLVMInt8TypeInContext(g->ctx) : hk_host_elem(g, e);
}

LLVMValueRef hk_host_i64(HkHostGen *g, int64_t v)
{
    return LLVMConstInt(LLVMInt64TypeInContext(g->ctx), (unsigned long long)v,
                        1);
}

/* At the start of the entry block, where mem2reg promotes it; n
 * elements of t when n is not NULL (an array). */
LLVMValueRef hk_host_alloca_n(HkHostGen *g, LLVMTypeRef t, LLVMValueRef n,
                              const char *name)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(g->entry_bb);
    if (first != NULL)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, g->entry_bb);
    LLVMValueRef v = n != NULL ? LLVMBuildArrayAlloca(b, t, n, name)
                               : LLVMBuildAlloca(b, t, name);
    LLVMDisposeBuilder(b);
    return v;
}

LLVMValueRef hk_host_alloca(HkHostGen *g, LLVMTypeRef t, const char *name)
{
    return hk_host_alloca_n(g, t, NULL, name);
}

LLVMBasicBlockRef hk_host_block(HkHostGen *g, const char *name)
{
    return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

void hk_host_fail(HkHostGen *g, const HkInst *i, const char *what)
{
    if (g->failed)
        return;
    g->failed = 1;
    if (i == NULL)
        i = g->at;
    hk_error(g->d, &g->f->module->src, i != NULL ? i->loc : g->f->loc,
             "host target: %s", what);
}

HkType hk_host_type(HkHostGen *g, HkVal v)
{
    return hk_value(g->f, v)->type;
}

LLVMValueRef hk_host_comp(HkHostGen *g, HkVal v, uint32_t k)
{
    LLVMValueRef *c = g->vals[v];
    if (c == NULL) {
        hk_host_fail(g, NULL,
                     hk_asprintf(g->a, "%%%s used before its definition",
                                 hk_value(g->f, v)->name));
        return LLVMGetUndef(hk_host_elem(g, hk_host_type(g, v).elem));
    }
    return hk_components(hk_host_type(g, v)) == 1 ? c[0] : c[k];
}

void hk_host_bind(HkHostGen *g, HkVal v, LLVMValueRef *c)
{
    uint32_t n = hk_components(hk_host_type(g, v));
    LLVMValueRef *copy = hk_alloc(g->a, (n + 1u) * sizeof *copy);
    for (uint32_t k = 0; k < n; k++)
        copy[k] = c[k];
    g->vals[v] = copy;
}

void hk_host_bind1(HkHostGen *g, HkVal v, LLVMValueRef c)
{
    hk_host_bind(g, v, &c);
}

/* ---- component-wise ops -------------------------------------------------- */

/* Component k of a component-wise op i. */
static LLVMValueRef elem_comp(HkHostGen *g, HkInst *i, uint32_t k)
{
    HkElem e = (HkElem)hk_host_type(g, hk_res(i)[0]).elem;
    HkElem oe = (HkElem)hk_host_type(g, i->ops[0]).elem;
    LLVMValueRef x = hk_host_comp(g, i->ops[0], k);
    LLVMValueRef y = i->nops > 1 ? hk_host_comp(g, i->ops[1], k) : NULL;
    switch (hk_ops[i->op].rule) {
    case HK_R_FARITH:
        return hk_host_real_binary(g, i->op, e, x, y);
    case HK_R_FUNARY:
        return LLVMBuildFNeg(g->b, x, "");
    case HK_R_IARITH:
    case HK_R_LOGIC:
        return hk_host_int_binary(g, i->op, e, x, y);
    case HK_R_IUNARY:
        return hk_host_int_neg(g, x);
    case HK_R_LOGICNOT:
        return LLVMBuildNot(g->b, x, "");
    case HK_R_FCMP:
        return hk_host_fcmp(g, i->pred, x, y);
    case HK_R_ICMP:
        return hk_host_icmp(g, i->pred, oe, x, y);
    case HK_R_SELECT:
        return LLVMBuildSelect(g->b, x, y, hk_host_comp(g, i->ops[2], k), "");
    case HK_R_CONV:
        return hk_host_convert(g, i->op, oe, e, x);
    case HK_R_ABS:
        if (hk_is_int(e))
            return hk_host_int_abs(g, e, x);
        return hk_host_libm(g, i->op, e, &x, 1);
    case HK_R_MINMAX:
        if (e == HK_I1) {  /* no order of masks (the verifier's rule) */
            hk_host_fail(g, i, "minimum or maximum of a mask");
            return LLVMGetUndef(hk_host_elem(g, e));
        }
        if (hk_is_int(e))
            return hk_host_int_binary(g, i->op, e, x, y);
        return hk_host_real_binary(g, i->op, e, x, y);
    case HK_R_MATH1:
    case HK_R_MATH2: {
        LLVMValueRef args[2] = {x, y};
        if (!hk_is_float(oe)) {
            hk_host_fail(g, i, "a libm function on an integer operand "
                               "(int_libm) is not built");
            return LLVMGetUndef(hk_host_elem(g, e));
        }
        uint32_t id = hk_mathfn_of(g->l, i);
        if (id != UINT32_MAX)  /* hawk's, a function of the module */
            return hk_host_mathfn_call(g, id, args, (unsigned)i->nops);
        return hk_host_libm(g, i->op, e, args, (unsigned)i->nops);
    }
    default:
        break;
    }
    hk_host_fail(g, i, hk_asprintf(g->a, "'%s' is not lowered",
                                   hk_ops[i->op].mnemonic));
    return LLVMGetUndef(hk_host_elem(g, e));
}

/* A component-wise op, one LLVM value per component of its result. */
static void lower_elem(HkHostGen *g, HkInst *i)
{
    uint32_t n = hk_components(hk_host_type(g, hk_res(i)[0]));
    LLVMValueRef *c = hk_alloc(g->a, (n + 1u) * sizeof *c);
    for (uint32_t k = 0; k < n; k++)
        c[k] = elem_comp(g, i, k);
    g->vals[hk_res(i)[0]] = c;
}

/* ---- moves ---------------------------------------------------------------- */

/* A constant, a literal per component (one literal fills them all). */
static void lower_const(HkHostGen *g, HkInst *i)
{
    HkType t = hk_host_type(g, hk_res(i)[0]);
    uint32_t n = hk_components(t);
    LLVMValueRef *c = hk_alloc(g->a, (n + 1u) * sizeof *c);
    for (uint32_t k = 0; k < n; k++)
        c[k] = hk_host_const(g, i, (HkElem)t.elem, k);
    g->vals[hk_res(i)[0]] = c;
}

/* Component (or row) imm of a tensor. */
static void lower_extract(HkHostGen *g, HkInst *i)
{
    HkType t = hk_host_type(g, i->ops[0]);
    uint32_t n = hk_components(hk_host_type(g, hk_res(i)[0]));
    uint32_t first = hk_flat_index(t, i->x->imm, i->x->nimm);
    LLVMValueRef *c = hk_alloc(g->a, (n + 1u) * sizeof *c);
    for (uint32_t k = 0; k < n; k++)
        c[k] = hk_host_comp(g, i->ops[0], first + k);
    g->vals[hk_res(i)[0]] = c;
}

/* A tensor whose components are the operands, row-major. */
static void lower_build(HkHostGen *g, HkInst *i)
{
    LLVMValueRef *c = hk_alloc(g->a, (i->nops + 1u) * sizeof *c);
    for (uint32_t k = 0; k < i->nops; k++)
        c[k] = hk_host_comp(g, i->ops[k], 0);
    g->vals[hk_res(i)[0]] = c;
}

/* table %k, [...]: a private constant array and a load at the index
 * legalize held inside it (the C unit's static const array). */
static void lower_table(HkHostGen *g, HkInst *i)
{
    HkElem e = (HkElem)hk_host_type(g, hk_res(i)[0]).elem;
    LLVMTypeRef et = hk_host_elem(g, e);
    uint32_t n = i->x->cst.n;
    LLVMValueRef *c = hk_alloc(g->a, (n + 1u) * sizeof *c);
    for (uint32_t k = 0; k < n; k++)
        c[k] = hk_host_const(g, i, e, k);
    LLVMTypeRef at = LLVMArrayType(et, n);
    LLVMValueRef gv = LLVMAddGlobal(g->mod, at, "hawk.table");
    LLVMSetInitializer(gv, LLVMConstArray(et, c, n));
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddr(gv, 1);
    LLVMValueRef idx[2] = {hk_host_i64(g, 0), hk_host_comp(g, i->ops[0], 0)};
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, at, gv, idx, 2, "");
    hk_host_bind1(g, hk_res(i)[0], LLVMBuildLoad2(g->b, et, p, ""));
}

/* ---- the walk -------------------------------------------------------------- */

/* Lowers one instruction at the builder. */
static void lower_inst(HkHostGen *g, HkInst *i)
{
    switch (i->op) {
    case HK_OP_CONST: lower_const(g, i); return;
    case HK_OP_EXTRACT: lower_extract(g, i); return;
    case HK_OP_BUILD: lower_build(g, i); return;
    case HK_OP_TABLE: lower_table(g, i); return;
    case HK_OP_LOAD: hk_host_load(g, i); return;
    case HK_OP_GATHER: hk_host_gather(g, i); return;
    case HK_OP_CLAMP_INDEX: hk_host_clamp_index_op(g, i); return;
    case HK_OP_STORE: hk_host_store(g, i); return;
    case HK_OP_ACCUM: hk_host_accum(g, i); return;
    case HK_OP_BUMP: hk_host_bump(g, i); return;
    case HK_OP_LOOP: hk_host_loop(g, i); return;
    case HK_OP_BREAK_IF: hk_host_break_if(g, i); return;
    case HK_OP_IF: hk_host_if(g, i); return;
    case HK_OP_DISPATCH: hk_host_dispatch(g, i); return;
    case HK_OP_YIELD:
    case HK_OP_RET: return; /* the region's owner reads the yield */
    default: break;
    }
    if ((hk_ops[i->op].flags & HK_F_ELEM) && i->nres == 1) {
        lower_elem(g, i);
        return;
    }
    /* folds, calls and the refused ops never reach a writer: lower.c runs
     * scalarize and inline, and feature-refusal stops the rest */
    hk_host_fail(g, i, hk_asprintf(g->a, "'%s' is not lowered",
                                   hk_ops[i->op].mnemonic));
}

void hk_host_block_body(HkHostGen *g, HkBlock *b)
{
    const HkInst *outer = g->at;
    for (HkInst *i = b->first; i != NULL && !g->failed; i = i->next) {
        g->at = i;
        lower_inst(g, i);
    }
    g->at = outer;
}
