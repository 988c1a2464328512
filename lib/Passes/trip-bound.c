/* trip-bound.c -- the trip-bound analysis: each loop's static trip bound,
 * its break kind and nesting, and the worst-case loop trips per sample
 * (the report's budgets.max_trips and budgets.loops).  Under a max-trips
 * cap it refuses a kernel above it (rule budget.trips).  A runtime count
 * whose range it proves keeps the loop from its max, or past it on every
 * trip, is a warning. */
#include <inttypes.h>

#include "embedded.h"

/* a * b for non-negative a and b, saturating at INT64_MAX. */
static int64_t sat_mul(int64_t a, int64_t b)
{
    if (a != 0 && b > INT64_MAX / a)
        return INT64_MAX;
    return a * b;
}

/* a + b for non-negative a and b, saturating at INT64_MAX. */
static int64_t sat_add(int64_t a, int64_t b)
{
    return b > INT64_MAX - a ? INT64_MAX : a + b;
}

/* Where the body's break_if stands (LangRef "Control flow"): before every
 * other instruction a head break, after every other one (the closing
 * yield aside) a tail break, else a middle break. */
static HkBreakKind break_kind(const HkInst *loop)
{
    const HkInst *brk = NULL;
    for (const HkInst *i = loop->x->regions[0].first; i && !brk; i = i->next)
        if (i->op == HK_OP_BREAK_IF)
            brk = i;
    if (brk == NULL)
        return HK_BRK_NONE;
    if (brk->prev == NULL)
        return HK_BRK_HEAD;
    const HkInst *after = brk->next;
    while (after != NULL && (hk_ops[after->op].flags & HK_F_TERM))
        after = after->next;
    return after == NULL ? HK_BRK_TAIL : HK_BRK_MIDDLE;
}

/* The range [lo, hi] of an i64 count: what a constant, minimum, maximum,
 * clip, select, a mask by a constant or a widening of a narrower integer
 * gives it; [INT64_MIN, INT64_MAX] for anything else.  depth bounds the
 * walk up the operands (a count is rarely more than a few ops deep). */
typedef struct {
    int64_t lo, hi;
} IntRange;

static IntRange full_range(void)
{
    return (IntRange){INT64_MIN, INT64_MAX};
}

static IntRange range_of(const HkFunc *f, HkVal v, int depth);

/* The range of operand k of d. */
static IntRange op_range(const HkFunc *f, const HkInst *d, uint32_t k,
                         int depth)
{
    return range_of(f, d->ops[k], depth - 1);
}

/* The range a value of narrower element e has, widened by op. */
static IntRange widened(HkOp op, HkElem e)
{
    switch (e) {
    case HK_I1: return op == HK_OP_SEXT ? (IntRange){-1, 0} : (IntRange){0, 1};
    case HK_I32:
        return op == HK_OP_SEXT ? (IntRange){INT32_MIN, INT32_MAX}
                                : (IntRange){0, UINT32_MAX};
    case HK_U32: return (IntRange){0, UINT32_MAX};
    default: return full_range();
    }
}

/* x & m: a non-negative m bounds it to [0, m]. */
static IntRange masked(const HkFunc *f, const HkInst *d, int depth)
{
    IntRange a = op_range(f, d, 0, depth), b = op_range(f, d, 1, depth);
    int64_t m = a.lo >= 0 ? a.hi : b.lo >= 0 ? b.hi : -1;
    if (a.lo >= 0 && b.lo >= 0)
        m = a.hi < b.hi ? a.hi : b.hi;
    return m >= 0 ? (IntRange){0, m} : full_range();
}

