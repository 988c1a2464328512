/* buildint.h -- the build door's pieces (lib/Build): the build
 * (build.c: the exports per row, the host row's shared objects) and its
 * records (records.c: the manifest and the build stamp). */
#ifndef HAWK_BUILDINT_H
#define HAWK_BUILDINT_H

#include "hawk/build.h"

#include "abi.h"
#include "driver.h"
#include "lower.h"
#include "targets.h"

/* One kernel of the build, lowered once more for its records. */
typedef struct {
    HkModule *m;
    HkFunc *f;
    HkLowered low;
    HkAbiLayout abi;
} BuildKernel;

/* What the records of one build say. */
typedef struct {
    HawkContext *ctx;
    HkModule *const *ms;
    size_t nms;
    const HkTarget **rows;       /* the targets, in table order */
    size_t nrows;
    BuildKernel *kernels;        /* in module order */
    size_t nkernels;
    const char *profile;         /* the profile's repr */
    const HkTool *cc;            /* the C compiler that linked the host
                                    row's shared objects, or NULL */
} BuildRecord;

/* Whether a program can load row t's artifacts: it builds native code. */
int build_row_loadable(const HkTarget *t);
/* The shared object of kernel name for row t ("drag.host.so"). */
const char *build_shared_name(HkArena *a, const HkTarget *t,
                              const char *name);

/* The texts of hawk.manifest.json and hawk.build.json, in the arena. */
const char *build_manifest_text(const BuildRecord *r);
const char *build_stamp_text(const BuildRecord *r);

#endif
