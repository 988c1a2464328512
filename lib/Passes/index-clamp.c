/* index-clamp.c -- the index-clamp analysis: every runtime index site of a
 * kernel (gather, indexed store, indexed accum, a local's row load, a
 * table read) is proven inside its
 * extent or clamped, with the reason; the writers clamp every site not
 * proven, and index-policy=refuse refuses the clamped ones (index.unproven).
 * docs/Passes.md "index-clamp" lists the rules. */
#include <inttypes.h>

#include "embedded.h"

#define RUNTIME_LEN                                                          \
    "runtime-length plane: the length is a runtime value, so the index is "  \
    "clamped to [0, len-1]"

HkVal hk_index_operand(const HkInst *i)
{
    if (i->nops == 0 || i->slot < 0)
        return HK_NOVAL;
    switch (i->op) {
    case HK_OP_GATHER:
        return i->ops[i->nops - 1];
    case HK_OP_LOAD:  /* a local's row */
    case HK_OP_STORE:
    case HK_OP_ACCUM:
        return i->has_index ? i->ops[i->nops - 1] : HK_NOVAL;
    default:
        return HK_NOVAL;
    }
}

/* The trips of loop l (at most, for a runtime count) and, through last,
 * the last value its index takes (saturated: a huge runtime-count bound
 * must not wrap). */
static int64_t ivar_range(const HkInst *l, int64_t *last)
{
    int64_t trip = l->x->has_count ? l->x->max_trip : l->x->hi - l->x->lo;
    *last = trip - 1 > INT64_MAX - l->x->lo ? INT64_MAX : l->x->lo + (trip - 1);
    return trip;
}

/* What classifying an index proved it outside of, for the warning:
 * nothing, a constant c, or the index iv of a loop that runs every trip
 * through [lo, hi]; last is the extent's end. */
typedef enum { OUTSIDE_NONE, OUTSIDE_CONST, OUTSIDE_LOOP } OutsideKind;
typedef struct {
    OutsideKind kind;
    int64_t c, lo, hi, last;
    const HkValue *iv;
} Outside;

/* Whether loop l runs every trip of its static range: no runtime count,
 * no break_if in its body. */
static int runs_every_trip(const HkInst *l)
{
    if (l->x->has_count)
        return 0;
    for (const HkInst *i = l->x->regions[0].first; i != NULL; i = i->next)
        if (i->op == HK_OP_BREAK_IF)
            return 0;
    return 1;
}

/* Records in out (may be NULL) that loop index iv of loop l, whose last
 * value is end, reaches past last, when every trip runs. */
static void ivar_outside(Outside *out, const HkValue *iv, const HkInst *l,
                         int64_t end, int64_t last)
{
    if (out != NULL && runs_every_trip(l) && end > last)
        *out = (Outside){OUTSIDE_LOOP, 0, l->x->lo, end, last, iv};
}

/* Records in out (may be NULL) constant c outside [0, last]. */
static void const_outside(Outside *out, int64_t c, int64_t last)
{
    if (out != NULL)
        *out = (Outside){OUTSIDE_CONST, c, 0, 0, last, NULL};
}

/* Classifies a loop index %iv of loop l into k static rows. */
static HkIndexStatus classify_ivar(HkArena *a, const HkValue *iv,
                                   const HkInst *l, int64_t k,
                                   const char **why, Outside *out)
{
    int64_t last, trip = ivar_range(l, &last);
    if (trip <= 0) {
        *why = hk_asprintf(a, "tape ordinal: loop index %%%s of a loop that "
                              "runs no trip", iv->name);
        return HK_IDX_PROVEN;
    }
    if (l->x->lo >= 0 && last <= k - 1) {
        *why = hk_asprintf(a,
                           "tape ordinal: loop index %%%s in [%" PRId64
                           ", %" PRId64 "] inside rows [0, %" PRId64 "]",
                           iv->name, l->x->lo, last, k - 1);
        return HK_IDX_PROVEN;
    }
    ivar_outside(out, iv, l, last, k - 1);
    *why = hk_asprintf(a,
                       "loop index %%%s in [%" PRId64 ", %" PRId64
                       "] not inside rows [0, %" PRId64 "]: clamped to [0, %"
                       PRId64 "]",
                       iv->name, l->x->lo, last, k - 1, k - 1);
    return HK_IDX_CLAMPED;
}

