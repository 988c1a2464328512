/* cost.c -- the cost analysis: per-sample, worst-case operation counts by
 * class, fp64 operations, static bytes and the libm functions a kernel's
 * C unit calls; refuses budget.ops and budget.stack.  docs/Passes.md
 * "cost" states the model exactly; this file implements it line by line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"

/* The counted classes.  ORDER: every 64 class directly follows its 32
 * class, so a width adds 0 or 1 to the 32 class; the f64 parts of the four
 * operation classes follow in the same order (C_FP_ARITH + cls32 / 2), so
 * an if maxes each of them class by class too. */
enum {
    C_ARITH32, C_ARITH64, C_SPECIAL32, C_SPECIAL64, C_CHAIN32, C_CHAIN64,
    C_CHSP32, C_CHSP64, C_LOADS, C_GATHERS, C_STORES,
    C_FP_ARITH, C_FP_SPECIAL, C_FP_CHAIN, C_FP_CHSP, C_FP32, C_N
};

typedef struct {
    int64_t c[C_N];
} Counts;

typedef struct {
    int64_t temporaries, carries;
} Bytes;

/* One run over a kernel: the callee memo (by module function index) and
 * the libm functions seen, by op and width (0: f64, 1: f32). */
typedef struct Cx {
    const HkModule *m;
    Counts *fcounts;
    Bytes *fbytes;
    uint8_t *state;           /* 0 not done, 1 in progress, 2 done */
    uint8_t libm[HK_OP_COUNT][2];
    HawkContext *ctx;
    struct Cx *lib;           /* under math=hawk, the run over hawk's own
                                 math's module; else NULL */
    Bytes called;             /* the largest bytes of a called math
                                 function (hk_math_called): one frame at a
                                 time, not a copy per use */
} Cx;

static void count_block(Cx *cx, const HkFunc *f, const HkBlock *b, Counts *c,
                        Bytes *by);

/* a + b for non-negative counts, saturating at INT64_MAX. */
static int64_t sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* a * b for non-negative counts, saturating at INT64_MAX. */
static int64_t sat_mul(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > INT64_MAX / b ? INT64_MAX : a * b;
}

/* *a += *b, class by class. */
static void counts_add(Counts *a, const Counts *b)
{
    for (int k = 0; k < C_N; k++)
        a->c[k] = sat_add(a->c[k], b->c[k]);
}

/* *a = max(*a, *b), class by class: the worst of two paths. */
static void counts_max(Counts *a, const Counts *b)
{
    for (int k = 0; k < C_N; k++)
        if (b->c[k] > a->c[k])
            a->c[k] = b->c[k];
}

/* The type of value v of f. */
static HkType type_of(const HkFunc *f, HkVal v)
{
    return hk_value(f, v)->type;
}

/* Bytes of one value of type t: components times element size. */
static int64_t type_bytes(HkType t)
{
    return (int64_t)hk_components(t) * (int64_t)hk_elem_bytes((HkElem)t.elem);
}

/* Whether an operand or the result of i has element type e1 or e2. */
static int touches(const HkFunc *f, const HkInst *i, HkElem e1, HkElem e2)
{
    if (i->nres > 0 && (i->type.elem == e1 || i->type.elem == e2))
        return 1;
    for (uint32_t k = 0; k < i->nops; k++) {
        uint8_t e = type_of(f, i->ops[k]).elem;
        if (e == e1 || e == e2)
            return 1;
    }
    return 0;
}

/* Adds n to class cls32 of i's width, and to fp64 when i works on f64. */
static void add_op(Counts *c, const HkFunc *f, const HkInst *i, int cls32,
                   int64_t n)
{
    int wide = touches(f, i, HK_F64, HK_I64);
    c->c[cls32 + wide] = sat_add(c->c[cls32 + wide], n);
    if (touches(f, i, HK_F64, HK_F64))
        c->c[C_FP_ARITH + cls32 / 2] =
            sat_add(c->c[C_FP_ARITH + cls32 / 2], n);
    else if (touches(f, i, HK_F32, HK_F32))
        c->c[C_FP32] = sat_add(c->c[C_FP32], n);
}

