/* interval.c -- hawk-capi-interval: the interval arithmetic fp-domain's
 * proofs stand on (lib/Passes/interval.c), tested as a property over
 * random boxes: for every op and every point of its operands' intervals
 * that the test draws (the endpoints, zeros of both signs, points
 * inside), the exact result of an arithmetic op lies in the interval the
 * op claims (the rounded value, and on which side of it the exact one
 * lies, found by an error-free transformation: TwoSum, the fma residual
 * of a product, a quotient or a square root), and so does the value libm
 * computes there for a transcendental function, double and float; a NaN
 * is outside every claim.  An empty operand gives an empty result.
 *
 *   hawk-capi-interval SEED BOXES
 *
 * Draws BOXES pairs of intervals from SEED (endpoints from a list of
 * edge values: infinities, the largest and smallest doubles, zeros, one,
 * and random values of every scale), prints "interval: N points checked,
 * V violations" and each violation (op, operands, point, value, claim),
 * and exits 1 when there is one. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "interval.h"

#define TOOL "hawk-capi-interval"

static uint64_t state;

/* xorshift64*: deterministic by seed, the same sequence on every host. */
static uint64_t next_u64(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

static double edge(void)
{
    static const double edges[] = {
        -INFINITY, -DBL_MAX, -1e300, -3.0, -1.0, -0.5, -DBL_MIN,
        -0x1p-1074, -0.0, 0.0, 0x1p-1074, DBL_MIN, 0.5, 1.0, 2.0, 3.0,
        1e300, DBL_MAX, INFINITY, 0x1p-970, -0x1p-970, 1.5, -1.5, 100.0};
    uint64_t r = next_u64();
    if (r % 3 != 0)
        return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
    /* a random value of random scale and sign */
    double m = (double)(next_u64() >> 11) * 0x1p-53;
    int ex = (int)(next_u64() % 80) - 40;
    return (r & 1 ? -1.0 : 1.0) * ldexp(m, ex);
}

/* An interval from two draws; one in 16 empty. */
static HkIv draw(void)
{
    if (next_u64() % 16 == 0)
        return hk_iv_empty();
    double a = edge(), b = edge();
    return a <= b ? hk_iv(a, b) : hk_iv(b, a);
}

/* Points of a to try: its endpoints, zeros inside it, and points between. */
static int points(HkIv a, double *p)
{
    int n = 0;
    p[n++] = a.lo;
    p[n++] = a.hi;
    if (a.lo <= 0.0 && a.hi >= 0.0) {
        p[n++] = 0.0;
        p[n++] = -0.0;
    }
    for (int k = 0; k < 3; k++) {
        double t = (double)(next_u64() >> 11) * 0x1p-53;
        double x = a.lo + t * (a.hi - a.lo);
        if (isfinite(a.lo) && isfinite(a.hi) && isfinite(x) && x >= a.lo && x <= a.hi)
            p[n++] = x;
    }
    p[n++] = nextafter(a.lo, INFINITY) <= a.hi ? nextafter(a.lo, INFINITY) : a.lo;
    return n;
}

static unsigned long checked, violations;

/* Checks that the exact value lies in r: v is the value rounded to
 * nearest and dir the side of v the exact value lies on (-1 below, 0 v
 * itself, +1 above). */
static void claim_dir(const char *op, HkIv a, HkIv b, double x, double y,
                      double v, int dir, HkIv r)
{
    checked++;
    if (isnan(v) || ((v > r.lo || (v == r.lo && dir >= 0)) &&
                     (v < r.hi || (v == r.hi && dir <= 0))))
        return;
    if (++violations <= 20)
        printf("%s [%a, %a] [%a, %a] at (%a, %a) = %a%s, claimed [%a, %a]\n",
               op, a.lo, a.hi, b.lo, b.hi, x, y, v,
               dir < 0 ? " less a little" : dir > 0 ? " and a little" : "",
               r.lo, r.hi);
}

/* A value computed as the kernel computes it (libm's), checked as is. */
static void claim(const char *op, HkIv a, HkIv b, double x, double y,
                  double v, HkIv r)
{
    claim_dir(op, a, b, x, y, v, 0, r);
}

static int sign_of(double e)
{
    return e > 0.0 ? 1 : e < 0.0 ? -1 : 0;
}

/* The side of v = round(exact) the exact value lies on when v overflowed
 * to an infinity from finite operands, or underflowed to zero from a
 * nonzero exact value of sign s. */
static int overflowed(double v, int finite)
{
    return isinf(v) && finite ? -sign_of(v) : 0;
}

/* The exact x + y against v = x + y (TwoSum). */
static int add_dir(double x, double y, double v)
{
    if (isinf(v))
        return overflowed(v, isfinite(x) && isfinite(y));
    double bb = v - x;
    return sign_of((x - (v - bb)) + (y - bb));
}

/* The exact x * y against v = x * y (the fma residual). */
static int mul_dir(double x, double y, double v)
{
    if (isinf(v))
        return overflowed(v, isfinite(x) && isfinite(y));
    if (v == 0.0)  /* underflow: the exact product has the operands' sign */
        return x == 0.0 || y == 0.0 ? 0 : sign_of(x) * sign_of(y);
    /* a residual that would underflow is taken scaled up by 2^200 */
    double k = fabs(v) < 0x1p-900 ? 0x1p200 : 1.0;
    return sign_of(fma(x * k, y, -(v * k)));
}

/* The exact x / y against v = x / y: x - v y has the sign of the error
 * times y's. */
static int div_dir(double x, double y, double v)
{
    if (isinf(v))
        return overflowed(v, isfinite(x) && y != 0.0);
    if (v == 0.0)
        return x == 0.0 || isinf(y) ? 0 : sign_of(x) * sign_of(y);
    if (isinf(x) || isinf(y))
        return 0;
    double k = fabs(v) < 0x1p-900 || fabs(x) < 0x1p-900 ? 0x1p200 : 1.0;
    return sign_of(fma(-(v * k), y, x * k)) * sign_of(y);
}

static void empty(const char *op, HkIv r)
{
    checked++;
    if (hk_iv_is_empty(r))
        return;
    if (++violations <= 20)
        printf("%s of an empty interval = [%a, %a]\n", op, r.lo, r.hi);
}

static double f_add(double x, double y) { return x + y; }
static double f_sub(double x, double y) { return x - y; }
static double f_mul(double x, double y) { return x * y; }
static double f_div(double x, double y) { return x / y; }
static double f_min(double x, double y) { return x < y ? x : y; }
static double f_max(double x, double y) { return x > y ? x : y; }
static int exact2(double x, double y, double v)
{
    (void)x, (void)y, (void)v;
    return 0;
}
static int sub_dir(double x, double y, double v) { return add_dir(x, -y, v); }

typedef struct {
    const char *name;
    HkIv (*iv)(HkIv, HkIv);
    double (*fn)(double, double);
    int (*dir)(double, double, double);
} Binary;

static const Binary binaries[] = {
    {"add", hk_iv_add, f_add, add_dir}, {"sub", hk_iv_sub, f_sub, sub_dir},
    {"mul", hk_iv_mul, f_mul, mul_dir}, {"div", hk_iv_div, f_div, div_dir},
    {"min", hk_iv_min, f_min, exact2},  {"max", hk_iv_max, f_max, exact2},
};

static double f_sqr(double x) { return x * x; }
static double f_neg(double x) { return -x; }
static int sqr_dir(double x, double v) { return mul_dir(x, x, v); }
static int sqrt_dir(double x, double v)
{
    if (x <= 0.0 || isinf(x) || isnan(v))
        return 0;
    double k = x < 0x1p-900 ? 0x1p200 : 1.0;
    return sign_of(fma(-(v * k), v * k, x * k * k));
}
static int exact1(double x, double v)
{
    (void)x, (void)v;
    return 0;
}

typedef struct {
    const char *name;
    HkIv (*iv)(HkIv);
    double (*fn)(double);
    int (*dir)(double, double);
} Unary;

static const Unary unaries[] = {
    {"sqr", hk_iv_sqr, f_sqr, sqr_dir}, {"sqrt", hk_iv_sqrt, sqrt, sqrt_dir},
    {"neg", hk_iv_neg, f_neg, exact1},  {"abs", hk_iv_abs, fabs, exact1},
};

/* The libm ops fp-domain bounds, with the double and float functions a
 * unit calls for them. */
typedef struct {
    HkOp op;
    double (*d)(double);
    float (*f)(float);
} Math1;

static float f_rsqrtf(float x) { return 1.0f / sqrtf(x); }
static double f_rsqrt(double x) { return 1.0 / sqrt(x); }

static const Math1 math1s[] = {
    {HK_OP_EXP, exp, expf}, {HK_OP_EXPM1, expm1, expm1f},
    {HK_OP_LOG, log, logf}, {HK_OP_LOG2, log2, log2f},
    {HK_OP_LOG10, log10, log10f}, {HK_OP_LOG1P, log1p, log1pf},
    {HK_OP_ASIN, asin, asinf}, {HK_OP_ACOS, acos, acosf},
    {HK_OP_ATAN, atan, atanf}, {HK_OP_SINH, sinh, sinhf},
    {HK_OP_COSH, cosh, coshf}, {HK_OP_TANH, tanh, tanhf},
    {HK_OP_ASINH, asinh, asinhf}, {HK_OP_ACOSH, acosh, acoshf},
    {HK_OP_ATANH, atanh, atanhf}, {HK_OP_SQRT, sqrt, sqrtf},
    {HK_OP_RSQRT, f_rsqrt, f_rsqrtf}, {HK_OP_SIN, sin, sinf},
    {HK_OP_COS, cos, cosf}, {HK_OP_TAN, tan, tanf},
    {HK_OP_FLOOR, floor, floorf}, {HK_OP_CEIL, ceil, ceilf},
};

typedef struct {
    HkOp op;
    double (*d)(double, double);
    float (*f)(float, float);
} Math2;

static const Math2 math2s[] = {
    {HK_OP_ATAN2, atan2, atan2f}, {HK_OP_HYPOT, hypot, hypotf},
    {HK_OP_POW, pow, powf},
};

/* a narrowed to the floats it holds: a float kernel's operands. */
static HkIv as_float(HkIv a)
{
    return hk_iv_fit(a, HK_F32);
}

static void one_box(HkIv a, HkIv b)
{
    double pa[12], pb[12];
    int na = hk_iv_is_empty(a) ? 0 : points(a, pa);
    int nb = hk_iv_is_empty(b) ? 0 : points(b, pb);
    int either_empty = na == 0 || nb == 0;
    for (size_t k = 0; k < sizeof binaries / sizeof binaries[0]; k++) {
        const Binary *o = &binaries[k];
        HkIv r = o->iv(a, b);
        if (either_empty)
            empty(o->name, r);
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nb; j++)
            {
                double v = o->fn(pa[i], pb[j]);
                claim_dir(o->name, a, b, pa[i], pb[j], v, o->dir(pa[i], pb[j], v), r);
            }
    }
    for (size_t k = 0; k < sizeof unaries / sizeof unaries[0]; k++) {
        const Unary *o = &unaries[k];
        HkIv r = o->iv(a);
        if (na == 0)
            empty(o->name, r);
        for (int i = 0; i < na; i++)
            claim_dir(o->name, a, a, pa[i], 0.0, o->fn(pa[i]),
                      o->dir(pa[i], o->fn(pa[i])), r);
    }
    /* three values of a added in order (the exact sum's side from both
     * TwoSum errors), and multiplied (as rounded) */
    HkIv s = hk_iv_sum_of(a, 3), p = hk_iv_prod_of(a, 3);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++) {
            double x = pa[i], y = pa[j], z = pa[(i + j) % na];
            double s1 = x + y, s2 = s1 + z;
            int dir = isinf(s1) || isinf(s2) ? add_dir(s1, z, s2)
                      : sign_of((x - (s1 - (s1 - x))) + (y - (s1 - x)) +
                                ((s1 - (s2 - (s2 - s1))) + (z - (s2 - s1))));
            claim_dir("sum_of 3", a, a, x, y, s2, dir, s);
            claim("prod_of 3", a, a, x, y, (x * y) * z, p);
        }
    for (size_t k = 0; k < sizeof math1s / sizeof math1s[0]; k++) {
        const Math1 *o = &math1s[k];
        const char *name = hk_ops[o->op].mnemonic;
        HkIv r = hk_iv_math1(o->op, a, HK_F64);
        HkIv af = as_float(a);
        HkIv rf = hk_iv_math1(o->op, af, HK_F32);
        if (na == 0) {
            empty(name, r);
            empty(name, rf);
        }
        for (int i = 0; i < na; i++) {
            claim(name, a, a, pa[i], 0.0, o->d(pa[i]), r);
            float x = (float)pa[i];
            if ((double)x >= af.lo && (double)x <= af.hi)
                claim(name, af, af, (double)x, 0.0, (double)o->f(x), rf);
        }
    }
    for (size_t k = 0; k < sizeof math2s / sizeof math2s[0]; k++) {
        const Math2 *o = &math2s[k];
        const char *name = hk_ops[o->op].mnemonic;
        HkIv r = hk_iv_math2(o->op, a, b, HK_F64);
        HkIv rf = hk_iv_math2(o->op, as_float(a), as_float(b), HK_F32);
        if (either_empty) {
            empty(name, r);
            empty(name, rf);
        }
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nb; j++) {
                claim(name, a, b, pa[i], pb[j], o->d(pa[i], pb[j]), r);
                float x = (float)pa[i], y = (float)pb[j];
                claim(name, a, b, (double)x, (double)y, (double)o->f(x, y), rf);
            }
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: " TOOL " SEED BOXES\n", stderr);
        return 2;
    }
    state = strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1u;
    long boxes = strtol(argv[2], NULL, 10);
    for (long k = 0; k < boxes; k++) {
        HkIv a = draw(), b = draw();
        one_box(a, b);
    }
    printf("interval: %lu points checked, %lu violations\n", checked, violations);
    return violations ? 1 : 0;
}
