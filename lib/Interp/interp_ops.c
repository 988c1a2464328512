/* interp_ops.c -- the component-wise ops by LangRef's semantics, each as
 * the units compute it: IEEE operations rounding on their own (this file
 * is built with -ffp-contract=off and holds one operation per
 * statement), integers wrapping with the defined answers of a zero
 * divisor, MIN / -1 and oversized shifts, saturating conversions. */
#include <math.h>
#include <string.h>

#include "interpint.h"

HkWord hk_interp_norm(HkElem e, uint64_t u)
{
    HkWord w;
    switch (e) {
    case HK_I32: w.i = (int64_t)(int32_t)(uint32_t)u; return w;
    case HK_U32: w.u = u & 0xffffffffu; return w;
    case HK_I1: w.u = u & 1u; return w;
    default: w.u = u; return w;
    }
}

double hk_interp_real(HkElem e, HkWord x)
{
    return e == HK_F32 ? (double)x.f : x.d;
}

static HkWord real_of(HkElem e, double v)
{
    HkWord w;
    w.u = 0;
    if (e == HK_F32)
        w.f = (float)v;
    else
        w.d = v;
    return w;
}

static HkWord bit(int b)
{
    HkWord w;
    w.u = b ? 1u : 0u;
    return w;
}

/* ---- reals ---------------------------------------------------------------- */

static HkWord real_binary(HkOp op, HkElem e, HkWord x, HkWord y, int *ok)
{
    HkWord w;
    w.u = 0;
    if (e == HK_F32) {
        switch (op) {
        case HK_OP_FADD: w.f = x.f + y.f; return w;
        case HK_OP_FSUB: w.f = x.f - y.f; return w;
        case HK_OP_FMUL: w.f = x.f * y.f; return w;
        case HK_OP_FDIV: w.f = x.f / y.f; return w;
        default: break;
        }
    } else {
        switch (op) {
        case HK_OP_FADD: w.d = x.d + y.d; return w;
        case HK_OP_FSUB: w.d = x.d - y.d; return w;
        case HK_OP_FMUL: w.d = x.d * y.d; return w;
        case HK_OP_FDIV: w.d = x.d / y.d; return w;
        default: break;
        }
    }
    *ok = 0;
    return w;
}

/* minimum, maximum: the first NaN, else x < y ? x : y (x > y ? x : y). */
static HkWord real_minmax(HkOp op, HkElem e, HkWord x, HkWord y)
{
    double a = hk_interp_real(e, x), b = hk_interp_real(e, y);
    if (isnan(a))
        return x;
    if (isnan(b))
        return y;
    int pick = op == HK_OP_MINIMUM ? a < b : a > b;
    return pick ? x : y;
}

static int fcmp(HkPred p, double x, double y)
{
    int un = isnan(x) || isnan(y);
    switch (p) {
    case HK_P_OEQ: return x == y;
    case HK_P_ONE: return x < y || x > y;
    case HK_P_OLT: return x < y;
    case HK_P_OLE: return x <= y;
    case HK_P_OGT: return x > y;
    case HK_P_OGE: return x >= y;
    case HK_P_UEQ: return un || x == y;
    case HK_P_UNE: return un || x != y;
    case HK_P_ULT: return un || x < y;
    case HK_P_ULE: return un || x <= y;
    case HK_P_UGT: return un || x > y;
    case HK_P_UGE: return un || x >= y;
    case HK_P_ORD: return !un;
    case HK_P_UNO: return un;
    default: return -1;  /* not an fcmp predicate */
    }
}

/* ---- integers -------------------------------------------------------------- */

static int is_signed(HkElem e)
{
    return e == HK_I64 || e == HK_I32;
}

static unsigned width(HkElem e)
{
    return e == HK_I64 ? 64u : 32u;
}

/* The signed value's most negative. */
static int64_t min_of(HkElem e)
{
    return e == HK_I64 ? INT64_MIN : (int64_t)INT32_MIN;
}

