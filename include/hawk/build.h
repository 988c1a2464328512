/* build.h -- the build door (docs/EmbeddedC.md, "The build door"): every
 * kernel of one or more modules for several rows of the targets table
 * into one directory, with a build stamp and, for the rows a program can
 * load, a manifest.  Library hawk-build, above hawk-driver (the C
 * toolchain) and hawk-llvm (the host row).
 *
 *   HawkBuildOptions o;
 *   hawk_build_options_init(&o);
 *   o.out_dir = "out";
 *   if (hawk_build(ctx, modules, n, &o) != 0) ... report diagnostics ...
 *
 * A C row writes what hawk_export writes (<name>.c, .h, .embedded.json
 * and the runtime unit); the host row its object <name>.host.o and the
 * shared object <name>.host.so linked from it by the resolved C compiler.
 * hawk.build.json (the stamp) records hawk's version, each input's name
 * and sha256, the profile, the targets and the toolchain's fingerprint;
 * hawk.manifest.json lists, per kernel and loadable row, its entry, args
 * layout and files.  A build of C rows alone writes no manifest: its units
 * are source for an embedded build, not something a program loads.
 *
 * The build is made in a fresh directory inside out_dir and its files
 * moved into out_dir when every row has succeeded, so a failed build
 * leaves nothing.  With cache_dir, a build whose key (the digest of
 * hawk's version, the inputs, the profile, the targets, whether the
 * checks run and the toolchain's fingerprints) has a sound entry there
 * restores its files instead of building; a build that misses stores
 * them.
 */
#ifndef HAWK_HAWK_BUILD_H
#define HAWK_HAWK_BUILD_H

#include <stddef.h>

#include "hawk/hawk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What became of a build's cache (HawkBuildResult.cache). */
typedef enum {
    HAWK_BUILD_CACHE_OFF,             /* no cache_dir */
    HAWK_BUILD_CACHE_HIT,             /* the files came from the cache */
    HAWK_BUILD_CACHE_MISS,            /* built, then stored */
} HawkBuildCache;

/* What a build reports beyond its status; strings owned by the context. */
typedef struct {
    const char *key;                  /* the build's key: sha256 hex of
                                         terms */
    const char *terms;                /* what the key digests, a line each */
    HawkBuildCache cache;
    const char *why_missed;           /* a miss: "no entry", "'drag.c' does
                                         not match its digest", ... */
    /* A miss, for the rows a program loads: the kernels whose files came
     * from their own entries of the cache (a build keys each kernel's
     * object and shared object by its own terms too), and the kernels
     * made; one per kernel and row. */
    size_t kernels_restored;
    size_t kernels_built;
} HawkBuildResult;

typedef struct {
    const char *out_dir;              /* NULL: "." */
    const char *const *targets;       /* row ids, each once; NULL: every
                                         row of the targets table */
    size_t ntargets;
    const char *const *opt_keys;      /* the profile, as hawk_export's */
    const char *const *opt_vals;
    size_t nopts;
    int check;                        /* the C rows' checks (default 1) */
    const char *cache_dir;            /* the cache; NULL: none */
    int trust_cache;                  /* use a cache, and entries, that
                                         another user owns or may write
                                         (default 0: refused, see
                                         docs/EmbeddedC.md) */
    int key_only;                     /* compute the key into result and
                                         build nothing */
    HawkBuildResult *result;          /* filled when not NULL */
} HawkBuildOptions;

/* The defaults: ".", every row of the targets table, the default
 * profile, checks on. */
void hawk_build_options_init(HawkBuildOptions *opts);

/* Builds every kernel of the nms modules ms (parsed in ctx and verified)
 * for each target of opts.  Returns 0, or -1 with diagnostics in ctx (an
 * unknown or repeated target, a refusal, a failed check or link, a file
 * that cannot be written). */
int hawk_build(HawkContext *ctx, HawkModule *const *ms, size_t nms,
               const HawkBuildOptions *opts);

#ifdef __cplusplus
}
#endif

#endif
