/* dce.c -- dead code elimination.
 *
 * Removes every instruction whose results are all unused and that has no
 * effect: pure ops, reads (`load`, `gather`), and `loop`/`if` regions whose
 * bodies hold no effect.  Use counts are computed once; removing an
 * instruction decrements its operands' counts (for a region, those of
 * everything inside it) and queues each definition whose results all fall
 * to zero uses, so the whole pass is linear in the function's size.
 *
 * A store into a local that no load reads goes too (dead_local_stores).
 *
 * Effects: every HK_F_SIDE op (store, accum, bump, dispatch, random,
 * raw_device, lane ops), except `break_if`, which only leaves its own loop;
 * also `call` (run inline first) and `at` (kept so feature-refusal still
 * sees a refused read). */
#include "passes.h"
#include "uses.h"

typedef struct {
    HkFunc *f;
    uint32_t *uses;
    uint8_t *effectful;     /* by serial: region ops with an effect inside */
    uint32_t nserials;
    uint32_t floor;         /* instructions of lower serials stay */
    HkInst **work;
    uint32_t nwork, capwork;
} Dce;

/* Whether op i itself (not its regions) must stay whatever its uses. */
static int own_effect(const HkInst *i)
{
    switch (i->op) {
    case HK_OP_BREAK_IF:
        return 0;
    case HK_OP_CALL:
    case HK_OP_AT:
        return 1;
    default:
        return (hk_ops[i->op].flags & (HK_F_SIDE | HK_F_TERM)) != 0;
    }
}

/* Whether i may be removed at all once its results are unused. */
static int removable_kind(const HkInst *i)
{
    if (i->op == HK_OP_LOAD || i->op == HK_OP_GATHER || i->op == HK_OP_LOOP ||
        i->op == HK_OP_IF)
        return 1;
    unsigned fl = hk_ops[i->op].flags;
    return (fl & HK_F_PURE) != 0 && (fl & HK_F_REGION) == 0;
}

static int all_unused(const Dce *s, const HkInst *i)
{
    for (uint32_t k = 0; k < i->nres; k++)
        if (s->uses[hk_res(i)[k]] != 0)
            return 0;
    return 1;
}

static int is_dead(const Dce *s, const HkInst *i)
{
    if (!removable_kind(i) || own_effect(i) || i->serial < s->floor)
        return 0;
    /* A serial out of range (never in IR built by hk_inst_new) is kept. */
    if (i->x->nregions != 0 &&
        (i->serial >= s->nserials || s->effectful[i->serial]))
        return 0;
    return all_unused(s, i);
}

static void push(Dce *s, HkInst *i)
{
    s->work = hk_grow(s->f->module->arena, s->work, &s->capwork,
                      s->nwork + 1, sizeof *s->work);
    s->work[s->nwork++] = i;
}

/* Records which region ops hold an effect and queues the instructions
 * dead from the start; returns whether b holds an effect. */
static int scan(Dce *s, HkBlock *b)
{
    int any = 0;
    for (HkInst *i = b->first; i; i = i->next) {
        int eff = own_effect(i) && i->op != HK_OP_YIELD;
        int inner = 0;
        for (uint32_t r = 0; r < i->x->nregions; r++)
            inner |= scan(s, &i->x->regions[r]);
        if (i->serial < s->nserials)
            s->effectful[i->serial] = (uint8_t)inner;
        any |= eff | inner;
        if (is_dead(s, i))
            push(s, i);
    }
    return any;
}

/* One use of v is gone; queue its definition when it became dead. */
static void drop_use(Dce *s, HkVal v)
{
    if (--s->uses[v] != 0)
        return;
    const HkValue *val = hk_value(s->f, v);
    if (val->kind != HK_DEF_INST || val->def->block == NULL)
        return;
    /* Only the last result to fall to zero queues a multi-result op. */
    if (is_dead(s, val->def))
        push(s, val->def);
}

/* Drops the uses of everything inside b, marking each instruction gone
 * (block NULL) before its users so none is queued. */
static void drop_block(Dce *s, HkBlock *b)
{
    for (HkInst *i = b->first; i; i = i->next) {
        i->block = NULL;
        for (uint32_t k = 0; k < i->nops; k++)
            drop_use(s, i->ops[k]);
        for (uint32_t r = 0; r < i->x->nregions; r++)
            drop_block(s, &i->x->regions[r]);
    }
}

static void remove_dead(Dce *s, HkInst *i)
{
    hk_inst_remove(i);
    for (uint32_t k = 0; k < i->nops; k++)
        drop_use(s, i->ops[k]);
    for (uint32_t r = 0; r < i->x->nregions; r++)
        drop_block(s, &i->x->regions[r]);
}

static void drain(Dce *s)
{
    while (s->nwork != 0) {
        HkInst *i = s->work[--s->nwork];
        /* An instruction inside a region removed meanwhile is gone. */
        if (i->block != NULL)
            remove_dead(s, i);
    }
}

/* A store into a local that no load reads is dead (LangRef "Locals": the
 * rows are the sample's own, and go when it ends).  Once the dead loads
 * are gone: removing a store makes no load dead, so one round does. */
static void dead_local_stores(Dce *s)
{
    HkFunc *f = s->f;
    uint8_t *read = hk_alloc(f->module->arena, f->nslots + 1u);
    int any = 0;
    for (uint32_t k = 0; k < f->nslots; k++)
        any |= f->slots[k].role == HK_ROLE_LOCAL;
    if (!any)
        return;
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == HK_OP_LOAD && i->slot >= 0 && (uint32_t)i->slot < f->nslots)
            read[i->slot] = 1;
    HkInst *next;
    for (HkInst *i = f->body.first; i != NULL; i = next) {
        next = hk_preorder_next(i);
        if (i->op != HK_OP_STORE || i->slot < 0 || (uint32_t)i->slot >= f->nslots ||
            f->slots[i->slot].role != HK_ROLE_LOCAL || read[i->slot] ||
            i->serial < s->floor)
            continue;
        hk_inst_remove(i);
        for (uint32_t k = 0; k < i->nops; k++)
            drop_use(s, i->ops[k]);
    }
}

void hk_dce_from(HkFunc *f, uint32_t floor)
{
    Dce s = {f, hk_use_counts(f), hk_alloc(f->module->arena, f->nserials + 1u),
             f->nserials, floor, NULL, 0, 0};
    scan(&s, &f->body);
    drain(&s);
    dead_local_stores(&s);
    drain(&s);
}

int hk_pass_dce(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    hk_dce_from(f, 0);
    return 0;
}
