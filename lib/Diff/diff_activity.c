/* diff_activity.c -- which slots and values a differentiation follows
 * (jvp, vjp): the active slots, from the options or by role, and the
 * values that may depend on an active input, found to a fixed point over
 * loops' trips before anything changes.  docs/Passes.md, "jvp". */
#include <math.h>
#include <string.h>

#include "diff.h"

/* ---- facts that flow through control flow ------------------------------ */

/* A fact of values (may depend on an active input; may be wild) that a
 * value has when a value it comes from has it: from a loop's inits and
 * its yields into its carried values and from those into its results,
 * from the yields of an if's or a dispatch's regions into its results.
 * Each fact decides the rest instruction by instruction (leaf). */
typedef struct Fact Fact;
struct Fact {
    uint8_t *on;             /* value -> has it */
    int real_only;           /* held by real values alone */
    int (*leaf)(Diff *s, const Fact *f, const HkInst *i);
};

/* Gives v the fact; whether it did not have it. */
static int set(Diff *s, const Fact *f, HkVal v)
{
    if (f->on[v] || (f->real_only && !hk_diff_is_real(hk_diff_type(s, v))))
        return 0;
    f->on[v] = 1;
    return 1;
}

static int flow_block(Diff *s, const Fact *f, const HkBlock *b);

/* vals[k] has the fact when some region's yield k has it. */
static int flow_yields(Diff *s, const Fact *f, const HkInst *i,
                       const HkVal *vals)
{
    int ch = 0;
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        const HkInst *y = hk_block_yield(&i->x->regions[r]);
        for (uint32_t k = 0; y != NULL && k < y->nops && k < i->nres; k++)
            if (f->on[y->ops[k]])
                ch |= set(s, f, vals[k]);
    }
    return ch;
}

/* One step of the fact over i's results; whether anything changed. */
static int flow_inst(Diff *s, const Fact *f, const HkInst *i)
{
    int ch = 0;
    switch (i->op) {
    case HK_OP_LOOP: {
        uint32_t first = i->x->has_count ? 1u : 0u;
        for (uint32_t k = 0; k < i->nres; k++)
            if (f->on[i->ops[first + k]])
                ch |= set(s, f, i->x->iters[k]);
        ch |= flow_block(s, f, &i->x->regions[0]);
        ch |= flow_yields(s, f, i, i->x->iters);
        for (uint32_t k = 0; k < i->nres; k++)
            if (f->on[i->x->iters[k]])
                ch |= set(s, f, hk_res(i)[k]);
        return ch;
    }
    case HK_OP_IF:
    case HK_OP_DISPATCH:
        for (uint32_t r = 0; r < i->x->nregions; r++)
            ch |= flow_block(s, f, &i->x->regions[r]);
        return ch | flow_yields(s, f, i, hk_res(i));
    default:
        return f->leaf(s, f, i);
    }
}

static int flow_block(Diff *s, const Fact *f, const HkBlock *b)
{
    int ch = 0;
    for (const HkInst *i = b->first; i != NULL; i = i->next)
        ch |= flow_inst(s, f, i);
    return ch;
}

/* ---- which values may carry a derivative -------------------------------- */

int hk_diff_any_active(const Diff *s, const HkInst *i, uint32_t from)
{
    for (uint32_t k = from; k < i->nops; k++)
        if (s->act[i->ops[k]])
            return 1;
    return 0;
}

/* The activity of an instruction without regions. */
static int act_leaf(Diff *s, const Fact *f, const HkInst *i)
{
    int ch = 0;
    switch (i->op) {
    case HK_OP_LOAD:
    case HK_OP_GATHER:
        return i->slot >= 0 && s->in[i->slot] ? set(s, f, hk_res(i)[0]) : 0;
    case HK_OP_CALL:
        for (uint32_t k = 0; k < i->nres && hk_diff_any_active(s, i, 0); k++)
            ch |= set(s, f, hk_res(i)[k]);
        return ch;
    case HK_OP_CONST:
    case HK_OP_TABLE:
    case HK_OP_SITOFP:
    case HK_OP_UITOFP:
    case HK_OP_RANDOM:
    case HK_OP_FLOOR:
    case HK_OP_CEIL:
        return 0;
    default:
        if (i->nres == 1 && hk_diff_any_active(s, i, 0))
            return set(s, f, hk_res(i)[0]);
        return 0;
    }
}

