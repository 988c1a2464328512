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
    /* The C compiler, resolved once for the key (key.c): the one that
     * links the host row's shared objects; found 0 with why when none. */
    HkTool cc_tool;
    int cc_found;
    const char *cc_why;
    const HkTool *cc;            /* the C compiler that linked the host
                                    row's shared objects, or NULL */
    size_t kernels_restored;     /* loadable rows: (row, kernel) pairs */
    size_t kernels_built;        /* from the cache, and made */
    const char *stage;           /* the stage while it is there, so a build
                                    that ran out of memory removes it */
} BuildRecord;

/* Whether a program can load row t's artifacts: it builds native code. */
int build_row_loadable(const HkTarget *t);
/* The shared object of kernel name for row t ("drag.host.so"). */
const char *build_shared_name(HkArena *a, const HkTarget *t,
                              const char *name);

/* The texts of hawk.manifest.json and hawk.build.json, in the arena.
 * records.c. */
const char *build_manifest_text(const BuildRecord *r);
const char *build_stamp_text(const BuildRecord *r);
/* The name an input is recorded by: its file name without directories
 * (where a file sits is not what it holds), "<stdin>" for "-". */
const char *build_input_name(const HkSource *src);

/* ---- key.c --------------------------------------------------------------- */

/* The build's key and the terms it digests (HawkBuildResult); resolves
 * r's C compiler (cc_tool, cc_found, cc_why). */
void build_key(BuildRecord *r, const HawkBuildOptions *o, const char **key,
               const char **terms);
/* "<label> <path> | <version> | size <n> | mtime <t>", or "<label> none
 * (<why>)": a tool's fingerprint as a term. */
void build_tool_line(HkBuf *b, const char *label, int found,
                     const HkTool *t, const char *why);

/* ---- kernelkey.c --------------------------------------------------------- */

/* The key of kernel k's files in loadable row t, and the terms it digests
 * (after build_key, which resolves the C compiler). */
const char *build_kernel_key(const BuildRecord *r, const HkTarget *t,
                             const BuildKernel *k, const char **terms);

/* ---- cache.c ------------------------------------------------------------- */

/* The stage of a build or a restore into an output directory:
 * <dir>/.hawk-build-<pid>. */
#define BUILD_STAGE_PREFIX ".hawk-build-"

/* Removes dir and what it holds: its files, and a directory a damaged
 * cache entry holds where a file was (a few levels deep at most); a
 * symbolic link is removed, never followed. */
void build_remove_dir(HkArena *a, const char *dir);

/* Calls each(ud, name) for every entry of dir but "." and "..", in the
 * order readdir gives, and closes the directory even when memory runs
 * out inside each (the failure then goes on to the caller's catcher).
 * Returns 0, or -1 when dir cannot be opened. */
int build_each_entry(HkArena *a, const char *dir,
                     void (*each)(void *ud, const char *name), void *ud);
/* Removes the entries of dir named "<prefix>...<pid>" whose process is
 * gone: the stages and temporary entries of killed builds. */
void build_sweep(HkArena *a, const char *dir, const char *prefix);
/* Makes this process's empty stage in dir (after sweeping dead ones);
 * its path, or NULL after a diagnostic. */
const char *build_stage(HawkContext *ctx, const char *dir);
/* Moves the n files names of stage into dir; 0, or -1 after a
 * diagnostic. */
int build_move_files(HawkContext *ctx, const char *stage, const char *dir,
                     const char *const *names, size_t n);
/* Restores the files of key's entry into out, through a stage, the bytes
 * whose digests were checked: 1; 0 when the entry is missing or damaged
 * (*why says which), restoring nothing; -1 after a diagnostic (a file
 * that cannot be written). */
int build_cache_restore(HawkContext *ctx, const char *cache, const char *key,
                        const char *out, const char **why);
/* Stores files (names in stage, the build's own directory) as key's
 * entry; 0, or -1 after a diagnostic. */
int build_cache_store(HawkContext *ctx, const char *cache, const char *key,
                      const char *stage, const char *const *files, size_t n);

#endif