static IntRange range_of(const HkFunc *f, HkVal v, int depth)
{
    const HkValue *val = hk_value(f, v);
    const HkInst *d = val->kind == HK_DEF_INST ? val->def : NULL;
    if (d == NULL || depth <= 0 || val->type.rank != 0)
        return full_range();
    IntRange a, b;
    switch (d->op) {
    case HK_OP_CONST:
        if (d->x->cst.n == 1 && d->x->cst.i != NULL)
            return (IntRange){d->x->cst.i[0], d->x->cst.i[0]};
        return full_range();
    case HK_OP_MINIMUM:
    case HK_OP_MAXIMUM:
        a = op_range(f, d, 0, depth), b = op_range(f, d, 1, depth);
        if (d->op == HK_OP_MINIMUM)
            return (IntRange){a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
        return (IntRange){a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    case HK_OP_CLIP: {
        /* minimum(maximum(x, lo), hi) */
        IntRange x = op_range(f, d, 0, depth), l = op_range(f, d, 1, depth),
                 h = op_range(f, d, 2, depth);
        a = (IntRange){x.lo > l.lo ? x.lo : l.lo, x.hi > l.hi ? x.hi : l.hi};
        return (IntRange){a.lo < h.lo ? a.lo : h.lo, a.hi < h.hi ? a.hi : h.hi};
    }
    case HK_OP_SELECT:
        a = op_range(f, d, 1, depth), b = op_range(f, d, 2, depth);
        return (IntRange){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    case HK_OP_AND:
        return masked(f, d, depth);
    case HK_OP_SEXT:
    case HK_OP_ZEXT:
        return widened(d->op, (HkElem)hk_value(f, d->ops[0])->type.elem);
    default:
        return full_range();
    }
}

/* "is 4" or "lies in [0, 4]". */
static const char *range_text(HkArena *a, IntRange r)
{
    if (r.lo == r.hi)
        return hk_asprintf(a, "is %" PRId64, r.lo);
    return hk_asprintf(a, "lies in [%" PRId64 ", %" PRId64 "]", r.lo, r.hi);
}

/* "1 trip", "4 trips". */
static const char *trips_text(HkArena *a, int64_t n)
{
    return hk_asprintf(a, "%" PRId64 " trip%s", n, n == 1 ? "" : "s");
}

/* a - b, saturating at either end. */
static int64_t sat_sub(int64_t a, int64_t b)
{
    if (b < 0 && a > INT64_MAX + b)
        return INT64_MAX;
    if (b > 0 && a < INT64_MIN + b)
        return INT64_MIN;
    return a - b;
}

/* The warning a runtime-count loop earns when the range of its count
 * proves the max K is never reached (or the loop never runs), or is
 * passed on every sample; NULL when it proves neither. */
static const char *count_warning(HkArena *a, const HkFunc *f,
                                 const HkInst *loop)
{
    const HkInstExt *x = loop->x;
    IntRange r = range_of(f, loop->ops[0], 8);
    int64_t most = sat_sub(r.hi, x->lo), least = sat_sub(r.lo, x->lo);
    const char *n = hk_value(f, loop->ops[0])->name;
    const char *iv = hk_value(f, x->ivar)->name;
    if (most <= 0)
        return hk_asprintf(a,
                           "the count %%%s %s, not past the start %" PRId64
                           " of loop %%%s: the loop never runs",
                           n, range_text(a, r), x->lo, iv);
    if (most < x->max_trip)
        return hk_asprintf(a,
                           "the count %%%s %s: loop %%%s runs at most %s and "
                           "never reaches its max %" PRId64
                           ", which the budgets and tapes are sized for "
                           "(write max %" PRId64 ")",
                           n, range_text(a, r), iv, trips_text(a, most),
                           x->max_trip, most);
    if (least > x->max_trip)
        return hk_asprintf(a,
                           "the count %%%s %s: loop %%%s always stops at its "
                           "max %" PRId64 ", before the %" PRId64
                           "%s trips the count asks for",
                           n, range_text(a, r), iv, x->max_trip, least,
                           r.lo == r.hi ? "" : " or more");
    return NULL;
}

/* Fills loop number n's row; its parent's row is already filled, because
 * loops are numbered in pre-order. */
static void fill_loop(const HkFunc *f, const HkPositions *p, HkTripResult *res,
                      uint32_t n)
{
    const HkInst *loop = p->walk.loops[n];
    HkLoopInfo *li = &res->loops[n];
    li->loop = loop;
    li->pos = hk_pos(p, loop);
    li->number = n;
    li->parent = p->walk.items[p->order[loop->serial]].loop;
    li->runtime_count = loop->x->has_count;
    li->trip = loop->x->has_count ? loop->x->max_trip : loop->x->hi - loop->x->lo;
    li->brk = break_kind(loop);
    int64_t outer = li->parent >= 0 ? res->loops[li->parent].worst : 1;
    li->worst = sat_mul(li->trip, outer);
    if (li->runtime_count)
        li->warning = count_warning(f->module->arena, f, loop);
}

/* Refuses under budget.trips at the loop whose worst count first takes
 * the running sum over the cap. */
static void refuse_trips(HawkPassRun *r, HkFunc *f, const HkTripResult *res,
                         int64_t cap)
{
    const HkLoopInfo *at = NULL;
    int64_t sum = 0;
    for (uint32_t n = 0; n < res->nloops && at == NULL; n++) {
        sum = sat_add(sum, res->loops[n].worst);
        if (sum > cap)
            at = &res->loops[n];
    }
    HkArena *a = f->module->arena;
    const char *why = hk_asprintf(
        a, "worst-case loop trips per sample %" PRId64 " exceed %s",
        res->max_trips, hk_run_option(r, "max-trips", cap));
    const HkFixOption fix = {
        "", "max-trips", hk_asprintf(a, "%" PRId64, res->max_trips),
        " or shorten the loops"};
    hk_refuse_option(r, f, at ? at->loop : NULL, at ? "loop" : "kernel",
                     "budget.trips", why, &fix);
}

/* Measures every loop of a kernel; refuses above the max-trips cap. */
int hk_pass_trip_bound(HawkPassRun *r, HkFunc *f)
{
    HkTripResult *res = hk_alloc(f->module->arena, sizeof *res);
    if (!f->is_kernel) {
        hk_analysis_set(r, f, HK_PASS_TRIP_BOUND, res);
        return 0;
    }
    HkProfile prof;
    const HkPositions *p = hk_positions(r, f);
    if (hk_profile_read(r, &prof) != 0 || p == NULL)
        return 1;
    res->nloops = p->walk.nloops;
    res->loops = hk_alloc(f->module->arena,
                          (res->nloops ? res->nloops : 1) * sizeof *res->loops);
    for (uint32_t n = 0; n < res->nloops; n++) {
        fill_loop(f, p, res, n);
        res->max_trips = sat_add(res->max_trips, res->loops[n].worst);
    }
    for (uint32_t n = 0; n < res->nloops; n++)
        if (res->loops[n].warning != NULL &&
            hk_warn(r, f, res->loops[n].loop, res->loops[n].warning) != 0)
            return 1;
    /* Refused: nothing cached, so asking again refuses again. */
    if (prof.max_trips != HK_NONE && res->max_trips > prof.max_trips) {
        refuse_trips(r, f, res, prof.max_trips);
        return 1;
    }
    hk_analysis_set(r, f, HK_PASS_TRIP_BOUND, res);
    return 0;
}

/* The break kind as LangRef spells it. */
const char *hk_break_name(HkBreakKind k)
{
    switch (k) {
    case HK_BRK_NONE: return "none";
    case HK_BRK_HEAD: return "head";
    case HK_BRK_MIDDLE: return "middle";
    case HK_BRK_TAIL: return "tail";
    }
    return "none";
}

/* "trip-bound @k: max_trips N", then one line per loop. */
void hk_print_trip_bound(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkTripResult *res = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "trip-bound @%s: max_trips %" PRId64 "\n", f->name,
                  res->max_trips);
    for (uint32_t n = 0; n < res->nloops; n++) {
        const HkLoopInfo *li = &res->loops[n];
        hk_buf_printf(b, "  loop%u at %s: trip %" PRId64 "%s, break %s, ", n,
                      li->pos, li->trip, li->runtime_count ? " (runtime count)" : "",
                      hk_break_name(li->brk));
        if (li->parent >= 0)
            hk_buf_printf(b, "in loop%d, ", li->parent);
        else
            hk_buf_puts(b, "top level, ");
        hk_buf_printf(b, "worst %" PRId64 "\n", li->worst);
    }
}