/* The chain count of a fold or product (docs/Passes.md "cost"). */
static int64_t chain_count(const HkFunc *f, const HkInst *i)
{
    HkType a = type_of(f, i->ops[0]);
    int64_t n = hk_components(a);
    switch (i->op) {
    case HK_OP_DOT:
    case HK_OP_NORM:
        return 2 * n - 1;
    case HK_OP_CROSS:
        return 9;
    case HK_OP_MATVEC:
        return (int64_t)a.dim[0] * (2 * (int64_t)a.dim[1] - 1);
    case HK_OP_MATMUL: {
        HkType b = type_of(f, i->ops[1]);
        return (int64_t)a.dim[0] * (int64_t)b.dim[1] *
               (2 * (int64_t)a.dim[1] - 1);
    }
    case HK_OP_SUM:
    case HK_OP_PROD:
        return n - 1;
    default:
        /* lane reductions: one per result component */
        return hk_components(i->type);
    }
}

/* Records the libm function i calls, if any. */
static void note_libm(Cx *cx, const HkInst *i)
{
    int calls = (hk_ops[i->op].flags & HK_F_LIBM) ||
                (i->op == HK_OP_ABS && hk_is_float((HkElem)i->type.elem));
    if (calls)
        cx->libm[i->op][i->type.elem == HK_F32] = 1;
}

/* The counts and bytes of callee fi, computed once per run. */
static void callee(Cx *cx, uint32_t fi, Counts *c, Bytes *by)
{
    if (fi >= cx->m->nfuncs || cx->state[fi] == 1)
        return;  /* recursion is a verifier error: count nothing */
    if (cx->state[fi] == 0) {
        cx->state[fi] = 1;
        const HkFunc *g = cx->m->funcs[fi];
        count_block(cx, g, &g->body, &cx->fcounts[fi], &cx->fbytes[fi]);
        cx->state[fi] = 2;
    }
    counts_add(c, &cx->fcounts[fi]);
    by->temporaries = sat_add(by->temporaries, cx->fbytes[fi].temporaries);
    by->carries = sat_add(by->carries, cx->fbytes[fi].carries);
}

/* The static trip bound of loop i. */
static int64_t trip_of(const HkInst *i)
{
    if (i->x->has_count)
        return i->x->max_trip;
    return i->x->hi > i->x->lo ? i->x->hi - i->x->lo : 0;
}

/* A loop: its body times its trip bound; carries and index bytes. */
static void count_loop(Cx *cx, const HkFunc *f, const HkInst *i, Counts *c,
                       Bytes *by)
{
    Counts body;
    memset(&body, 0, sizeof body);
    count_block(cx, f, &i->x->regions[0], &body, by);
    int64_t trip = trip_of(i);
    for (int k = 0; k < C_N; k++)
        c->c[k] = sat_add(c->c[k], sat_mul(body.c[k], trip));
    for (uint32_t k = 0; k < i->nres; k++)
        by->carries = sat_add(by->carries, type_bytes(type_of(f, hk_res(i)[k])));
    if (i->x->ivar != HK_NOVAL)
        by->temporaries = sat_add(by->temporaries,
                                  type_bytes(type_of(f, i->x->ivar)));
}

/* An if or dispatch: the class-wise maximum over its regions. */
static void count_branches(Cx *cx, const HkFunc *f, const HkInst *i,
                           Counts *c, Bytes *by)
{
    Counts worst;
    memset(&worst, 0, sizeof worst);
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        Counts one;
        memset(&one, 0, sizeof one);
        count_block(cx, f, &i->x->regions[r], &one, by);
        counts_max(&worst, &one);
    }
    counts_add(c, &worst);
    if (i->op == HK_OP_DISPATCH)
        c->c[C_STORES] = sat_add(c->c[C_STORES], 1);  /* the mix increment */
    for (uint32_t k = 0; k < i->nres; k++)
        by->temporaries = sat_add(by->temporaries,
                                  type_bytes(type_of(f, hk_res(i)[k])));
}

