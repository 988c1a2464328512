/* passes.h -- the pass manager's private interface, shared by every pass. */
#ifndef HAWK_PASSES_H
#define HAWK_PASSES_H

#include "ir.h"

typedef int (*HkRunFn)(HawkPassRun *run, HkFunc *f);
typedef void (*HkPrintFn)(HkBuf *b, const HkFunc *f, const void *result);

/* Built-in pass ids, from passes.def. */
typedef enum {
#define PASS(id, name, summary, kind, run, print, preserves, requires, opts) \
    HK_PASS_##id,
#include "passes.def"
#undef PASS
    HK_PASS_BUILTIN_COUNT
} HkPassId;

/* The bit of built-in pass Id in a preserves or requires set. */
#define HK_PASS_BIT(id) (UINT64_C(1) << HK_PASS_##id)

/* Which options a pass takes (passes.def's Opts column). */
typedef enum {
    HK_OPTS_NONE,             /* none */
    HK_OPTS_PROFILE,          /* every option of options.def */
    HK_OPTS_ANY,              /* not declared (a pass of the C API): any
                                 key, read by the pass itself */
    HK_OPTS_DIFF,             /* wrt= and of=: the active slots of a
                                 differentiation, names joined by ':' */
} HkOptSet;

typedef struct {
    const char *name;
    const char *summary;
    HawkPassKind kind;
    HkRunFn run;              /* built-in passes */
    HkPrintFn print;
    uint64_t preserves;
    uint64_t requires;        /* the analyses it may ask for; every one for
                                 a pass of the C API */
    HawkPassFn user_run;      /* passes registered through the C API */
    void *user;
    HkOptSet opts;
} HkPassInfo;

/* ---- passopts.c: the options of options.def ------------------------------ */

typedef enum {
#define OPTION(id, key, kind, values, help) HK_OPT_##id,
#include "options.def"
#undef OPTION
    HK_OPT_COUNT
} HkOptId;

typedef enum { HK_OPTK_CAP, HK_OPTK_CHOICE, HK_OPTK_TARGET } HkOptKind;

typedef struct {
    const char *key;
    HkOptKind kind;
    const char *values;       /* "N", "record|refuse", "ID" */
    const char *help;
} HkOptInfo;

extern const HkOptInfo hk_opts[HK_OPT_COUNT];

/* Checks key=value of a pipeline entry of pass info: the pass must take
 * key and value must be of its kind.  0, or -1 with a diagnostic naming
 * the pass, suggesting the nearest key and listing the valid ones. */
int hk_opt_check_entry(HawkContext *ctx, const HkPassInfo *info,
                       const char *key, const char *value);
/* Checks a pipeline-wide option likewise: key must be an option of
 * options.def, or any key when open_keys (the pipeline holds a pass of the
 * C API, which reads its own).  0, or -1 with a diagnostic. */
int hk_opt_check_global(HawkContext *ctx, const char *key, const char *value,
                        int open_keys);
/* Checks value against option id's kind; 0, or -1 with "option 'key'
 * expects <what>, got 'value'" in d. */
int hk_opt_check_value(HkDiags *d, HkArena *a, HkOptId id, const char *value);
/* The index of value among the '|'-separated words of choice option id
 * ("record|refuse": "refuse" is 1), or -1. */
int hk_opt_choice(HkOptId id, const char *value);
/* The options pass info takes, as --print-passes lists them
 * ("max-trips=N fp-domain=record|refuse ..."), or "" for none. */
const char *hk_opt_list(HkArena *a, const HkPassInfo *info);

/* One pass of a pipeline as it runs on one function. */
struct HawkPassRun {
    HawkContext *ctx;
    HkModule *module;
    const HkPassInfo *info;
    uint32_t pass_index;      /* index in the context's registry */
    const char *const *keys;  /* name{key=value} options, nkv pairs */
    const char *const *vals;
    uint32_t nkv;
    struct HawkPassManager *pm;
};

/* The diagnostics list of the context a run belongs to. */
HkDiags *hk_run_diags(HawkPassRun *run);

/* The cached result of analysis id on f, computing it first when it is not
 * valid.  NULL if the analysis failed (its diagnostics say why) or has no
 * result for f (an embedded analysis on a func). */
const void *hk_analysis_get(HawkPassRun *run, HkFunc *f, HkPassId id);
/* Called by an analysis pass to store its result on f, under the run's
 * options, in the run's analysis manager. */
void hk_analysis_set(HawkPassRun *run, HkFunc *f, HkPassId id, void *result);

/* Pass option lookups: the pass's own name{key=value}, else the pipeline's
 * global options (hawk-opt's profile flags); def when absent. */
