/* driver.h -- what a program links from libhawk-driver to export with
 * the toolchain checks: the checker that runs the C compiler and cppcheck
 * (docs/EmbeddedC.md, "Checks").  libhawk itself starts no process and
 * reads no environment variable.
 *
 *   HawkExportOptions o;
 *   hawk_export_options_init(&o);
 *   o.checker = hawk_driver_checker();
 */
#ifndef HAWK_HAWK_DRIVER_H
#define HAWK_HAWK_DRIVER_H

#include "hawk/emit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The checker for HawkExportOptions.checker; static, never NULL. */
const HawkUnitChecker *hawk_driver_checker(void);
/* The checker with its verdicts recorded in cache_dir (docs/EmbeddedC.md,
 * "Checks paid once"): a check that passed on the same texts, tool and
 * flags is not run again, and cppcheck re-reads only the units that
 * changed.  In ctx's arena; NULL or "" cache_dir: hawk_driver_checker(). */
const HawkUnitChecker *hawk_driver_checker_cached(HawkContext *ctx,
                                                  const char *cache_dir);
/* The default cache directory: $HAWK_CACHE_DIR, else
 * $XDG_CACHE_HOME/hawk, else $HOME/.cache/hawk; malloc'd (free it), or
 * NULL when none of them is set or memory runs out (the caller then works
 * without a cache). */
char *hawk_default_cache_dir(void);

#ifdef __cplusplus
}
#endif

#endif
