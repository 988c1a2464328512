/* interval.c -- interval arithmetic over the extended reals with outward
 * rounding, for fp-domain.
 *
 * The kernel's arithmetic rounds to nearest, so a bound computed the same
 * way could sit one unit inside the true one.  Each bound is therefore
 * computed in double and kept only when the operation was exact (checked
 * with an error-free transformation); otherwise it steps one unit
 * outward.  Exact bounds matter: x - 1 with x in [1, 2] must give a lower
 * bound of 0, not -4.9e-324.  A NaN bound (inf - inf, 0 * inf) becomes the
 * infinite one: a value that is NaN is outside every claim anyway.
 */
#include <math.h>

#include "interval.h"

/* Below this magnitude a product's or quotient's rounding error may
 * itself underflow, so the fma check cannot see it. */
#define TINY 0x1p-969

/* pi/2 and pi rounded up. */
#define HALF_PI_UP 0x1.921fb54442d19p+0
#define PI_UP 0x1.921fb54442d19p+1

HkIv hk_iv(double lo, double hi)
{
    HkIv r = {lo, hi};
    return r;
}

HkIv hk_iv_full(void) { return hk_iv(-INFINITY, INFINITY); }
HkIv hk_iv_empty(void) { return hk_iv(INFINITY, -INFINITY); }
int hk_iv_is_empty(HkIv a) { return !(a.lo <= a.hi); }
int hk_iv_is_full(HkIv a) { return a.lo == -INFINITY && a.hi == INFINITY; }

/* r with a NaN bound replaced by the infinite one. */
static HkIv clean(HkIv r)
{
    if (isnan(r.lo))
        r.lo = -INFINITY;
    if (isnan(r.hi))
        r.hi = INFINITY;
    return r;
}

/* The largest double <= the exact value r was rounded from. */
static double dn(double r, int exact)
{
    return exact ? r : nextafter(r, -INFINITY);
}

/* The smallest double >= the exact value r was rounded from. */
static double up(double r, int exact)
{
    return exact ? r : nextafter(r, INFINITY);
}

