/* checks.h -- the results of the toolchain checks of an emitted unit
 * (docs/EmbeddedC.md, "Checks"): the C compiler twice (-std=c99,
 * -std=c11) and cppcheck's MISRA addon with the three deviations.  They
 * run in lib/Driver (the checker export.c is handed); export.c records
 * each run in the report's "checks".
 */
#ifndef HAWK_CHECKS_H
#define HAWK_CHECKS_H

#include "embedded.h"
#include "hawk/emit.h"

/* One check as the report records it.  Strings live in the arena. */
typedef struct {
    const char *name;         /* "cc -std=c99", "cc -std=c11", "cppcheck" */
    const char *command;      /* exactly as run, files named relative to the
                                 output directory (no temporary paths) */
    const char *status;       /* "passed", "failed", "skipped" */
    const char *output;       /* what the tool printed ("" when silent) */
    const char *tool_path;    /* the resolved executable, or NULL */
    const char *tool_version; /* first line of `<tool> --version`, or NULL */
    const char *why_skipped;  /* the reason, for "skipped"; else NULL */
} HkCheck;

typedef struct {
    HkCheck *items;           /* in the order run */
    uint32_t n;
    int failed;               /* some check failed (or could not run) */
} HkChecks;

/* What runs the checks: lib/Driver's (hk_driver_checker()), which
 * libhawk does not link, handed to hawk_export as
 * HawkExportOptions.checker.  Both run their tool in dir on files (names
 * relative to dir, NULL-terminated) under profile p and append what they
 * ran to out (in the order run); a failing check, and an absent cppcheck
 * under require-cppcheck, set out->failed and append an error at loc in
 * src naming `what` (the kernels) with the command and its output.  Each
 * returns 0 when every check it ran passed or was skipped, else -1.
 *   compile  the C compiler under -std=c99 and -std=c11: one unit with
 *            the runtime unit
 *   analyse  cppcheck's MISRA addon over every unit of the directory and
 *            the runtime unit together */
typedef int (*HkCheckFn)(const HawkUnitChecker *self, HkArena *a,
                         const char *dir, const char *const *files,
                         const char *what, const HkProfile *p, HkChecks *out,
                         HkDiags *d, const HkSource *src, HkLoc loc);

struct HawkUnitChecker {
    HkCheckFn compile;
    HkCheckFn analyse;
    const char *cache_dir;    /* where verdicts are recorded (lib/Driver,
                                 checkcache.c), or NULL */
};

#endif
