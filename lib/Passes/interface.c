/* interface.c -- the interface analysis: one row per slot of a kernel
 * (field, role, direction, dtype, shape, layout, runtime length, what the
 * caller initialises and why) and the guard's mask fields, from the contract's
 * direction table.  The header, the report and the C writer's args struct
 * read it; docs/Passes.md "interface" states the rules. */
#include <string.h>

#include "embedded.h"

/* How the body uses one slot, from one walk in walk order. */
typedef struct {
    uint32_t first_load;      /* walk ordinal + 1 of the first load; 0 none */
    uint32_t first_write;     /* ... of the first store or accum; 0 none */
    uint8_t own;              /* an own-column store or accum */
    uint8_t own_every;        /* one of them runs on every path */
    uint8_t indexed;          /* a store or accum at a computed index */
} Use;

/* What every row of one kernel shares. */
typedef struct {
    HkArena *a;
    const HkFunc *f;
    const Use *use;
    int guarded;              /* default guard with a terminated slot */
    const char *masks;        /* "trm_done, trm_hit" */
    uint32_t mix_ordinal;     /* next dispatch<N>_mix number */
} RowCx;

#define R_INPUT "an input the kernel only reads"
#define R_UNIFORM "an input passed by value, the same for every sample"
#define R_OUT "written on every path before any read"
#define R_READ "the kernel reads it before writing it"
#define R_SOME                                                               \
    "no store to it runs on every path (each sits in an if, a dispatch "     \
    "case or a loop), so the plane keeps its prior value on the others"
#define R_NEVER "the kernel never writes it, so the plane keeps its prior value"
#define R_ONLY_READ                                                          \
    "the kernel reads it and never writes it, so the plane keeps its prior " \
    "value"
#define R_TAPE "a tape: one row is written per launch, the rest are kept"
#define R_WOUT "written at the sample's own position on every path"
#define R_WIDX                                                               \
    "written at a computed index: the positions written are replaced, the "  \
    "rest kept"
#define R_PART                                                               \
    "one partial per sample on its own column; nothing folds them, the "     \
    "caller reduces the plane"
#define R_AIDX "accumulated at a computed index: += into the prior value"
#define R_ZERO "the caller zeroes the plane first"
#define R_MASK "the guard's mask: a sample whose mask is set is skipped"
#define R_FINISH                                                             \
    "the finish mask: the kernel sets it for a sample that finishes"
#define R_FIN                                                                \
    "the kernel adds 1 (bump) for each finished sample; the caller zeroes "  \
    "it before the first call"
#define R_MIX                                                                \
    "one cell per dispatch case, incremented each time the case runs; the "  \
    "caller zeroes it before the first call"

/* Records instruction i (walk ordinal k) in the uses of its slot. */
static void note_use(Use *use, const HkInst *i, uint32_t k)
{
    Use *u = &use[i->slot];
    if (i->op == HK_OP_LOAD) {
        if (u->first_load == 0)
            u->first_load = k + 1;
        return;
    }
    if (i->op != HK_OP_STORE && i->op != HK_OP_ACCUM)
        return;
    if (u->first_write == 0)
        u->first_write = k + 1;
    if (i->has_index) {
        u->indexed = 1;
        return;
    }
    u->own = 1;
    /* The kernel body has no early exit: a store in it runs every time. */
    if (i->block != NULL && i->block->parent == NULL)
        u->own_every = 1;
}

/* The uses of every slot of kernel f, in one walk. */
static Use *collect_uses(HkArena *a, const HkFunc *f)
{
    Use *use = hk_alloc(a, (f->nslots ? f->nslots : 1) * sizeof *use);
    uint32_t k = 0;
    for (const HkInst *i = f->body.first; i != NULL;
         i = hk_preorder_next(i), k++)
        if (i->slot >= 0 && (uint32_t)i->slot < f->nslots)
            note_use(use, i, k);
    return use;
}

/* "()", "(3,)", "(3, 3)", "(?,)". */
static const char *shape_text(HkArena *a, HkType t)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_puts(&b, "(");
    for (unsigned d = 0; d < t.rank; d++) {
        if (d > 0)
            hk_buf_puts(&b, ", ");
        if (t.dim[d] == HK_DYN)
            hk_buf_puts(&b, "?");
        else
            hk_buf_printf(&b, "%u", t.dim[d]);
    }
    hk_buf_puts(&b, t.rank == 1 ? ",)" : ")");
    return hk_buf_cstr(&b);
}

