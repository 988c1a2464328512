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

/* ---- stage.c ------------------------------------------------------------- */

/* The stage of a build or a restore into an output directory:
 * <dir>/.hawk-build-XXXXXX; a cache entry's temporary directory:
 * <cache>/tmp-XXXXXX. */
#define BUILD_STAGE_PREFIX ".hawk-build-"
#define BUILD_TMP_PREFIX "tmp-"
/* The marker inside a stage: its host and process, locked while alive. */
#define BUILD_STAGE_MARK ".hawk-stage"

/* A stage while it lives: its path (NULL when there is none), its name in
 * its directory, that directory, the stage and its marker open (the
 * marker locked), each -1 when closed. */
typedef struct {
    const char *path, *name;
    int dir, fd, lock;
} BuildStage;

/* Makes a new empty stage "<prefix>XXXXXX" in dir, marked and locked,
 * after sweeping the stages of prefix there whose makers are gone; 0, or
 * -1 after a diagnostic. */
int build_stage_make(HawkContext *ctx, const char *dir, const char *prefix,
                     BuildStage *s);
/* Runs fn(ud), the stage s dropped when memory runs out inside it (the
 * failure then goes on to the caller's catcher). */
void build_stage_protect(HkArena *a, BuildStage *s, void (*fn)(void *ud),
                         void *ud);
/* Removes the stage's marker, before the stage is renamed into a cache
 * entry; 0, or -1 with errno. */
int build_stage_unmark(BuildStage *s);
/* Removes the stage with what it holds and closes it; nothing when it is
 * gone already. */
void build_stage_drop(BuildStage *s);
/* Closes the stage, leaving its directory (it was renamed away). */
void build_stage_forget(BuildStage *s);
/* Removes the stages "<prefix>XXXXXX" of dir whose makers are gone: a
 * directory of this user's, not a link, holding a marker of this host
 * whose lock is free and whose process does not exist. */
void build_sweep(const char *dir, const char *prefix);

/* ---- cache.c ------------------------------------------------------------- */

/* Calls each(ud, name) for every entry of dir but "." and "..", in the
 * order readdir gives, and closes the directory even when memory runs
 * out inside each (the failure then goes on to the caller's catcher).
 * Returns 0, or -1 when dir cannot be opened. */
int build_each_entry(HkArena *a, const char *dir,
                     void (*each)(void *ud, const char *name), void *ud);
/* Moves the n files names of stage into dir; 0, or -1 after a
 * diagnostic. */
int build_move_files(HawkContext *ctx, const char *stage, const char *dir,
                     const char *const *names, size_t n);
/* Restores the files of key's entry into out, through a stage, the bytes
 * whose digests were checked: 1; 0 when the entry is missing or damaged,
 * or (unless trust) a directory or file of it was written by another
 * user or is writable by one (*why says which), restoring nothing; -1
 * after a diagnostic (a file that cannot be written). */
int build_cache_restore(HawkContext *ctx, const char *cache, const char *key,
                        const char *out, int trust, const char **why);
/* Stores files (names in stage, the build's own directory) as key's
 * entry, replacing one there that is damaged or (unless trust) that
 * another user wrote or may write; 0, or -1 after a diagnostic. */
int build_cache_store(HawkContext *ctx, const char *cache, const char *key,
                      const char *stage, const char *const *files, size_t n,
                      int trust);

#endif
