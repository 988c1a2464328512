/* embedded.h -- what the embedded verify passes share: the profile, walk
 * positions, the refusal shape, and the result of each analysis, which the
 * report (lib/Emit/report.c) and the writers read.
 *
 * Each analysis pass computes its result once per kernel, stores it with
 * hk_analysis_set and reads the others it needs with hk_analysis_get, so
 * any pass runs alone after parse + verify.  Results live in the module's
 * arena.  Sites are listed in walk order.
 */
#ifndef HAWK_EMBEDDED_H
#define HAWK_EMBEDDED_H

#include "passes.h"
#include "targets.h"

/* ---- profile.c: the EmbeddedProfile --------------------------------------
 * Read from options (a pass's own name{key=value}, else hawk-opt's flags):
 *   max-trips=N  max-ops=N  max-stack-bytes=N     (absent: None)
 *   fp-domain=record|refuse  index-policy=clamp|refuse
 *   require-cppcheck=true|false  c-std=c99|c11  target=<id> (default c)
 */
typedef enum { HK_FPD_RECORD, HK_FPD_REFUSE } HkFpDomainPolicy;
typedef enum { HK_IDX_CLAMP, HK_IDX_REFUSE } HkIndexPolicy;
/* The target's floating point (options.def's fpu; ORDER its values). */
typedef enum { HK_FPU_DP, HK_FPU_SP, HK_FPU_NONE } HkFpu;
/* Whose math (options.def's math; ORDER its values). */
typedef enum { HK_MATH_HAWK, HK_MATH_LIBM } HkMath;

#define HK_NONE INT64_C(-1)

typedef struct {
    int64_t max_trips;        /* HK_NONE when unset */
    int64_t max_ops;
    int64_t max_stack_bytes;
    HkFpDomainPolicy fp_domain;
    HkIndexPolicy index_policy;
    int require_cppcheck;
    int c_std;                /* 99 or 11 */
    HkFpu fpu;
    HkMath math;
    int selftest;             /* the unit carries <name>_selftest() */
    int64_t max_soft_float_ops;  /* HK_NONE when unset */
    const HkTarget *target;
} HkProfile;

/* Fills p from r's options; returns 0, or -1 with a diagnostic naming the
 * bad option and value. */
int hk_profile_read(HawkPassRun *r, HkProfile *p);
/* Makes *run a run of no pass in particular over m under pm (it reads
 * pm's pipeline-wide options and computes, through hk_analysis_get, the
 * analyses an earlier run left invalid) and reads its profile into p:
 * what the export, the lowering and hawk_kernel_report read.  0, or -1
 * as hk_profile_read. */
int hk_profile_of(HawkPassRun *run, HawkPassManager *pm, HkModule *m,
                  HkProfile *p);
/* The row target=<id> names (the default row when absent), or NULL for
 * an unknown id; hk_profile_read reports that one. */
const HkTarget *hk_profile_target(const HawkPassRun *r);
/* "EmbeddedProfile(max_trips=None, max_ops=None, max_stack_bytes=None,
 *  fp_domain='record', index_policy='clamp', require_cppcheck=False,
 *  c_std='c99', fpu='dp', max_soft_float_ops=None, math='hawk',
 *  selftest='off')": the
 *  contract's fields, then the ones hawk adds */
const char *hk_profile_repr(HkArena *a, const HkProfile *p);

/* ---- positions.c: walk positions of a kernel (analysis "positions") ------ */
typedef struct {
    HkWalk walk;
    const char **pos;         /* by HkInst.serial: "7", "loop0.3" */
    uint32_t *order;          /* by serial: index in walk.items */
    uint32_t nserials;        /* serials below this have an entry */
} HkPositions;

const HkPositions *hk_positions(HawkPassRun *r, HkFunc *f);
const char *hk_pos(const HkPositions *p, const HkInst *i);

/* ---- refuse.c: the refusal shape ---------------------------------------
 * Appends, at loc (the instruction's, or the kernel's for at == NULL):
 *   '<kernel>': the <target> target refuses node <pos> (<kind>) under
 *   <rule>: <why>; <fix>
 * with <target> the display name of the profile's row (targets.c) and
 * <pos> the walk position of at, or "kernel".  The diagnostic's rule
 * and pos fields are set for the report and the C API. */
