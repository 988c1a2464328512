/* exhaustive.c -- whether hawk's f32 math is correctly rounded, float by
 * float: every binary32 argument (or every STRIDE-th) of each
 * one-argument function through the unit hawk emits for it
 * (bench/math/math32.hir), against the correctly rounded value.
 *
 *   exhaustive [-only FUNCTION] [-stride S] [-from BITS] [-to BITS] [-show N]
 *              [-perturb K] [-at X]
 *
 * The reference is the C library's f64 function rounded to f32 where its
 * double is farther than 2^-44 relative from the midpoint between two
 * floats (so far that no error of an f64 function of a few ulps can
 * change the float it rounds to); nearer, MPFR's value rounded to 24 bits
 * with binary32's exponent range (subnormals included).  A NaN matches
 * any NaN; zeros and infinities match by their bits.  Prints per function
 * the arguments tried, how many MPFR settled, and those whose result is
 * not the correctly rounded float (the first N of them in full).  Exit
 * status 1 if any is not.  -perturb K moves every K-th finite result of
 * hawk's one float away from zero, so a test can see the check fail; -at X
 * tries the one float X (a C literal such as 0x1.33333p+13).
 *
 * Build (bench/math/exhaustive.sh does): hawk-emit the f32 kernels, then
 *   cc -O2 -ffp-contract=off -I DIR exhaustive.c DIR/<units>.c -lmpfr -lgmp -lm
 */
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m_acosf.h"
#include "m_acoshf.h"
#include "m_asinf.h"
#include "m_asinhf.h"
#include "m_atanf.h"
#include "m_atanhf.h"
#include "m_cosf.h"
#include "m_coshf.h"
#include "m_expf.h"
#include "m_expm1f.h"
#include "m_log10f.h"
#include "m_log1pf.h"
#include "m_log2f.h"
#include "m_logf.h"
#include "m_sinf.h"
#include "m_sinhf.h"
#include "m_tanf.h"
#include "m_tanhf.h"

typedef int (*mpfr_fn)(mpfr_t, const mpfr_t, mpfr_rnd_t);

#define UNIT(fn, kernel)                                                 \
    static void unit_##fn(float *y, const float *x, int64_t n)          \
    {                                                                    \
        kernel##_args_t a = {y, x};                                      \
        if (kernel##_c(&a, 0, n, n) != 0)                                \
            abort();                                                     \
    }
UNIT(exp, m_expf)
UNIT(expm1, m_expm1f)
UNIT(log, m_logf)
UNIT(log2, m_log2f)
UNIT(log10, m_log10f)
UNIT(log1p, m_log1pf)
UNIT(sinh, m_sinhf)
UNIT(cosh, m_coshf)
UNIT(tanh, m_tanhf)
UNIT(asinh, m_asinhf)
UNIT(acosh, m_acoshf)
UNIT(atanh, m_atanhf)
UNIT(atan, m_atanf)
UNIT(asin, m_asinf)
UNIT(acos, m_acosf)
UNIT(sin, m_sinf)
UNIT(cos, m_cosf)
UNIT(tan, m_tanf)

static const struct fn {
    const char *name;
    void (*unit)(float *, const float *, int64_t);
    double (*libm)(double);
    mpfr_fn exact;
} fns[] = {
    {"exp", unit_exp, exp, mpfr_exp},
    {"expm1", unit_expm1, expm1, mpfr_expm1},
    {"log", unit_log, log, mpfr_log},
    {"log2", unit_log2, log2, mpfr_log2},
    {"log10", unit_log10, log10, mpfr_log10},
    {"log1p", unit_log1p, log1p, mpfr_log1p},
    {"sinh", unit_sinh, sinh, mpfr_sinh},
    {"cosh", unit_cosh, cosh, mpfr_cosh},
    {"tanh", unit_tanh, tanh, mpfr_tanh},
    {"asinh", unit_asinh, asinh, mpfr_asinh},
    {"acosh", unit_acosh, acosh, mpfr_acosh},
    {"atanh", unit_atanh, atanh, mpfr_atanh},
    {"atan", unit_atan, atan, mpfr_atan},
    {"asin", unit_asin, asin, mpfr_asin},
    {"acos", unit_acos, acos, mpfr_acos},
    {"sin", unit_sin, sin, mpfr_sin},
    {"cos", unit_cos, cos, mpfr_cos},
    {"tan", unit_tan, tan, mpfr_tan},
};

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* MPFR's value of fn at x rounded to binary32 (24 bits, its exponent
 * range and subnormals). */
