/* lower.h -- a kernel lowered for the targets (lib/Lower): hk_lower
 * produces an HkLowered, shared by every writer, so the C unit and the
 * host build consume the same IR; the args struct layout (abi.h) and what
 * every writer reads alike of the planes; the interface a writer outside
 * libhawk implements.  Writers include this, never each other's headers.
 */
#ifndef HAWK_LOWER_H
#define HAWK_LOWER_H

#include "hawk/emit.h"

#include "abi.h"
#include "embedded.h"

typedef struct HkLowered {
    HkFunc *kernel;           /* scalarized (after inline, the analyses,
                                 scalarize, legalize, cse, const-fold,
                                 branch-fold, dse, dce) */
    const HkFunc *source;     /* the kernel as verified, before any pass
                                 (a copy in a module of its own, with the
                                 funcs it calls): what the interpreter
                                 evaluates, so that it checks the
                                 lowering instead of sharing it */
    HkProfile profile;
    /* The analyses, taken before scalarize (which invalidates the cache);
     * positions are those of the inlined kernel. */
    const HkFeatureResult *features;
    const HkTripResult *trips;
    const HkIndexResult *index;
    const HkDomainResult *domain;
    const HkIntSitesResult *ints;
    const HkCostResult *cost;
    const HkInterfaceResult *iface;
    /* unused's result on the kernel as written, before inline (empty for
     * a kernel a transform made: unused does not look at it) */
    const HkUnusedResult *unused;
    const char *walk_digest;   /* sha256 of hk_print_func of the kernel as
                                  parsed, before any pass */
    const char *source_digest; /* sha256 of the source span
                                  f->src_begin..f->src_end */
    int float32;               /* scalar mode: 1 for float32 */
    /* The called math functions (hk_math_called) the kernel's ops call
     * under math=hawk, by id (NULL: not called), each lowered as its own
     * kernel (hk_lower_mathfn). */
    const struct HkLowered *mathfn[HK_MATHFN_COUNT];
    /* A derivative kernel's figures (hk_deriv_figures), filled by the
     * export; NULL for any other kernel. */
    const struct HkDerivFigures *deriv;
} HkLowered;

/* The files of l's unit as its target row names them (targets.c): the
 * source "<name><source>" ("drag.c") and the header "<name><artifact>"
 * ("drag.h").  lower.c. */
const char *hk_unit_source_name(HkArena *a, const HkLowered *l);
const char *hk_unit_header_name(HkArena *a, const HkLowered *l);

/* Whether kernel k's scalar mode is float32: a real slot is f32 (LangRef
 * "Types"; the verifier makes the real slots agree).  lower.c. */
int hk_kernel_float32(const HkFunc *k);


/* A pass manager of ctx with the profile options (opt_keys[i] =
 * opt_vals[i], nopts pairs) set for every pass, and the profile they
 * spell read into p; NULL after a diagnostic naming a bad option.  The
 * export checks its options with it once, the lowering runs through it. */
HawkPassManager *hk_lower_options(HawkContext *ctx, HkModule *m,
                                  const char *const *opt_keys,
                                  const char *const *opt_vals, uint32_t nopts,
                                  HkProfile *p);

/* Runs inline and the verify analyses on module m for kernel k (a refusal
 * or a failed analysis leaves its diagnostics in ctx and returns -1), takes
 * the analysis results, then runs scalarize, cse and dce.  The options
 * (opt_keys[i] = opt_vals[i], nopts pairs) are the profile flags, set on
 * the pass manager for every pass.  Fills out; returns 0. */
int hk_lower(HawkContext *ctx, HkModule *m, HkFunc *k,
             const char *const *opt_keys, const char *const *opt_vals,
             uint32_t nopts, HkLowered *out);

/* ---- derivfig.c: a derivative kernel's figures ----------------------------- */

/* Index of the primal and of each mode in HkDerivFigures' arrays. */
enum { HK_DF_PRIMAL, HK_DF_JVP, HK_DF_VJP, HK_DF_COUNT };

