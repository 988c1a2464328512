/* launch.c -- the planes and args struct of one launch: sized from the
 * args layout (lib/Lower/abi.h), filled from the generator, copied so each
 * unit and each run starts from the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

/* The longest runtime length drawn: small, so every clamp is hit. */
#define MAX_LEN 8

/* malloc that never returns NULL: out of memory ends the process, as an
 * arena does (the planes of a launch outgrow an arena's life). */
static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fputs("hawk: error: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Elements of plane member f in a launch of n samples, len its runtime
 * length.  A written shared plane gets at least n elements, so an
 * own-position write stays inside the buffer however the unit spells it;
 * a read-only one gets exactly len, so a read past the clamp is caught
 * by the sanitizers. */
static size_t plane_elems(const HkAbiField *f, int64_t n, int64_t len)
{
    switch (f->addr) {
    case HK_ABI_SOA:
        return (size_t)f->comps * (size_t)n;
    case HK_ABI_FLAT_LEN: {
        int64_t rows = f->written && n > len ? n : len;
        return (size_t)f->comps * (size_t)rows;
    }
    case HK_ABI_FLAT_CELLS:
        return f->comps;
    case HK_ABI_BY_VALUE:
        break;
    }
    return 0;
}

void hk_launch_shape_init(HkLaunchShape *s, const HkAbiLayout *abi, int64_t n,
                       HkRng *r)
{
    memset(s, 0, sizeof *s);
    s->abi = abi;
    s->n = n;
    s->planes = xmalloc(abi->nfields * sizeof *s->planes);
    s->lens = xmalloc(abi->nfields * sizeof *s->lens);
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *f = &abi->fields[k];
        s->lens[k] = 0;
        if (f->kind == HK_ABI_LEN)
            s->lens[k] = 1 + (int64_t)hk_rng_below(r, MAX_LEN);
    }
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *f = &abi->fields[k];
        if (f->kind != HK_ABI_PLANE)
            continue;
        /* the length member, when there is one, follows its plane */
        int64_t len = f->addr == HK_ABI_FLAT_LEN ? s->lens[k + 1] : 0;
        HkPlaneShape *p = &s->planes[s->nplanes++];
        p->field = f;
        p->nelem = plane_elems(f, n, len);
        p->bytes = p->nelem * f->elem_bytes;
    }
}

void hk_launch_shape_free(HkLaunchShape *s)
{
    free(s->planes);
    free(s->lens);
    s->planes = NULL;
    s->lens = NULL;
}

/* Percent of set masks in an i1 plane: a mask guard skips about a third
 * of the samples; other masks are set half the time. */
static unsigned set_percent(const HkAbiField *f)
{
    return f->role == HK_ROLE_TERMINATED ? 30u : 50u;
}

/* Points the plane members of l->args at l's buffers. */
static void point_planes(HkLaunch *l, const HkLaunchShape *s)
{
    for (uint32_t k = 0; k < s->nplanes; k++) {
        void *p = l->data[k];
        memcpy(l->args + s->planes[k].field->offset, &p, sizeof p);
    }
}

void hk_launch_fill(HkLaunch *l, const HkLaunchShape *s, HkRng *r)
{
    const HkAbiLayout *abi = s->abi;
    l->args = xmalloc((size_t)abi->size);
    /* padding bytes too, so two copies of one launch are equal bytes */
    memset(l->args, 0, (size_t)abi->size);
    l->data = xmalloc((s->nplanes ? s->nplanes : 1) * sizeof *l->data);
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        l->data[k] = xmalloc(p->bytes);
        if (p->field->zeroed)
            memset(l->data[k], 0, p->bytes);
        else if (p->field->elem == HK_I1)
            hk_gen_fill_masks(r, l->data[k], p->nelem, set_percent(p->field));
        else
            hk_gen_fill(r, p->field->elem, l->data[k], p->nelem,
                     set_percent(p->field));
    }
    point_planes(l, s);
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *f = &abi->fields[k];
        unsigned char *at = l->args + f->offset;
        if (f->kind == HK_ABI_LEN)
            memcpy(at, &s->lens[k], sizeof s->lens[k]);
        else if (f->kind == HK_ABI_VALUE)
            hk_gen_fill(r, f->elem, at, f->comps, 50u);
    }
}

void hk_launch_clone(HkLaunch *dst, const HkLaunch *src, const HkLaunchShape *s)
{
    dst->args = xmalloc((size_t)s->abi->size);
    memcpy(dst->args, src->args, (size_t)s->abi->size);
    dst->data = xmalloc((s->nplanes ? s->nplanes : 1) * sizeof *dst->data);
    for (uint32_t k = 0; k < s->nplanes; k++) {
        dst->data[k] = xmalloc(s->planes[k].bytes);
        memcpy(dst->data[k], src->data[k], s->planes[k].bytes);
    }
    point_planes(dst, s);
}

void hk_launch_free(HkLaunch *l, const HkLaunchShape *s)
{
    if (l->data != NULL)
        for (uint32_t k = 0; k < s->nplanes; k++)
            free(l->data[k]);
    free(l->data);
    free(l->args);
    l->data = NULL;
    l->args = NULL;
}
