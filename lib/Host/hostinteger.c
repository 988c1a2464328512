/* hostinteger.c -- integer ops with LangRef's defined results, the same as
 * the C unit's hawk_<t>_<op> helpers: wrapping add/sub/mul/neg, a zero
 * divisor gives 0, MIN / -1 gives MIN, floor division and modulo, shift
 * counts outside [0, width) give 0 or the sign fill.
 *
 * No LLVM instruction here is ever given an operand for which it is
 * undefined or poison (a zero or MIN/-1 divisor, an oversized shift): the
 * divisor and the shift count are replaced first and the result selected,
 * so the optimizer may not assume anything the C helpers do not. */
#include "hostint.h"

/* Whether e is the unsigned integer type. */
static int is_unsigned(HkElem e)
{
    return e == HK_U32;
}

/* The bits of integer type e. */
static unsigned width(HkElem e)
{
    return e == HK_I64 ? 64u : 32u;
}

/* The integer constant v of type t. */
static LLVMValueRef cint(LLVMTypeRef t, long long v)
{
    return LLVMConstInt(t, (unsigned long long)v, 1);
}

/* The divisor the division actually runs with: 1 where y is 0 or the
 * pair is MIN / -1 (then x / 1 = x = MIN is the defined answer of the
 * latter, and the former is selected away). */
static LLVMValueRef safe_divisor(HkHostGen *g, HkElem e, LLVMValueRef x,
                                 LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMBuildICmp(g->b, LLVMIntEQ, y, cint(t, 0), "");
    if (is_unsigned(e))
        return LLVMBuildSelect(g->b, zero, cint(t, 1), y, "");
    LLVMValueRef min = LLVMConstInt(t, 1ull << (width(e) - 1), 0);
    /* one instruction per statement: C leaves the order in which a
     * call's arguments are evaluated open, and the IR must not depend on
     * the compiler that built hawk */
    LLVMValueRef is_min = LLVMBuildICmp(g->b, LLVMIntEQ, x, min, "");
    LLVMValueRef is_m1 = LLVMBuildICmp(g->b, LLVMIntEQ, y, cint(t, -1), "");
    LLVMValueRef ovf = LLVMBuildAnd(g->b, is_min, is_m1, "");
    return LLVMBuildSelect(g->b, LLVMBuildOr(g->b, zero, ovf, ""), cint(t, 1),
                           y, "");
}

/* r is a truncated remainder by d (d != 0): whether floor semantics move
 * the quotient down (r != 0 and r, d of opposite signs). */
static LLVMValueRef floor_adjust(HkHostGen *g, LLVMValueRef r, LLVMValueRef d)
{
    LLVMTypeRef t = LLVMTypeOf(r);
    LLVMValueRef nz = LLVMBuildICmp(g->b, LLVMIntNE, r, cint(t, 0), "");
    LLVMValueRef opp = LLVMBuildICmp(g->b, LLVMIntSLT,
                                     LLVMBuildXor(g->b, r, d, ""), cint(t, 0),
                                     "");
    return LLVMBuildAnd(g->b, nz, opp, "");
}

/* div, floordiv, mod: 0 for a zero divisor. */
static LLVMValueRef division(HkHostGen *g, HkOp op, HkElem e, LLVMValueRef x,
                             LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef d = safe_divisor(g, e, x, y);
    LLVMValueRef r;
    if (is_unsigned(e)) {
        /* u32: floordiv is the unsigned division, mod the remainder */
        r = op == HK_OP_MOD ? LLVMBuildURem(g->b, x, d, "")
                            : LLVMBuildUDiv(g->b, x, d, "");
    } else if (op == HK_OP_DIV) {
        r = LLVMBuildSDiv(g->b, x, d, "");
    } else {
        LLVMValueRef q = LLVMBuildSDiv(g->b, x, d, "");
        LLVMValueRef rem = LLVMBuildSRem(g->b, x, d, "");
        LLVMValueRef adj = floor_adjust(g, rem, d);
        r = op == HK_OP_FLOORDIV
                ? LLVMBuildSub(g->b, q, LLVMBuildZExt(g->b, adj, t, ""), "")
                : LLVMBuildSelect(g->b, adj, LLVMBuildAdd(g->b, rem, d, ""),
                                  rem, "");
    }
    LLVMValueRef zero = LLVMBuildICmp(g->b, LLVMIntEQ, y, cint(t, 0), "");
    return LLVMBuildSelect(g->b, zero, cint(t, 0), r, "");
}

/* shl: 0 outside [0, width); shr: the sign fill (signed) or 0 (u32).  A
 * negative count read as unsigned is outside too. */
static LLVMValueRef shift(HkHostGen *g, HkOp op, HkElem e, LLVMValueRef x,
                          LLVMValueRef y)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef w = cint(t, width(e));
    LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULT, y, w, "");
    LLVMValueRef top = cint(t, width(e) - 1);
    if (op == HK_OP_SHR && !is_unsigned(e))
        return LLVMBuildAShr(g->b, x, LLVMBuildSelect(g->b, in, y, top, ""),
                             "");
    LLVMValueRef n = LLVMBuildAnd(g->b, y, top, "");
    LLVMValueRef s = op == HK_OP_SHL ? LLVMBuildShl(g->b, x, n, "")
                                     : LLVMBuildLShr(g->b, x, n, "");
    return LLVMBuildSelect(g->b, in, s, cint(t, 0), "");
}