HkIv hk_iv_hull(HkIv a, HkIv b)
{
    return hk_iv(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

/* The largest float <= v, as a double. */
static double float_dn(double v)
{
    float f = (float)v;
    if ((double)f > v)
        f = nextafterf(f, -INFINITY);
    return (double)f;
}

/* The smallest float >= v, as a double. */
static double float_up(double v)
{
    float f = (float)v;
    if ((double)f < v)
        f = nextafterf(f, INFINITY);
    return (double)f;
}

HkIv hk_iv_fit(HkIv a, HkElem e)
{
    if (e != HK_F32 || hk_iv_is_empty(a))
        return a;
    /* A float result is the float nearest the double one; rounding is
     * monotone, so the float neighbours outside the bounds hold it. */
    return hk_iv(float_dn(a.lo), float_up(a.hi));
}

/* Whether a + b == s exactly (TwoSum; infinite operands are exact). */
static int sum_exact(double a, double b, double s)
{
    if (isinf(a) || isinf(b))
        return 1;
    if (!isfinite(s))
        return 0;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    return err == 0.0;
}

HkIv hk_iv_add(HkIv a, HkIv b)
{
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    double lo = a.lo + b.lo, hi = a.hi + b.hi;
    return clean(hk_iv(dn(lo, sum_exact(a.lo, b.lo, lo)),
                       up(hi, sum_exact(a.hi, b.hi, hi))));
}

HkIv hk_iv_neg(HkIv a)
{
    if (hk_iv_is_empty(a))
        return a;
    return hk_iv(-a.hi, -a.lo);
}

HkIv hk_iv_sub(HkIv a, HkIv b)
{
    return hk_iv_add(a, hk_iv_neg(b));
}

/* The endpoint product, with 0 * inf taken as 0 (the limit the reals in
 * the box approach; the NaN itself is outside every claim). */
static double endpoint_mul(double a, double b)
{
    return (a == 0.0 || b == 0.0) ? 0.0 : a * b;
}

/* Whether p is the exact product a * b. */
static int mul_exact(double a, double b, double p)
{
    if (p == 0.0)
        return a == 0.0 || b == 0.0;
    if (isinf(a) || isinf(b))
        return 1;
    if (isinf(p) || fabs(p) < TINY)
        return 0;
    return fma(a, b, -p) == 0.0;
}

/* Widens r to hold the exact value that v was rounded from. */
static void hull_rounded(HkIv *r, double v, int exact)
{
    double lo = dn(v, exact), hi = up(v, exact);
    if (lo < r->lo)
        r->lo = lo;
    if (hi > r->hi)
        r->hi = hi;
}

/* Widens r to hold the product x * y rounded down and up. */
static void mul_into(HkIv *r, double x, double y)
{
    double p = endpoint_mul(x, y);
    hull_rounded(r, p, mul_exact(x, y, p));
}

/* The hull of into() over the four endpoint pairs of a and b: a product,
 * or a quotient whose divisor keeps one sign, is monotone in each
 * operand over the box, so its extremes stand at the corners. */
static HkIv corners(HkIv a, HkIv b, void (*into)(HkIv *, double, double))
{
    HkIv r = hk_iv_empty();
    into(&r, a.lo, b.lo);
    into(&r, a.lo, b.hi);
    into(&r, a.hi, b.lo);
    into(&r, a.hi, b.hi);
    return r;
}

HkIv hk_iv_mul(HkIv a, HkIv b)
{
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    return clean(corners(a, b, mul_into));
}

HkIv hk_iv_sqr(HkIv a)
{
    if (hk_iv_is_empty(a))
        return a;
    if (a.lo >= 0.0 || a.hi <= 0.0)
        return hk_iv_mul(a, a);
    /* The sign changes inside: the square reaches 0 and no lower. */
    HkIv r = hk_iv_empty();
    mul_into(&r, a.lo, a.lo);
    mul_into(&r, a.hi, a.hi);
    r.lo = 0.0;
    return clean(r);
}

/* Whether q is the exact quotient a / b (b nonzero). */
static int div_exact(double a, double b, double q)
{
    if (a == 0.0)
        return 1;
    if (isinf(a))
        return isfinite(b);
    if (isinf(b))
        return 1;
    if (!isfinite(q) || fabs(q) < TINY || fabs(a) < TINY)
        return 0;
    return fma(q, b, -a) == 0.0;
}

/* Widens r to hold x / y rounded down and up; inf / inf (NaN) adds
 * nothing: the limits near it are other endpoints' quotients. */
static void div_into(HkIv *r, double x, double y)
{
    double q = x / y;
    if (isnan(q))
        return;
    hull_rounded(r, q, div_exact(x, y, q));
}

HkIv hk_iv_div(HkIv a, HkIv b)
{
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    /* A divisor that may be zero (of either sign) reaches both infinities. */
    if (!(b.lo > 0.0 || b.hi < 0.0))
        return hk_iv_full();
    HkIv r = corners(a, b, div_into);
    return hk_iv_is_empty(r) ? hk_iv_full() : clean(r);
}

/* Whether s is the exact square root of x >= 0. */
static int sqrt_exact(double x, double s)
{
    if (x == 0.0 || isinf(x))
        return 1;
    if (x < TINY)
        return 0;
    return fma(s, s, -x) == 0.0;
}

HkIv hk_iv_sqrt(HkIv a)
{
    if (hk_iv_is_empty(a))
        return a;
    if (a.hi < 0.0)
        return hk_iv_full();  /* only NaN: no number to bound */
    double x = a.lo > 0.0 ? a.lo : 0.0;
    double lo = sqrt(x), hi = sqrt(a.hi);
    /* sqrt(-0.0) is -0.0, which is 0 here. */
    return hk_iv(dn(lo, sqrt_exact(x, lo)), up(hi, sqrt_exact(a.hi, hi)));
}

HkIv hk_iv_abs(HkIv a)
{
    if (hk_iv_is_empty(a) || a.lo >= 0.0)
        return a;
    if (a.hi <= 0.0)
        return hk_iv_neg(a);
    return hk_iv(0.0, -a.lo > a.hi ? -a.lo : a.hi);
}

HkIv hk_iv_min(HkIv a, HkIv b)
{
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    return hk_iv(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
}

HkIv hk_iv_max(HkIv a, HkIv b)
{
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    return hk_iv(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

HkIv hk_iv_sum_of(HkIv t, uint32_t n)
{
    HkIv acc = t;
    for (uint32_t k = 1; k < n && !hk_iv_is_full(acc); k++)
        acc = hk_iv_add(acc, t);
    return acc;
}

HkIv hk_iv_prod_of(HkIv t, uint32_t n)
{
    HkIv acc = t;
    for (uint32_t k = 1; k < n && !hk_iv_is_full(acc); k++)
        acc = hk_iv_mul(acc, t);
    return acc;
}

/* ---- libm ----------------------------------------------------------------
 * A libm result may be off by a few units, and an implementation need not
 * even be monotone; a bound from f(lo) is widened by HK_LIBM_ULPS units of
 * the result type on top of the true function's monotonicity. */

/* v stepped n units of e down (dir < 0) or up (dir > 0). */
static double widen(double v, HkElem e, int dir)
{
    double to = dir < 0 ? -INFINITY : INFINITY;
    if (e == HK_F32) {
        float f = (float)(dir < 0 ? float_dn(v) : float_up(v));
        for (int k = 0; k < HK_LIBM_ULPS; k++)
            f = nextafterf(f, (float)to);
        return (double)f;
    }
    for (int k = 0; k < HK_LIBM_ULPS; k++)
        v = nextafter(v, to);
    return v;
}

/* [max(a.lo, lo), min(a.hi, hi)]: a cut to a function's domain or range. */
static HkIv cut(HkIv a, double lo, double hi)
{
    return hk_iv(a.lo > lo ? a.lo : lo, a.hi < hi ? a.hi : hi);
}

typedef double (*Fn1)(double);

/* An increasing libm function on a cut to its domain [dlo, dhi], the
 * result cut to its range [rlo, rhi]. */
static HkIv increasing(Fn1 fn, HkIv a, HkElem e, double dlo, double dhi,
                       double rlo, double rhi)
{
    HkIv d = cut(a, dlo, dhi);
    if (hk_iv_is_empty(d))
        return hk_iv_full();  /* only NaN: no number to bound */
    HkIv r = hk_iv(widen(fn(d.lo), e, -1), widen(fn(d.hi), e, 1));
    return cut(clean(r), rlo, rhi);
}

/* cosh: decreasing to 1 at 0, then increasing. */
static HkIv iv_cosh(HkIv a, HkElem e)
{
    HkIv m = hk_iv_abs(a);
    HkIv r = hk_iv(widen(cosh(m.lo), e, -1), widen(cosh(m.hi), e, 1));
    return cut(r, 1.0, INFINITY);
}

/* acos: decreasing on [-1, 1] onto [0, pi]. */
static HkIv iv_acos(HkIv a, HkElem e)
{
    HkIv d = cut(a, -1.0, 1.0);
    if (hk_iv_is_empty(d))
        return hk_iv_full();
    HkIv r = hk_iv(widen(acos(d.hi), e, -1), widen(acos(d.lo), e, 1));
    return cut(r, 0.0, PI_UP);
}

/* rsqrt x: 1 / sqrt(x), the division rounded after the libm sqrt. */
static HkIv iv_rsqrt(HkIv a, HkElem e)
{
    HkIv s = hk_iv_fit(hk_iv_sqrt(a), e);
    return hk_iv_div(hk_iv(1.0, 1.0), s);
}

/* The transcendental functions that grow with their operand, by domain
 * and range; 0 for an op that is not one of them. */
static int monotone(HkOp op, HkIv a, HkElem e, HkIv *r)
{
    const double I = INFINITY;
    switch (op) {
    case HK_OP_EXP: *r = increasing(exp, a, e, -I, I, 0.0, I); return 1;
    case HK_OP_EXPM1: *r = increasing(expm1, a, e, -I, I, -1.0, I); return 1;
    case HK_OP_LOG: *r = increasing(log, a, e, 0.0, I, -I, I); return 1;
    case HK_OP_LOG2: *r = increasing(log2, a, e, 0.0, I, -I, I); return 1;
    case HK_OP_LOG10: *r = increasing(log10, a, e, 0.0, I, -I, I); return 1;
    case HK_OP_LOG1P: *r = increasing(log1p, a, e, -1.0, I, -I, I); return 1;
    case HK_OP_ASIN:
        *r = increasing(asin, a, e, -1.0, 1.0, -HALF_PI_UP, HALF_PI_UP);
        return 1;
    case HK_OP_ATAN:
        *r = increasing(atan, a, e, -I, I, -HALF_PI_UP, HALF_PI_UP);
        return 1;
    case HK_OP_SINH: *r = increasing(sinh, a, e, -I, I, -I, I); return 1;
    case HK_OP_TANH: *r = increasing(tanh, a, e, -I, I, -1.0, 1.0); return 1;
    case HK_OP_ASINH: *r = increasing(asinh, a, e, -I, I, -I, I); return 1;
    case HK_OP_ACOSH: *r = increasing(acosh, a, e, 1.0, I, 0.0, I); return 1;
    case HK_OP_ATANH: *r = increasing(atanh, a, e, -1.0, 1.0, -I, I); return 1;
    default: return 0;
    }
}

HkIv hk_iv_math1(HkOp op, HkIv a, HkElem e)
{
    HkIv r;
    if (hk_iv_is_empty(a))
        return a;
    if (monotone(op, a, e, &r))
        return hk_iv_fit(r, e);
    switch (op) {
    case HK_OP_SQRT: r = hk_iv_sqrt(a); break;  /* correctly rounded */
    case HK_OP_RSQRT: r = iv_rsqrt(a, e); break;
    case HK_OP_SIN:
    case HK_OP_COS: r = hk_iv(-1.0, 1.0); break;
    case HK_OP_COSH: r = iv_cosh(a, e); break;
    case HK_OP_ACOS: r = iv_acos(a, e); break;
    case HK_OP_FLOOR: r = hk_iv(floor(a.lo), floor(a.hi)); break;  /* exact */
    case HK_OP_CEIL: r = hk_iv(ceil(a.lo), ceil(a.hi)); break;
    default: r = hk_iv_full(); break;  /* tan, anything new */
    }
    return hk_iv_fit(r, e);
}

/* hypot(x, y): at least max(|x|, |y|), at most |x| + |y|. */
static HkIv iv_hypot(HkIv a, HkIv b, HkElem e)
{
    HkIv m = hk_iv_max(hk_iv_abs(a), hk_iv_abs(b));
    HkIv s = hk_iv_add(hk_iv_abs(a), hk_iv_abs(b));
    return cut(hk_iv(widen(m.lo, e, -1), widen(s.hi, e, 1)), 0.0, INFINITY);
}

HkIv hk_iv_math2(HkOp op, HkIv a, HkIv b, HkElem e)
{
    HkIv r;
    if (hk_iv_is_empty(a) || hk_iv_is_empty(b))
        return hk_iv_empty();
    switch (op) {
    case HK_OP_ATAN2: r = hk_iv(-PI_UP, PI_UP); break;
    case HK_OP_HYPOT: r = iv_hypot(a, b, e); break;
    case HK_OP_POW:
        /* pow(x, y) >= 0 for x > 0, and for x = +-0 when y > 0; a base
         * that may be -0 with y < 0 gives -inf. */
        if (a.lo > 0.0 || (a.lo >= 0.0 && b.lo > 0.0))
            r = hk_iv(0.0, INFINITY);
        else
            r = hk_iv_full();
        break;
    default: r = hk_iv_full(); break;
    }
    return hk_iv_fit(r, e);
}
