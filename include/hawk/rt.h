/* rt.h -- libhawk-rt: running a host build from a program (docs/EmbeddedC.md,
 * "Loading a build").  A small library with no LLVM and no libhawk in it:
 * it reads the manifest hawk-build wrote, loads each kernel's shared
 * object and launches the entry over threads.
 *
 *   HawkRtError err;
 *   char why[256];
 *   HawkRt *rt = hawk_load("out", &err, why, sizeof why);
 *   const HawkRtKernel *k = hawk_rt_find(rt, "drag");
 *   ... fill a buffer of hawk_rt_args_size(k) bytes: the C header's
 *       drag_args_t, member by member (hawk_rt_set_plane,
 *       hawk_rt_set_field: each write checked against the member's
 *       size) ...
 *   int32_t status = hawk_launch(k, &args, n_samples, 2);
 *   hawk_unload(rt);
 */
#ifndef HAWK_HAWK_RT_H
#define HAWK_HAWK_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct HawkRt HawkRt;
typedef struct HawkRtKernel HawkRtKernel;

/* Why hawk_load failed. */
typedef enum {
    HAWK_RT_OK,
    HAWK_RT_E_MISSING,      /* no build, or a file the manifest names is
                               not there */
    HAWK_RT_E_SOURCE_ONLY,  /* a build of the C target alone: source for
                               an embedded build, nothing to load */
    HAWK_RT_E_MANIFEST,     /* the manifest is not one this library reads */
    HAWK_RT_E_LOAD,         /* the loader refused a shared object, or it
                               lacks the entry the manifest names (a load
                               defect; an OS that signs code would report
                               its refusal here too) */
    HAWK_RT_E_NOMEM,        /* memory ran out */
} HawkRtError;

/* Loads the build in dir through dir/hawk.manifest.json: every kernel's
 * shared object of the host row.  NULL on failure, with *err and why (a
 * sentence, cut to why_len bytes) set. */
HawkRt *hawk_load(const char *dir, HawkRtError *err, char *why,
                  size_t why_len);
/* Unloads every shared object; NULL is allowed. */
void hawk_unload(HawkRt *rt);

size_t hawk_rt_kernel_count(const HawkRt *rt);
const HawkRtKernel *hawk_rt_kernel(const HawkRt *rt, size_t i);
/* The kernel called name, or NULL. */
const HawkRtKernel *hawk_rt_find(const HawkRt *rt, const char *name);
const char *hawk_rt_kernel_name(const HawkRtKernel *k);
/* The walk digest of the kernel the build was made from (the header's). */
const char *hawk_rt_walk_digest(const HawkRtKernel *k);
/* The entry itself, for a caller that partitions on its own. */
typedef int32_t (*HawkRtEntry)(const void *args, int64_t base, int64_t count,
                               int64_t n_samples);
HawkRtEntry hawk_rt_entry(const HawkRtKernel *k);
/* sizeof(<name>_args_t), and the offset of its member field (-1: none)
 * and its size (0: none).  The manifest's size of every member is
 * checked at load against its kind: a plane's is a pointer's, a length's
 * an int64_t's, a value's its components' elements'. */
size_t hawk_rt_args_size(const HawkRtKernel *k);
long hawk_rt_field_offset(const HawkRtKernel *k, const char *field);
size_t hawk_rt_field_size(const HawkRtKernel *k, const char *field);
/* Writes size bytes of value into member field of args (a buffer of
 * hawk_rt_args_size(k) bytes): 0, or -1, writing nothing, when k has no
 * such member or it is not size bytes. */
int hawk_rt_set_field(const HawkRtKernel *k, void *args, const char *field,
                      const void *value, size_t size);
/* Writes the pointer plane into member field of args: 0, or -1, writing
 * nothing, when k has no such member or it is not a plane. */
int hawk_rt_set_plane(const HawkRtKernel *k, void *args, const char *field,
                      const void *plane);
/* Whether partitions of a launch may run at once: every plane the kernel
 * writes is per sample.  A kernel that writes a shared plane (a table, a
 * scattered accumulator, a count) runs as one partition, in sample
 * order, so its bytes are the serial run's. */
int hawk_rt_parallel(const HawkRtKernel *k);

/* Runs samples [0, n_samples) of k over args: split into up to threads
 * contiguous partitions run at once when hawk_rt_parallel(k), else one.
 * Every byte the launch writes is the one-partition run's (a partition no
 * thread can be started for runs on the calling thread).  Returns the
 * entry's status: the first partition's that is not HAWK_OK (0), or 0. */
int32_t hawk_launch(const HawkRtKernel *k, const void *args, int64_t n_samples,
                    unsigned threads);

#ifdef __cplusplus
}
#endif

#endif
