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
 */
#ifndef HAWK_HAWK_BUILD_H
#define HAWK_HAWK_BUILD_H

#include <stddef.h>

#include "hawk/hawk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *out_dir;              /* NULL: "." */
    const char *const *targets;       /* row ids, each once; NULL: every
                                         row of the targets table */
    size_t ntargets;
    const char *const *opt_keys;      /* the profile, as hawk_export's */
    const char *const *opt_vals;
    size_t nopts;
    int check;                        /* the C rows' checks (default 1) */
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
