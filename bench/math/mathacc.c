/* mathacc.c -- the accuracy and speed of hawk's own math (-math=hawk), one
 * scalar mode per build (-DHAWK_F32 for float32): every function of the
 * exported kernels of math64.hir / math32.hir, run through its emitted C
 * unit, against MPFR's correctly rounded value over random and dense grids
 * and the special values of C99 Annex F, and timed against the C library.
 *
 *   mathacc [-bounds FILE] [-time] [-points N]
 *
 * One line per function: the points measured, the largest error in ulps
 * (|got - exact| / ulp(exact), exact at 256 bits), its argument, whether
 * the special values agree, and with -time ns per call for hawk's unit and
 * the C library's function over the same arguments.  With -bounds, a
 * function above its stored bound, or with a special value wrong, prints
 * "FAIL" and the exit status is 1. */
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAWK_F32
#include "m_expf.h"
#include "m_logf.h"
typedef float real;
#define PREC 24
#define EMIN (-149)
#define WIDTH "f32"
#define GET mpfr_get_flt
#define SET mpfr_set_flt
#else
#include "m_exp.h"
#include "m_log.h"
typedef double real;
#define PREC 53
#define EMIN (-1074)
#define WIDTH "f64"
#define GET mpfr_get_d
#define SET mpfr_set_d
#endif

typedef void (*Unit)(real *y, const real *x, int64_t n);
typedef int (*Exact)(mpfr_t, const mpfr_t, mpfr_rnd_t);
typedef real (*Libm)(real);

/* ---- the units: every sample of x through the exported entry ---------- */

#ifdef HAWK_F32
static void unit_exp(real *y, const real *x, int64_t n)
{
    m_expf_args_t a = {y, x};
    if (m_expf_c(&a, 0, n, n) != 0) abort();
}
static void unit_log(real *y, const real *x, int64_t n)
{
    m_logf_args_t a = {y, x};
    if (m_logf_c(&a, 0, n, n) != 0) abort();
}
static real libm_exp(real x) { return expf(x); }
static real libm_log(real x) { return logf(x); }
#else
static void unit_exp(real *y, const real *x, int64_t n)
{
    m_exp_args_t a = {y, x};
    if (m_exp_c(&a, 0, n, n) != 0) abort();
}
static void unit_log(real *y, const real *x, int64_t n)
{
    m_log_args_t a = {y, x};
    if (m_log_c(&a, 0, n, n) != 0) abort();
}
static real libm_exp(real x) { return exp(x); }
static real libm_log(real x) { return log(x); }
#endif

/* ---- arguments ---------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng += 0x9e3779b97f4a7c15u;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static double unit01(void) { return (double)(next() >> 11) * 0x1p-53; }

/* A positive real with a uniformly random bit pattern (every binade alike,
 * subnormals included). */
static real any_positive(void)
{
#ifdef HAWK_F32
    uint32_t b = (uint32_t)(next() % 0x7f800000u);
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
#else
    uint64_t b = next() % 0x7ff0000000000000u;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
#endif
}

/* exp: uniform over the range where the result is finite and not zero,
 * a dense grid around 0, and arguments near the thresholds. */
static void args_exp(real *x, int64_t n)
{
#ifdef HAWK_F32
    const double lo = -103.98, hi = 88.73;
#else
    const double lo = -745.14, hi = 709.79;
#endif
    for (int64_t i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: case 1: x[i] = (real)(lo + (hi - lo) * unit01()); break;
        case 2: x[i] = (real)((unit01() - 0.5) * 2.0); break;
        default: x[i] = (real)((unit01() - 0.5) * 0x1p-20); break;
        }
    }
}

/* log: every binade, and a dense grid around 1. */
static void args_log(real *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        x[i] = i % 2 ? any_positive() : (real)(1.0 + (unit01() - 0.5) * 0x1p-6);
}

/* ---- the error of one value --------------------------------------------- */

/* |got - exact| in ulps of the exact value's binade (2^EMIN below the
 * normals); 0 for agreeing specials, HUGE_VAL for a wrong one. */
static double ulps(real got, const mpfr_t exact)
{
    if (mpfr_nan_p(exact))
        return isnan(got) ? 0.0 : HUGE_VAL;
    real rounded = (real)GET(exact, MPFR_RNDN);
    if (isinf(rounded) || isinf(got) || isnan(got))
        return got == rounded ? 0.0 : HUGE_VAL;
    mpfr_t d;
    mpfr_init2(d, 256);
    SET(d, got, MPFR_RNDN);
    mpfr_sub(d, d, exact, MPFR_RNDN);
    mpfr_abs(d, d, MPFR_RNDN);
    long e = mpfr_zero_p(exact) ? EMIN + PREC : mpfr_get_exp(exact);
    long ue = e - PREC < EMIN ? EMIN : e - PREC;
    mpfr_mul_2si(d, d, -ue, MPFR_RNDN);
    double r = mpfr_get_d(d, MPFR_RNDU);
    mpfr_clear(d);
    return r;
}

