/* cwriter_stmt.c -- the statements of the per-sample body: one const local
 * per value at its definition, plane reads and writes in SoA form, and the
 * structured control flow (docs/EmbeddedC.md, "The C unit").
 *
 * Loop-carried values and the results of if and dispatch are non-const
 * locals declared before the construct and assigned at its yield; a loop's
 * results are const copies after it.  A break leaves the loop before the
 * yield, so the carried locals still hold the values the trip began with,
 * which LangRef makes the results.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cwriter.h"

void hk_cw_line(HkCW *w, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    size_t len = n > 0 ? (size_t)n : 0u;
    char *s = hk_alloc(w->a, len + 1u);
    vsnprintf(s, len + 1u, fmt, ap);
    va_end(ap);
    for (uint32_t k = 0; k < w->indent; k++)
        hk_buf_puts(w->out, "    ");
    hk_buf_put(w->out, s, len);
    hk_buf_puts(w->out, "\n");
}

static HkType type_of(const HkCW *w, HkVal v)
{
    return hk_value(w->f, v)->type;
}

static const char *ctype_of(HkCW *w, HkVal v)
{
    HkElem e = (HkElem)type_of(w, v).elem;
    if (e == HK_I1)
        w->need_bool = 1;
    return hk_cw_ctype(w, e);
}

/* The defining instruction of v, or NULL. */
static const HkInst *def_of(const HkCW *w, HkVal v)
{
    const HkValue *val = hk_value(w->f, v);
    return val->kind == HK_DEF_INST ? val->def : NULL;
}

/* ---- component access of tensor values ------------------------------------ */

/* Component c of v: v itself at rank 0, a build's operand, or the local
 * of a whole-used load's component.  NULL after hk_cw_fail. */
static const char *component(HkCW *w, const HkInst *at, HkVal v, uint32_t c)
{
    if (type_of(w, v).rank == 0)
        return hk_cw_val(w, v);
    const HkInst *d = def_of(w, v);
    if (d != NULL && d->op == HK_OP_BUILD && c < d->nops)
        return hk_cw_val(w, d->ops[c]);
    if (d != NULL && d->op == HK_OP_LOAD && w->comps[v] != NULL)
        return w->comps[v][c];
    hk_cw_fail(w, at, "a tensor that is neither built nor loaded");
    return NULL;
}

/* "_0", or "_1_2" for a rank-2 type: a component's name suffix. */
static const char *comp_suffix(HkCW *w, HkType t, uint32_t c)
{
    if (t.rank == 2)
        return hk_asprintf(w->a, "_%u_%u", c / t.dim[1], c % t.dim[1]);
    return hk_asprintf(w->a, "_%u", c);
}

/* ---- reads ------------------------------------------------------------------ */

static void emit_load(HkCW *w, const HkInst *i)
{
    HkVal v = hk_res(i)[0];
    HkType t = type_of(w, v);
    if (w->fnprefix != NULL) {  /* an argument: the parameter of its name */
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v),
                   w->f->slots[i->slot].name);
        return;
    }
    if (w->f->slots[i->slot].role == HK_ROLE_LOCAL) {  /* legalize held the row */
        hk_cw_line(w, "const %s %s = %s[%s];", ctype_of(w, v), hk_cw_val(w, v),
                   w->field[i->slot], hk_cw_val(w, i->ops[0]));
        return;
    }
    if (t.rank == 0) {
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v),
                   hk_cw_plane_read(w, i->slot,
                                    hk_cw_soa(w, i->slot, 0, NULL, 0)));
        return;
    }
    /* A tensor load is read component by component where it is taken
     * apart; one stored as it is reads every component here, before any
     * later store to its plane. */
    if (!w->whole[v])
        return;
    uint32_t n = hk_components(t);
    w->comps[v] = hk_alloc(w->a, (n + 1u) * sizeof *w->comps[v]);
    for (uint32_t c = 0; c < n; c++) {
        w->comps[v][c] = hk_cw_name_value(w, v, comp_suffix(w, t, c));
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), w->comps[v][c],
                   hk_cw_plane_read(w, i->slot,
                                    hk_cw_soa(w, i->slot, c, NULL, 0)));
    }
}