/* Appends reason s to b, "; "-separated. */
static void add_reason(HkBuf *b, const char *s)
{
    if (b->len > 0)
        hk_buf_puts(b, "; ");
    hk_buf_puts(b, s);
}

/* The guard reason: "a masked sample keeps <what> (guard: <masks>)". */
static void add_guard(const RowCx *cx, HkBuf *b, const char *what)
{
    add_reason(b, hk_asprintf(cx->a, "a masked sample keeps %s (guard: %s)",
                              what, cx->masks));
}

/* Sets row's dir and init from the collected reasons: none means out. */
static void settle(HkInterfaceRow *row, HkBuf *why, const char *out_reason,
                   HkIfInit inout_init)
{
    if (why->len == 0) {
        row->dir = HK_DIR_OUT;
        row->init = HK_INIT_NO;
        row->reason = out_reason;
        return;
    }
    row->dir = HK_DIR_INOUT;
    row->init = inout_init;
    row->reason = hk_buf_cstr(why);
}

/* A mutable slot: out only when a store runs on every path, unread before. */
static void mutable_row(const RowCx *cx, const Use *u, HkInterfaceRow *row)
{
    HkBuf why;
    hk_buf_init(&why, cx->a);
    if (u->first_write == 0) {
        add_reason(&why, u->first_load != 0 ? R_ONLY_READ : R_NEVER);
        settle(row, &why, R_OUT, HK_INIT_YES);
        return;
    }
    if (u->first_load != 0 && u->first_load < u->first_write)
        add_reason(&why, R_READ);
    if (!u->own_every)
        add_reason(&why, R_SOME);
    if (cx->guarded)
        add_guard(cx, &why, "the prior value");
    settle(row, &why, R_OUT, HK_INIT_YES);
}

/* Why a written plane (wide_out, accum_out) keeps values the kernel does
 * not write: writes at a computed index (indexed_reason), no write at all,
 * own-column writes not on every path, a guard that skips a sample (which
 * keeps `kept`). */
static void kept_reasons(const RowCx *cx, const Use *u, HkBuf *why,
                         const char *indexed_reason, const char *kept)
{
    if (u->indexed)
        add_reason(why, indexed_reason);
    if (u->first_write == 0)
        add_reason(why, R_NEVER);
    else if (u->own && !u->own_every)
        add_reason(why, R_SOME);
    if (cx->guarded && u->own)
        add_guard(cx, why, kept);
}

/* A wide_out slot: own position, computed index, or both. */
static void wide_out_row(const RowCx *cx, const Use *u, HkInterfaceRow *row)
{
    HkBuf why;
    hk_buf_init(&why, cx->a);
    kept_reasons(cx, u, &why, R_WIDX, "the prior value");
    settle(row, &why, R_WOUT, HK_INIT_YES);
}

/* An accum_out slot: partials on the own column, or += at an index. */
static void accum_out_row(const RowCx *cx, const Use *u, HkInterfaceRow *row)
{
    if (u->indexed)
        row->layout = HK_IFL_FLAT;
    else if (u->own)
        row->layout = HK_IFL_PARTIALS;
    HkBuf why;
    hk_buf_init(&why, cx->a);
    kept_reasons(cx, u, &why, R_AIDX, "its own partial");
    if (why.len == 0) {
        settle(row, &why, R_PART, HK_INIT_NO);
        return;
    }
    row->dir = HK_DIR_INOUT;
    row->init = HK_INIT_ZEROED;
    row->reason = hk_asprintf(cx->a, "%s%s%s; " R_ZERO,
                              u->own ? R_PART : "", u->own ? "; " : "",
                              hk_buf_cstr(&why));
}

/* A terminated slot: the guard's mask, or the finish mask when stored. */
static void terminated_row(const RowCx *cx, const Use *u, HkInterfaceRow *row)
{
    row->init = HK_INIT_YES;
    if (u->first_write != 0) {
        row->dir = HK_DIR_INOUT;
        row->reason = R_FINISH;
        return;
    }
    row->dir = HK_DIR_IN;
    row->reason = cx->guarded
                      ? R_MASK
                      : hk_asprintf(cx->a,
                                    "a mask read as data: it gates nothing "
                                    "(guard = %s)",
                                    cx->f->guard == HK_GUARD_NONE
                                        ? "none"
                                        : "active_set");
}

