/* emit.h -- lib/Emit's private interface: running external programs,
 * resolving the C toolchain, digests, writing files whole, the text audit.
 */
#ifndef HAWK_EMIT_H
#define HAWK_EMIT_H

#include "ir.h"

/* ---- run.c: external programs, started with an argument vector -------- */

typedef struct {
    int started;           /* 0: could not be started (errno_text says why) */
    int exited;            /* 1: exited normally (status is its code) */
    int status;            /* exit code, or the signal number */
    const char *output;    /* stdout and stderr, interleaved as written */
    size_t output_len;
    const char *errno_text;
} HkRunResult;

/* Runs argv[0] (searched on PATH when it has no '/') with argv, stdin from
 * /dev/null, capturing stdout and stderr into the arena.  Never a shell. */
HkRunResult hk_run(HkArena *a, const char *const *argv);
/* hk_run with dir (when not NULL) as the program's working directory. */
HkRunResult hk_run_in(HkArena *a, const char *dir, const char *const *argv);

/* The command as a reader would type it, for reports and diagnostics:
 * words joined by spaces, a word with shell-special characters quoted. */
const char *hk_command_text(HkArena *a, const char *const *argv);

/* Finds an executable: a name with '/' is checked as is, else each PATH
 * directory in order.  Returns the arena path, or NULL. */
const char *hk_which(HkArena *a, const char *name);

/* ---- toolchain.c: the C compiler and cppcheck --------------------------- */

typedef struct {
    const char *path;      /* resolved executable */
    const char *how;       /* "$HAWK_CC", "$HAWK_CXX sibling", "$CC", "PATH" */
    const char *name;      /* the word that was resolved ("gcc-13") */
    const char *version;   /* first line of `<cc> --version` */
} HkTool;

/* Resolves the C compiler in the seed's order: $HAWK_CC (must resolve);
 * the C sibling of $HAWK_CXX (g++-13 -> gcc-13, clang++ -> clang, c++ ->
 * cc); the first word of $CC; cc, clang, gcc on PATH.  Returns 0, or -1
 * with *why set (an arena string). */
int hk_resolve_cc(HkArena *a, HkTool *out, const char **why);
/* $HAWK_CPPCHECK, else cppcheck on PATH; -1 when absent (why set). */
int hk_resolve_cppcheck(HkArena *a, HkTool *out, const char **why);
/* The C compiler for a C++ compiler's name ("g++-13" -> "gcc-13"), or NULL
 * when the name has no known C twin. */
const char *hk_cc_sibling(HkArena *a, const char *cxx);

/* ---- digest.c ------------------------------------------------------------ */

/* Lower-case hex sha256 of n bytes (libcrypto). */
const char *hk_sha256_hex(HkArena *a, const void *data, size_t n);

/* ---- output.c: files written whole ----------------------------------------- */

/* Writes n bytes to path through a temporary file in the same directory
 * and a rename, so a reader never sees a partial file.  Returns 0, or -1
 * with *why set. */
int hk_write_whole(HkArena *a, const char *path, const char *data, size_t n,
                   const char **why);

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
 * file, then line order).  Returns the number of hits. */
uint32_t hk_audit_unit(HkArena *a, const char *c_name, const char *c_text,
                       const char *h_name, const char *h_text,
                       HkAuditHits *hits);

#endif