const char *hk_option(const HawkPassRun *run, const char *key, const char *def);
/* An integer option; returns 0 and sets *out, or -1 with a diagnostic. */
int hk_option_int(HawkPassRun *run, const char *key, int64_t def, int64_t *out);

/* ---- dce.c ------------------------------------------------------------- */

/* Removes the dead instructions of f whose serial is floor or above (the
 * ones a transform added): what dce removes, the older code kept. */
void hk_dce_from(HkFunc *f, uint32_t floor);

/* ---- inline.c, mathlib.c: bodies copied in place ----------------------- */

/* Copies g's body (g of any module; its calls resolved in g's module)
 * into f before `before`, g's parameters bound to args (values of f): the
 * copies are named prefix + name and located at loc, and out receives one
 * value per result of g.  `before` stands for the call: it must take
 * g's parameters and results in number.  0, or -1 after a diagnostic. */
int hk_inline_at(HawkPassRun *r, HkFunc *f, HkInst *before, const HkFunc *g,
                 const HkVal *args, const char *prefix, HkLoc loc,
                 HkVal *out);

/* The function of hawk's own math (lib/Math/math.hir) that implements op
 * on element type e ("hawk_<op>_<f64|f32>"), or NULL when hawk has none
 * and the op calls libm under math=hawk too. */
const HkFunc *hk_math_func(HawkContext *ctx, HkOp op, HkElem e);
/* Whether i is an op with one result whose operands are of its element
 * type (an integer operand converts first: the op stays libm's). */
int hk_math_operands(const HkFunc *f, const HkInst *i);
/* The function of hawk's own math that computes i component by component
 * (hk_math_func of its op and type), or NULL: also when an operand's
 * element type is not the result's (an integer operand stays libm's). */
const HkFunc *hk_math_for(HawkContext *ctx, const HkFunc *f, const HkInst *i);
/* Whether op's function (hk_math_func) is called where the op is, not
 * copied in by expand-math: the writers spell a call of the runtime
 * unit's or the host module's hawk_<op>_<f64|f32> (docs/EmbeddedC.md,
 * "Math"). */
int hk_math_called(HkOp op);
/* The called functions by id, 0 .. HK_MATHFN_COUNT-1 in name order:
 * the id of op on e (UINT32_MAX for none), and each id's name
 * ("hawk_sin_f64"), op and element. */
#define HK_MATHFN_COUNT 42u
uint32_t hk_mathfn_id(HkOp op, HkElem e);
const char *hk_mathfn_name(uint32_t id);
HkOp hk_mathfn_op(uint32_t id);
HkElem hk_mathfn_elem(uint32_t id);
/* The module of hawk's own math, parsed and verified once per context. */
const HkModule *hk_math_module(HawkContext *ctx);

/* ---- legalize.c: the legal scalar form a writer may rely on ------------ */

/* Whether v is minimum(maximum(x, lo), hi) of constants lo and hi, as
 * legalize writes a held value, or an integer constant in [lo, hi]. */
int hk_legal_held(const HkFunc *f, HkVal v, int64_t lo, int64_t hi);
/* Whether loop's end is legal: a static count, or a runtime count held
 * to [lo, lo + K] (legalize). */
int hk_legal_trip_end(const HkFunc *f, const HkInst *loop);
/* Whether i, when it reads or writes a plane by index or writes a
 * runtime-length plane, is in legal form: its index a clamp_index into its
 * own plane, or a tape row the index-clamp analysis proves
 * (hk_index_classify).  Any other instruction is. */
int hk_legal_index(const HkFunc *f, const HkInst *i);
/* Whether i, when it is a table read, has an index the index-clamp rule
 * proves inside its N entries (hk_index_classify: a constant or a loop
 * index there, `and x, c` of a constant c there, or held to [0, N - 1] by
 * legalize).  Any other instruction is legal. */
int hk_legal_table(const HkFunc *f, const HkInst *i);

/* ---- scalar-form.c ---------------------------------------------------------- */

/* Checks that f is in the legal scalar form a writer receives; appends an
 * error at each instruction that is not to d.  Returns how many. */
uint32_t hk_scalar_form_check(const HkFunc *f, HkDiags *d);

/* Built-in pass entry points. */
#define PASS(id, name, summary, kind, run, print, preserves, requires, opts)       \
    int run(HawkPassRun *r, HkFunc *f);
#include "passes.def"
#undef PASS
void hk_print_instcount(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_dot(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_positions(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_feature_refusal(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_trip_bound(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_index_clamp(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_cost(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_interface(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_fp_domain(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_int_sites(HkBuf *b, const HkFunc *f, const void *result);
void hk_print_unused(HkBuf *b, const HkFunc *f, const void *result);

#endif
