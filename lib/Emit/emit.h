/* emit.h -- lib/Emit's private interface: writing files whole, the text
 * audit.  Running programs and the toolchain are lib/Driver's
 * (driver.h). */
#ifndef HAWK_EMIT_H
#define HAWK_EMIT_H

#include "hawk/emit.h"
#include "ir.h"

/* ---- output.c: files written whole ----------------------------------------- */

/* Writes n bytes to path through a temporary file in the same directory
 * and a rename, so a reader never sees a partial file.  Returns 0, or -1
 * with *why set. */
int hk_write_whole(HkArena *a, const char *path, const char *data, size_t n,
                   const char **why);

/* Reads the file at path into *text (NUL-terminated, in the arena) and its
 * length into *len (when not NULL; the bytes may hold NULs); a missing
 * file sets *text to NULL.  Returns 0, or -1 with *why set. */
int hk_read_whole(HkArena *a, const char *path, const char **text,
                  size_t *len, const char **why);

/* dir/name, without doubling a trailing '/'. */
const char *hk_path_join(HkArena *a, const char *dir, const char *name);

/* mkdir -p dir; 0, or -1 with errno set and *failed (when not NULL) the
 * component that could not be made. */
int hk_make_dirs(HkArena *a, const char *dir, const char **failed);
/* rename(from, to), failing where fault injection says so (fault.h). */
int hk_rename(const char *from, const char *to);

/* ---- export.c: a build's export ------------------------------------------ */

/* Which kernels an export writes: k is the kernel's place among those it
 * picked (module order), f the kernel. */
typedef int (*HkExportKeep)(void *ud, uint32_t k, const HkFunc *f);

/* hawk_export_modules, where a row without a runtime unit (the host row)
 * writes only the kernels keep answers 1 for: the others are checked with
 * them (their names and entries) and neither written nor handed to
 * on_unit, since a build's cache holds their files (lib/Build).  keep is
 * asked after those checks; a row with a runtime unit writes every kernel,
 * whose runtime unit they all shape. */
int hk_export_modules_keeping(HawkContext *ctx, HawkModule *const *ms,
                              size_t nms, const HawkExportOptions *opts,
                              HkExportKeep keep,
                              void *ud);

/* ---- audit.c: the text audit of an emitted unit ------------------------- */

/* The audit kinds, audit.<kind>.  ORDER AUDIT: docs/EmbeddedC.md. */
#define HK_AUDIT_KINDS(X)                                                    \
    X(ALLOC, "alloc", "dynamic allocation")                                 \
    X(GOTO, "goto", "goto")                                                 \
    X(STDIO, "stdio", "standard I/O")                                       \
    X(UNION, "union", "union")                                              \
    X(VOLATILE, "volatile", "volatile")                                     \
    X(PRAGMA, "pragma", "#pragma")                                          \
    X(CXX, "cxx", "a C++ cast or namespace")                                \
    X(LAUNCH, "launch", "a launch-geometry token")                          \
    X(INCLUDE, "include", "an include outside the whitelist")               \
    X(BREAK, "break", "more than one break in a for body")                  \
    X(SWITCH, "switch", "a switch without default or a clause without break") \
    X(HELPER, "helper", "an unreferenced helper")                           \
    X(IDENT, "ident", "external identifiers not distinct in 31 characters") \
    X(COMMENT, "comment", "a line comment")                                 \
    X(INIT, "init", "a brace initialiser")

typedef enum {
#define X(e, name, what) HK_AUDIT_##e,
    HK_AUDIT_KINDS(X)
#undef X
    HK_AUDIT_COUNT
} HkAuditKind;

extern const char *const hk_audit_names[HK_AUDIT_COUNT];

typedef struct {
    HkAuditKind kind;
    const char *file;      /* "drag.c" */
    uint32_t line;
    const char *text;      /* the offending line, trimmed */
} HkAuditHit;

typedef struct {
    uint32_t n, cap;
    HkAuditHit *hits;
} HkAuditHits;

/* Audits the .c and .h texts of one unit; appends every hit to hits (in
 * file, then line order).  The quoted includes allowed are the unit's own
 * header h_name and runtime_h (the runtime header, or NULL).  Returns the
 * number of hits. */
uint32_t hk_audit_unit(HkArena *a, const char *c_name, const char *c_text,
                       const char *h_name, const char *h_text,
                       const char *runtime_h, HkAuditHits *hits);

#endif