int hk_diff_act_block(Diff *s, const HkBlock *b)
{
    const Fact f = {s->act, 1, act_leaf};
    return flow_block(s, &f, b);
}

/* ---- which values may be wild --------------------------------------------- */

int hk_diff_wild_op(HkOp op)
{
    switch (op) {
    case HK_OP_FDIV:
    case HK_OP_LOG:
    case HK_OP_LOG2:
    case HK_OP_LOG10:
    case HK_OP_LOG1P:
    case HK_OP_SQRT:
    case HK_OP_RSQRT:
    case HK_OP_POW:
    case HK_OP_EXP:
    case HK_OP_EXPM1:
    case HK_OP_SINH:
    case HK_OP_COSH:
    case HK_OP_TAN:
    case HK_OP_ASIN:
    case HK_OP_ACOS:
    case HK_OP_ACOSH:
    case HK_OP_ATANH:
        return 1;
    default:
        return 0;
    }
}

/* Whether constant i has a component that is infinite or NaN. */
static int wild_const(const HkInst *i)
{
    for (uint32_t k = 0; i->x->cst.f != NULL && k < i->x->cst.n; k++)
        if (!isfinite(i->x->cst.f[k]))
            return 1;
    return 0;
}

/* The wildness of an instruction without regions. */
static int wild_leaf(Diff *s, const Fact *f, const HkInst *i)
{
    int ch = 0;
    switch (i->op) {
    case HK_OP_CONST:
        return i->nres == 1 && wild_const(i) ? set(s, f, hk_res(i)[0]) : 0;
    case HK_OP_CALL:  /* what the callee computes is not followed */
        for (uint32_t k = 0; k < i->nres; k++)
            ch |= set(s, f, hk_res(i)[k]);
        return ch;
    default:
        /* an input is taken as finite: a load, a gather, a draw */
        if (i->nres != 1)
            return 0;
        if (hk_diff_wild_op(i->op))
            return set(s, f, hk_res(i)[0]);
        for (uint32_t k = 0; k < i->nops; k++)
            if (s->wild[i->ops[k]])
                return set(s, f, hk_res(i)[0]);
        return 0;
    }
}

int hk_diff_wild_block(Diff *s, const HkBlock *b)
{
    const Fact f = {s->wild, 0, wild_leaf};
    return flow_block(s, &f, b);
}


/* ---- activity ------------------------------------------------------------ */

/* Whether a slot of role r is read per sample or by value. */
static int readable(HkRole role)
{
    return role == HK_ROLE_PER_SAMPLE || role == HK_ROLE_VEC_IN ||
           role == HK_ROLE_MAT_IN || role == HK_ROLE_UNIFORM ||
           role == HK_ROLE_MUTABLE;
}

int hk_diff_input_role(const Diff *s, HkRole role)
{
    return readable(role) || ((s->roles & (1u << role)) != 0 &&
                              (hk_roles[role].access & HK_ACC_R) != 0);
}

int hk_diff_output_role(const Diff *s, HkRole role)
{
    return role == HK_ROLE_MUTABLE || ((s->roles & (1u << role)) != 0 &&
                                       (hk_roles[role].access & HK_ACC_W) != 0);
}

/* "output (mutable, out, ...)": the roles a list may name, in roles.def's
 * order. */
static const char *role_list(const Diff *s, int output)
{
    HkBuf b;
    hk_buf_init(&b, s->a);
    hk_buf_printf(&b, "%s (", output ? "output" : "input");
    for (uint32_t r = 0; r < HK_ROLE_COUNT; r++) {
        int ok = output ? hk_diff_output_role(s, (HkRole)r)
                        : hk_diff_input_role(s, (HkRole)r);
        if (ok)
            hk_buf_printf(&b, "%s%s", b.len > 8 ? ", " : "", hk_roles[r].name);
    }
    hk_buf_printf(&b, ")");
    return hk_buf_cstr(&b);
}

/* " (did you mean 'a'?)" for the slot a of the kernel nearest name. */
static const char *slot_near(const Diff *s, const char *name)
{
    const char **names = hk_alloc(s->a, (s->f->nslots + 1u) * sizeof *names);
    for (uint32_t k = 0; k < s->f->nslots; k++)
        names[k] = s->f->slots[k].name;
    return hk_did_you_mean(s->a, name, strlen(name), names, s->f->nslots);
}

