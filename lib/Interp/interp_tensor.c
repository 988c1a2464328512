/* interp_tensor.c -- the folds and products in LangRef's order ("Tensor
 * folds and products"): a fold starts from its first term, never from a
 * zero, and runs left to right; each product and each partial sum is
 * one operation of interp_ops.c, rounded on its own.  This is the order
 * the scalarize pass spells, computed here from LangRef, not from it, so
 * that a lowering which folds otherwise disagrees with the interpreter. */
#include "interpint.h"

static HkWord op2(HkOp op, HkElem e, HkWord x, HkWord y)
{
    int ok = 1;
    return hk_interp_op(op, (HkPred)0, e, e, x, y, x, &ok);
}

static HkWord add(HkElem e, HkWord x, HkWord y)
{
    return op2(hk_is_float(e) ? HK_OP_FADD : HK_OP_ADD, e, x, y);
}

static HkWord mul(HkElem e, HkWord x, HkWord y)
{
    return op2(hk_is_float(e) ? HK_OP_FMUL : HK_OP_MUL, e, x, y);
}

/* ((a[0] * b[0] + a[sa] * b[sb]) + ...) over n terms, a and b read with
 * strides sa and sb. */
static HkWord dot(HkElem e, const HkWord *a, uint32_t sa, const HkWord *b,
                  uint32_t sb, uint32_t n)
{
    HkWord acc = mul(e, a[0], b[0]);
    for (uint32_t k = 1; k < n; k++)
        acc = add(e, acc, mul(e, a[k * sa], b[k * sb]));
    return acc;
}

/* a[j] * b[k] - a[k] * b[j], each product rounded, then the difference. */
static HkWord cross_term(HkElem e, const HkWord *a, const HkWord *b,
                         uint32_t j, uint32_t k)
{
    HkWord p = mul(e, a[j], b[k]), q = mul(e, a[k], b[j]);
    return op2(HK_OP_FSUB, e, p, q);
}

/* sum or prod: a left fold over the n components in row-major order. */
static HkWord fold(HkOp op, HkElem e, const HkWord *a, uint32_t n)
{
    HkWord acc = a[0];
    for (uint32_t k = 1; k < n; k++)
        acc = op == HK_OP_SUM ? add(e, acc, a[k]) : mul(e, acc, a[k]);
    return acc;
}

int hk_interp_fold(HkOp op, HkType ta, HkType tb, const HkWord *a,
                   const HkWord *b, HkWord *out)
{
    HkElem e = (HkElem)ta.elem;
    uint32_t r = ta.dim[0], c = ta.rank == 2 ? ta.dim[1] : 1u;
    int ok = 1;
    switch (op) {
    case HK_OP_DOT: out[0] = dot(e, a, 1, b, 1, r); return 0;
    case HK_OP_NORM:
        out[0] = hk_interp_libm(HK_OP_SQRT, e, dot(e, a, 1, a, 1, r), a[0], &ok);
        return 0;
    case HK_OP_CROSS:
        out[0] = cross_term(e, a, b, 1, 2);
        out[1] = cross_term(e, a, b, 2, 0);
        out[2] = cross_term(e, a, b, 0, 1);
        return 0;
    case HK_OP_MATVEC:
        for (uint32_t y = 0; y < r; y++)
            out[y] = dot(e, a + y * c, 1, b, 1, c);
        return 0;
    case HK_OP_MATMUL: {
        uint32_t cols = tb.dim[1];
        for (uint32_t y = 0; y < r; y++)
            for (uint32_t x = 0; x < cols; x++)
                out[y * cols + x] = dot(e, a + y * c, 1, b + x, cols, c);
        return 0;
    }
    case HK_OP_TRANSPOSE:
        for (uint32_t y = 0; y < r; y++)
            for (uint32_t x = 0; x < c; x++)
                out[x * r + y] = a[y * c + x];
        return 0;
    case HK_OP_SUM:
    case HK_OP_PROD: out[0] = fold(op, e, a, hk_components(ta)); return 0;
    default: return -1;
    }
}
