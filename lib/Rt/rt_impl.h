/* rt_impl.h -- what libhawk-rt's files share: a loaded build's kernels,
 * and the manifest reader (manifest.c) that fills them before rt.c loads
 * their shared objects. */
#ifndef HAWK_RT_IMPL_H
#define HAWK_RT_IMPL_H

#include <stddef.h>

#include "hawk/rt.h"

typedef int32_t (*Entry)(const void *args, int64_t base, int64_t count,
                         int64_t n_samples);

/* What a member holds, and so what a program writes there. */
typedef enum { HK_RT_PLANE, HK_RT_LENGTH, HK_RT_VALUE } HkRtFieldKind;

typedef struct {
    char *name;
    long offset;           /* inside the args: offset + size <= args_size */
    size_t size;           /* its kind's: a pointer, an int64_t, a value's
                              components */
    HkRtFieldKind kind;
} Field;

struct HawkRtKernel {
    char *name;
    char *walk_digest;
    size_t args_size;
    Field *fields;
    size_t nfields;
    int parallel;
    char *shared_object;   /* a file name in the build directory */
    char *entry_name;
    void *handle;          /* NULL until rt.c loads it */
    Entry entry;
};

struct HawkRt {
    HawkRtKernel *kernels;
    size_t nkernels;
};

/* The largest args struct a manifest may give (bytes): a kernel's args
 * hold a pointer or a value per field. */
#define HK_RT_MAX_ARGS ((size_t)1 << 20)

/* Reads the text of dir's hawk.manifest.json into a build whose kernels
 * are not loaded yet (no handle, no entry), or NULL with *err and why
 * set (dir only names the file in why). */
HawkRt *hk_rt_read_manifest(const char *text, const char *dir, HawkRtError *err,
                            char *why, size_t why_len);
/* Sets *err and why (cut to n bytes); returns NULL. */
HawkRt *hk_rt_fail(HawkRtError *err, HawkRtError e, char *why, size_t n,
                   const char *fmt, ...);

#endif