/* extract of a loaded tensor: the plane read of that component. */
static void emit_extract(HkCW *w, const HkInst *i)
{
    HkVal src = i->ops[0], v = hk_res(i)[0];
    const HkInst *d = def_of(w, src);
    HkType t = type_of(w, src);
    if (d == NULL || d->op != HK_OP_LOAD || i->x->nimm != t.rank) {
        hk_cw_fail(w, i, "an extract of a value that is not a loaded tensor");
        return;
    }
    uint32_t c = hk_flat_index(t, i->x->imm, i->x->nimm);
    if (w->comps[src] != NULL) {
        w->cname[v] = w->comps[src][c];  /* already a local */
        return;
    }
    hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v),
               hk_cw_plane_read(w, d->slot, hk_cw_soa(w, d->slot, c, NULL, 0)));
}

static void emit_gather(HkCW *w, const HkInst *i)
{
    HkVal v = hk_res(i)[0];
    hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v),
               hk_cw_plane_read(w, i->slot,
                                hk_cw_flat(w, i->slot,
                                           hk_cw_val(w, i->ops[i->nops - 1]))));
}

/* table %k, [...]: the entries as a block-scope static const array
 * (read-only data, MISRA C:2012 Rule 8.9), four to a line, and the read
 * at the index legalize held inside them. */
static void emit_table(HkCW *w, const HkInst *i)
{
    HkVal v = hk_res(i)[0];
    HkElem e = (HkElem)type_of(w, v).elem;
    const char *t = hk_cw_name_value(w, v, "_table");
    uint32_t n = i->x->cst.n;
    hk_cw_line(w, "static const %s %s[%u] = {", ctype_of(w, v), t, n);
    for (uint32_t k = 0; k < n; k += 4) {
        HkBuf b;
        hk_buf_init(&b, w->a);
        for (uint32_t j = k; j < n && j < k + 4; j++)
            hk_buf_printf(&b, "%s%s%s", j > k ? " " : "    ",
                          hk_cw_literal(w, &i->x->cst, j, e), j + 1 < n ? "," : "");
        hk_cw_line(w, "%s", hk_buf_cstr(&b));
    }
    hk_cw_line(w, "};");
    hk_cw_line(w, "const %s %s = %s[%s];", ctype_of(w, v), hk_cw_val(w, v), t,
               hk_cw_val(w, i->ops[0]));
}

/* clamp_index (LangRef "Index clamping"): the index, or the sample's own
 * position, held to [0, len - 1] of a runtime-length plane or to a tape's
 * rows. */
static void emit_clamp_index(HkCW *w, const HkInst *i)
{
    const HkSlot *slot = &w->f->slots[i->slot];
    const char *k = i->nops == 1 ? hk_cw_val(w, i->ops[0]) : "i";
    const char *len;
    if (i->nops == 0)
        w->uses_i = 1;
    hk_cw_need(w, HK_CH_CLAMP_INDEX);
    if (hk_is_dyn(slot->type)) {
        len = hk_asprintf(w->a, "args->%s", w->lenfield[i->slot]);
        hk_cw_line(w, "/* '%s' has a runtime length: the index is clamped to "
                      "[0, len - 1]. */",
                   slot->name);
    } else {
        len = hk_asprintf(w->a, "INT64_C(%u)", slot->type.dim[0]);
        hk_cw_line(w, "/* The row is not proven inside the %s's %u rows: it is "
                      "clamped to them. */",
                   slot->role == HK_ROLE_LOCAL ? "local" : "tape", slot->type.dim[0]);
    }
    hk_cw_line(w, "const int64_t %s = hawk_clamp_index(%s, %s);",
               hk_cw_val(w, hk_res(i)[0]), k, len);
}

/* ---- writes ----------------------------------------------------------------- */

/* A plain assignment of every component of v to the sample's own column
 * of a per-sample plane, or to row row of a tape. */
static void write_columns(HkCW *w, const HkInst *i, HkVal v, const char *row)
{
    HkType st = w->f->slots[i->slot].type;
    uint32_t n = hk_components(type_of(w, v));
    uint32_t row_comps = row != NULL && st.rank == 2 ? st.dim[1] : 1u;
    for (uint32_t c = 0; c < n; c++) {
        const char *x = component(w, i, v, c);
        if (x == NULL)
            return;
        hk_cw_line(w, "%s = %s;", hk_cw_soa(w, i->slot, c, row, row_comps),
                   hk_cw_plane_value(w, i->slot, x));
    }
}

/* A write into a flat plane of runtime length at index k (a clamp_index
 * legalize wrote); add: += (the scattered accumulate). */
