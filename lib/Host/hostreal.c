/* hostreal.c -- real arithmetic, comparisons, conversions, libm calls and
 * constants, each the operation the C unit's spelling computes.
 *
 * No instruction carries a fast-math flag and none is an llvm.fmuladd, so
 * every operation rounds on its own as LangRef states.
 *
 * libm functions are called by name.  sqrt, fabs, floor and ceil are
 * exactly rounded (IEEE 754, EXACT in ops.def): every implementation gives
 * the same bits, so they are declared readnone and the optimizer may
 * inline, fold or vectorize them.  Every other call (exp, sin, pow, ...)
 * is marked nobuiltin: LLVM keeps it as written, never folds it at a
 * constant and never rewrites it (pow(x, 2) into x * x, pow(2, x) into
 * exp2, sin and cos into sincos), so the unit computes what the process's
 * libm computes.  The C unit's build contract asks the same of the C
 * compiler (-fno-builtin-<f> for each such function it calls,
 * docs/EmbeddedC.md).
 */
#include <math.h>
#include <string.h>

#include "hostint.h"

/* y through llvm.arithmetic.fence, which LLVM's value analysis cannot see
 * through and which emits no instruction.  LLVM 14 takes x / y as never
 * ordered below zero when it takes x and y so, and it takes sqrt(t), and
 * whatever it builds from sqrt and positive values, so; but sqrt(-0) is
 * -0 and 1 / -0 is -inf, so it folds `1/sqrt(t) < 0` and what follows
 * from it (the sign of an rsqrt, hypot of one) wrong at t = -0.  Every
 * divisor that is not a constant (whose sign LLVM reads right) passes the
 * fence, so no kernel and no math function meets the fold. */
static LLVMValueRef opaque_divisor(HkHostGen *g, LLVMValueRef y)
{
    if (LLVMIsConstant(y))
        return y;
    static const char name[] = "llvm.arithmetic.fence";
    unsigned id = LLVMLookupIntrinsicID(name, sizeof name - 1u);
    LLVMTypeRef t = LLVMTypeOf(y);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, &t, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id, &t, 1);
    return LLVMBuildCall2(g->b, fty, fn, &y, 1, "");
}

LLVMValueRef hk_host_real_binary(HkHostGen *g, HkOp op, HkElem e,
                                 LLVMValueRef x, LLVMValueRef y)
{
    (void)e;
    switch (op) {
    case HK_OP_FADD: return LLVMBuildFAdd(g->b, x, y, "");
    case HK_OP_FSUB: return LLVMBuildFSub(g->b, x, y, "");
    case HK_OP_FMUL: return LLVMBuildFMul(g->b, x, y, "");
    case HK_OP_FDIV:
        return LLVMBuildFDiv(g->b, x, opaque_divisor(g, y), "");
    case HK_OP_MINIMUM:
    case HK_OP_MAXIMUM: {
        /* the first NaN, else x < y ? x : y (x > y ? x : y) */
        LLVMValueRef xnan = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
        LLVMValueRef ynan = LLVMBuildFCmp(g->b, LLVMRealUNO, y, y, "");
        LLVMValueRef pick = LLVMBuildFCmp(
            g->b, op == HK_OP_MINIMUM ? LLVMRealOLT : LLVMRealOGT, x, y, "");
        LLVMValueRef r = LLVMBuildSelect(g->b, pick, x, y, "");
        r = LLVMBuildSelect(g->b, ynan, y, r, "");
        return LLVMBuildSelect(g->b, xnan, x, r, "");
    }
    default:
        break;
    }
    hk_host_fail(g, NULL, hk_asprintf(g->a, "'%s' is not a real op",
                                      hk_ops[op].mnemonic));
    return LLVMGetUndef(LLVMTypeOf(x));
}

/* The C spellings (== < ..., the negated opposite for the unordered ones,
 * isnan for ord/uno) compute exactly LLVM's predicates. */
LLVMValueRef hk_host_fcmp(HkHostGen *g, HkPred p, LLVMValueRef x,
                          LLVMValueRef y)
{
    static const LLVMRealPredicate map[] = {
        [HK_P_OEQ] = LLVMRealOEQ, [HK_P_ONE] = LLVMRealONE,
        [HK_P_OLT] = LLVMRealOLT, [HK_P_OLE] = LLVMRealOLE,
        [HK_P_OGT] = LLVMRealOGT, [HK_P_OGE] = LLVMRealOGE,
        [HK_P_UEQ] = LLVMRealUEQ, [HK_P_UNE] = LLVMRealUNE,
        [HK_P_ULT] = LLVMRealULT, [HK_P_ULE] = LLVMRealULE,
        [HK_P_UGT] = LLVMRealUGT, [HK_P_UGE] = LLVMRealUGE,
        [HK_P_ORD] = LLVMRealORD, [HK_P_UNO] = LLVMRealUNO,
    };
    if ((unsigned)p > (unsigned)HK_P_UNO) {
        hk_host_fail(g, NULL, "an fcmp predicate outside fcmp's set");
        return LLVMGetUndef(LLVMInt1TypeInContext(g->ctx));
    }
    return LLVMBuildFCmp(g->b, map[p], x, y, "");
}

