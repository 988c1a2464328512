/* cse.c -- common subexpression elimination over structured regions.
 *
 * Two instructions are the same when they agree on op, result type,
 * operands, predicate, static indices, constant payload (bit for bit: NaN
 * payloads compared exactly, -0.0 differs from 0.0), slot and index form.
 * Candidates are the pure single-result ops and the reads (`load`,
 * `gather`) of slots the kernel can never write (read-only roles).
 *
 * The table is scoped: walking in program order, an instruction may reuse
 * one met earlier in its own region or in an enclosing one; entries made
 * inside a region are popped when it closes, so siblings (then/else, the
 * cases of a dispatch, consecutive loops) never see each other.  Uses of a
 * removed duplicate are rewritten through a value map as the same walk
 * reaches them: definitions precede uses in program order. */
#include <string.h>

#include "passes.h"
#include "uses.h"

typedef struct {
    HkInst *inst;
    uint32_t hash;
} Entry;

typedef struct {
    HkFunc *f;
    HkArena *a;
    Entry *log;         /* live entries in insertion order */
    uint32_t nlog, caplog;
    uint32_t *tab;      /* open addressing: log index + 1, 0 is empty */
    uint32_t cap;
    HkVal *repl;
    uint32_t nrepl;
} Cse;

static uint32_t mix(uint32_t h, uint64_t x)
{
    for (int k = 0; k < 8; k++) {
        h ^= (uint32_t)(x & 0xffu);
        h *= 16777619u;
        x >>= 8;
    }
    return h;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static uint32_t hash_inst(const HkInst *i)
{
    uint32_t h = 2166136261u;
    h = mix(h, (uint64_t)i->op);
    h = mix(h, (uint64_t)i->type.elem | (uint64_t)i->type.rank << 8);
    h = mix(h, (uint64_t)i->type.dim[0] | (uint64_t)i->type.dim[1] << 32);
    h = mix(h, (uint64_t)(uint32_t)i->slot);
    if (i->op == HK_OP_FCMP || i->op == HK_OP_ICMP)
        h = mix(h, (uint64_t)i->pred);
    for (uint32_t k = 0; k < i->nops; k++)
        h = mix(h, i->ops[k]);
    for (uint32_t k = 0; k < i->x->nimm && k < 2; k++)
        h = mix(h, (uint64_t)i->x->imm[k]);
    for (uint32_t k = 0; k < i->x->cst.n; k++) {
        if (i->x->cst.f != NULL)
            h = mix(h, double_bits(i->x->cst.f[k]));
        if (i->x->cst.i != NULL)
            h = mix(h, (uint64_t)i->x->cst.i[k]);
    }
    return h;
}

static int same_const(const HkConst *x, const HkConst *y)
{
    if (x->n != y->n || (x->f == NULL) != (y->f == NULL) ||
        (x->i == NULL) != (y->i == NULL))
        return 0;
    for (uint32_t k = 0; k < x->n; k++) {
        if (x->f != NULL && double_bits(x->f[k]) != double_bits(y->f[k]))
            return 0;
        if (x->i != NULL && x->i[k] != y->i[k])
            return 0;
    }
    return 1;
}

static int same_inst(const HkInst *x, const HkInst *y)
{
    if (x->op != y->op || !hk_type_eq(x->type, y->type) ||
        x->nops != y->nops || x->slot != y->slot ||
        x->has_index != y->has_index || x->x->nimm != y->x->nimm)
        return 0;
    if ((x->op == HK_OP_FCMP || x->op == HK_OP_ICMP) && x->pred != y->pred)
        return 0;
    for (uint32_t k = 0; k < x->nops; k++)
        if (x->ops[k] != y->ops[k])
            return 0;
    for (uint32_t k = 0; k < x->x->nimm && k < 2; k++)
        if (x->x->imm[k] != y->x->imm[k])
            return 0;
    return (x->op != HK_OP_CONST && x->op != HK_OP_TABLE) ||
           same_const(&x->x->cst, &y->x->cst);
}

/* The table slot holding an instruction equal to i, or the empty slot. */
static uint32_t *find(const Cse *s, const HkInst *i, uint32_t h)
{
    uint32_t mask = s->cap - 1;
    for (uint32_t p = h & mask;; p = (p + 1) & mask) {
        uint32_t e = s->tab[p];
        if (e == 0)
            return &s->tab[p];
        const Entry *en = &s->log[e - 1];
        if (en->hash == h && same_inst(en->inst, i))
            return &s->tab[p];
    }
}

/* Rebuilds the table twice as large, inserting in log order so that
 * popping the newest entry by emptying its slot stays exact. */
static void grow(Cse *s)
{
    s->cap = s->cap ? s->cap * 2 : 64;
    s->tab = hk_alloc(s->a, s->cap * sizeof *s->tab);
    for (uint32_t k = 0; k < s->nlog; k++)
        *find(s, s->log[k].inst, s->log[k].hash) = k + 1;
}

static void insert(Cse *s, HkInst *i, uint32_t h, uint32_t *slot)
{
    s->log = hk_grow(s->a, s->log, &s->caplog, s->nlog + 1, sizeof *s->log);
    s->log[s->nlog].inst = i;
    s->log[s->nlog].hash = h;
    s->nlog++;
    if (s->nlog * 2 > s->cap) {
        grow(s);
        return;
    }
    *slot = s->nlog;
}

/* Pops entries back to the first mark ones.  With linear probing,
 * emptying the newest entry's slot restores the table exactly: no older
 * entry's probe ever passed over it, since it was empty when they went in. */
static void pop_to(Cse *s, uint32_t mark)
{
    while (s->nlog > mark) {
        Entry *e = &s->log[s->nlog - 1];
        *find(s, e->inst, e->hash) = 0;
        s->nlog--;
    }
}

static int candidate(const HkFunc *f, const HkInst *i)
{
    if (i->nres != 1)
        return 0;
    if (i->op == HK_OP_LOAD || i->op == HK_OP_GATHER)
        return i->slot >= 0 && (uint32_t)i->slot < f->nslots &&
               hk_roles[f->slots[i->slot].role].access == HK_ACC_R;
    unsigned fl = hk_ops[i->op].flags;
    return (fl & HK_F_PURE) != 0 && (fl & HK_F_REGION) == 0;
}

/* Merges i into an equal earlier instruction; returns 1 when i is gone. */
static int merge(Cse *s, HkInst *i)
{
    if (!candidate(s->f, i))
        return 0;
    uint32_t h = hash_inst(i);
    uint32_t *slot = find(s, i, h);
    if (*slot == 0) {
        insert(s, i, h, slot);
        return 0;
    }
    s->repl[hk_res(i)[0]] = hk_res(s->log[*slot - 1].inst)[0];
    hk_inst_remove(i);
    return 1;
}

static void cse_block(Cse *s, HkBlock *b)
{
    HkInst *next;
    for (HkInst *i = b->first; i; i = next) {
        next = i->next;
        for (uint32_t k = 0; k < i->nops; k++)
            i->ops[k] = hk_valmap_get(s->repl, s->nrepl, i->ops[k]);
        if (merge(s, i))
            continue;
        for (uint32_t r = 0; r < i->x->nregions; r++) {
            uint32_t mark = s->nlog;
            cse_block(s, &i->x->regions[r]);
            pop_to(s, mark);
        }
    }
}

int hk_pass_cse(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    Cse s = {0};
    s.f = f;
    s.a = f->module->arena;
    s.nrepl = f->nvalues;
    s.repl = hk_valmap_new(f, s.nrepl);
    grow(&s);
    cse_block(&s, &f->body);
    return 0;
}