/* The counts of a plain (region-free) instruction, by its cost class. */
static void count_plain(const HkFunc *f, const HkInst *i, Counts *c)
{
    int64_t n = hk_components(i->type);
    switch (hk_ops[i->op].cost) {
    case HK_C_ARITH:
        add_op(c, f, i, C_ARITH32, i->op == HK_OP_CLIP ? 2 * n : n);
        break;
    case HK_C_SPECIAL:
        add_op(c, f, i, C_SPECIAL32, n);
        /* rsqrt divides after its sqrt; an integer operand converts first */
        if (i->op == HK_OP_RSQRT)
            add_op(c, f, i, C_ARITH32, n);
        if (hk_ops[i->op].rule == HK_R_MATH1 && i->nops == 1 &&
            hk_is_int((HkElem)type_of(f, i->ops[0]).elem))
            add_op(c, f, i, C_ARITH32, n);
        break;
    case HK_C_CHAIN:
        add_op(c, f, i, C_CHAIN32, chain_count(f, i));
        if (i->op == HK_OP_NORM)
            add_op(c, f, i, C_CHSP32, 1);
        break;
    case HK_C_LOAD:
        c->c[C_LOADS] = sat_add(c->c[C_LOADS], n);
        break;
    case HK_C_GATHER:
        c->c[C_GATHERS] = sat_add(c->c[C_GATHERS], n);
        break;
    case HK_C_STORE:
        if (i->op != HK_OP_BUMP && i->nops > 0)
            n = hk_components(type_of(f, i->ops[0]));
        c->c[C_STORES] = sat_add(c->c[C_STORES], i->op == HK_OP_BUMP ? 1 : n);
        break;
    case HK_C_NONE:
        break;
    }
}

/* Under math=hawk, an op hawk's own math computes counts as its
 * function's body, once per component (the calls of a called function,
 * whose bytes are one frame whatever the number of calls); returns
 * whether i was one. */
static int count_own(Cx *cx, const HkFunc *f, const HkInst *i, Counts *c)
{
    const HkFunc *g = cx->lib != NULL ? hk_math_for(cx->ctx, f, i) : NULL;
    if (g == NULL)
        return 0;
    uint32_t fi = hk_func_index(cx->lib->m, g->name, strlen(g->name));
    int64_t n = hk_components(i->type);
    Bytes fb = {0, 0};
    for (int64_t k = 0; k < n; k++) {
        memset(&fb, 0, sizeof fb);  /* each call's frame is the same one */
        callee(cx->lib, fi, c, &fb);
    }
    if (fb.temporaries + fb.carries > cx->called.temporaries + cx->called.carries)
        cx->called = fb;
    return 1;
}

/* Adds instruction i (its regions included) to c and by. */
static void count_inst(Cx *cx, const HkFunc *f, const HkInst *i, Counts *c,
                       Bytes *by)
{
    note_libm(cx, i);
    switch (i->op) {
    case HK_OP_LOOP:
        count_loop(cx, f, i, c, by);
        return;
    case HK_OP_IF:
    case HK_OP_DISPATCH:
        count_branches(cx, f, i, c, by);
        return;
    case HK_OP_CALL:
        /* the call's results name the callee's returned values */
        callee(cx, i->x->callee, c, by);
        return;
    default:
        break;
    }
    if (count_own(cx, f, i, c))
        return;  /* its result is the function's returned value */
    count_plain(f, i, c);
    for (uint32_t k = 0; k < i->nres; k++)
        by->temporaries = sat_add(by->temporaries,
                                  type_bytes(type_of(f, hk_res(i)[k])));
}

