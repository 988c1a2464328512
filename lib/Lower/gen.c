/* gen.c -- the seeded values hawk-run feeds both units: splitmix64 over
 * grids that hold the values where two builds are most likely to part
 * (signed zeros, subnormals, the extremes of each type, infinities, NaN,
 * integer boundaries and shift counts), mixed with ordinary values. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "launch.h"

/* FNV-1a of s: folds the kernel's name into the seed. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

void hk_rng_init(HkRng *r, uint64_t seed, const char *name)
{
    r->state = seed ^ fnv1a(name);
}

uint64_t hk_rng_next(HkRng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t hk_rng_below(HkRng *r, uint64_t n)
{
    return hk_rng_next(r) % n;
}

/* A double uniform in [0, 1). */
static double unit(HkRng *r)
{
    return (double)(hk_rng_next(r) >> 11) * 0x1p-53;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- reals ----------------------------------------------------------- */

static const double f64_grid[] = {
    0.0, -0.0,
    0x1p-1074, -0x1p-1074,                                 /* subnormals */
    0x0.fffffffffffffp-1022, -0x0.fffffffffffffp-1022,
    DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX,                  /* normals */
    INFINITY, -INFINITY, NAN,
    1.0, -1.0, 0.5, 2.0, 0x1.0000000000001p0, 0x1.fffffffffffffp-1,
};

static const float f32_grid[] = {
    0.0f, -0.0f,
    0x1p-149f, -0x1p-149f,
    0x0.fffffep-126f, -0x0.fffffep-126f,
    FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX,
    INFINITY, -INFINITY, NAN,
    1.0f, -1.0f, 0.5f, 2.0f, 0x1.000002p0f, 0x1.fffffep-1f,
};

/* A random sign for x. */
static double signed_(HkRng *r, double x)
{
    return (hk_rng_next(r) & 1) ? -x : x;
}

/* A magnitude 2^e for e in [lo, hi), times [1, 2), of a random sign. */
static double scaled(HkRng *r, int lo, int hi)
{
    int e = lo + (int)hk_rng_below(r, (uint64_t)(hi - lo));
    return signed_(r, ldexp(1.0 + unit(r), e));
}

/* An ordinary double: moderate values, several magnitudes, the whole
 * exponent range [min_exp, max_exp), small integers. */
static double ordinary(HkRng *r, int min_exp, int max_exp)
{
    uint64_t pick = hk_rng_below(r, 8);
    if (pick < 4)
        return unit(r) * 8.0 - 4.0;
    if (pick < 6)
        return scaled(r, -60, 61);
    if (pick < 7)
        return scaled(r, min_exp, max_exp);
    return (double)((int64_t)hk_rng_below(r, 21) - 10);
}

static double gen_f64(HkRng *r)
{
    if (hk_rng_below(r, 5) == 0)
        return f64_grid[hk_rng_below(r, COUNT(f64_grid))];
    return ordinary(r, -1074, 1023);
}

static float gen_f32(HkRng *r)
{
    if (hk_rng_below(r, 5) == 0)
        return f32_grid[hk_rng_below(r, COUNT(f32_grid))];
    /* ldexp below FLT_MAX's exponent keeps the value finite as a float */
    return (float)ordinary(r, -149, 127);
}

/* ---- integers -------------------------------------------------------- */

static const int64_t i64_grid[] = {
    INT64_MIN, INT64_MIN + 1, INT64_MIN + 2, INT32_MIN, -65, -64, -63, -33,
    -32, -31, -2, -1, 0, 1, 2, 31, 32, 33, 63, 64, 65, INT32_MAX, UINT32_MAX,
    INT64_MAX - 2, INT64_MAX - 1, INT64_MAX,
};

static const int32_t i32_grid[] = {
    INT32_MIN, INT32_MIN + 1, INT32_MIN + 2, -33, -32, -31, -2, -1, 0, 1, 2,
    31, 32, 33, INT32_MAX - 2, INT32_MAX - 1, INT32_MAX,
};

static const uint32_t u32_grid[] = {
    0, 1, 2, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0x80000001u,
    UINT32_MAX - 2, UINT32_MAX - 1, UINT32_MAX,
};

/* Which kind of integer to draw: 0 grid, 1 small, 2 any bits. */
static unsigned int_kind(HkRng *r)
{
    uint64_t p = hk_rng_below(r, 20);
    return p < 8 ? 0u : p < 17 ? 1u : 2u;
}

static int64_t gen_i64(HkRng *r)
{
    switch (int_kind(r)) {
    case 0: return i64_grid[hk_rng_below(r, COUNT(i64_grid))];
    case 1: return (int64_t)hk_rng_below(r, 41) - 20;
    default: return (int64_t)hk_rng_next(r);
    }
}

static int32_t gen_i32(HkRng *r)
{
    switch (int_kind(r)) {
    case 0: return i32_grid[hk_rng_below(r, COUNT(i32_grid))];
    case 1: return (int32_t)hk_rng_below(r, 41) - 20;
    default: return (int32_t)(uint32_t)hk_rng_next(r);
    }
}

static uint32_t gen_u32(HkRng *r)
{
    switch (int_kind(r)) {
    case 0: return u32_grid[hk_rng_below(r, COUNT(u32_grid))];
    case 1: return (uint32_t)hk_rng_below(r, 21);
    default: return (uint32_t)hk_rng_next(r);
    }
}

/* ---- planes ---------------------------------------------------------- */

/* Writes one generated value of type e at dst. */
static void put_value(HkRng *r, HkElem e, unsigned char *dst,
                      unsigned set_percent)
{
    switch (e) {
    case HK_F64: { double v = gen_f64(r); memcpy(dst, &v, sizeof v); return; }
    case HK_F32: { float v = gen_f32(r); memcpy(dst, &v, sizeof v); return; }
    case HK_I64: { int64_t v = gen_i64(r); memcpy(dst, &v, sizeof v); return; }
    case HK_I32: { int32_t v = gen_i32(r); memcpy(dst, &v, sizeof v); return; }
    case HK_U32: { uint32_t v = gen_u32(r); memcpy(dst, &v, sizeof v); return; }
    case HK_I1: {
        bool v = hk_rng_below(r, 100) < set_percent;
        memcpy(dst, &v, sizeof v);
        return;
    }
    case HK_VOID: return;
    }
}

void hk_gen_fill_masks(HkRng *r, void *dst, size_t n, unsigned set_percent)
{
    /* a set mask is any byte but 0 (docs/EmbeddedC.md, "Planes") */
    static const unsigned char set[] = {1u, 2u, 0x7fu, 0x80u, 0xffu};
    unsigned char *p = dst;
    for (size_t k = 0; k < n; k++)
        p[k] = hk_rng_below(r, 100) < set_percent
                   ? set[hk_rng_below(r, sizeof set)]
                   : 0u;
}

void hk_gen_fill(HkRng *r, HkElem e, void *dst, size_t n, unsigned set_percent)
{
    uint64_t size, align;
    if (hk_abi_elem(e, &size, &align) != 0)
        return;
    unsigned char *p = dst;
    for (size_t k = 0; k < n; k++)
        put_value(r, e, p + (size_t)size * k, set_percent);
}
