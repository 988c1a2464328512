/* host.h -- what a program links from libhawk-llvm to export through the
 * host row of the targets table (a native object built with LLVM's C API:
 * docs/EmbeddedC.md, "The host target").
 *
 *   HawkExportOptions o;
 *   hawk_export_options_init(&o);
 *   o.target = id;      (the host row's id: hawk-emit -target=...)
 *   o.llvm_writer = hawk_host_writer();
 *   o.oracle = hawk_host_oracle();   (selftest=on)
 */
#ifndef HAWK_HAWK_HOST_H
#define HAWK_HAWK_HOST_H

#include "hawk/emit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The LLVMWriter for HawkExportOptions.llvm_writer; static, never NULL. */
const HawkUnitWriter *hawk_host_writer(void);

/* The host build as HawkExportOptions.oracle: the known answers of a
 * self-test (profile selftest=on), from the kernel's unit built in
 * memory; static, never NULL. */
const HawkUnitOracle *hawk_host_oracle(void);

#ifdef __cplusplus
}
#endif

#endif