static void write_flat(HkCW *w, const HkInst *i, HkVal v, const char *k, int add)
{
    HkElem e = (HkElem)type_of(w, v).elem;
    const char *x = component(w, i, v, 0);
    if (x == NULL)
        return;
    if (!add) {
        hk_cw_line(w, "%s = %s;", hk_cw_flat(w, i->slot, k),
                   hk_cw_plane_value(w, i->slot, x));
        return;
    }
    if (e != HK_I64 && e != HK_I32) {
        /* reals round as one addition; u32 wraps in C */
        hk_cw_line(w, "%s += %s;", hk_cw_flat(w, i->slot, k), x);
        return;
    }
    /* A signed sum wraps through the helper (LangRef). */
    HkIntType t = e == HK_I64 ? HK_IT_I64 : HK_IT_I32;
    uint32_t id = hk_ch_int(t, HK_IO_ADD);
    hk_cw_need(w, id);
    const char *cell = hk_cw_flat(w, i->slot, k);
    hk_cw_line(w, "%s = %s(%s, %s);", cell, hk_ch_name(w->a, id), cell, x);
}

/* store and accum (LangRef "Planes"): own column, tape row, flat index. */
static void emit_write(HkCW *w, const HkInst *i)
{
    HkVal v = i->ops[0];
    const HkSlot *slot = &w->f->slots[i->slot];
    if (w->fnprefix != NULL) {
        /* the result: the function's one exit, its last statement
         * (hk_lower_mathfn) */
        hk_cw_line(w, "return %s;", hk_cw_val(w, v));
        return;
    }
    if (slot->role == HK_ROLE_LOCAL) {
        const char *x = component(w, i, v, 0);
        if (x != NULL)
            hk_cw_line(w, "%s[%s] = %s;", w->field[i->slot],
                       hk_cw_val(w, i->ops[i->nops - 1]), x);
        return;
    }
    if (slot->role == HK_ROLE_OUT) {
        if (!i->has_index) {
            hk_cw_fail(w, i, "a tape write without a row");
            return;
        }
        write_columns(w, i, v, hk_cw_val(w, i->ops[i->nops - 1]));
        return;
    }
    if (hk_cw_is_flat(w, i->slot)) {
        if (type_of(w, v).rank != 0) {
            hk_cw_fail(w, i, "a tensor written into a flat plane");
            return;
        }
        if (!i->has_index) {  /* legalize indexes them (scalar-form) */
            hk_cw_fail(w, i, "a write into a flat plane without an index");
            return;
        }
        write_flat(w, i, v, hk_cw_val(w, i->ops[i->nops - 1]),
                   i->op == HK_OP_ACCUM);
        return;
    }
    /* own column of a per-sample plane: an accumulate is a store under
     * the plain and atomic sinks */
    write_columns(w, i, v, NULL);
}

/* ---- regions ---------------------------------------------------------------- */

/* Where each yield operand goes: dests[k] the local of result k, NULL when
 * the C does not keep it. */
typedef struct {
    const char **dests;
    uint32_t n;
    const HkInst *loop;   /* the loop whose carried values these are */
} Dests;

/* The carried value index of v in loop l, or UINT32_MAX. */
static uint32_t carried_index(const HkCW *w, const HkInst *l, HkVal v)
{
    const HkValue *val = hk_value(w->f, v);
    if (l == NULL || val->kind != HK_DEF_ITER || val->def != l)
        return UINT32_MAX;
    return val->index;
}

/* The assignments of a yield.  A loop's yield that reads a carried value
 * another assignment has already changed reads a copy taken first. */
static void emit_yield(HkCW *w, const HkInst *y, const Dests *to)
{
    if (y->nops != to->n) {
        hk_cw_fail(w, y, "a yield that does not match its results");
        return;
    }
    const char **src = hk_alloc(w->a, (y->nops + 1u) * sizeof *src);
    for (uint32_t j = 0; j < y->nops; j++) {
        src[j] = hk_cw_val(w, y->ops[j]);
        uint32_t k = carried_index(w, to->loop, y->ops[j]);
        if (to->dests[j] == NULL || k == UINT32_MAX || k >= j ||
            to->dests[k] == NULL)
            continue;
        const char *copy = hk_cw_fresh(w, hk_asprintf(w->a, "%s_prev", src[j]));
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, y->ops[j]), copy, src[j]);
        src[j] = copy;
    }
    for (uint32_t j = 0; j < y->nops; j++)
        if (to->dests[j] != NULL && strcmp(to->dests[j], src[j]) != 0)
            hk_cw_line(w, "%s = %s;", to->dests[j], src[j]);
}

