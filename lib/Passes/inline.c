/* inline.c -- the inline pass: every `call @g(args)` becomes a copy of g's
 * body, with g's parameters bound to the arguments and the call's results
 * replaced by the operands of g's `ret`.
 *
 * Calls inside the copied body are expanded while copying (recursively), so
 * one visit of the function flattens every level.  Copied values are named
 * "<callee>.<name>", with the callee path for nested calls ("g.h.x"), the
 * same names whichever order the functions are visited in.  Uses of the
 * removed calls' results are rewritten by one sweep over the function at
 * the end, through a map indexed by value. */
#include <string.h>

#include "passes.h"
#include "uses.h"

/* Calls nested deeper than this are refused (recursion is the verifier's
 * error already; this keeps a malformed module from running away). */
enum { MAX_DEPTH = HK_CALL_DEPTH_MAX };

typedef struct {
    HawkPassRun *run;
    HkFunc *f;                      /* the function being flattened */
    const HkFunc *stack[MAX_DEPTH]; /* f, then the callees being copied */
    uint32_t depth;
    const HkLoc *loc;               /* where every copy is located, or NULL
                                       to keep the callee's locations */
} Inliner;

/* One callee body being copied: its values map to values of s->f. */
typedef struct {
    const HkFunc *g;
    HkVal *map;                     /* indexed by g's HkVal */
    const char *prefix;             /* "g." or "g.h." */
} Copy;

/* Where copies go: before `before`, or at the end of `block`. */
typedef struct {
    HkBlock *block;
    HkInst *before;
} Cursor;

static int expand(Inliner *s, const HkInst *call, const HkFunc *g,
                  const HkVal *args, const char *prefix, Cursor at,
                  HkVal *out);

static void place(Cursor at, HkInst *i)
{
    if (at.before != NULL)
        hk_insert_before(at.before, i);
    else
        hk_block_append(at.block, i);
}

/* The copy's value for callee value v (never unmapped in verified IR). */
static HkVal mapped(const Copy *c, HkVal v)
{
    return c->map[v];
}

/* A new value of s->f for callee value v, named prefix + its name. */
static HkVal copy_value(Inliner *s, const Copy *c, HkVal v, HkDefKind k,
                        HkInst *def, uint32_t index)
{
    const HkValue *src = hk_value(c->g, v);
    const char *name = hk_asprintf(s->f->module->arena, "%s%s", c->prefix,
                                   src->name);
    HkVal nv = hk_value_new(s->f, src->type, name, k, def, index,
                            s->loc != NULL ? *s->loc : src->loc);
    c->map[v] = nv;
    return nv;
}

static int copy_block(Inliner *s, Copy *c, const HkBlock *b, Cursor at,
                      HkVal *out);

/* Copies the non-call, non-ret instruction i at `at`. */
static int copy_inst(Inliner *s, Copy *c, const HkInst *i, Cursor at)
{
    HkFunc *f = s->f;
    HkArena *a = f->module->arena;
    HkInst *n = hk_inst_copy_shell(a, i, f->nserials++);
    if (s->loc != NULL)
        n->loc = *s->loc;
    n->nops = i->nops;
    n->ops = hk_alloc(a, (i->nops + 1u) * sizeof *n->ops);
    for (uint32_t k = 0; k < i->nops; k++)
        n->ops[k] = mapped(c, i->ops[k]);
    hk_inst_size_res(a, n, i->nres);
    for (uint32_t k = 0; k < i->nres; k++)
        hk_res(n)[k] = copy_value(s, c, hk_res(i)[k], HK_DEF_INST, n, k);
    if (i->x->ivar != HK_NOVAL)
        n->x->ivar = copy_value(s, c, i->x->ivar, HK_DEF_IVAR, n, 0);
    if (i->x->iters != NULL) {
        n->x->iters = hk_alloc(a, (i->nres + 1u) * sizeof *n->x->iters);
        for (uint32_t k = 0; k < i->nres; k++)
            n->x->iters[k] = copy_value(s, c, i->x->iters[k], HK_DEF_ITER, n, k);
    }
    place(at, n);
    if (i->x->nregions == 0)
        return 0;
    hk_inst_add_regions(f, n, i->x->nregions);
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        Cursor in = {&n->x->regions[r], NULL};
        if (copy_block(s, c, &i->x->regions[r], in, NULL) != 0)
            return -1;
    }
    return 0;
}

/* The callee of call i in module m, or NULL with a diagnostic when it is
 * not a func. */
static const HkFunc *callee_of(Inliner *s, const HkModule *m, const HkInst *i)
{
    if (i->x->callee < m->nfuncs && !m->funcs[i->x->callee]->is_kernel)
        return m->funcs[i->x->callee];
    hk_error(hk_run_diags(s->run), &m->src, i->loc,
             "inline: call does not name a func");
    return NULL;
}

/* Expands call i of a function of module m at `at` with the arguments
 * args (values of s->f); the copied values are named outer + callee +
 * ".", and the values that replace i's results are entered in results,
 * indexed by i's result values. */
static int expand_call(Inliner *s, const HkModule *m, const HkInst *i,
                       const HkVal *args, const char *outer, Cursor at,
                       HkVal *results)
{
    const HkFunc *g = callee_of(s, m, i);
    if (g == NULL)
        return -1;
    HkArena *a = s->f->module->arena;
    HkVal *out = hk_alloc(a, (i->nres + 1u) * sizeof *out);
    const char *prefix = hk_asprintf(a, "%s%s.", outer, g->name);
    if (expand(s, i, g, args, prefix, at, out) != 0)
        return -1;
    for (uint32_t k = 0; k < i->nres; k++)
        results[hk_res(i)[k]] = out[k];
    return 0;
}