/* Adds every instruction of b (nested regions included) to c and by. */
static void count_block(Cx *cx, const HkFunc *f, const HkBlock *b, Counts *c,
                        Bytes *by)
{
    for (const HkInst *i = b->first; i != NULL; i = i->next)
        count_inst(cx, f, i, c, by);
}

/* One row of every out slot (the row the writer assembles), and every
 * row of every local (the sample's own array): the tape bytes. */
static int64_t tape_bytes(const HkFunc *f)
{
    int64_t sum = 0;
    for (uint32_t s = 0; s < f->nslots; s++) {
        HkType t = f->slots[s].type;
        HkRole r = f->slots[s].role;
        if ((r != HK_ROLE_OUT && r != HK_ROLE_LOCAL) || t.rank == 0 || t.dim[0] == 0 ||
            t.dim[0] == HK_DYN)
            continue;
        int64_t row = (int64_t)(hk_components(t) / (r == HK_ROLE_LOCAL ? 1u : t.dim[0]));
        sum = sat_add(sum, row * (int64_t)hk_elem_bytes((HkElem)t.elem));
    }
    return sum;
}

/* qsort order of C names. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* names[0..n) sorted and unique; returns the new count. */
static uint32_t sort_unique(const char **names, uint32_t n)
{
    qsort(names, n, sizeof *names, by_name);
    uint32_t u = 0;
    for (uint32_t k = 0; k < n; k++)
        if (u == 0 || strcmp(names[u - 1], names[k]) != 0)
            names[u++] = names[k];
    return u;
}

/* The libm functions cx saw, sorted and unique, into res: those hawk's
 * own math computes under math=hawk (hk_math_func) in res->own, the C
 * library's in res->libm. */
static void fill_libm(HawkPassRun *r, HkArena *a, const HkProfile *p,
                      const Cx *cx, HkCostResult *res)
{
    HawkContext *ctx = hawk_pass_context(r);
    const char **libm = hk_alloc(a, 2 * HK_OP_COUNT * sizeof *libm);
    const char **own = hk_alloc(a, 2 * HK_OP_COUNT * sizeof *own);
    uint32_t nlibm = 0, nown = 0;
    static const HkElem width[2] = {HK_F64, HK_F32};
    for (int op = 0; op < HK_OP_COUNT; op++)
        for (int w = 0; w < 2; w++) {
            /* what the kernel calls, and what hawk's math it uses calls */
            if (!cx->libm[op][w] && (cx->lib == NULL || !cx->lib->libm[op][w]))
                continue;
            const char *name = hk_libm_name(a, (HkOp)op, width[w]);
            if (p->math == HK_MATH_HAWK &&
                hk_math_func(ctx, (HkOp)op, width[w]) != NULL)
                own[nown++] = name;
            else
                libm[nlibm++] = name;
        }
    res->nlibm = sort_unique(libm, nlibm);
    res->libm = libm;
    res->nown = sort_unique(own, nown);
    res->own = own;
}

/* Copies the counts and bytes into the result and derives the totals. */
static void fill_result(const Counts *c, const Bytes *by, int64_t tapes,
                        HkCostResult *res)
{
    res->arith32 = c->c[C_ARITH32];
    res->arith64 = c->c[C_ARITH64];
    res->special32 = c->c[C_SPECIAL32];
    res->special64 = c->c[C_SPECIAL64];
    res->chain32 = c->c[C_CHAIN32];
    res->chain64 = c->c[C_CHAIN64];
    res->chain_special32 = c->c[C_CHSP32];
    res->chain_special64 = c->c[C_CHSP64];
    res->loads = c->c[C_LOADS];
    res->gathers = c->c[C_GATHERS];
    res->stores = c->c[C_STORES];
    int64_t fp64 = 0;
    for (int k = C_FP_ARITH; k <= C_FP_CHSP; k++)
        fp64 = sat_add(fp64, c->c[k]);
    res->fp64_ops = fp64;
    res->fp32_ops = c->c[C_FP32];
    int64_t ops = 0;
    for (int k = C_ARITH32; k <= C_CHSP64; k++)
        ops = sat_add(ops, c->c[k]);
    res->ops_total = ops;
    res->tapes = tapes;
    res->carries = by->carries;
    res->temporaries = by->temporaries;
    res->estimate = sat_add(sat_add(by->temporaries, by->carries), tapes);
    res->total_bytes = res->estimate;
}

