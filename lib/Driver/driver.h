/* driver.h -- lib/Driver: what runs outside the process and reads the
 * environment, above libhawk: external programs started with an argument
 * vector, the C toolchain's resolution, and the checks of an emitted unit
 * (the checker hawk_export is handed).  The tools link it (hawk-driver);
 * libhawk never spawns a process or reads an environment variable.
 */
#ifndef HAWK_DRIVER_H
#define HAWK_DRIVER_H

#include "checks.h"
#include "emit.h"
#include "hawk/emit.h"

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

/* A run's output without its trailing newlines, for a diagnostic that
 * goes on after it. */
const char *hk_run_output_trimmed(HkArena *a, const char *output);

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

/* Resolves the C compiler in the contract's order: $HAWK_CC (must resolve);
 * the C sibling of $HAWK_CXX (g++-13 -> gcc-13, clang++ -> clang, c++ ->
 * cc); the first word of $CC; cc, clang, gcc on PATH.  Returns 0, or -1
 * with *why set (an arena string). */
int hk_resolve_cc(HkArena *a, HkTool *out, const char **why);
/* $HAWK_CPPCHECK, else cppcheck on PATH; -1 when absent (why set). */
int hk_resolve_cppcheck(HkArena *a, HkTool *out, const char **why);
/* The C compiler for a C++ compiler's name ("g++-13" -> "gcc-13"), or NULL
 * when the name has no known C twin. */
const char *hk_cc_sibling(HkArena *a, const char *cxx);

/* ---- checks.c ------------------------------------------------------------ */

/* The two halves of the HawkUnitChecker contract (checks.h). */
int hk_run_compile(const HawkUnitChecker *self, HkArena *a, const char *dir,
                   const char *const *files, const char *what,
                   const HkProfile *p, HkChecks *out, HkDiags *d,
                   const HkSource *src, HkLoc loc);
int hk_run_cppcheck(const HawkUnitChecker *self, HkArena *a, const char *dir,
                    const char *const *files, const char *what,
                    const HkProfile *p, HkChecks *out, HkDiags *d,
                    const HkSource *src, HkLoc loc);

/* The checker for HawkExportOptions.checker: with no cache, and with its
 * verdicts recorded in cache_dir (NULL or "": the first). */
const HawkUnitChecker *hk_driver_checker(void);
const HawkUnitChecker *hk_driver_checker_cached(HkArena *a,
                                                const char *cache_dir);

/* ---- checkcache.c: checks paid once ------------------------------------- */

/* The sha256 a check's verdict is recorded under: the tool's version
 * line, argv (the tool's path, flags, files) and the texts of files in
 * dir with the local headers they include. */
const char *hk_check_key(HkArena *a, const char *dir, const char *tool_version,
                         const char *const *argv, const char *const *files);
/* Whether cache records a pass under key (0 for a NULL cache or key). */
int hk_check_cached(HkArena *a, const char *cache, const char *key);
/* Records a pass under key, whole; a cache that cannot be written is
 * left so (it only costs time). */
void hk_check_record(HkArena *a, const char *cache, const char *key,
                     const char *command);
/* cppcheck's build directory in cache for this tool and these file
 * names, made when missing; NULL without a cache or when it cannot
 * be made. */
const char *hk_check_build_dir(HkArena *a, const char *cache,
                               const char *tool_path, const char *tool_version,
                               const char *const *files);
/* The digest of the text of the headers files (in dir) include. */
const char *hk_check_headers(HkArena *a, const char *dir,
                             const char *const *files);
/* Empties build directory bd, held under its lock, unless it was filled
 * under the same headers: cppcheck hashes a file's tokens, the headers
 * it includes taken in and comments left out, so a header whose comment
 * grew (hawk_runtime.h lists each unit's helpers in one) would leave an
 * unchanged unit's analysis placing the header's declarations at their
 * old lines, which the MISRA rules spanning the units (5.6, 5.7, 8.5)
 * then read as a second declaration. */
void hk_check_build_dir_renew(HkArena *a, const char *bd, const char *headers);
/* Holds the build directory's lock until hk_check_unlock (a descriptor;
 * -1 when it cannot be taken, and the run goes on unlocked). */
int hk_check_lock(HkArena *a, const char *build_dir);
void hk_check_unlock(int fd);

/* ---- trust.c: who may have written what a cache holds -------------------- */

/* Why path, a directory of a cache (is_dir: followed when a link) or a
 * file of one (never a link), may not be trusted: not there, not of its
 * kind, owned by a user other than this one or root, or writable by
 * another (a group or other write bit); NULL when it may. */
const char *hk_cache_untrusted(HkArena *a, const char *path, int is_dir);
/* hk_cache_untrusted of cache and of each directory of the relative path
 * sub below it ("ab/<key>"), the first that may not be trusted named in
 * *which; NULL when all may. */
const char *hk_cache_untrusted_below(HkArena *a, const char *cache,
                                     const char *sub, const char **which);
/* hk_make_dirs of the directory sub ("ab", "checks"; NULL: none) of
 * cache, each directory of sub, and cache when this call made it, then
 * writable by this user alone whatever the umask (a read trusts only
 * such); 0, or -1 with errno and *failed. */
int hk_cache_make_dirs(HkArena *a, const char *cache, const char *sub,
                       const char **failed);
/* Makes a file just written into a cache writable by this user alone. */
void hk_cache_seal(const char *path);

#endif