/* The function `name` of type t(args), declared once. */
static LLVMValueRef declare(HkHostGen *g, const char *name, LLVMTypeRef ft)
{
    LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
    if (fn == NULL)
        fn = LLVMAddFunction(g->mod, name, ft);
    return fn;
}

/* The libm functions that are exactly rounded operations. */
static int is_exact(HkOp op)
{
    return (hk_ops[op].flags & HK_F_EXACT) != 0u;
}

/* LLVM's enum attribute of this name. */
static LLVMAttributeRef enum_attr(HkHostGen *g, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    return LLVMCreateEnumAttribute(g->ctx, kind, 0);
}

/* LLVMAttributeFunctionIndex, an enum constant of -1, as the unsigned
 * index type it stands for. */
#define FUNCTION_INDEX (~(LLVMAttributeIndex)0)

/* Gives function fn the attribute name. */
static void add_attr(HkHostGen *g, LLVMValueRef fn, const char *name)
{
    LLVMAddAttributeAtIndex(fn, FUNCTION_INDEX, enum_attr(g, name));
}

LLVMValueRef hk_host_libm(HkHostGen *g, HkOp op, HkElem e,
                          LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef t = hk_host_elem(g, e);
    LLVMTypeRef params[2] = {t, t};
    LLVMTypeRef ft = LLVMFunctionType(t, params, n, 0);
    const char *name = hk_libm_name(g->a, op, e);
    if (name[0] == '\0' || n < 1 || n > 2) {
        hk_host_fail(g, NULL, hk_asprintf(g->a, "'%s' calls no libm function",
                                          hk_ops[op].mnemonic));
        return LLVMGetUndef(t);
    }
    LLVMValueRef fn = declare(g, name, ft);
    LLVMValueRef r = LLVMBuildCall2(g->b, ft, fn, args, n, "");
    if (is_exact(op))
        add_attr(g, fn, "readnone");
    else
        LLVMAddCallSiteAttribute(r, FUNCTION_INDEX,
                                 enum_attr(g, "nobuiltin"));
    LLVMAddCallSiteAttribute(r, FUNCTION_INDEX,
                             enum_attr(g, "nounwind"));
    return r;
}

/* fptosi: truncation toward zero, NaN gives 0, out of range saturates:
 * exactly llvm.fptosi.sat (the C's hawk_<f>_to_<i> helpers). */
static LLVMValueRef fptosi_sat(HkHostGen *g, HkElem from, HkElem to,
                               LLVMValueRef x)
{
    LLVMTypeRef it = hk_host_elem(g, to), ft = hk_host_elem(g, from);
    const char *name = hk_asprintf(g->a, "llvm.fptosi.sat.i%u.f%u",
                                   to == HK_I64 ? 64u : 32u,
                                   from == HK_F64 ? 64u : 32u);
    LLVMTypeRef fnt = LLVMFunctionType(it, &ft, 1, 0);
    return LLVMBuildCall2(g->b, fnt, declare(g, name, fnt), &x, 1, "");
}

LLVMValueRef hk_host_convert(HkHostGen *g, HkOp op, HkElem from, HkElem to,
                             LLVMValueRef x)
{
    LLVMTypeRef t = hk_host_elem(g, to);
    switch (op) {
    case HK_OP_SITOFP: return LLVMBuildSIToFP(g->b, x, t, "");
    case HK_OP_UITOFP: return LLVMBuildUIToFP(g->b, x, t, "");
    case HK_OP_FPTOSI: return fptosi_sat(g, from, to, x);
    case HK_OP_FPEXT: return LLVMBuildFPExt(g->b, x, t, "");
    case HK_OP_FPTRUNC: return LLVMBuildFPTrunc(g->b, x, t, "");
    case HK_OP_SEXT: return LLVMBuildSExt(g->b, x, t, "");
    case HK_OP_ZEXT: return LLVMBuildZExt(g->b, x, t, "");
    case HK_OP_TRUNC: return LLVMBuildTrunc(g->b, x, t, "");
    case HK_OP_BITCAST: return LLVMBuildBitCast(g->b, x, t, "");
    default: break;
    }
    hk_host_fail(g, NULL, hk_asprintf(g->a, "'%s' is not a conversion",
                                      hk_ops[op].mnemonic));
    return LLVMGetUndef(t);
}

/* The real v (hk_const_real's value): NaN is the C's NAN (positive, quiet,
 * no payload) whatever the literal's bits, as the C spells every NaN. */
static LLVMValueRef real_bits(HkHostGen *g, HkElem e, double v)
{
    LLVMTypeRef t = hk_host_elem(g, e);
    if (!isnan(v))
        return LLVMConstReal(t, v);
    if (e == HK_F32)
        return LLVMConstBitCast(
            LLVMConstInt(LLVMInt32TypeInContext(g->ctx), 0x7fc00000u, 0), t);
    return LLVMConstBitCast(LLVMConstInt(LLVMInt64TypeInContext(g->ctx),
                                         0x7ff8000000000000ull, 0),
                            t);
}

LLVMValueRef hk_host_const(HkHostGen *g, const HkInst *i, HkElem e,
                           uint32_t k)
{
    if (hk_is_float(e))
        return real_bits(g, e, hk_const_real(&i->x->cst, k, e));
    return LLVMConstInt(hk_host_elem(g, e),
                        (unsigned long long)hk_const_int(&i->x->cst, k),
                        e != HK_I1);
}