/* Refuses the budgets res exceeds under p; returns how many. */
static int check_budgets(HawkPassRun *r, HkFunc *f, const HkProfile *p,
                         const HkCostResult *res)
{
    HkArena *a = f->module->arena;
    int refused = 0;
    if (p->max_ops != HK_NONE && res->ops_total > p->max_ops) {
        const HkFixOption fix = {
            "", "max-ops", hk_asprintf(a, "%" PRId64, res->ops_total),
            " or simplify the kernel"};
        hk_refuse_option(r, f, NULL, "kernel", "budget.ops",
                         hk_asprintf(a,
                                     "%" PRId64 " arithmetic and special "
                                     "operations per sample exceed %s",
                                     res->ops_total,
                                     hk_run_option(r, "max-ops", p->max_ops)),
                         &fix);
        refused++;
    }
    if (p->max_stack_bytes != HK_NONE &&
        res->total_bytes > p->max_stack_bytes) {
        const HkFixOption fix = {
            "", "max-stack-bytes",
            hk_asprintf(a, "%" PRId64, res->total_bytes),
            " or simplify the kernel"};
        hk_refuse_option(
            r, f, NULL, "kernel", "budget.stack",
            hk_asprintf(a,
                        "%" PRId64 " static bytes (tapes %" PRId64
                        ", carries %" PRId64 ", temporaries %" PRId64
                        ") exceed %s",
                        res->total_bytes, res->tapes, res->carries,
                        res->temporaries,
                        hk_run_option(r, "max-stack-bytes",
                                      p->max_stack_bytes)),
            &fix);
        refused++;
    }
    if (p->max_soft_float_ops != HK_NONE &&
        res->soft_float_ops > p->max_soft_float_ops) {
        const HkFixOption fix = {
            "", "max-soft-float-ops",
            hk_asprintf(a, "%" PRId64, res->soft_float_ops),
            ", choose a target with the FPU, or write the kernel in "
            "float32 for a single-precision FPU"};
        hk_refuse_option(
            r, f, NULL, "kernel", "budget.soft_float",
            hk_asprintf(a,
                        "%" PRId64 " floating-point operations per sample "
                        "run in software on %s, above %s",
                        res->soft_float_ops,
                        hk_spell_option(hk_run_diags(r), "fpu",
                                        p->fpu == HK_FPU_SP ? "sp" : "none"),
                        hk_run_option(r, "max-soft-float-ops",
                                      p->max_soft_float_ops)),
            &fix);
        refused++;
    }
    return refused;
}

/* Counts every func f reaches, deepest first (hk_call_order), so that
 * counting f or any of them finds its callees counted: a chain of calls
 * of any length costs one level of the C stack. */
static void count_callees(Cx *cx, const HkFunc *f)
{
    HkArena *a = f->module->arena;
    uint32_t *order;
    uint32_t root = hk_func_index(cx->m, f->name, strlen(f->name));
    uint32_t n = root < cx->m->nfuncs
                     ? hk_call_order(a, cx->m, root, &order, NULL)
                     : 0;
    Counts c;
    Bytes by;
    memset(&c, 0, sizeof c);  /* what callee adds here is dropped */
    memset(&by, 0, sizeof by);
    for (uint32_t k = 0; k + 1u < n; k++)  /* f itself comes last */
        callee(cx, order[k], &c, &by);
}