static void emit_insts(HkCW *w, const HkBlock *b, const Dests *to);

/* A region's statements at one more indent, its yield as assignments. */
static void emit_region(HkCW *w, const HkBlock *b, const Dests *to)
{
    w->indent++;
    emit_insts(w, b, to);
    w->indent--;
}

/* Renders region b into its own buffer: "" when it spells nothing. */
static const char *render_region(HkCW *w, const HkBlock *b, const Dests *to)
{
    HkBuf *saved = w->out;
    HkBuf tmp;
    hk_buf_init(&tmp, w->a);
    w->out = &tmp;
    emit_region(w, b, to);
    w->out = saved;
    return hk_buf_cstr(&tmp);
}

/* Declares the kept results of region op i; fills dests. */
static void declare_results(HkCW *w, const HkInst *i, Dests *to)
{
    to->n = i->nres;
    to->dests = hk_alloc(w->a, (i->nres + 1u) * sizeof *to->dests);
    to->loop = NULL;
    for (uint32_t k = 0; k < i->nres; k++) {
        HkVal r = hk_res(i)[k];
        if (w->dead[r] || w->uses[r] == 0)
            continue;
        to->dests[k] = hk_cw_val(w, r);
        hk_cw_line(w, "%s %s;", ctype_of(w, r), to->dests[k]);
    }
}

static void emit_if(HkCW *w, const HkInst *i)
{
    Dests to;
    declare_results(w, i, &to);
    const char *c = hk_cw_val(w, i->ops[0]);
    const char *then = render_region(w, &i->x->regions[0], &to);
    const char *els = i->x->nregions > 1 ? render_region(w, &i->x->regions[1], &to) : "";
    if (then[0] == '\0' && els[0] == '\0')
        return;
    if (then[0] == '\0') {
        hk_cw_line(w, "if (!%s) {", c);
        hk_buf_puts(w->out, els);
    } else {
        hk_cw_line(w, "if (%s) {", c);
        hk_buf_puts(w->out, then);
        if (els[0] != '\0') {
            hk_cw_line(w, "} else {");
            hk_buf_puts(w->out, els);
        }
    }
    hk_cw_line(w, "}");
}

/* dispatch: a switch over the selector, which legalize held to
 * [0, K - 1], one clause per case, the last as default (MISRA C:2012
 * Rules 16.4 and 16.6); each clause counts itself in the mix plane. */
static void emit_dispatch(HkCW *w, const HkInst *i)
{
    Dests to;
    declare_results(w, i, &to);
    const char *mix = w->field[i->slot];
    uint32_t n = i->x->nregions;
    if (n == 1) {
        /* one case: it always runs, no selector to read */
        emit_insts(w, &i->x->regions[0], &to);
        hk_cw_line(w, "args->%s[0] += 1U;", mix);
        return;
    }
    hk_cw_line(w, "/* The case run is the selector, held to [0, %u]; its "
                  "mix cell counts it. */",
               n - 1);
    hk_cw_line(w, "switch (%s) {", hk_cw_val(w, i->ops[0]));
    for (uint32_t c = 0; c < n; c++) {
        if (c + 1 < n)
            hk_cw_line(w, "case %u:", c);
        else
            hk_cw_line(w, "default:");
        w->indent++;
        hk_cw_line(w, "{");
        emit_region(w, &i->x->regions[c], &to);
        w->indent++;
        hk_cw_line(w, "args->%s[%u] += 1U;", mix, c);
        w->indent--;
        hk_cw_line(w, "}");
        hk_cw_line(w, "break;");
        w->indent--;
    }
    hk_cw_line(w, "}");
}

/* A runtime count: legalize held the count to [lo, lo + K] (the scalar
 * form the writer checked on entry), so the loop runs from lo to it as it
 * is.  Returns the end. */
static const char *runtime_end(HkCW *w, const HkInst *l)
{
    /* the count as written: the maximum's first operand */
    const HkInst *max = hk_value(w->f, hk_value(w->f, l->ops[0])->def->ops[0])->def;
    const char *n = hk_cw_val(w, max->ops[0]), *end = hk_cw_val(w, l->ops[0]);
    hk_cw_line(w, "/* clamp(%s - %" PRId64 ", 0, %" PRId64 ") trips (LangRef): "
                  "%s is %s held to [%" PRId64 ", %" PRId64 "]. */",
               n, l->x->lo, l->x->max_trip, end, n, l->x->lo, l->x->lo + l->x->max_trip);
    return end;
}

