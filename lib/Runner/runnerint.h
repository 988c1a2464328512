/* runnerint.h -- the runner's pieces (lib/Runner): the C unit as a
 * loaded shared object, on another processor, and the comparison of two
 * units over the launches lib/Lower/launch.h draws.  runner.h is the API over
 * them. */
#ifndef HAWK_RUNNERINT_H
#define HAWK_RUNNERINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi.h"
#include "launch.h"
#include "passctx.h"
#include "cunit.h"
#include "driver.h"
#include "interp.h"
#include "lower.h"
#include "runner.h"

/* ---- runner.c ----------------------------------------------------------- */

/* Lowers kernel f (under math, or the default when NULL) and lays out
 * its args struct; 0, or 1 with diagnostics appended to ctx. */
int runner_lower_layout(HawkContext *ctx, HkModule *m, HkFunc *f,
                        const char *math, HkLowered *low, HkAbiLayout *abi);

/* ---- cbuild.c: the C unit as a loaded shared object ------------------- */

typedef int32_t (*UnitEntry)(const void *args, int64_t base, int64_t count,
                             int64_t n_samples);

typedef struct {
    void *handle;             /* dlopen handle */
    UnitEntry entry;          /* <name>_c */
} CUnitLib;

/* Writes l's C unit into a private temporary directory, compiles it with
 * the resolved C compiler into a shared object, loads it and finds
 * <name>_c; the directory is removed before returning.  Returns 0, or 1
 * after an error message naming the kernel (or with the C writer's
 * diagnostics appended to ctx). */
int cbuild_load(HawkContext *ctx, const HkLowered *l, const char *cflags,
                CUnitLib *out);

/* The runtime unit that serves l's unit u alone: file names, as the row
 * names them, and texts (c_text NULL: no source). */
typedef struct {
    const char *c, *h, *c_text, *h_text;
} UnitRuntime;
void cbuild_runtime(HkArena *a, const HkLowered *l, const HkCUnit *u,
                    UnitRuntime *out);
/* Appends the words of text (NULL: none), split at blanks, to argv from
 * argv[n]; returns the new count.  text has at most strlen/2 + 1 words. */
size_t cbuild_words(HkArena *a, const char *text, const char **argv,
                    size_t n);
void cbuild_unload(CUnitLib *u);

/* ---- pil.c: the C unit on another processor ---------------------------- */

/* A target session (pil.c), a value its caller holds. */
typedef struct PilSession PilSession;

/* Writes l's C unit and a harness program into a temporary directory and
 * builds them with cc (-std=c99 -O2 -static, the unit's flags, cflags);
 * pil_entry then runs the harness, through exec when not NULL, for each
 * call.  0, or 1 with diagnostics appended to ctx; *out is the session
 * either way (in ctx's arena), which pil_unload ends, removing the
 * directory. */
int pil_build(HawkContext *ctx, const HkLowered *l, const HkAbiLayout *abi,
              const char *cc, const char *exec, const char *cflags,
              PilSession **out);
/* The launch the next calls of pil_entry take their plane sizes from. */
void pil_set_shape(PilSession *s, const HkLaunchShape *shape);
/* The C unit's entry on the target: the launch out through in.bin, the
 * planes back from out.bin.  A failed run is a diagnostic, and this call
 * and every later one return a status no unit returns. */
int32_t pil_entry(PilSession *s, const void *args, int64_t base,
                  int64_t count, int64_t n);
/* Ends session s (NULL: none). */
void pil_unload(PilSession *s);

/* ---- compare.c: both units over identical copies ---------------------- */

typedef struct {
    const char *kernel;
    FILE *out;                /* where a mismatch is reported */
    /* the units' names in messages: the ids of their rows in the targets
     * table (the C unit's profile target, the LLVM-written row) */
    const char *c_name, *host_name;
    UnitEntry c_entry, host_entry;
    HkInterp *interp;         /* not NULL: the reference row is the HIR
                                 interpreter, not host_entry */
    HkInterp *third;          /* not NULL: the interpreter runs the whole
                                 range too, a third row beside both */
    PilSession *c_pil;        /* not NULL: the C unit runs on the target,
                                 through this session, not c_entry */
    unsigned round;           /* the launch being compared, from 0 */
    const HkLaunch *orig;       /* the launch as filled, for a mismatch's
                                 inputs; NULL when not shown */
    int exact_nan;            /* a NaN must match a NaN's bits too */
    int guarded;              /* a mask guard skips masked samples */
    uint64_t *nan_only;       /* counts values that differ only as two
                                 NaNs of other sign or payload */
    int64_t sample_max;       /* the largest n_samples both entries take
                                 (hk_plane_sample_bound) */
} Pair;

/* The interpreter's name in messages. */
#define INTERP_NAME "the HIR interpreter"

/* Runs both units over copies of l (whole range and a partition drawn
 * from r) and compares every plane byte for byte.  Returns 0, or 1 after
 * printing the first mismatch (or a status difference). */
int compare_launch(const Pair *p, const HkLaunchShape *s, const HkLaunch *l,
                   HkRng *r);

/* Calls both entries with invalid arguments (a NULL args or plane, base
 * and count out of range, a runtime length of 0) and checks both refuse
 * with the same status and touch nothing.  Returns 0, or 1 after a
 * message. */
int compare_entry_checks(const Pair *p, const HkLaunchShape *s, const HkLaunch *l);



#endif