static float exact_f32(mpfr_fn fn, float x)
{
    mpfr_t mx, my;
    mpfr_inits2(24, mx, my, (mpfr_ptr)0);
    mpfr_set_flt(mx, x, MPFR_RNDN);
    int inex = fn(my, mx, MPFR_RNDN);
    inex = mpfr_check_range(my, inex, MPFR_RNDN);
    mpfr_subnormalize(my, inex, MPFR_RNDN);
    float r = mpfr_get_flt(my, MPFR_RNDN);
    mpfr_clears(mx, my, (mpfr_ptr)0);
    return r;
}

/* The correctly rounded fn(x): the C library's double rounded, unless
 * that double lies within 2^-44 relative of a midpoint between floats
 * (subnormals and zero included: the conversion rounds to their grid) or
 * of the overflow threshold; then MPFR's.  A NaN double is the NaN. */
static float reference(const struct fn *fn, float x, int64_t *settled)
{
    double y = fn->libm((double)x);
    float f = (float)y;
    if (isnan(y))
        return f;
    if (isinf(f)) {
        /* FLT_MAX + half its ulp rounds to infinity */
        if (fabs(y) > 0x1.ffffffp127 * (1.0 + 0x1p-40))
            return f;
    } else {
        float g = nextafterf(f, y > (double)f ? INFINITY : -INFINITY);
        double mid = isinf(g) ? copysign(0x1.ffffffp127, y)
                              : ((double)f + (double)g) / 2.0;
        if (fabs(y - mid) > fabs(y) * 0x1p-44)
            return f;
    }
    ++*settled;
    return exact_f32(fn->exact, x);
}

static int same(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return bits_of(a) == bits_of(b);
}

enum { CHUNK = 1 << 16 };

static int run(const struct fn *fn, uint64_t from, uint64_t to,
               uint64_t stride, int show, int64_t perturb)
{
    static float x[CHUNK], y[CHUNK];
    int64_t tried = 0, settled = 0, wrong = 0;
    uint64_t b = from;
    while (b <= to) {
        int64_t n = 0;
        for (; n < CHUNK && b <= to; n++, b += stride)
            x[n] = float_of((uint32_t)b);
        fn->unit(y, x, n);
        for (int64_t i = 0; i < n; i++) {
            if (perturb > 0 && (tried + i) % perturb == 0 && isfinite(y[i]))
                y[i] = nextafterf(y[i], copysignf(INFINITY, y[i]));
            float want = reference(fn, x[i], &settled);
            if (!same(y[i], want)) {
                if (wrong < show)
                    printf("%s f32 %a: hawk %a, correctly rounded %a\n",
                           fn->name, (double)x[i], (double)y[i],
                           (double)want);
                wrong++;
            }
        }
        tried += n;
    }
    printf("%-5s f32 arguments %" PRId64 " settled by MPFR %" PRId64
           " not correctly rounded %" PRId64 "\n",
           fn->name, tried, settled, wrong);
    fflush(stdout);
    return wrong != 0;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    uint64_t stride = 1, from = 0, to = 0xffffffffu;
    int show = 10;
    int64_t perturb = 0;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "-only") == 0 && k + 1 < argc)
            only = argv[++k];
        else if (strcmp(argv[k], "-stride") == 0 && k + 1 < argc)
            stride = strtoull(argv[++k], NULL, 0);
        else if (strcmp(argv[k], "-from") == 0 && k + 1 < argc)
            from = strtoull(argv[++k], NULL, 0);
        else if (strcmp(argv[k], "-to") == 0 && k + 1 < argc)
            to = strtoull(argv[++k], NULL, 0);
        else if (strcmp(argv[k], "-show") == 0 && k + 1 < argc)
            show = atoi(argv[++k]);
        else if (strcmp(argv[k], "-perturb") == 0 && k + 1 < argc)
            perturb = atoll(argv[++k]);
        else if (strcmp(argv[k], "-at") == 0 && k + 1 < argc) {
            char *end;
            float at = strtof(argv[++k], &end);
            if (*end != '\0') {
                fprintf(stderr, "exhaustive: -at needs a float, not '%s'\n", argv[k]);
                return 2;
            }
            from = to = bits_of(at);
        }
        else {
            fprintf(stderr, "usage: exhaustive [-only FUNCTION] [-stride S] "
                            "[-from BITS] [-to BITS] [-show N] [-perturb K] [-at X]\n");
            return 2;
        }
    }
    if (stride == 0 || to > 0xffffffffu || from > to) {
        fprintf(stderr, "exhaustive: need 0 <= from <= to < 2^32 and stride >= 1\n");
        return 2;
    }
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    int rc = 0, found = only == NULL;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++)
        if (only == NULL || strcmp(only, fns[k].name) == 0) {
            found = 1;
            rc |= run(&fns[k], from, to, stride, show, perturb);
        }
    if (!found) {
        fprintf(stderr, "exhaustive: no one-argument function '%s'\n", only);
        return 2;
    }
    return rc;
}
