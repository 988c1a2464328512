/* kat.c -- the known answers of a C unit's self-test: one launch drawn
 * by the generator hawk-run compares units with (lib/Lower/launch.h), run
 * by the host build (the export's oracle), both recorded for the writer
 * (cselftest.c).  docs/EmbeddedC.md, "The self-test". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunit.h"
#include "launch.h"

/* Samples of the self-test launch: as many as fit KAT_FRAME_BYTES of
 * written per-sample planes (they live in the self-test's frame, so a
 * small target's stack bounds them), from KAT_MIN_SAMPLES to
 * KAT_MAX_SAMPLES.  More samples catch more: a fused multiply-add changes
 * a result's last bit in a fraction of samples only. */
#define KAT_MIN_SAMPLES INT64_C(4)
#define KAT_MAX_SAMPLES INT64_C(16)
#define KAT_FRAME_BYTES INT64_C(1024)

/* Samples at the end of each per-sample plane that keep the generator's
 * values, special ones among them (ordinary_launch). */
#define KAT_SPECIAL INT64_C(1)

/* Launches drawn, of which the self-test keeps the one whose outputs
 * tell most (pick). */
#define KAT_CANDIDATES 16u

/* The seed of every self-test: the kernel's name is folded in by
 * hk_rng_init, so two kernels draw different vectors. */
#define KAT_SEED UINT64_C(0x68617766)

/* Replaces every NaN of n elements e at p by this machine's NAN: the unit
 * spells a NaN input as (hawk_f64_t)NAN or (hawk_f32_t)NAN, so the host build must read
 * that one. */
static void canonical_nans(HkElem e, unsigned char *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (e == HK_F64) {
            double x;
            memcpy(&x, p + k * sizeof x, sizeof x);
            if (isnan(x)) {
                x = (double)NAN;
                memcpy(p + k * sizeof x, &x, sizeof x);
            }
        } else if (e == HK_F32) {
            float x;
            memcpy(&x, p + k * sizeof x, sizeof x);
            if (isnan(x)) {
                x = NAN;
                memcpy(p + k * sizeof x, &x, sizeof x);
            }
        }
    }
}

/* An ordinary real: a random sign times [1, 2) times 2^e, e in [-4, 3]:
 * values of one scale, whose sums and products round in every bit (the
 * generator's spread of magnitudes makes most roundings vanish in the
 * largest term). */
static double ordinary(HkRng *r)
{
    double m = 1.0 + (double)(hk_rng_next(r) >> 11) * 0x1p-53;
    int e = (int)hk_rng_below(r, 8u) - 4;
    double x = ldexp(m, e);
    return (hk_rng_next(r) & 1u) ? -x : x;
}

/* Element k of n elements e at p becomes an ordinary real. */
static void set_ordinary(HkRng *r, HkElem e, unsigned char *p, size_t k)
{
    if (e == HK_F64) {
        double x = ordinary(r);
        memcpy(p + k * sizeof x, &x, sizeof x);
    } else if (e == HK_F32) {
        float x = (float)ordinary(r);
        memcpy(p + k * sizeof x, &x, sizeof x);
    }
}

/* Makes the reals of l ordinary but for the last KAT_SPECIAL samples of
 * each per-sample plane, which keep the generator's values (its special
 * grid among them): every uniform, every shared table, and the first
 * samples of each plane. */
static void ordinary_launch(HkRng *r, HkLaunch *l, const HkLaunchShape *s)
{
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        if (!hk_is_float(p->field->elem) || p->field->zeroed)
            continue;
        for (size_t e = 0; e < p->nelem; e++) {
            int64_t i = (int64_t)(e % (size_t)s->n);
            if (p->field->addr != HK_ABI_SOA || i < s->n - KAT_SPECIAL)
                set_ordinary(r, p->field->elem, l->data[k], e);
        }
    }
    for (uint32_t k = 0; k < s->abi->nfields; k++) {
        const HkAbiField *f = &s->abi->fields[k];
        if (f->kind == HK_ABI_VALUE && hk_is_float(f->elem))
            for (uint32_t c = 0; c < f->comps; c++)
                set_ordinary(r, f->elem, l->args + f->offset, c);
    }
}

/* The NaNs of every plane and uniform of l, made canonical. */
static void canonical_launch(HkLaunch *l, const HkLaunchShape *s)
{
    for (uint32_t k = 0; k < s->nplanes; k++)
        canonical_nans(s->planes[k].field->elem, l->data[k],
                       s->planes[k].nelem);
    for (uint32_t k = 0; k < s->abi->nfields; k++) {
        const HkAbiField *f = &s->abi->fields[k];
        if (f->kind == HK_ABI_VALUE)
            canonical_nans(f->elem, l->args + f->offset, f->comps);
    }
}

static const unsigned char *dup_bytes(HkArena *a, const void *p, size_t n)
{
    unsigned char *d = hk_alloc(a, n ? n : 1);
    if (n > 0)
        memcpy(d, p, n);
    return d;
}

