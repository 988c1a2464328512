/* launch.h -- seeded launches of a kernel: the generator of the values
 * both units of a comparison read (gen.c) and the planes and args struct
 * of one launch, laid out from the args layout (launch.c).  The runner
 * (hawk-run) compares the units over them; the export draws a unit's
 * self-test vectors from them (docs/EmbeddedC.md, "The self-test").
 * Planes are malloc'd: they outgrow an arena's life in the runner.
 */
#ifndef HAWK_LAUNCH_H
#define HAWK_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"

/* ---- gen.c: the seeded value generator ------------------------------- */

typedef struct {
    uint64_t state;
} HkRng;

/* A generator for kernel name under seed: the same stream whether the
 * kernel runs alone (-kernel=) or with the others of its file. */
void hk_rng_init(HkRng *r, uint64_t seed, const char *name);
uint64_t hk_rng_next(HkRng *r);               /* splitmix64 */
uint64_t hk_rng_below(HkRng *r, uint64_t n);  /* uniform in [0, n), n >= 1 */

/* Writes n values of element type e to dst (e's bytes each): reals over
 * the special grid and ordinary magnitudes, integers over their boundary
 * grids and small values, i1 as 0/1 with about set_percent percent set. */
void hk_gen_fill(HkRng *r, HkElem e, void *dst, size_t n, unsigned set_percent);
/* Writes n mask bytes to dst: about set_percent percent set, a set one
 * any of 1, 2, 0x7f, 0x80, 0xff (a mask plane's byte means "set" when it
 * is not 0, so every unit must read them alike). */
void hk_gen_fill_masks(HkRng *r, void *dst, size_t n, unsigned set_percent);

/* ---- launch.c: the planes and args struct of one launch --------------- */

/* One plane's buffer size, from its member and the launch geometry. */
typedef struct {
    const HkAbiField *field;
    size_t nelem;             /* elements allocated */
    size_t bytes;
} HkPlaneShape;

typedef struct {
    const HkAbiLayout *abi;
    int64_t n;                /* n_samples of the launch */
    uint32_t nplanes;
    HkPlaneShape *planes;       /* malloc'd, one per plane member */
    int64_t *lens;            /* by field index: the runtime length */
} HkLaunchShape;

/* A filled args struct and its planes (all malloc'd). */
typedef struct {
    unsigned char *args;      /* abi->size bytes */
    unsigned char **data;     /* by plane, shape->planes order */
} HkLaunch;

/* Lays out the planes of one launch of n samples; the runtime lengths are
 * drawn from r (small, so the clamps are hit). */
void hk_launch_shape_init(HkLaunchShape *s, const HkAbiLayout *abi, int64_t n,
                       HkRng *r);
void hk_launch_shape_free(HkLaunchShape *s);

/* Allocates and fills every plane and uniform of s from r. */
void hk_launch_fill(HkLaunch *l, const HkLaunchShape *s, HkRng *r);
/* dst becomes a copy of src with its own planes. */
void hk_launch_clone(HkLaunch *dst, const HkLaunch *src,
                     const HkLaunchShape *s);
void hk_launch_free(HkLaunch *l, const HkLaunchShape *s);

#endif