void hk_refuse(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *kind,
               const char *rule, const char *why, const char *fix);
/* A fix that runs with profile option key = value: "<before>run with
 * <key=value><after>", the option spelt as the caller passes options
 * (hk_spell_option). */
typedef struct {
    const char *before, *key, *value, *after;
} HkFixOption;
/* hk_refuse with that fix, the option kept as data on the diagnostic
 * (hawk_diag_fix_option). */
void hk_refuse_option(HawkPassRun *r, HkFunc *f, const HkInst *at,
                      const char *kind, const char *rule, const char *why,
                      const HkFixOption *fix);
/* Warns "'<kernel>': <what>" at at (the kernel when NULL), as the
 * context says (hawk_set_warnings); 1 when the warning was made an
 * error, so the pass fails. */
int hk_warn(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *what);
/* hk_warn at loc (a value's name rather than its instruction's op). */
int hk_warn_at(HawkPassRun *r, HkFunc *f, HkLoc loc, const char *what);
/* The profile option key = value as the run's messages spell it. */
const char *hk_run_option(HawkPassRun *r, const char *key, int64_t value);

/* ---- feature-refusal ----------------------------------------------------- */
typedef struct {
    uint32_t nchecked;
    const char **checked;     /* feature names the target lacks, in
                                 features.def order: all were checked */
    uint32_t used;            /* HK_FEAT_BIT set the kernel needs */
} HkFeatureResult;

/* ---- trip-bound ---------------------------------------------------------- */
typedef enum { HK_BRK_NONE, HK_BRK_HEAD, HK_BRK_MIDDLE, HK_BRK_TAIL } HkBreakKind;

typedef struct {
    const HkInst *loop;
    const char *pos;          /* the loop instruction's position */
    uint32_t number;          /* loop<i> */
    int32_t parent;           /* enclosing loop number, -1 at top level */
    int64_t trip;             /* static trip bound (max for a runtime count) */
    int runtime_count;
    HkBreakKind brk;
    int64_t worst;            /* trips per sample: product with enclosing */
    const char *warning;      /* what the count's range proves wrong, or NULL */
} HkLoopInfo;

typedef struct {
    int64_t max_trips;        /* sum of worst over loops, saturating */
    uint32_t nloops;
    HkLoopInfo *loops;        /* by loop number */
} HkTripResult;

/* The break kind as LangRef spells it: "none", "head", "middle", "tail". */
const char *hk_break_name(HkBreakKind k);

/* ---- index-clamp --------------------------------------------------------- */
typedef enum { HK_IDX_PROVEN, HK_IDX_CLAMPED } HkIndexStatus;

typedef struct {
    const HkInst *inst;
    const char *pos;
    const char *slot;         /* the plane indexed; a table read's result */
    HkIndexStatus status;
    const char *reason;       /* "loop index 0..7 inside extent 8", ... */
    const char *outside;      /* the mistake its index provably is (a
                                 warning), or NULL */
} HkIndexSite;

typedef struct {
    uint32_t nsites;
    HkIndexSite *sites;       /* legalize clamps all but the proven ones */
} HkIndexResult;

/* The index operand of plane op i (gather, indexed store or accum), or
 * HK_NOVAL when i indexes no plane. */
HkVal hk_index_operand(const HkInst *i);
/* Whether i's index is proven inside its plane's extent or must be
 * clamped, with the reason (allocated from a); the one verdict the
 * index-clamp analysis reports and legalize writes. */
HkIndexStatus hk_index_classify(HkArena *a, const HkFunc *f, const HkInst *i,
                                const char **why);

/* ---- fp-domain ----------------------------------------------------------- */
/* VIOLATED: every number the operand can be is outside the domain (a
 * libm call that always returns NaN or a pole); always refused. */
typedef enum { HK_DOM_SAFE, HK_DOM_UNKNOWN, HK_DOM_VIOLATED } HkDomainVerdict;