/* Copies the shape and both launches into out (arena storage). */
static void record(HkArena *a, const HkLaunchShape *s, const HkLaunch *in,
                   const HkLaunch *ran, HkKat *out)
{
    out->args = dup_bytes(a, in->args, (size_t)s->abi->size);
    out->nplanes = s->nplanes;
    out->field = hk_alloc(a, (s->nplanes + 1u) * sizeof *out->field);
    out->nelem = hk_alloc(a, (s->nplanes + 1u) * sizeof *out->nelem);
    out->in = hk_alloc(a, (s->nplanes + 1u) * sizeof *out->in);
    out->want = hk_alloc(a, (s->nplanes + 1u) * sizeof *out->want);
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        out->field[k] = p->field;
        out->nelem[k] = p->nelem;
        out->in[k] = dup_bytes(a, in->data[k], p->bytes);
        out->want[k] =
            p->field->written ? dup_bytes(a, ran->data[k], p->bytes) : NULL;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct normal values of n elements e at p the launch changed from
 * was: what its outputs say about the arithmetic that made them.  A zero,
 * a subnormal, an infinity or a NaN is as often the same under a wrong
 * build, and so is a value a clamp repeats or the kernel left alone.
 * tmp holds n doubles. */
static uint64_t telling(HkElem e, const unsigned char *p,
                        const unsigned char *was, size_t n, double *tmp)
{
    if (!hk_is_float(e))
        return n;  /* integers and masks: every value tells */
    size_t m = 0;
    size_t bytes = e == HK_F32 ? sizeof(float) : sizeof(double);
    for (size_t k = 0; k < n; k++) {
        double x;
        if (memcmp(p + k * bytes, was + k * bytes, bytes) == 0)
            continue;
        if (e == HK_F64) {
            memcpy(&x, p + k * sizeof x, sizeof x);
        } else {
            float f;
            memcpy(&f, p + k * sizeof f, sizeof f);
            if (!isnormal(f))
                continue;
            x = (double)f;
        }
        if (isnormal(x))
            tmp[m++] = x;
    }
    qsort(tmp, m, sizeof *tmp, cmp_double);
    uint64_t c = 0;
    for (size_t k = 0; k < m; k++)
        c += k == 0 || tmp[k] != tmp[k - 1];
    return c;
}

/* The candidate whose written planes hold the most telling values; the
 * first of equals. */
static uint32_t pick(HkArena *a, const HkLaunchShape *s, const HkLaunch *in,
                     const HkLaunch *ran, uint32_t nc)
{
    uint32_t best = 0;
    uint64_t best_score = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint64_t score = 0;
        for (uint32_t k = 0; k < s[c].nplanes; k++) {
            const HkPlaneShape *p = &s[c].planes[k];
            if (p->field->written)
                score += telling(p->field->elem, ran[c].data[k],
                                 in[c].data[k], p->nelem,
                                 hk_alloc(a, (p->nelem + 1u) * sizeof(double)));
        }
        if (c == 0 || score > best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

/* The self-test's samples for layout abi (KAT_MIN_SAMPLES' rule). */
static int64_t kat_samples(const HkAbiLayout *abi)
{
    int64_t per_sample = 0;
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *f = &abi->fields[k];
        if (f->kind == HK_ABI_PLANE && f->written && f->addr == HK_ABI_SOA)
            per_sample += (int64_t)f->comps * (int64_t)f->elem_bytes;
    }
    int64_t n = per_sample > 0 ? KAT_FRAME_BYTES / per_sample : KAT_MAX_SAMPLES;
    return n < KAT_MIN_SAMPLES   ? KAT_MIN_SAMPLES
           : n > KAT_MAX_SAMPLES ? KAT_MAX_SAMPLES
                                 : n;
}

int hk_kat_draw(HkArena *a, const HkLowered *l, const HawkUnitOracle *o,
                HkKat *out, HkDiags *d)
{
    memset(out, 0, sizeof *out);
    int32_t *by_slot;
    if (hk_plane_members(a, l, &out->abi, &by_slot) != 0)
        return -1;
    out->n = kat_samples(&out->abi);
    out->source = o->source != NULL ? o->source : "oracle";
    HkRng r;
    hk_rng_init(&r, KAT_SEED, l->kernel->name);
    HkLaunchShape s[KAT_CANDIDATES];
    HkLaunch in[KAT_CANDIDATES], ran[KAT_CANDIDATES];
    void *args[KAT_CANDIDATES];
    int32_t status[KAT_CANDIDATES];
    for (uint32_t c = 0; c < KAT_CANDIDATES; c++) {
        hk_launch_shape_init(&s[c], &out->abi, out->n, &r);
        hk_launch_fill(&in[c], &s[c], &r);
        ordinary_launch(&r, &in[c], &s[c]);
        canonical_launch(&in[c], &s[c]);
        hk_launch_clone(&ran[c], &in[c], &s[c]);
        args[c] = ran[c].args;
    }
    int rc = o->run(l, args, KAT_CANDIDATES, out->n, status, d);
    if (rc == 0) {
        uint32_t c = pick(a, s, in, ran, KAT_CANDIDATES);
        out->status = status[c];
        record(a, &s[c], &in[c], &ran[c], out);
    }
    for (uint32_t c = 0; c < KAT_CANDIDATES; c++) {
        hk_launch_free(&ran[c], &s[c]);
        hk_launch_free(&in[c], &s[c]);
        hk_launch_shape_free(&s[c]);
    }
    return rc;
}
