/* runner.h -- the bit-identity runner (lib/Runner): a kernel's host unit
 * built in memory and its C unit built with the resolved C compiler into a
 * shared object, both run over identical seeded planes and compared byte
 * for byte.  A layer above Driver, Emit and Host; hawk-run is a thin main
 * over this API, which takes the public types alone.  Errors are
 * diagnostics in the context; a mismatch is reported to the stream the
 * caller names. */
#ifndef HAWK_RUNNER_H
#define HAWK_RUNNER_H

#include <stdint.h>
#include <stdio.h>

#include "hawk/hawk.h"

/* What a run compares and how. */
typedef struct {
    const char *cflags;       /* extra words for the C build, or NULL */
    int64_t samples;          /* samples compared */
    int64_t rounds;           /* launches with fresh uniforms (at most
                                 samples) */
    uint64_t seed;
    int exact_nan;            /* NaN sign and payload count */
    FILE *out;                /* where a mismatch is reported */
    const char *math;         /* the profile's math ("hawk", "libm"), or
                                 NULL for the default */
    const char *cc;           /* processor in the loop: the C compiler of
                                 a static harness program, or NULL */
    const char *exec;         /* ... and the program that runs it (an
                                 emulator, a board's runner), or NULL */
    const char *build_dir;    /* the host unit from this build
                                 (hawk-build's manifest, libhawk-rt)
                                 instead of the JIT, or NULL */
    int oracle;               /* what the C unit is compared with */
} RunnerOptions;

/* RunnerOptions.oracle: the host unit and the HIR interpreter both
 * (which names the one of the three that disagrees), the host unit
 * alone, or the interpreter (lib/Interp) alone.  The default is ALL, or
 * INTERP in a build without LLVM (HAWK_HAVE_LLVM 0) given no build_dir:
 * such a runner makes no host unit of its own. */
enum {
    RUNNER_ORACLE_DEFAULT = -1,
    RUNNER_ORACLE_ALL,
    RUNNER_ORACLE_LLVM,
    RUNNER_ORACLE_INTERP
};

/* What a run found. */
typedef struct {
    uint32_t planes;          /* written planes compared */
    uint64_t nan_only;        /* values that differ only as two NaNs */
} RunnerResult;

/* Lowers kernel f of m, builds both units and compares them over
 * o->samples samples.  Returns 0 when every byte agrees; 1 after a
 * mismatch reported to o->out, or with diagnostics appended to ctx. */
int runner_kernel(HawkContext *ctx, HawkModule *m, HawkFunction *f,
                  const RunnerOptions *o, RunnerResult *res);

/* What a derivative check found (derivcheck.c). */
typedef struct {
    uint32_t outputs;         /* active real outputs: none, nothing ran */
    uint64_t checked;         /* output values compared */
    uint64_t skipped;         /* a difference not finite, or not smooth
                                 within the step */
    uint64_t failed;          /* compared beyond the tolerance */
    uint64_t nonfinite;       /* of them, a tangent not finite where the
                                 differences are finite and agree */
    double worst;             /* the largest |t - d| / (1 + |d|) */
    double step, tol;         /* the central differences' step h, and
                                 the tolerance */
    /* the first failure: the member, sample, component and both values */
    const char *fail_member;
    int64_t fail_sample;
    uint32_t fail_comp;
    double fail_jvp, fail_diff;
    /* the dot-product test <J v, w> = <v, J^T w> against the vjp kernel:
     * why it did not run (NULL when it ran), values compared and
     * skipped, failures, the largest relative error, the tolerance and
     * the first failure (sample -1: the sum over the launch,
     * of the shared members' terms) */
    const char *vjp_note;
    uint64_t dot_checked, dot_skipped, dot_failed;
    uint64_t dot_nonfinite;   /* failed: one side finite, the other not */
    double dot_worst, dot_tol;
    int64_t dot_fail_sample;
    double dot_fail_lhs, dot_fail_rhs;
    /* the cost analysis of the primal, the jvp and the vjp kernel, each
     * lowered as the check builds it: operations per sample (ops_total)
     * and static bytes (total_bytes), -1 where none was built */
    int64_t ops[3], bytes[3];
    /* the active slots, as "M, e, a" ("" for none) */
    const char *active_in, *active_out;
} RunnerDerivResult;

/* Differentiates kernel f forward (the jvp pass, on a copy of m; or the
 * kernel <f>_jvp m holds, as it is) and checks the derivative kernel's tangents against central differences
 * of its primal outputs over o->samples seeded samples (the host unit;
 * o->seed, o->rounds and o->math are read).  Returns 0 when every
 * compared value is within the tolerance; 1 after a failure recorded in
 * res, or with diagnostics appended to ctx (a kernel jvp refuses, or
 * one where no value could be compared). */
int runner_derivatives(HawkContext *ctx, HawkModule *m, HawkFunction *f,
                       const RunnerOptions *o, RunnerDerivResult *res);

/* The args struct of kernel f as the runner fills it, one line per member
 * ("<name>_args_t: size S align A", then "  <member> offset O size S
 * align A <plane|length|value> <elem> xC[ written]"), from ctx's arena;
 * NULL with diagnostics appended to ctx. */
const char *runner_layout_text(HawkContext *ctx, HawkModule *m,
                               HawkFunction *f);

/* ---- eval.c: a kernel run on the values a user gives ------------------ */

/* The values given one slot: the texts of its elements ("1.5", "-inf",
 * "0x1p-3", "true"), all samples' in order, each sample's row-major; or,
 * for an output of runtime length ('?'), that length alone. */
typedef struct {
    const char *slot;         /* the slot's name, without '%' */
    const char **values;
    size_t nvalues;
    int64_t len;              /* the runtime length of an output plane,
                                 or -1 */
} RunnerEvalSlot;

/* What runs the kernel, and how its outputs are printed. */
enum { RUNNER_VIA_INTERP, RUNNER_VIA_C, RUNNER_VIA_LLVM };
enum { RUNNER_FORMAT_TABLE, RUNNER_FORMAT_JSON };

/* Runs kernel f of m once over the values of in (n_samples: the samples
 * the per-sample slots were given, one given a single sample broadcast;
 * 1 when none is per-sample) through the interpreter, the C unit or the
 * host unit (via), and prints every written slot to o->out as a table or
 * as JSON.  Every slot the kernel reads needs values; a slot it only
 * writes starts at 0.  Returns 0, or 1 with diagnostics appended to ctx
 * (a slot unknown, missing or given the wrong count or a value its type
 * cannot hold, a status other than 0). */
int runner_eval(HawkContext *ctx, HawkModule *m, HawkFunction *f,
                const RunnerOptions *o, const RunnerEvalSlot *in, size_t nin,
                int via, int format);

/* Whether the test-only perturbation is armed: HAWK_RUN_TEST_PERTURB a
 * list of "flip-bit-B-of-ROW-output" words (compare.c): the named bit of
 * one output value of that row is then flipped, so a test can see a
 * mismatch caught and its row named. */
int compare_perturb_armed(void);

#endif