/* div, floordiv, mod: 0 for a zero divisor, MIN for MIN / -1 (mod: 0). */
static HkWord division(HkOp op, HkElem e, HkWord x, HkWord y)
{
    HkWord w;
    if (!is_signed(e)) {
        if (y.u == 0)
            return hk_interp_norm(e, 0);
        w.u = op == HK_OP_MOD ? x.u % y.u : x.u / y.u;
        return w;
    }
    if (y.i == 0)
        return hk_interp_norm(e, 0);
    if (x.i == min_of(e) && y.i == -1)
        return hk_interp_norm(e, op == HK_OP_MOD ? 0u : (uint64_t)min_of(e));
    int64_t q = x.i / y.i;
    int64_t r = x.i % y.i;
    int down = r != 0 && ((r < 0) != (y.i < 0));
    if (op == HK_OP_FLOORDIV && down)
        q = q - 1;
    if (op == HK_OP_MOD && down)
        r = r + y.i;
    return hk_interp_norm(e, (uint64_t)(op == HK_OP_MOD ? r : q));
}

/* A shift count read as the unsigned value of its width. */
static uint64_t count_of(HkElem e, HkWord y)
{
    return e == HK_I64 ? y.u : (uint64_t)(uint32_t)y.u;
}

static HkWord shift(HkOp op, HkElem e, HkWord x, HkWord y)
{
    uint64_t c = count_of(e, y), w = width(e);
    if (op == HK_OP_SHL)
        return hk_interp_norm(e, c < w ? x.u << c : 0u);
    if (!is_signed(e))
        return hk_interp_norm(e, c < w ? x.u >> c : 0u);
    if (c >= w)
        c = w - 1;
    /* arithmetic: the sign fills from the left */
    uint64_t r = x.i < 0 ? ~(~x.u >> c) : x.u >> c;
    return hk_interp_norm(e, r);
}

static HkWord int_minmax(HkOp op, HkElem e, HkWord x, HkWord y)
{
    int less = is_signed(e) ? x.i < y.i : x.u < y.u;
    int greater = is_signed(e) ? x.i > y.i : x.u > y.u;
    return (op == HK_OP_MINIMUM ? less : greater) ? x : y;
}

static HkWord int_binary(HkOp op, HkElem e, HkWord x, HkWord y, int *ok)
{
    switch (op) {
    case HK_OP_ADD: return hk_interp_norm(e, x.u + y.u);
    case HK_OP_SUB: return hk_interp_norm(e, x.u - y.u);
    case HK_OP_MUL: return hk_interp_norm(e, x.u * y.u);
    case HK_OP_DIV:
    case HK_OP_FLOORDIV:
    case HK_OP_MOD: return division(op, e, x, y);
    case HK_OP_SHL:
    case HK_OP_SHR: return shift(op, e, x, y);
    case HK_OP_AND: return hk_interp_norm(e, x.u & y.u);
    case HK_OP_OR: return hk_interp_norm(e, x.u | y.u);
    case HK_OP_XOR: return hk_interp_norm(e, x.u ^ y.u);
    case HK_OP_MINIMUM:
    case HK_OP_MAXIMUM: return int_minmax(op, e, x, y);
    default: break;
    }
    *ok = 0;
    return x;
}

/* icmp: an i1 reads 0 or 1 under every predicate; the unsigned
 * predicates read a signed operand's bits, the signed ones a u32's. */
static int icmp(HkPred p, HkElem e, HkWord x, HkWord y)
{
    int64_t sx, sy;
    uint64_t ux, uy;
    if (e == HK_I1) {
        sx = (int64_t)x.u;
        sy = (int64_t)y.u;
        ux = x.u;
        uy = y.u;
    } else if (e == HK_U32) {
        sx = (int64_t)(int32_t)(uint32_t)x.u;
        sy = (int64_t)(int32_t)(uint32_t)y.u;
        ux = x.u;
        uy = y.u;
    } else {
        sx = x.i;
        sy = y.i;
        ux = e == HK_I64 ? x.u : (uint64_t)(uint32_t)x.u;
        uy = e == HK_I64 ? y.u : (uint64_t)(uint32_t)y.u;
    }
    switch (p) {
    case HK_P_EQ: return ux == uy;
    case HK_P_NE: return ux != uy;
    case HK_P_SLT: return sx < sy;
    case HK_P_SLE: return sx <= sy;
    case HK_P_SGT: return sx > sy;
    case HK_P_SGE: return sx >= sy;
    case HK_P_ULT_I: return ux < uy;
    case HK_P_ULE_I: return ux <= uy;
    case HK_P_UGT_I: return ux > uy;
    case HK_P_UGE_I: return ux >= uy;
    default: return -1;  /* not an icmp predicate */
    }
}