/* The smaller (minimum) or larger (maximum) integer, unsigned for u32. */
static LLVMValueRef minmax(HkHostGen *g, HkOp op, HkElem e, LLVMValueRef x,
                           LLVMValueRef y)
{
    LLVMIntPredicate p;
    if (op == HK_OP_MINIMUM)
        p = is_unsigned(e) ? LLVMIntULT : LLVMIntSLT;
    else
        p = is_unsigned(e) ? LLVMIntUGT : LLVMIntSGT;
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, p, x, y, ""), x, y, "");
}

LLVMValueRef hk_host_int_binary(HkHostGen *g, HkOp op, HkElem e,
                                LLVMValueRef x, LLVMValueRef y)
{
    switch (op) {
    case HK_OP_ADD: return LLVMBuildAdd(g->b, x, y, "");
    case HK_OP_SUB: return LLVMBuildSub(g->b, x, y, "");
    case HK_OP_MUL: return LLVMBuildMul(g->b, x, y, "");
    case HK_OP_DIV:
    case HK_OP_FLOORDIV:
    case HK_OP_MOD: return division(g, op, e, x, y);
    case HK_OP_SHL:
    case HK_OP_SHR: return shift(g, op, e, x, y);
    case HK_OP_AND: return LLVMBuildAnd(g->b, x, y, "");
    case HK_OP_OR: return LLVMBuildOr(g->b, x, y, "");
    case HK_OP_XOR: return LLVMBuildXor(g->b, x, y, "");
    case HK_OP_MINIMUM:
    case HK_OP_MAXIMUM: return minmax(g, op, e, x, y);
    default: break;
    }
    hk_host_fail(g, NULL, hk_asprintf(g->a, "'%s' is not an integer op",
                                      hk_ops[op].mnemonic));
    return LLVMGetUndef(LLVMTypeOf(x));
}

/* 0 - x, wrapping (neg MIN is MIN). */
LLVMValueRef hk_host_int_neg(HkHostGen *g, LLVMValueRef x)
{
    return LLVMBuildSub(g->b, cint(LLVMTypeOf(x), 0), x, "");
}

/* x < 0 ? -x : x, wrapping (abs MIN is MIN); a u32 is never negative. */
LLVMValueRef hk_host_int_abs(HkHostGen *g, HkElem e, LLVMValueRef x)
{
    if (is_unsigned(e))
        return x;
    LLVMValueRef neg = LLVMBuildICmp(g->b, LLVMIntSLT, x,
                                     cint(LLVMTypeOf(x), 0), "");
    return LLVMBuildSelect(g->b, neg, hk_host_int_neg(g, x), x, "");
}

/* LangRef reads an i1 as 0 or 1 under every predicate; LLVM's signed
 * predicates read an i1 true as -1, so masks are widened first. */
LLVMValueRef hk_host_icmp(HkHostGen *g, HkPred p, HkElem e, LLVMValueRef x,
                          LLVMValueRef y)
{
    LLVMIntPredicate q;
    switch (p) {
    case HK_P_EQ: q = LLVMIntEQ; break;
    case HK_P_NE: q = LLVMIntNE; break;
    case HK_P_SLT: q = LLVMIntSLT; break;
    case HK_P_SLE: q = LLVMIntSLE; break;
    case HK_P_SGT: q = LLVMIntSGT; break;
    case HK_P_SGE: q = LLVMIntSGE; break;
    case HK_P_ULT_I: q = LLVMIntULT; break;
    case HK_P_ULE_I: q = LLVMIntULE; break;
    case HK_P_UGT_I: q = LLVMIntUGT; break;
    case HK_P_UGE_I: q = LLVMIntUGE; break;
    default:
        hk_host_fail(g, NULL, "an icmp predicate outside icmp's set");
        return LLVMGetUndef(LLVMInt1TypeInContext(g->ctx));
    }
    if (e == HK_I1) {
        LLVMTypeRef i8 = LLVMInt8TypeInContext(g->ctx);
        x = LLVMBuildZExt(g->b, x, i8, "");
        y = LLVMBuildZExt(g->b, y, i8, "");
    }
    return LLVMBuildICmp(g->b, q, x, y, "");
}

/* k < 0 ? 0 : (k >= len ? len - 1 : k), for len >= 1. */
LLVMValueRef hk_host_clamp_index(HkHostGen *g, LLVMValueRef k,
                                 LLVMValueRef len)
{
    LLVMTypeRef t = LLVMTypeOf(k);
    LLVMValueRef last = LLVMBuildSub(g->b, len, cint(t, 1), "");
    LLVMValueRef low = LLVMBuildICmp(g->b, LLVMIntSLT, k, cint(t, 0), "");
    LLVMValueRef high = LLVMBuildICmp(g->b, LLVMIntSGE, k, len, "");
    LLVMValueRef up = LLVMBuildSelect(g->b, high, last, k, "");
    return LLVMBuildSelect(g->b, low, cint(t, 0), up, "");
}