typedef struct HkDerivFigures {
    const HkDerivOrigin *origin;
    /* Per HK_DF_*: the cost analysis' ops_total and static bytes (tapes,
     * total) of each kernel lowered under the same profile; -1 where that
     * kernel does not lower (the other mode refuses the primal, or the
     * profile refuses what it makes). */
    int64_t ops[HK_DF_COUNT], tapes[HK_DF_COUNT], bytes[HK_DF_COUNT];
} HkDerivFigures;

/* The figures of l's kernel when a derivative pass made it (its origin),
 * else NULL: its own from l, the primal's and the other mode's lowered
 * again from the origin's copy of the primal under the same options.
 * What they could not lower leaves -1 and no diagnostic in ctx. */
const HkDerivFigures *hk_deriv_figures(HawkContext *ctx, const HkLowered *l,
                                       const char *const *opt_keys,
                                       const char *const *opt_vals,
                                       uint32_t nopts);

/* ---- mathfn.c: the called math functions ---------------------------------- */

/* The called math function id (hk_mathfn_name) lowered for the writers:
 * the kernel "kernel @<name>(%x: uniform <f>[, %y: uniform <f>],
 * %result: mutable <f>)" that loads its arguments, calls the function of
 * hawk's math and stores the result, lowered under the default profile,
 * once per context.  Each writer spells it as a function of the
 * arguments returning the result: the load of an argument is the
 * parameter, the store of the result (the body's last instruction) the
 * return.  NULL after a diagnostic (a defect of hawk's math). */
const HkLowered *hk_lower_mathfn(HawkContext *ctx, uint32_t id);

/* The called math function i computes under l's profile (math=hawk, a
 * called op on reals of one element type), or UINT32_MAX. */
uint32_t hk_mathfn_of(const HkLowered *l, const HkInst *i);

/* ---- planes.c: what both writers read alike of the planes ---------------- */

/* The args struct of l's kernel (hk_abi_layout of its interface rows)
 * into abi and, by slot, the index of the slot's pointer or value member
 * in it (-1: none) into *by_slot; a runtime length is the member after
 * its plane's.  Returns 0, or -1 when a row names a type no C member
 * spells (never for a kernel the interface analysis accepted). */
int hk_plane_members(HkArena *a, const HkLowered *l, HkAbiLayout *abi,
                     int32_t **by_slot);

/* The largest n_samples an entry accepts, and the plane that bounds it.
 * Component c of sample i of a per-sample plane lies comps * n_samples
 * elements from its base at most, and no object is longer than the
 * largest int64_t byte offset (PTRDIFF_MAX on a 64-bit target), so a
 * caller whose n_samples puts that end past INT64_MAX bytes cannot have
 * the memory it promises, and an entry that took it would compute wrapped
 * offsets.  Both units refuse it (HAWK_E_RANGE); the header states it. */
typedef struct {
    int64_t max;               /* INT64_MAX when no plane bounds it */
    const HkAbiField *plane;   /* the SoA plane that bounds it, or NULL */
} HkSampleBound;
HkSampleBound hk_plane_sample_bound(const HkAbiLayout *abi);

/* The unit of a row built outside libhawk (the host row's LLVMWriter, in
 * hawk-llvm): the artifact's bytes and, when asked, the textual IR, in
 * the arena. */
typedef struct {
    const char *obj;
    size_t obj_len;
    const char *ir;            /* NULL unless asked */
    size_t ir_len;
} HkBuiltUnit;

/* Such a writer, as the caller that links it hands it to hawk_export
 * (HawkExportOptions.llvm_writer): write fills out for l's kernel and
 * returns 0, or -1 with diagnostics in d. */
struct HawkUnitWriter {
    int (*write)(HkArena *a, const HkLowered *l, int want_ir,
                 HkBuiltUnit *out, HkDiags *d);
};

/* What runs a kernel's host build for the known answers of its C unit's
 * self-test (HawkExportOptions.oracle): hawk-llvm's JIT, which libhawk
 * does not link.  run builds l's host unit once and calls its entry over
 * each of the nargs args structs (as the C header lays them out), samples
 * [0, n) of n, storing each status; 0, or -1 with diagnostics in d. */
struct HawkUnitOracle {
    const char *source;       /* whose answers, as the unit's comments name
                                 them: "host build", "HIR interpreter" */
    int (*run)(const HkLowered *l, void *const *args, uint32_t nargs,
               int64_t n, int32_t *status, HkDiags *d);
};

#endif
