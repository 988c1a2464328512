/* passctx.h -- what lib/Passes keeps in a HawkContext: the registry of
 * passes (built-ins first, made when first asked for) and the pass
 * managers.  Private to the library. */
#ifndef HAWK_PASSCTX_H
#define HAWK_PASSCTX_H

#include "context.h"
#include "passes.h"

/* One entry of a pipeline: a registered pass with its name{key=value}
 * options, or `print<name>` of an analysis. */
typedef struct {
    uint32_t pass;            /* index in the context's registry */
    int print;                /* print<name>: render the analysis result */
    const char *label;        /* "dce", "print<instcount>" */
    const char **keys, **vals;
    uint32_t nkv, cap_kv;
    double seconds;           /* wall time of the last run, all functions */
} HkPipeEntry;

/* The analysis results of one function (analysis.c), each with the
 * options text it was computed under ("" for the pipeline's own). */
typedef struct {
    const HkFunc *f;
    void *results[HK_PASS_BUILTIN_COUNT];
    const char *keys[HK_PASS_BUILTIN_COUNT];
    uint64_t valid;           /* bit id: results[id] holds */
} HkFuncAnalyses;

/* The analysis manager of a pass manager: results cached per function
 * and options, invalidated by the transforms that do not preserve them;
 * the EmbeddedProfile parsed once per options text (profile.c). */
typedef struct {
    HkFuncAnalyses *funcs;
    uint32_t n, cap;
    HkSymtab *index;          /* the HkFunc's address -> funcs index */
    struct HkProfileCache *profiles;
} HkAnalysisManager;

struct HawkPassManager {
    HawkContext *ctx;
    HkPipeEntry *entries;
    uint32_t n, cap;
    const char **gkeys, **gvals;  /* hawk_pass_manager_set_option */
    uint32_t ng, cap_g;
    int verify_each;
    HawkAfterPassFn after_pass;
    void *after_user;
    HkBuf out;                /* text of the print<name> entries */
    HkAnalysisManager am;
};

/* ---- analysis.c ----------------------------------------------------------- */

/* The options text of a run: its name{key=value} pairs in order, "" for
 * none (the pipeline-wide options are the manager's own). */
const char *hk_run_key(const HawkPassRun *run);
/* The valid result of analysis id on f computed under the pipeline's own
 * options, or NULL; computes nothing. */
const void *hk_analysis_cached(HawkPassManager *pm, const HkFunc *f,
                               HkPassId id);
/* After a transform on f: drops every result the transform does not
 * preserve. */
void hk_analysis_invalidate(HawkPassManager *pm, const HkFunc *f,
                            uint64_t preserves);
/* Drops every result and parsed profile (the options changed). */
void hk_analysis_clear(HawkPassManager *pm);
/* Removes every entry of pm's pipeline, keeping its options and the
 * analysis manager, so a caller can run a second pipeline on the results
 * of the first. */
void hk_pipeline_reset(HawkPassManager *pm);

struct HkRegistry {
    HkPassInfo *passes;       /* built-ins (passes.def order), then user */
    uint32_t npasses, cap_passes;
    HkSymtab *pass_syms;      /* name -> registry index */
    HkModule *math;           /* hawk's own math, parsed when first asked
                                 for (mathlib.c) */
    HkModule *mathfn_module;  /* math.hir with a kernel per called math
                                 function (lib/Lower/mathfn.c) */
    const void *mathfn[HK_MATHFN_COUNT]; /* the called math functions,
                                 lowered when first asked for (HkLowered,
                                 lib/Lower/mathfn.c) */
};

/* ctx's registry, filled with the built-in passes of passes.def the first
 * time it is asked for (registry.c). */
struct HkRegistry *hk_registry(const HawkContext *ctx);
/* The registry index of the pass spelled name[0..n), or UINT32_MAX. */
uint32_t hk_registry_find(const HawkContext *ctx, const char *name, size_t n);
/* " (did you mean 'p'?)" for the registered pass p nearest name[0..n),
 * or "". */
const char *hk_pass_near(const HawkContext *ctx, const char *name, size_t n);
/* " (did you mean 'c'?)" for the target id nearest id, or "". */
const char *hk_target_near(HkArena *a, const char *id);

#endif