/* ---- conversions ------------------------------------------------------------ */

/* fptosi: truncation toward zero, NaN 0, saturating at MIN and MAX. */
static HkWord to_int(HkElem to, double v)
{
    double lim = to == HK_I64 ? 9223372036854775808.0 : 2147483648.0;
    if (isnan(v))
        return hk_interp_norm(to, 0);
    if (v >= lim)
        return hk_interp_norm(to, to == HK_I64 ? (uint64_t)INT64_MAX
                                               : (uint64_t)INT32_MAX);
    if (v < -lim)
        return hk_interp_norm(to, (uint64_t)min_of(to));
    return hk_interp_norm(to, (uint64_t)(int64_t)v);
}

/* bitcast: the same bits read as the other type of the width (an f32's
 * are the four bytes of f, an i32's or u32's the low half of u). */
static HkWord bitcast(HkElem from, HkElem to, HkWord x)
{
    HkWord w;
    w.u = 0;
    if (hk_elem_bytes(from) == 8) {
        w.u = x.u;  /* f64 and i64 share the word's eight bytes */
        return w;
    }
    uint32_t b;
    if (from == HK_F32) {
        memcpy(&b, &x.f, sizeof b);
        return hk_interp_norm(to, b);
    }
    b = (uint32_t)x.u;
    memcpy(&w.f, &b, sizeof b);
    return w;
}

static HkWord convert(HkOp op, HkElem from, HkElem to, HkWord x, int *ok)
{
    HkWord w;
    w.u = 0;
    switch (op) {
    case HK_OP_SITOFP:
        if (to == HK_F32)
            w.f = (float)x.i;
        else
            w.d = (double)x.i;
        return w;
    case HK_OP_UITOFP:
        if (to == HK_F32)
            w.f = (float)x.u;
        else
            w.d = (double)x.u;
        return w;
    case HK_OP_FPTOSI: return to_int(to, hk_interp_real(from, x));
    case HK_OP_FPEXT: w.d = (double)x.f; return w;
    case HK_OP_FPTRUNC: w.f = (float)x.d; return w;
    case HK_OP_SEXT: return hk_interp_norm(to, x.u);
    case HK_OP_ZEXT: return hk_interp_norm(to, x.u);
    case HK_OP_TRUNC: return hk_interp_norm(to, x.u);
    case HK_OP_BITCAST: return bitcast(from, to, x);
    default: break;
    }
    *ok = 0;
    return w;
}

HkWord hk_interp_op(HkOp op, HkPred pred, HkElem e, HkElem oe, HkWord x,
                    HkWord y, HkWord z, int *ok)
{
    switch (hk_ops[op].rule) {
    case HK_R_FARITH: return real_binary(op, e, x, y, ok);
    case HK_R_FUNARY: {
        HkWord w = x;
        if (e == HK_F32)
            w.f = -x.f;
        else
            w.d = -x.d;
        return w;
    }
    case HK_R_IARITH:
    case HK_R_LOGIC: return int_binary(op, e, x, y, ok);
    case HK_R_IUNARY: return hk_interp_norm(e, 0u - x.u);
    case HK_R_LOGICNOT: return hk_interp_norm(e, ~x.u);
    case HK_R_FCMP:
    case HK_R_ICMP: {
        int r = hk_ops[op].rule == HK_R_FCMP
                    ? fcmp(pred, hk_interp_real(oe, x), hk_interp_real(oe, y))
                    : icmp(pred, oe, x, y);
        if (r < 0)
            break;
        return bit(r);
    }
    case HK_R_SELECT: return x.u ? y : z;
    case HK_R_CONV: return convert(op, oe, e, x, ok);
    case HK_R_ABS:
        if (hk_is_int(e))
            return is_signed(e) && x.i < 0 ? hk_interp_norm(e, 0u - x.u) : x;
        return hk_interp_libm(HK_OP_ABS, e, x, y, ok);
    case HK_R_MINMAX:
        if (e == HK_I1)  /* no order of masks (the verifier's rule) */
            break;
        if (hk_is_int(e))
            return int_binary(op, e, x, y, ok);
        return real_minmax(op, e, x, y);
    default: break;
    }
    *ok = 0;
    return x;
}