/* Fills dir, init, reason (and a partials layout) of slot s's row. */
static void direction(RowCx *cx, uint32_t s, HkInterfaceRow *row)
{
    const Use *u = &cx->use[s];
    row->init = HK_INIT_YES;
    switch (cx->f->slots[s].role) {
    case HK_ROLE_PER_SAMPLE:
    case HK_ROLE_VEC_IN:
    case HK_ROLE_MAT_IN:
    case HK_ROLE_LOOKUP:
    case HK_ROLE_WIDE_IN:
        row->dir = HK_DIR_IN;
        row->reason = R_INPUT;
        return;
    case HK_ROLE_UNIFORM:
        row->dir = HK_DIR_IN;
        row->init = HK_INIT_BY_VALUE;
        row->reason = R_UNIFORM;
        return;
    case HK_ROLE_MUTABLE:
        mutable_row(cx, u, row);
        return;
    case HK_ROLE_OUT:
        row->dir = HK_DIR_INOUT;
        row->reason = R_TAPE;
        return;
    case HK_ROLE_WIDE_OUT:
        wide_out_row(cx, u, row);
        return;
    case HK_ROLE_ACCUM_OUT:
        accum_out_row(cx, u, row);
        return;
    case HK_ROLE_TERMINATED:
        terminated_row(cx, u, row);
        return;
    case HK_ROLE_FINISHED_COUNT:
    case HK_ROLE_MIX:
        row->dir = HK_DIR_INOUT;
        row->init = HK_INIT_ZEROED;
        row->reason = cx->f->slots[s].role == HK_ROLE_MIX ? R_MIX : R_FIN;
        return;
    case HK_ROLE_LOCAL:  /* no row: hk_pass_interface skips locals */
    case HK_ROLE_COUNT:
        break;
    }
    hk_unreachable();
}

/* The interface's layout of a role's. */
static HkIfLayout layout_of(HkLayout l)
{
    switch (l) {
    case HK_LAY_SOA: return HK_IFL_SOA;
    case HK_LAY_FLAT: return HK_IFL_FLAT;
    case HK_LAY_VALUE: return HK_IFL_VALUE;
    case HK_LAY_LOCAL: break;
    }
    hk_unreachable();
}

const char *hk_if_dir_name(HkIfDir d)
{
    static const char *const names[] = {"in", "out", "inout"};
    return (unsigned)d < 3u ? names[d] : "?";
}

const char *hk_if_layout_name(HkIfLayout l)
{
    static const char *const names[] = {"soa", "flat", "value", "partials"};
    return (unsigned)l < 4u ? names[l] : "?";
}

const char *hk_if_init_name(HkIfInit i)
{
    static const char *const names[] = {"yes", "no", "yes (zeroed)",
                                        "yes (by value)"};
    return (unsigned)i < 4u ? names[i] : "?";
}

/* prefix and the slot's name as a C identifier: a character C does not
 * take in one ('.' of a tangent slot "state.dot") becomes '_'. */
static const char *field_name(HkArena *a, const char *prefix, const char *name)
{
    char *f = hk_asprintf(a, "%s%s", prefix, name);
    for (char *p = f; *p != '\0'; p++) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                 (*p >= '0' && *p <= '9') || *p == '_';
        if (!ok)
            *p = '_';
    }
    return f;
}

/* The row of slot s, in declaration order. */
static void make_row(RowCx *cx, uint32_t s, HkInterfaceRow *row)
{
    const HkSlot *slot = &cx->f->slots[s];
    const HkRoleInfo *ri = &hk_roles[slot->role];
    row->slot = s;
    if (slot->role == HK_ROLE_MIX)
        row->field = hk_asprintf(cx->a, "%s%u_mix", ri->prefix,
                                 cx->mix_ordinal++);
    else
        row->field = field_name(cx->a, ri->prefix, slot->name);
    row->role = ri->name;
    row->dtype = hk_elem_name((HkElem)slot->type.elem);
    row->shape = shape_text(cx->a, slot->type);
    row->layout = hk_is_dyn(slot->type) ? HK_IFL_FLAT : layout_of(ri->layout);
    row->runtime_len = hk_is_dyn(slot->type)
                           ? hk_asprintf(cx->a, "%s_len", row->field)
                           : NULL;
    direction(cx, s, row);
}