/* Classifies index v into the k static rows of a tape. */
static HkIndexStatus classify_rows(HkArena *a, const HkFunc *f, HkVal v,
                                   int32_t slot, int64_t k, const char **why,
                                   Outside *out)
{
    const HkValue *val = hk_value(f, v);
    if (val->kind == HK_DEF_IVAR && val->def != NULL)
        return classify_ivar(a, val, val->def, k, why, out);
    const HkInst *d = val->kind == HK_DEF_INST ? val->def : NULL;
    if (d != NULL && d->op == HK_OP_CLAMP_INDEX && d->slot == slot) {
        *why = hk_asprintf(a, "clamp_index %%%s held it to rows [0, %" PRId64 "]",
                           val->name, k - 1);
        return HK_IDX_PROVEN;
    }
    if (d != NULL && d->op == HK_OP_CONST && d->x->cst.n >= 1 &&
        d->x->cst.i != NULL) {
        int64_t c = d->x->cst.i[0];
        if (c >= 0 && c <= k - 1) {
            *why = hk_asprintf(a,
                               "tape ordinal: constant %" PRId64
                               " inside rows [0, %" PRId64 "]",
                               c, k - 1);
            return HK_IDX_PROVEN;
        }
        const_outside(out, c, k - 1);
        *why = hk_asprintf(a,
                           "constant %" PRId64 " outside rows [0, %" PRId64
                           "]: clamped to [0, %" PRId64 "]",
                           c, k - 1, k - 1);
        return HK_IDX_CLAMPED;
    }
    *why = hk_asprintf(a,
                       "runtime index into rows [0, %" PRId64
                       "]: clamped to [0, %" PRId64 "]",
                       k - 1, k - 1);
    return HK_IDX_CLAMPED;
}

/* v & c for a constant c in [0, last]: the result lies in [0, c]. */
static int masked_within(const HkFunc *f, const HkInst *d, int64_t last,
                         int64_t *c)
{
    if (d == NULL || d->op != HK_OP_AND || d->nops != 2)
        return 0;
    for (uint32_t k = 0; k < 2; k++) {
        const HkValue *m = hk_value(f, d->ops[k]);
        if (m->kind == HK_DEF_INST && m->def->op == HK_OP_CONST &&
            m->def->x->cst.n == 1 && m->def->x->cst.i != NULL &&
            m->def->x->cst.i[0] >= 0 && m->def->x->cst.i[0] <= last) {
            *c = m->def->x->cst.i[0];
            return 1;
        }
    }
    return 0;
}

/* Classifies the index of table read i into its N entries: a constant or
 * a loop index inside them, a mask by a constant inside them, or the
 * hold legalize writes; anything else is clamped. */
static HkIndexStatus classify_table(HkArena *a, const HkFunc *f,
                                    const HkInst *i, const char **why,
                                    Outside *out)
{
    int64_t last = (int64_t)i->x->cst.n - 1, c;
    const HkValue *val = hk_value(f, i->ops[0]);
    const HkInst *d = val->kind == HK_DEF_INST ? val->def : NULL;
    if (val->kind == HK_DEF_IVAR && val->def != NULL) {
        const HkInst *l = val->def;
        int64_t end, trip = ivar_range(l, &end);
        if (trip <= 0 || (l->x->lo >= 0 && end <= last)) {
            *why = hk_asprintf(a, "loop index %%%s inside entries [0, %" PRId64 "]",
                               val->name, last);
            return HK_IDX_PROVEN;
        }
        ivar_outside(out, val, l, end, last);
        *why = hk_asprintf(a, "loop index %%%s in [%" PRId64 ", %" PRId64
                              "] not inside entries [0, %" PRId64 "]: clamped",
                           val->name, l->x->lo, end, last);
        return HK_IDX_CLAMPED;
    }
    if (d != NULL && d->op == HK_OP_CONST && d->x->cst.n == 1 &&
        d->x->cst.i != NULL) {
        int64_t k = d->x->cst.i[0];
        int in = k >= 0 && k <= last;
        if (!in)
            const_outside(out, k, last);
        *why = hk_asprintf(a, "constant %" PRId64 " %s entries [0, %" PRId64 "]%s",
                           k, in ? "inside" : "outside", last, in ? "" : ": clamped");
        return in ? HK_IDX_PROVEN : HK_IDX_CLAMPED;
    }
    if (masked_within(f, d, last, &c)) {
        *why = hk_asprintf(a, "%%%s = x & %" PRId64 " inside entries [0, %" PRId64 "]",
                           val->name, c, last);
        return HK_IDX_PROVEN;
    }
    if (hk_legal_held(f, i->ops[0], 0, last)) {
        *why = hk_asprintf(a, "%%%s held to entries [0, %" PRId64 "]", val->name,
                           last);
        return HK_IDX_PROVEN;
    }
    *why = hk_asprintf(a, "runtime index into entries [0, %" PRId64
                          "]: clamped to [0, %" PRId64 "]",
                       last, last);
    return HK_IDX_CLAMPED;
}

/* Classifies the index of site i; out (may be NULL) learns what it was
 * proven outside of. */
static HkIndexStatus classify(HkArena *a, const HkFunc *f, const HkInst *i,
                              const char **why, Outside *out)
{
    if (i->op == HK_OP_TABLE)
        return classify_table(a, f, i, why, out);
    const HkSlot *slot = &f->slots[i->slot];
    if (slot->type.rank == 0 || slot->type.dim[0] == HK_DYN) {
        /* a dynamic plane: its length is known only at run time, so
         * nothing is proven outside it either */
        *why = RUNTIME_LEN;
        return HK_IDX_CLAMPED;
    }
    return classify_rows(a, f, hk_index_operand(i), i->slot,
                         (int64_t)slot->type.dim[0], why, out);
}