typedef struct {
    const HkInst *inst;
    const char *pos;
    const char *op;           /* "fdiv", "sqrt", "log", "pow", ... */
    const char *needs;        /* "positive", "nonneg", "[-1, 1]", ... */
    HkDomainVerdict verdict;
    const char *reason;       /* why it is safe, or why unknown */
    int by_interval;          /* proven only by the interval analysis */
    const char *wrong;        /* the mistake it provably is (a warning:
                                 a divisor 0 for every input), or NULL */
} HkDomainSite;

typedef struct {
    const HkInst *inst;
    const char *pos;
    const char *literal;      /* "NAN", "INFINITY", "-INFINITY" */
} HkSpecialSite;

typedef struct {
    uint32_t nsites;
    HkDomainSite *sites;
    uint32_t nequality;
    const char **equality;    /* positions of fcmp oeq/one/ueq/une */
    uint32_t nspecials;
    HkSpecialSite *specials;
} HkDomainResult;

/* ---- unused ---------------------------------------------------------------- */
typedef struct {
    const HkInst *inst;
    const char *warning;      /* "%t (fmul) is never used" */
} HkUnusedSite;

typedef struct {
    uint32_t nsites;
    HkUnusedSite *sites;      /* in walk order */
} HkUnusedResult;

/* ---- int-sites ----------------------------------------------------------- */
typedef struct {
    uint32_t ndivision;
    const char **division;    /* positions of floordiv, mod, div */
    uint32_t nub;
    const char **ub;          /* positions of i64 add, sub, mul, neg, div */
} HkIntSitesResult;

/* ---- cost ---------------------------------------------------------------- */
typedef struct {
    int64_t arith32, arith64, special32, special64, loads, gathers;
    int64_t chain32, chain64, chain_special32, chain_special64, stores;
    int64_t fp64_ops;
    int64_t fp32_ops;
    int64_t soft_float_ops;   /* the floating-point ops the profile's fpu
                                 runs in software: fp64 on sp, all on
                                 none, 0 on dp */
    int64_t tapes, carries, temporaries, total_bytes;
    int64_t estimate;         /* tapes + carries + temporaries (= total) */
    int64_t ops_total;        /* what budget.ops compares: arith + special
                                 + chain counts */
    uint32_t nlibm;
    const char **libm;        /* sorted, unique: "cos", "sqrt" */
    uint32_t nown;
    const char **own;         /* the libm functions hawk's own math
                                 computes instead (math=hawk): "exp" */
} HkCostResult;

/* ---- interface ----------------------------------------------------------- */

/* A row's direction, layout and initialisation; the report and the header
 * spell them with hk_if_dir_name, hk_if_layout_name, hk_if_init_name. */
typedef enum { HK_DIR_IN, HK_DIR_OUT, HK_DIR_INOUT } HkIfDir;
typedef enum {
    HK_IFL_SOA, HK_IFL_FLAT, HK_IFL_VALUE, HK_IFL_PARTIALS
} HkIfLayout;
typedef enum {
    HK_INIT_YES, HK_INIT_NO, HK_INIT_ZEROED, HK_INIT_BY_VALUE
} HkIfInit;

const char *hk_if_dir_name(HkIfDir d);         /* "in", "out", "inout" */
const char *hk_if_layout_name(HkIfLayout l);   /* "soa", "flat", ... */
const char *hk_if_init_name(HkIfInit i);       /* "yes", "yes (zeroed)" */

typedef struct {
    uint32_t slot;            /* index into f->slots */
    const char *field;        /* C field name: "vin_state" */
    const char *role;         /* the slot role's name */
    HkIfDir dir;
    const char *dtype;        /* "f64", "i32", ... */
    const char *shape;        /* "()", "(3,)", "(3, 3)", "(?,)" */
    HkIfLayout layout;
    const char *runtime_len;  /* "<field>_len" or NULL */
    HkIfInit init;
    const char *reason;       /* why this direction (the contract's table) */
} HkInterfaceRow;

typedef struct {
    uint32_t nrows;
    HkInterfaceRow *rows;     /* writable planes, read planes, by-value */
    uint32_t nguard;
    const char **guard;       /* bound mask fields; empty when unguarded */
} HkInterfaceResult;

#endif
