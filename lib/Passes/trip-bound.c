/* trip-bound.c -- the trip-bound analysis: each loop's static trip bound,
 * its break kind and nesting, and the worst-case loop trips per sample
 * (the report's budgets.max_trips and budgets.loops).  Under a max-trips
 * cap it refuses a kernel above it (rule budget.trips). */
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

/* Fills loop number n's row; its parent's row is already filled, because
 * loops are numbered in pre-order. */
static void fill_loop(const HkPositions *p, HkTripResult *res, uint32_t n)
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
        fill_loop(p, res, n);
        res->max_trips = sat_add(res->max_trips, res->loops[n].worst);
    }
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
