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

#ifdef __cplusplus
}
#endif

#endif