/* Expands a call found inside a callee body being copied. */
static int copy_call(Inliner *s, Copy *c, const HkInst *i, Cursor at)
{
    HkVal *args = hk_alloc(s->f->module->arena, (i->nops + 1u) * sizeof *args);
    for (uint32_t k = 0; k < i->nops; k++)
        args[k] = mapped(c, i->ops[k]);
    return expand_call(s, c->g->module, i, args, c->prefix, at, c->map);
}

/* Copies block b of c's callee at `at`; the body's `ret` operands go to out
 * (NULL inside nested regions, where no `ret` can stand). */
static int copy_block(Inliner *s, Copy *c, const HkBlock *b, Cursor at,
                      HkVal *out)
{
    for (const HkInst *i = b->first; i; i = i->next) {
        int rc = 0;
        if (i->op == HK_OP_RET) {
            for (uint32_t k = 0; out != NULL && k < i->nops; k++)
                out[k] = mapped(c, i->ops[k]);
        } else if (i->op == HK_OP_CALL) {
            rc = copy_call(s, c, i, at);
        } else {
            rc = copy_inst(s, c, i, at);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Refuses a call of g that would recurse or nest too deep. */
static int check_depth(Inliner *s, const HkInst *call, const HkFunc *g)
{
    HkDiags *d = hk_run_diags(s->run);
    const HkSource *src = &s->f->module->src;
    for (uint32_t k = 0; k < s->depth; k++)
        if (s->stack[k] == g) {
            hk_error(d, src, call->loc, "inline: recursive call of @%s",
                     g->name);
            return -1;
        }
    if (s->depth == MAX_DEPTH) {
        hk_error(d, src, call->loc,
                 "inline: calls nest deeper than %d levels", MAX_DEPTH);
        return -1;
    }
    return 0;
}

/* Copies g's body at `at` with its parameters bound to args; out receives
 * one value per result of the call. */
static int expand(Inliner *s, const HkInst *call, const HkFunc *g,
                  const HkVal *args, const char *prefix, Cursor at,
                  HkVal *out)
{
    if (check_depth(s, call, g) != 0)
        return -1;
    if (call->nops != g->nparams || call->nres != g->nrtypes) {
        hk_error(hk_run_diags(s->run), &s->f->module->src, call->loc,
                 "inline: call of @%s does not match its signature", g->name);
        return -1;
    }
    Copy c = {g, hk_valmap_new(s->f, g->nvalues), prefix};
    for (uint32_t k = 0; k < g->nparams; k++)
        c.map[g->params[k]] = args[k];
    for (uint32_t k = 0; k < call->nres; k++)
        out[k] = HK_NOVAL;
    s->stack[s->depth++] = g;
    int rc = copy_block(s, &c, &g->body, at, out);
    s->depth--;
    for (uint32_t k = 0; rc == 0 && k < call->nres; k++)
        if (out[k] == HK_NOVAL) {
            hk_error(hk_run_diags(s->run), &s->f->module->src, call->loc,
                     "inline: @%s does not return result %u", g->name, k);
            rc = -1;
        }
    return rc;
}

/* Replaces call i of block b by its callee's body; repl receives the
 * values that replace its results. */
static int inline_call(Inliner *s, HkBlock *b, HkInst *i, HkVal *repl,
                       uint32_t nrepl)
{
    HkVal *args = hk_alloc(s->f->module->arena, (i->nops + 1u) * sizeof *args);
    for (uint32_t k = 0; k < i->nops; k++)
        args[k] = hk_valmap_get(repl, nrepl, i->ops[k]);
    Cursor at = {b, i};
    if (expand_call(s, s->f->module, i, args, "", at, repl) != 0)
        return -1;
    hk_inst_remove(i);
    return 0;
}

/* Inlines every call in b and its nested regions; *n counts them. */
static int inline_block(Inliner *s, HkBlock *b, HkVal *repl, uint32_t nrepl,
                        uint32_t *n)
{
    HkInst *next;
    for (HkInst *i = b->first; i; i = next) {
        next = i->next;
        if (i->op == HK_OP_CALL) {
            if (inline_call(s, b, i, repl, nrepl) != 0)
                return -1;
            ++*n;
            continue;
        }
        for (uint32_t r = 0; r < i->x->nregions; r++)
            if (inline_block(s, &i->x->regions[r], repl, nrepl, n) != 0)
                return -1;
    }
    return 0;
}

int hk_inline_at(HawkPassRun *r, HkFunc *f, HkInst *before, const HkFunc *g,
                 const HkVal *args, const char *prefix, HkLoc loc,
                 HkVal *out)
{
    Inliner s = {r, f, {f}, 1, &loc};
    Cursor at = {NULL, before};
    return expand(&s, before, g, args, prefix, at, out);
}

int hk_pass_inline(HawkPassRun *r, HkFunc *f)
{
    Inliner s = {r, f, {f}, 1, NULL};
    uint32_t nrepl = f->nvalues;
    HkVal *repl = hk_valmap_new(f, nrepl);
    uint32_t n = 0;
    if (inline_block(&s, &f->body, repl, nrepl, &n) != 0)
        return 1;
    if (n != 0)
        hk_remap_uses(f, repl, nrepl);
    return 0;
}