HkWord hk_interp_elem(const HkInst *i, HkElem e, HkElem oe, HkWord x,
                      HkWord y, HkWord z, int *ok)
{
    return hk_interp_op(i->op, (HkPred)i->pred, e, oe, x, y, z, ok);
}

/* ---- the C library -------------------------------------------------------- */

typedef double (*Fn1)(double);
typedef float (*Fn1f)(float);
typedef double (*Fn2)(double, double);
typedef float (*Fn2f)(float, float);

/* The C library's function of unary op op, f64 and f32. */
static int unary_fn(HkOp op, Fn1 *d, Fn1f *f)
{
    switch (op) {
    case HK_OP_SQRT: *d = sqrt; *f = sqrtf; return 1;
    case HK_OP_ABS: *d = fabs; *f = fabsf; return 1;
    case HK_OP_FLOOR: *d = floor; *f = floorf; return 1;
    case HK_OP_CEIL: *d = ceil; *f = ceilf; return 1;
    case HK_OP_EXP: *d = exp; *f = expf; return 1;
    case HK_OP_EXPM1: *d = expm1; *f = expm1f; return 1;
    case HK_OP_LOG: *d = log; *f = logf; return 1;
    case HK_OP_LOG2: *d = log2; *f = log2f; return 1;
    case HK_OP_LOG10: *d = log10; *f = log10f; return 1;
    case HK_OP_LOG1P: *d = log1p; *f = log1pf; return 1;
    case HK_OP_SIN: *d = sin; *f = sinf; return 1;
    case HK_OP_COS: *d = cos; *f = cosf; return 1;
    case HK_OP_TAN: *d = tan; *f = tanf; return 1;
    case HK_OP_ASIN: *d = asin; *f = asinf; return 1;
    case HK_OP_ACOS: *d = acos; *f = acosf; return 1;
    case HK_OP_ATAN: *d = atan; *f = atanf; return 1;
    case HK_OP_SINH: *d = sinh; *f = sinhf; return 1;
    case HK_OP_COSH: *d = cosh; *f = coshf; return 1;
    case HK_OP_TANH: *d = tanh; *f = tanhf; return 1;
    case HK_OP_ASINH: *d = asinh; *f = asinhf; return 1;
    case HK_OP_ACOSH: *d = acosh; *f = acoshf; return 1;
    case HK_OP_ATANH: *d = atanh; *f = atanhf; return 1;
    default: return 0;
    }
}

static int binary_fn(HkOp op, Fn2 *d, Fn2f *f)
{
    switch (op) {
    case HK_OP_ATAN2: *d = atan2; *f = atan2f; return 1;
    case HK_OP_POW: *d = pow; *f = powf; return 1;
    case HK_OP_HYPOT: *d = hypot; *f = hypotf; return 1;
    default: return 0;
    }
}

HkWord hk_interp_libm(HkOp op, HkElem e, HkWord x, HkWord y, int *ok)
{
    Fn1 d1;
    Fn1f f1;
    Fn2 d2;
    Fn2f f2;
    HkWord w;
    w.u = 0;
    if (unary_fn(op, &d1, &f1)) {
        if (e == HK_F32)
            w.f = f1(x.f);
        else
            w.d = d1(x.d);
        return w;
    }
    if (binary_fn(op, &d2, &f2)) {
        if (e == HK_F32)
            w.f = f2(x.f, y.f);
        else
            w.d = d2(x.d, y.d);
        return w;
    }
    *ok = 0;
    return real_of(e, 0.0);
}