/* A run over the functions of m. */
static Cx *new_cx(HkArena *a, const HkModule *m, HawkContext *ctx)
{
    Cx *cx = hk_alloc(a, sizeof *cx);
    uint32_t nf = m->nfuncs ? m->nfuncs : 1;
    cx->m = m;
    cx->ctx = ctx;
    cx->fcounts = hk_alloc(a, nf * sizeof *cx->fcounts);
    cx->fbytes = hk_alloc(a, nf * sizeof *cx->fbytes);
    cx->state = hk_alloc(a, nf);
    return cx;
}

int hk_pass_cost(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkCostResult *res = hk_alloc(a, sizeof *res);
    if (!f->is_kernel) {
        res->libm = hk_alloc(a, sizeof *res->libm);
        res->own = hk_alloc(a, sizeof *res->own);
        hk_analysis_set(r, f, HK_PASS_COST, res);
        return 0;
    }
    HkProfile prof;
    if (hk_profile_read(r, &prof) != 0)
        return 1;
    Cx *cx = new_cx(a, f->module, hawk_pass_context(r));
    if (prof.math == HK_MATH_HAWK)
        cx->lib = new_cx(a, hk_math_module(cx->ctx), cx->ctx);
    Counts c;
    Bytes by;
    memset(&c, 0, sizeof c);
    memset(&by, 0, sizeof by);
    count_callees(cx, f);
    count_block(cx, f, &f->body, &c, &by);
    by.temporaries = sat_add(by.temporaries, cx->called.temporaries);
    by.carries = sat_add(by.carries, cx->called.carries);
    fill_result(&c, &by, tape_bytes(f), res);
    fill_libm(r, a, &prof, cx, res);
    res->soft_float_ops = prof.fpu == HK_FPU_DP   ? 0
                          : prof.fpu == HK_FPU_SP ? res->fp64_ops
                                                  : sat_add(res->fp64_ops,
                                                            res->fp32_ops);
    /* A refused kernel caches nothing: asking again refuses again. */
    if (check_budgets(r, f, &prof, res) != 0)
        return 1;
    hk_analysis_set(r, f, HK_PASS_COST, res);
    return 0;
}

void hk_print_cost(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkCostResult *c = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "cost @%s:\n", f->name);
    hk_buf_printf(b,
                  "  ops          arith32 %" PRId64 ", arith64 %" PRId64
                  ", special32 %" PRId64 ", special64 %" PRId64
                  ", loads %" PRId64 ", gathers %" PRId64 ", chain32 %" PRId64
                  ", chain64 %" PRId64 ", chainSpecial32 %" PRId64
                  ", chainSpecial64 %" PRId64 ", stores %" PRId64 "\n",
                  c->arith32, c->arith64, c->special32, c->special64, c->loads,
                  c->gathers, c->chain32, c->chain64, c->chain_special32,
                  c->chain_special64, c->stores);
    hk_buf_printf(b, "  ops total    %" PRId64 "\n", c->ops_total);
    hk_buf_printf(b, "  fp64 ops     %" PRId64 "\n", c->fp64_ops);
    hk_buf_printf(b, "  fp32 ops     %" PRId64 "\n", c->fp32_ops);
    hk_buf_printf(b, "  soft float   %" PRId64 "\n", c->soft_float_ops);
    hk_buf_printf(b,
                  "  static bytes tapes %" PRId64 ", carries %" PRId64
                  ", temporaries %" PRId64 ", estimate %" PRId64
                  ", total %" PRId64 "\n",
                  c->tapes, c->carries, c->temporaries, c->estimate,
                  c->total_bytes);
    hk_buf_puts(b, "  libm         ");
    for (uint32_t k = 0; k < c->nlibm; k++)
        hk_buf_printf(b, "%s%s", k ? ", " : "", c->libm[k]);
    hk_buf_puts(b, c->nlibm ? "\n" : "none\n");
}
