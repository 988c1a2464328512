/* branch-fold.c -- branches whose condition is known.
 *
 * A condition is known where it is an `i1` constant, and after a
 * `break_if %c` that did not leave: for the rest of its block (nested
 * regions included) %c is false, since the loop would have left
 * otherwise.  Inside `if %c`, %c is true in the then-region and false in
 * the else-region.  A loop-carried value that enters with a known value
 * and is yielded back unchanged (or as a value known the same) keeps it
 * on every trip, and the loop's result with it: inside the `else` of
 * `if %c`, `loop ... iter(%k = %c) { break_if %k ... yield ..., %k }`
 * never leaves by its break_if.  Then:
 *
 *   if %c        the region taken replaces the `if`, its yielded values
 *                the `if`'s results;
 *   select %c    the operand taken replaces the result;
 *   break_if %c  removed when %c is known false.
 *
 * The C unit would otherwise test a condition whose value is fixed
 * (MISRA C:2012 Rule 14.3; cppcheck's identicalConditionAfterEarlyExit).
 * Facts live in one array by value with an undo list per block, and
 * replaced values go through one value map rewritten in a single sweep at
 * the end, so the pass is linear in the size of the function. */
#include "passes.h"
#include "uses.h"

enum { UNKNOWN = 0, KNOWN_FALSE = 1, KNOWN_TRUE = 2 };

typedef struct {
    HkFunc *f;
    uint8_t *known;         /* by value: UNKNOWN, KNOWN_FALSE, KNOWN_TRUE */
    HkVal *undo;            /* values whose fact a block set */
    uint32_t nundo, capundo;
    HkVal *map;             /* replaced values (hk_remap_uses) */
    uint32_t nmap;
} Fold;

static HkVal resolve(const Fold *s, HkVal v)
{
    return hk_valmap_get(s->map, s->nmap, v);
}

/* What is known of condition v: a scalar i1 constant, or a fact. */
static int fact_of(const Fold *s, HkVal v)
{
    v = resolve(s, v);
    const HkValue *x = hk_value(s->f, v);
    if (x->type.rank == 0 && x->kind == HK_DEF_INST &&
        x->def->op == HK_OP_CONST && x->def->x->cst.n >= 1 &&
        x->def->x->cst.i != NULL)
        return x->def->x->cst.i[0] != 0 ? KNOWN_TRUE : KNOWN_FALSE;
    return s->known[v];
}

/* Records that v is (for the rest of the block) fact. */
static void learn(Fold *s, HkVal v, int fact)
{
    v = resolve(s, v);
    if (s->known[v] != UNKNOWN)
        return;
    s->known[v] = (uint8_t)fact;
    s->undo = hk_grow(s->f->module->arena, s->undo, &s->capundo,
                      s->nundo + 1, sizeof *s->undo);
    s->undo[s->nundo++] = v;
}

/* Forgets what was learned since mark. */
static void forget_to(Fold *s, uint32_t mark)
{
    while (s->nundo > mark)
        s->known[s->undo[--s->nundo]] = UNKNOWN;
}

static void fold_block(Fold *s, HkBlock *b);

/* Folds region r of region op i under the fact that its condition c is
 * fact (UNKNOWN: nothing more known). */
static void fold_region(Fold *s, HkBlock *r, HkVal c, int fact)
{
    uint32_t mark = s->nundo;
    if (fact != UNKNOWN)
        learn(s, c, fact);
    fold_block(s, r);
    forget_to(s, mark);
}

/* Replaces `if` i by region r: its instructions before i, its yielded
 * values for i's results. */
static void take_region(Fold *s, HkInst *i, HkBlock *r)
{
    const HkInst *y = r != NULL ? hk_block_yield(r) : NULL;
    for (uint32_t k = 0; k < i->nres; k++)
        s->map[hk_res(i)[k]] =
            y != NULL && k < y->nops ? resolve(s, y->ops[k]) : HK_NOVAL;
    for (HkInst *j = r != NULL ? r->first : NULL, *next; j; j = next) {
        next = j->next;
        if (j->op == HK_OP_YIELD)
            continue;
        hk_inst_remove(j);
        hk_insert_before(i, j);
    }
    hk_inst_remove(i);
}

static void fold_if(Fold *s, HkInst *i)
{
    HkVal c = i->ops[0];
    int fact = fact_of(s, c);
    HkBlock *then_r = &i->x->regions[0];
    HkBlock *else_r = i->x->nregions > 1 ? &i->x->regions[1] : NULL;
    if (fact == UNKNOWN) {
        fold_region(s, then_r, c, KNOWN_TRUE);
        if (else_r != NULL)
            fold_region(s, else_r, c, KNOWN_FALSE);
        return;
    }
    HkBlock *taken = fact == KNOWN_TRUE ? then_r : else_r;
    if (taken != NULL)
        fold_region(s, taken, c, UNKNOWN);
    take_region(s, i, taken);
}

/* Folds loop i knowing each carried value that keeps its entry fact on
 * every trip; the loop's result for it is known after the loop (in the
 * enclosing block, which forgets it at its end). */
static void fold_loop(Fold *s, HkInst *i)
{
    HkBlock *body = &i->x->regions[0];
    const HkInst *y = hk_block_yield(body);
    uint32_t first = i->x->has_count ? 1u : 0u, mark = s->nundo;
    uint8_t *kept = hk_alloc(s->f->module->arena, i->nres + 1u);
    for (uint32_t k = 0; k < i->nres && y != NULL && k < y->nops; k++) {
        int fact = fact_of(s, i->ops[first + k]);
        HkVal back = resolve(s, y->ops[k]);
        if (fact == UNKNOWN ||
            (back != resolve(s, i->x->iters[k]) && fact_of(s, back) != fact))
            continue;
        kept[k] = (uint8_t)fact;
        learn(s, i->x->iters[k], fact);
    }
    fold_block(s, body);
    forget_to(s, mark);
    for (uint32_t k = 0; k < i->nres; k++)
        if (kept[k] != UNKNOWN)
            learn(s, hk_res(i)[k], kept[k]);
}

static void fold_block(Fold *s, HkBlock *b)
{
    uint32_t mark = s->nundo;
    for (HkInst *i = b->first, *next; i; i = next) {
        next = i->next;
        int fact = i->nops > 0 ? fact_of(s, i->ops[0]) : UNKNOWN;
        if (i->op == HK_OP_IF) {
            fold_if(s, i);
        } else if (i->op == HK_OP_LOOP) {
            fold_loop(s, i);
        } else if (i->op == HK_OP_SELECT && fact != UNKNOWN) {
            s->map[hk_res(i)[0]] =
                resolve(s, i->ops[fact == KNOWN_TRUE ? 1 : 2]);
            hk_inst_remove(i);
        } else if (i->op == HK_OP_BREAK_IF) {
            if (fact == KNOWN_FALSE)
                hk_inst_remove(i);
            else if (fact == UNKNOWN)
                learn(s, i->ops[0], KNOWN_FALSE); /* it did not leave */
        } else {
            for (uint32_t r = 0; r < i->x->nregions; r++)
                fold_region(s, &i->x->regions[r], HK_NOVAL, UNKNOWN);
        }
    }
    forget_to(s, mark);
}

int hk_pass_branch_fold(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    HkArena *a = f->module->arena;
    Fold s = {f, hk_alloc(a, f->nvalues + 1u), NULL, 0, 0,
              hk_valmap_new(f, f->nvalues), f->nvalues};
    fold_block(&s, &f->body);
    hk_remap_uses(f, s.map, s.nmap);
    return 0;
}