/* ---- one function --------------------------------------------------------- */

typedef struct {
    const char *name;
    Unit unit;
    Exact exact;
    Libm libm;
    void (*args)(real *, int64_t);
    const real *specials;
    size_t nspecials;
} Fn;

/* The values C99 Annex F fixes (and the ones that overflow or underflow
 * outright): the unit must give exactly MPFR's, signs included. */
static const real exp_specials[] = {0.0f, -0.0f, (real)INFINITY, (real)-INFINITY,
                                    (real)NAN, 1000.0f, -1000.0f};
static const real log_specials[] = {0.0f, -0.0f, (real)INFINITY, (real)-INFINITY,
                                    (real)NAN, 1.0f, -1.0f};

static const Fn fns[] = {
    {"exp", unit_exp, mpfr_exp, libm_exp, args_exp, exp_specials,
     sizeof exp_specials / sizeof exp_specials[0]},
    {"log", unit_log, mpfr_log, libm_log, args_log, log_specials,
     sizeof log_specials / sizeof log_specials[0]},
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The stored bound of name, or a negative value when there is none. */
static double bound_of(const char *file, const char *name)
{
    FILE *f = file != NULL ? fopen(file, "r") : NULL;
    double b = -1.0;
    char fn[32], w[8];
    double v;
    while (f != NULL && fscanf(f, "%31s %7s %lf", fn, w, &v) == 3)
        if (strcmp(fn, name) == 0 && strcmp(w, WIDTH) == 0)
            b = v;
    if (f != NULL)
        fclose(f);
    return b;
}

static volatile real sink;

/* Measures fn over n arguments; returns 1 when it fails its bound. */
static int measure(const Fn *fn, int64_t n, const char *bounds, int timed)
{
    real *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (x == NULL || y == NULL)
        abort();
    fn->args(x, n);
    fn->unit(y, x, n);
    mpfr_t in, ex;
    mpfr_init2(in, PREC);
    mpfr_init2(ex, 256);
    double worst = 0.0;
    real at = 0;
    for (int64_t i = 0; i < n; i++) {
        SET(in, x[i], MPFR_RNDN);
        fn->exact(ex, in, MPFR_RNDN);
        double e = ulps(y[i], ex);
        if (e > worst) {
            worst = e;
            at = x[i];
        }
    }
    /* the specials: the value MPFR rounds to, or both NaN */
    int special_ok = 1;
    real sy[32];
    fn->unit(sy, fn->specials, (int64_t)fn->nspecials);
    for (size_t k = 0; k < fn->nspecials; k++) {
        SET(in, fn->specials[k], MPFR_RNDN);
        fn->exact(ex, in, MPFR_RNDN);
        real want = (real)GET(ex, MPFR_RNDN);
        int ok = mpfr_nan_p(ex) ? isnan(sy[k])
                                : (sy[k] == want && signbit(sy[k]) == signbit(want));
        if (!ok) {
            printf("  %s(%a) = %a, not %a\n", fn->name, (double)fn->specials[k],
                   (double)sy[k], (double)want);
            special_ok = 0;
        }
    }
    mpfr_clear(in);
    mpfr_clear(ex);
    double b = bound_of(bounds, fn->name);
    int fail = bounds != NULL && (b < 0.0 || worst > b || !special_ok);
    printf("%-5s %s points %lld max ulp %.4f at %a specials %s", fn->name, WIDTH,
           (long long)n, worst, (double)at, special_ok ? "ok" : "WRONG");
    if (bounds != NULL)
        printf(" bound %.4f %s", b, fail ? "FAIL" : "ok");
    if (timed) {
        double t0 = now();
        for (int r = 0; r < 5; r++)
            fn->unit(y, x, n);
        double t1 = now();
        for (int r = 0; r < 5; r++)
            for (int64_t i = 0; i < n; i++)
                y[i] = fn->libm(x[i]);
        double t2 = now();
        sink = y[n - 1];
        double hawk = (t1 - t0) / (5.0 * (double)n) * 1e9;
        double libm = (t2 - t1) / (5.0 * (double)n) * 1e9;
        printf(" hawk %.2f ns libm %.2f ns ratio %.2f", hawk, libm, hawk / libm);
    }
    printf("\n");
    free(x);
    free(y);
    return fail;
}

int main(int argc, char **argv)
{
    const char *bounds = NULL;
    int timed = 0;
    int64_t n = 200000;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "-bounds") == 0 && k + 1 < argc)
            bounds = argv[++k];
        else if (strcmp(argv[k], "-time") == 0)
            timed = 1;
        else if (strcmp(argv[k], "-points") == 0 && k + 1 < argc)
            n = atoll(argv[++k]);
        else {
            fprintf(stderr, "usage: mathacc [-bounds FILE] [-time] [-points N]\n");
            return 2;
        }
    }
    int rc = 0;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++)
        rc |= measure(&fns[k], n, bounds, timed);
    return rc;
}