/* Marks the slots a list ("a:b") names in mark; -1 after a diagnostic. */
static int mark_list(Diff *s, const char *list, const char *key, uint8_t *mark,
                     int output)
{
    const char *p = list;
    while (*p != '\0') {
        const char *e = strchr(p, ':');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
        uint32_t id = hk_names_get(hk_func_syms(s->f), p, n);
        const char *name = hk_strndup(s->a, p, n);
        if (id == UINT32_MAX || !(id & HK_SYM_SLOT)) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, s->f->loc,
                     "'%s': %s{%s=...} names '%s', which is not a slot of "
                     "the kernel%s", s->f->name, s->pass, key, name,
                     slot_near(s, name));
            return -1;
        }
        const HkSlot *sl = &s->f->slots[id & ~HK_SYM_SLOT];
        int ok = hk_diff_is_real(sl->type) &&
                 (output ? hk_diff_output_role(s, sl->role)
                         : hk_diff_input_role(s, sl->role));
        if (!ok) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, sl->loc,
                     "'%s': %s{%s=...} names slot '%s', which is not a real "
                     "%s slot (%s)", s->f->name, s->pass, key, name,
                     role_list(s, output), hk_roles[sl->role].name);
            return -1;
        }
        mark[id & ~HK_SYM_SLOT] = 1;
        p += n;
        if (*p == ':')
            p++;
    }
    return 0;
}

/* The slots the kernel stores into, marked in a table of its slots. */
static uint8_t *stored_slots(const Diff *s)
{
    uint8_t *st = hk_alloc(s->a, s->f->nslots + 1u);
    for (const HkInst *i = s->f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == HK_OP_STORE && i->slot >= 0)
            st[i->slot] = 1;
    return st;
}

/* The active slots: the options' lists, else every real input and
 * output; the real slots of other roles refuse (not yet differentiated)
 * unless the lists leave them out. */
int hk_diff_slots(Diff *s)
{
    uint32_t n = s->f->nslots;
    const char *wrt = hk_option(s->r, "wrt", NULL);
    const char *of = hk_option(s->r, "of", NULL);
    uint8_t *stored = NULL;
    if (wrt != NULL && mark_list(s, wrt, "wrt", s->in, 0) != 0)
        return -1;
    if (of != NULL && mark_list(s, of, "of", s->out, 1) != 0)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        const HkSlot *sl = &s->f->slots[k];
        if (!hk_diff_is_real(sl->type))
            continue;
        if (sl->role == HK_ROLE_LOCAL) {
            /* jvp: a tangent local beside it, each store storing the
             * tangent at the same row, each load loading it; vjp: a
             * cotangent local, for a local the kernel stores into (one
             * it never stores holds zeros) */
            if (stored == NULL)
                stored = stored_slots(s);
            if (s->pass[0] == 'j' || stored[k])
                s->in[k] = s->out[k] = 1;
            continue;
        }
        if (wrt == NULL && hk_diff_input_role(s, sl->role))
            s->in[k] = 1;
        if (of == NULL && hk_diff_output_role(s, sl->role))
            s->out[k] = 1;
        unsigned acc = hk_roles[sl->role].access;
        int in_unread = (acc & HK_ACC_R) && !hk_diff_input_role(s, sl->role) && wrt == NULL;
        int out_unwritten =
            (acc & HK_ACC_W) && !hk_diff_output_role(s, sl->role) && of == NULL;
        if (out_unwritten && sl->role == HK_ROLE_WIDE_OUT && s->pass[0] == 'v') {
            hk_error(hk_run_diags(s->r), &s->f->module->src, sl->loc,
                     "'%s': vjp does not differentiate a wide_out slot ('%s'): "
                     "a shared cell keeps the store of whichever sample the "
                     "launch ran last, not a function of one sample's inputs; "
                     "name the active slots with vjp{wrt=...,of=...}",
                     s->f->name, sl->name);
            return -1;
        }
        if (in_unread || out_unwritten) {
            hk_error(hk_run_diags(s->r), &s->f->module->src, sl->loc,
                     "'%s': %s does not differentiate a real %s slot ('%s') "
                     "yet; name the active slots with %s{wrt=...,of=...}",
                     s->f->name, s->pass, hk_roles[sl->role].name, sl->name,
                     s->pass);
            return -1;
        }
    }
    return 0;
}