/* The guard's mask fields into res and cx (guarded kernels only). */
static void fill_guard(RowCx *cx, HkInterfaceResult *res)
{
    const HkFunc *f = cx->f;
    res->guard = hk_alloc(cx->a, (f->nslots ? f->nslots : 1) *
                                     sizeof *res->guard);
    if (f->guard != HK_GUARD_DEFAULT)
        return;
    HkBuf b;
    hk_buf_init(&b, cx->a);
    for (uint32_t s = 0; s < f->nslots; s++) {
        if (f->slots[s].role != HK_ROLE_TERMINATED)
            continue;
        const char *field = field_name(
            cx->a, hk_roles[HK_ROLE_TERMINATED].prefix, f->slots[s].name);
        hk_buf_printf(&b, "%s%s", res->nguard ? ", " : "", field);
        res->guard[res->nguard++] = field;
    }
    cx->guarded = res->nguard > 0;
    cx->masks = hk_buf_cstr(&b);
}

/* Group of a row: writable planes 0, read-only planes 1, by value 2. */
static int group_of(const HkInterfaceRow *row)
{
    if (row->dir != HK_DIR_IN)
        return 0;
    return row->layout == HK_IFL_VALUE ? 2 : 1;
}

int hk_pass_interface(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkInterfaceResult *res = hk_alloc(a, sizeof *res);
    uint32_t n = f->nslots;
    RowCx cx = {a, f, NULL, 0, "", 0};
    fill_guard(&cx, res);
    res->rows = hk_alloc(a, (n ? n : 1) * sizeof *res->rows);
    if (!f->is_kernel) {
        hk_analysis_set(r, f, HK_PASS_INTERFACE, res);
        return 0;
    }
    cx.use = collect_uses(a, f);
    HkInterfaceRow *decl = hk_alloc(a, (n ? n : 1) * sizeof *decl);
    HkSymtab *fields = hk_symtab_new(a);
    uint32_t nd = 0;
    for (uint32_t s = 0; s < n; s++) {
        if (f->slots[s].role == HK_ROLE_LOCAL)
            continue;  /* kernel-local storage: no plane, no field */
        make_row(&cx, s, &decl[nd]);
        /* two slots one C field ("a.dot" and "a_dot"): the C unit could
         * not name both */
        const char *fd = decl[nd++].field;
        uint32_t other = hk_symtab_get(fields, fd, strlen(fd));
        if (other == UINT32_MAX) {
            hk_symtab_put(fields, fd, strlen(fd), s);
            continue;
        }
        hk_error(hk_run_diags(r), &f->module->src, f->slots[s].loc,
                 "'%s': slots '%%%s' and '%%%s' are both the C field '%s'; "
                 "rename one", f->name, f->slots[other].name,
                 f->slots[s].name, fd);
        return 1;
    }
    /* Stable by group: declaration order within each. */
    for (int g = 0; g < 3; g++)
        for (uint32_t s = 0; s < nd; s++)
            if (group_of(&decl[s]) == g)
                res->rows[res->nrows++] = decl[s];
    hk_analysis_set(r, f, HK_PASS_INTERFACE, res);
    return 0;
}

void hk_print_interface(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkInterfaceResult *res = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "interface @%s:\n", f->name);
    for (uint32_t k = 0; k < res->nrows; k++) {
        const HkInterfaceRow *w = &res->rows[k];
        hk_buf_printf(b, "  %s  %s  %s  %s  %s  %s  %s  %s  %s\n", w->field,
                      w->role, hk_if_dir_name(w->dir), w->dtype, w->shape,
                      hk_if_layout_name(w->layout),
                      w->runtime_len ? w->runtime_len : "-",
                      hk_if_init_name(w->init),
                      w->reason);
    }
    hk_buf_puts(b, "  guard: ");
    for (uint32_t k = 0; k < res->nguard; k++)
        hk_buf_printf(b, "%s%s", k ? ", " : "", res->guard[k]);
    hk_buf_puts(b, res->nguard ? "\n" : "none\n");
}