static void emit_loop(HkCW *w, const HkInst *l)
{
    uint32_t off = l->x->has_count ? 1u : 0u;
    Dests to = {hk_alloc(w->a, (l->nres + 1u) * sizeof *to.dests), l->nres, l};
    for (uint32_t k = 0; k < l->nres; k++) {
        HkVal it = l->x->iters[k];
        if (w->dead[it])
            continue;
        to.dests[k] = hk_cw_val(w, it);
        hk_cw_line(w, "%s %s = %s;", ctype_of(w, it), to.dests[k],
                   hk_cw_val(w, l->ops[off + k]));
    }
    const char *iv = hk_cw_val(w, l->x->ivar);
    const char *end = l->x->has_count ? runtime_end(w, l) : hk_cw_i64(w, l->x->hi);
    hk_cw_line(w, "int64_t %s;", iv);
    hk_cw_line(w, "for (%s = %s; %s < %s; ++%s) {", iv, hk_cw_i64(w, l->x->lo), iv,
               end, iv);
    emit_region(w, &l->x->regions[0], &to);
    hk_cw_line(w, "}");
    for (uint32_t k = 0; k < l->nres; k++) {
        HkVal r = hk_res(l)[k];
        if (w->uses[r] == 0 || to.dests[k] == NULL)
            continue;
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, r), hk_cw_val(w, r),
                   to.dests[k]);
    }
}

static void emit_break(HkCW *w, const HkInst *i)
{
    const HkInst *p = i->block->parent;
    if (p == NULL || p->op != HK_OP_LOOP) {  /* directly in a loop body */
        hk_cw_fail(w, i, "break_if outside a loop");
        return;
    }
    hk_cw_line(w, "if (%s) {", hk_cw_val(w, i->ops[0]));
    hk_cw_line(w, "    /* the carried values stay those this trip began with */");
    hk_cw_line(w, "    break;");
    hk_cw_line(w, "}");
}

static void emit_pure(HkCW *w, const HkInst *i)
{
    HkVal v = hk_res(i)[0];
    w->note = NULL;
    if (i->op == HK_OP_CONST) {
        hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v),
                   hk_cw_literal(w, &i->x->cst, 0, (HkElem)type_of(w, v).elem));
        return;
    }
    const char *e = hk_cw_expr(w, i);
    if (e == NULL)
        return;
    if (w->note != NULL)
        hk_cw_line(w, "/* %s */", w->note);
    hk_cw_line(w, "const %s %s = %s;", ctype_of(w, v), hk_cw_val(w, v), e);
}

static void emit_inst(HkCW *w, const HkInst *i)
{
    switch (i->op) {
    case HK_OP_LOAD: emit_load(w, i); return;
    case HK_OP_EXTRACT: emit_extract(w, i); return;
    case HK_OP_BUILD: return;  /* spelled by the write that takes it */
    case HK_OP_GATHER: emit_gather(w, i); return;
    case HK_OP_TABLE: emit_table(w, i); return;
    case HK_OP_CLAMP_INDEX: emit_clamp_index(w, i); return;
    case HK_OP_STORE:
    case HK_OP_ACCUM: emit_write(w, i); return;
    case HK_OP_BUMP: hk_cw_line(w, "args->%s[0] += 1U;", w->field[i->slot]); return;
    case HK_OP_LOOP: emit_loop(w, i); return;
    case HK_OP_IF: emit_if(w, i); return;
    case HK_OP_DISPATCH: emit_dispatch(w, i); return;
    case HK_OP_BREAK_IF: emit_break(w, i); return;
    case HK_OP_RET: return;
    default: break;
    }
    if ((hk_ops[i->op].flags & HK_F_PURE) != 0 && i->nres == 1 &&
        type_of(w, hk_res(i)[0]).rank == 0) {
        emit_pure(w, i);
        return;
    }
    hk_cw_fail(w, i, hk_asprintf(w->a, "'%s' here", hk_ops[i->op].mnemonic));
}

static void emit_insts(HkCW *w, const HkBlock *b, const Dests *to)
{
    for (const HkInst *i = b->first; i != NULL && !w->failed; i = i->next) {
        if (i->serial < w->f->nserials && w->skip[i->serial])
            continue;
        if (i->op == HK_OP_YIELD) {
            if (to != NULL)
                emit_yield(w, i, to);
            continue;
        }
        emit_inst(w, i);
    }
}

void hk_cw_block(HkCW *w, const HkBlock *b)
{
    emit_insts(w, b, NULL);
}