HkIndexStatus hk_index_classify(HkArena *a, const HkFunc *f, const HkInst *i,
                                const char **why)
{
    return classify(a, f, i, why, NULL);
}

/* The warning for site i (into name: "'t'", "the table of %g") of what
 * its classification proved outside, or NULL. */
static const char *outside_text(HkArena *a, const HkInst *i, const char *name,
                                const Outside *o)
{
    const char *unit = i->op == HK_OP_TABLE ? "entry" : "row";
    const char *units = i->op == HK_OP_TABLE ? "entries" : "rows";
    if (o->kind == OUTSIDE_CONST)
        return hk_asprintf(a,
                           "the index %" PRId64 " into %s is outside its "
                           "%s [0, %" PRId64 "]: it is clamped to %s %" PRId64,
                           o->c, name, units, o->last, unit,
                           o->c < 0 ? 0 : o->last);
    if (o->kind == OUTSIDE_LOOP)
        return hk_asprintf(a,
                           "loop index %%%s runs through [%" PRId64 ", %" PRId64
                           "], outside the %s [0, %" PRId64 "] of %s: the "
                           "trips past them are clamped to %s %" PRId64,
                           o->iv->name, o->lo, o->hi, units, o->last, name,
                           unit, o->last);
    return NULL;
}

/* Warns at every site whose index is provably outside; 1 when a warning
 * was made an error. */
static int warn_outside(HawkPassRun *r, HkFunc *f, const HkIndexResult *res)
{
    int failed = 0;
    for (uint32_t k = 0; k < res->nsites; k++)
        if (res->sites[k].outside != NULL)
            failed |= hk_warn(r, f, res->sites[k].inst, res->sites[k].outside);
    return failed;
}

/* Refuses every clamped site of res; returns how many. */
static uint32_t refuse_clamped(HawkPassRun *r, HkFunc *f,
                               const HkIndexResult *res)
{
    HkArena *a = f->module->arena;
    uint32_t n = 0;
    for (uint32_t k = 0; k < res->nsites; k++) {
        const HkIndexSite *s = &res->sites[k];
        if (s->status != HK_IDX_CLAMPED)
            continue;
        static const HkFixOption fix = {
            "index with a loop index or constant inside the extent, or ",
            "index-policy", "clamp", ""};
        hk_refuse_option(r, f, s->inst, hk_ops[s->inst->op].mnemonic,
                         "index.unproven",
                         hk_asprintf(a,
                                     "the index into '%s' is not proven "
                                     "inside its extent (%s)",
                                     s->slot, s->reason),
                         &fix);
        n++;
    }
    return n;
}

int hk_pass_index_clamp(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkIndexResult *res = hk_alloc(a, sizeof *res);
    if (!f->is_kernel) {
        res->sites = hk_alloc(a, sizeof *res->sites);
        hk_analysis_set(r, f, HK_PASS_INDEX_CLAMP, res);
        return 0;
    }
    HkProfile prof;
    const HkPositions *pos = hk_positions(r, f);
    if (hk_profile_read(r, &prof) != 0 || pos == NULL)
        return 1;
    /* Sites are listed in walk order; at most one per instruction. */
    res->sites = hk_alloc(a, (pos->walk.n ? pos->walk.n : 1) *
                                 sizeof *res->sites);
    for (uint32_t k = 0; k < pos->walk.n; k++) {
        const HkInst *i = pos->walk.items[k].inst;
        int table = i->op == HK_OP_TABLE && i->nops == 1;
        if (!table && hk_index_operand(i) == HK_NOVAL)
            continue;
        HkIndexSite *s = &res->sites[res->nsites++];
        s->inst = i;
        /* a table read names the value it reads */
        s->slot = table ? hk_value(f, hk_res(i)[0])->name : f->slots[i->slot].name;
        Outside out = {OUTSIDE_NONE, 0, 0, 0, 0, NULL};
        s->status = classify(a, f, i, &s->reason, &out);
        s->pos = hk_pos(pos, i);
        s->outside = out.kind == OUTSIDE_NONE ? NULL : outside_text(
                a, i,
                hk_asprintf(a, table ? "the table of %%%s" : "'%s'", s->slot),
                &out);
    }
    if (warn_outside(r, f, res) != 0)
        return 1;
    /* A refused kernel caches nothing: asking again refuses again. */
    if (prof.index_policy == HK_IDX_REFUSE && refuse_clamped(r, f, res) != 0)
        return 1;
    hk_analysis_set(r, f, HK_PASS_INDEX_CLAMP, res);
    return 0;
}

void hk_print_index_clamp(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkIndexResult *res = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "index-clamp @%s:\n", f->name);
    for (uint32_t k = 0; k < res->nsites; k++) {
        const HkIndexSite *s = &res->sites[k];
        hk_buf_printf(b, "  %s %s %%%s: %s (%s)\n", s->pos,
                      hk_ops[s->inst->op].mnemonic, s->slot,
                      s->status == HK_IDX_PROVEN ? "proven" : "clamped",
                      s->reason);
    }
    if (res->nsites == 0)
        hk_buf_puts(b, "  no index sites\n");
}
