/* host.h -- the host target: the unit of a lowered kernel built through the
 * LLVM C API (library hawk-llvm; libhawk itself does not link LLVM).
 *
 * The unit computes exactly what the C writer's unit computes, byte for
 * byte, over the same args struct: `<name>_host(const <name>_args_t *args,
 * int64_t base, int64_t count, int64_t n_samples)` returning the status
 * (the C header's enum) as i32.  docs/EmbeddedC.md, "The host target".
 */
#ifndef HAWK_HOST_H
#define HAWK_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "hawk/emit.h"

#include "lower.h"

/* The entry of a built unit; args points to the C header's <name>_args_t. */
typedef int32_t (*HkHostEntry)(const void *args, int64_t base, int64_t count,
                               int64_t n_samples);

/* The textual IR of l's optimized unit, in the arena (deterministic for a
 * given kernel and machine).  Returns 0, or -1 with a diagnostic in d. */
int hk_host_emit_ir(HkArena *a, const HkLowered *l, const char **text,
                    size_t *len, HkDiags *d);

/* The native ELF object of l's unit, in the arena (deterministic).
 * Returns 0, or -1 with a diagnostic in d. */
int hk_host_emit_object(HkArena *a, const HkLowered *l, const char **bytes,
                        size_t *len, HkDiags *d);

/* A unit built in memory by ORC LLJIT; libm is resolved from the process. */
typedef struct HkHostJit HkHostJit;

/* JIT-compiles l's unit; *entry is its `<name>_host`, valid until
 * hk_host_jit_free(*out).  Returns 0, or -1 with a diagnostic in d. */
int hk_host_jit(const HkLowered *l, HkHostJit **out, HkHostEntry *entry,
                HkDiags *d);

/* Releases a JIT unit (NULL is allowed). */
void hk_host_jit_free(HkHostJit *j);

/* The version of the LLVM the host row is built with ("14.0.6"). */
const char *hk_host_llvm_version(void);

/* The CPU the host row's objects are built for, as LLVM names it:
 * "<cpu> <features>" ("skylake +sse2,+avx,..."). */
const char *hk_host_cpu(HkArena *a);

/* The LLVMWriter as the export calls it (HawkExportOptions.llvm_writer):
 * a tool that links hawk-llvm passes it to hawk_export. */
const HawkUnitWriter *hk_host_writer(void);

#endif
