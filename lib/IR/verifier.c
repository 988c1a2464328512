/* verifier.c -- docs/LangRef.md "Verification": the walk.
 *
 * One walk over each function checks names, dominance, region structure
 * (loops, ifs, dispatch cases and the yields that end them), where each
 * op may stand, calls and returns, and hands every other op to its type
 * rule (verify_types.c); a depth-first search over the call graph then
 * finds recursion.  Every error is reported, each at the offending
 * instruction, value or slot.
 *
 * Dominance is a per-value "visible" flag: set when a value is defined,
 * cleared when the region that defines it closes, so the whole check is
 * linear in the size of the function.
 */
#include <inttypes.h>
#include <string.h>

#include "verify.h"

/* ---- values ----------------------------------------------------------- */

/* A value's own type: statically shaped, with an element. */
static int check_value_type(Ver *v, HkVal x)
{
    const HkValue *val = hk_value(v->f, x);
    if (val->type.elem == HK_VOID || val->type.elem > HK_F64) {
        err(v, val->loc, "'%%%s' has no type", val->name);
        return 0;
    }
    if (hk_is_dyn(val->type) || (val->type.rank > 1 && val->type.dim[1] == HK_DYN)) {
        err(v, val->loc, "'%%%s' cannot have the runtime-length type '%s': only slots can",
            val->name, ts(v, val->type));
        return 0;
    }
    const char *bad = hk_verify_extents(val->type);
    if (bad != NULL) {
        err(v, val->loc, "'%%%s' has type '%s': %s", val->name, ts(v, val->type), bad);
        return 0;
    }
    return 1;
}

/* Whether the function's name table gives name to another value or slot
 * than id: a name defined twice.  The table is the one hk_value_new and
 * hk_slot_add keep (each name once), so a name can be taken twice only by
 * writing a value's or slot's name behind its back. */
static int name_taken_by_other(const Ver *v, const char *name, uint32_t id)
{
    /* The parser made the table and refused a name defined twice; until
     * a transform runs, no name can have been written since: the probe,
     * a cache miss per value of a large function, is skipped. */
    if (v->f->parsed && !v->f->derived)
        return 0;
    uint32_t owner = hk_names_get(hk_func_syms(v->f), name, strlen(name));
    return owner != UINT32_MAX && owner != id;
}

/* Defines x at loc: once in the function, visible until its region closes;
 * typed says it is an instruction result, whose existence and type were
 * checked already (check_counts). */
static void define(Ver *v, HkVal x, HkLoc loc, int typed)
{
    if (x >= v->f->nvalues) {
        if (!typed)
            err(v, loc, "definition of a value that does not exist");
        return;
    }
    const char *name = vn(v, x);
    if (hk_bit(v->defined, x) || name_taken_by_other(v, name, x)) {
        err(v, hk_value(v->f, x)->loc.line ? hk_value(v->f, x)->loc : loc,
            "redefinition of '%%%s'", name);
        return;
    }
    hk_bit_set(v->defined, x);
    hk_bit_set(v->visible, x);
    if (!typed)
        check_value_type(v, x);
}

/* Ends the visibility of x when its region closes. */
static void hide(Ver *v, HkVal x)
{
    if (x < v->f->nvalues)
        hk_bit_clear(v->visible, x);
}

/* Every operand exists and is visible here; 0 if one does not exist. */
static int check_operands(Ver *v, const HkInst *i)
{
    int ok = 1;
    for (uint32_t k = 0; k < i->nops; k++) {
        HkVal x = i->ops[k];
        if (x >= v->f->nvalues) {
            err(v, i->loc, "operand %u of '%s' is not a value", k, mn(i));
            ok = 0;
        } else if (!hk_bit(v->visible, x)) {
            if (hk_bit(v->defined, x))
                err(v, i->loc, "'%%%s' is used outside the region that defines it",
                    vn(v, x));
            else
                err(v, i->loc, "use of '%%%s' before its definition", vn(v, x));
        }
    }
    return ok;
}

/* ---- slots ------------------------------------------------------------ */

/* Slots: names, roles, shapes, and one real element type (scalar mode). */
static void verify_slots(Ver *v)
{
    const HkFunc *f = v->f;
    HkElem mode = HK_VOID;
    int mixed = 0;
    for (uint32_t k = 0; k < f->nslots; k++) {
        const HkSlot *s = &f->slots[k];
        if (name_taken_by_other(v, s->name, HK_SYM_SLOT | k))
            err(v, s->loc, "redefinition of '%%%s'", s->name);
        if ((unsigned)s->role >= HK_ROLE_COUNT) {
            err(v, s->loc, "slot '%%%s' has no role", s->name);
            continue;
        }
        hk_verify_slot_type(v, s);
        HkElem e = (HkElem)s->type.elem;
        if (!hk_is_float(e))
            continue;
        if (mode == HK_VOID)
            mode = e;
        else if (e != mode && !mixed) {
            mixed = 1;
            err(v, s->loc, "kernel '@%s' mixes %s and %s planes", f->name,
                hk_elem_name(mode), hk_elem_name(e));
        }
    }
}

/* ---- regions ---------------------------------------------------------- */

static void verify_block(Ver *v, const HkBlock *b);

/* Region b of owner ends with a yield of the types of the values want
 * (required when need, else optional); what names it in messages. */
static void check_yield(Ver *v, const HkInst *owner, const HkBlock *b, int need,
                        const HkVal *want, uint32_t n, const char *what)
{
    const HkInst *y = b->last;
    if (y == NULL || !is_rule(y, HK_R_YIELD)) {
        if (need)
            err(v, owner->loc, "%s does not end with 'yield'", what);
        return;
    }
    if (y->nops != n) {
        err(v, y->loc, "'yield' in %s needs %u value%s, but has %u", what, n, pl(n), y->nops);
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        if (y->ops[k] < v->f->nvalues && !hk_type_eq(ot(v, y, k), vt(v, want[k])))
            err(v, y->loc, "'yield' value '%%%s' has type '%s', but %s needs '%s'",
                vn(v, y->ops[k]), ts(v, ot(v, y, k)), what, ts(v, vt(v, want[k])));
}

/* Verifies region r of owner and the yield that ends it. */
static void verify_region(Ver *v, const HkInst *owner, uint32_t r, int need,
                          const HkVal *want, uint32_t n, const char *what)
{
    verify_block(v, &owner->x->regions[r]);
    check_yield(v, owner, &owner->x->regions[r], need, want, n, what);
}

/* A condition operand is an i1 of rank 0. */
static int check_cond(Ver *v, const HkInst *i, const char *what)
{
    if (is_scalar_of(ot(v, i, 0), HK_I1))
        return 1;
    err(v, i->loc, "%s condition '%%%s' must be i1, but has type '%s'", what,
        vn(v, i->ops[0]), ts(v, ot(v, i, 0)));
    return 0;
}

/* Trip bounds: 0 <= lo <= hi, or a runtime i64 count with max >= 1. */
static void check_bounds(Ver *v, const HkInst *i)
{
    if (!i->x->has_count) {
        if (i->x->lo < 0 || i->x->lo > i->x->hi)
            err(v, i->loc, "loop bounds %" PRId64 " to %" PRId64
                " do not satisfy 0 <= lo <= hi", i->x->lo, i->x->hi);
        return;
    }
    if (i->x->lo < 0)
        err(v, i->loc, "loop lower bound %" PRId64 " is negative", i->x->lo);
    if (i->x->max_trip < 1)
        err(v, i->loc, "loop 'max' must be at least 1, but is %" PRId64, i->x->max_trip);
    if (i->nops > 0 && !is_scalar_of(ot(v, i, 0), HK_I64))
        err(v, i->loc, "loop count '%%%s' must be i64, but has type '%s'", vn(v, i->ops[0]),
            ts(v, ot(v, i, 0)));
}

/* The carried values: init, iter and result of each agree in type. */
static int check_carried(Ver *v, const HkInst *i)
{
    uint32_t first = i->x->has_count ? 1u : 0u;
    uint32_t ninit = i->nops >= first ? i->nops - first : 0;
    if (ninit != i->nres || (i->nres && i->x->iters == NULL)) {
        err(v, i->loc, "'loop' has %u result%s, but %u initial value%s", i->nres,
            pl(i->nres), ninit, pl(ninit));
        return 0;
    }
    for (uint32_t k = 0; k < i->nres; k++) {
        if (i->x->iters[k] >= v->f->nvalues) {
            err(v, i->loc, "loop-carried value %u does not exist", k);
            return 0;
        }
        HkType t = vt(v, i->x->iters[k]);
        if (!hk_type_eq(ot(v, i, first + k), t))
            err(v, i->loc, "initial value '%%%s' of '%%%s' has type '%s', but '%%%s' is '%s'",
                vn(v, i->ops[first + k]), vn(v, i->x->iters[k]), ts(v, ot(v, i, first + k)),
                vn(v, i->x->iters[k]), ts(v, t));
        if (!hk_type_eq(vt(v, hk_res(i)[k]), t))
            err(v, i->loc, "loop result '%%%s' has type '%s', but '%%%s' is '%s'",
                vn(v, hk_res(i)[k]), ts(v, vt(v, hk_res(i)[k])), vn(v, i->x->iters[k]), ts(v, t));
    }
    return 1;
}

/* loop: bounds, carried values, then the body with its index and carried
 * values visible only inside. */
static void verify_loop(Ver *v, const HkInst *i)
{
    check_bounds(v, i);
    int carried = check_carried(v, i);
    if (i->x->nregions != 1) {
        err(v, i->loc, "'loop' needs one body region, but has %u", i->x->nregions);
        return;
    }
    define(v, i->x->ivar, i->loc, 0);
    if (i->x->ivar < v->f->nvalues && !is_scalar_of(vt(v, i->x->ivar), HK_I64))
        err(v, i->loc, "loop index '%%%s' must be i64", vn(v, i->x->ivar));
    for (uint32_t k = 0; carried && k < i->nres; k++)
        define(v, i->x->iters[k], i->loc, 0);
    /* Without the carried values (reported) the yield has nothing to
     * match: only the body's instructions are checked. */
    if (carried)
        verify_region(v, i, 0, 1, i->x->iters, i->nres, "the loop body");
    else
        verify_block(v, &i->x->regions[0]);
    hide(v, i->x->ivar);
    for (uint32_t k = 0; carried && k < i->nres; k++)
        hide(v, i->x->iters[k]);
}

/* if: a rank-0 i1 condition; with results, both regions yield them. */
static void verify_if(Ver *v, const HkInst *i)
{
    check_cond(v, i, "'if'");
    if (i->x->nregions < 1 || i->x->nregions > 2) {
        err(v, i->loc, "'if' needs a then region and an optional else region");
        return;
    }
    int has_else = i->x->nregions == 2 && i->x->regions[1].first != NULL;
    if (i->nres > 0 && !has_else)
        err(v, i->loc, "'if' with results needs an 'else' region");
    verify_region(v, i, 0, i->nres > 0, hk_res(i), i->nres, "the 'then' region of 'if'");
    if (i->x->nregions == 2)
        verify_region(v, i, 1, i->nres > 0 && has_else, hk_res(i), i->nres,
                      "the 'else' region of 'if'");
}

/* dispatch: an i64 selector, a mix slot with one cell per case, and
 * every case yielding the results. */
static void verify_dispatch(Ver *v, const HkInst *i)
{
    if (!is_scalar_of(ot(v, i, 0), HK_I64))
        err(v, i->loc, "'dispatch' selector '%%%s' must be i64, but has type '%s'",
            vn(v, i->ops[0]), ts(v, ot(v, i, 0)));
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s != NULL && hk_verify_slot_use(v, i, s, HK_R_DISPATCH, 1)) {
        if (s->type.rank == 1 && s->type.dim[0] != i->x->nregions)
            err(v, i->loc, "'dispatch' has %u case%s, but mix slot '%%%s' has %u cell%s",
                i->x->nregions, pl(i->x->nregions), s->name, s->type.dim[0], pl(s->type.dim[0]));
        if (v->counted[i->slot])
            err(v, i->loc, "mix slot '%%%s' already counts another 'dispatch'", s->name);
        v->counted[i->slot] = 1;
    }
    if (i->x->nregions == 0)
        err(v, i->loc, "'dispatch' needs at least one case");
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        const char *what = hk_asprintf(v->d->arena, "case %u of 'dispatch'", r);
        verify_region(v, i, r, 1, hk_res(i), i->nres, what);
    }
}

/* ---- calls and returns ------------------------------------------------ */

/* Records the call graph edge of a call for the recursion check. */
static void add_edge(Ver *v, uint32_t callee, const HkInst *i)
{
    v->calls = hk_grow(v->d->arena, v->calls, &v->cap_calls, v->ncalls + 1,
                       sizeof *v->calls);
    CallEdge *e = &v->calls[v->ncalls++];
    e->caller = v->fidx;
    e->callee = callee;
    e->inst = i;
}

/* call @f(args): f is a func; arguments and results match its signature. */
static void verify_call(Ver *v, const HkInst *i)
{
    if (i->x->callee >= v->m->nfuncs) {
        err(v, i->loc, "call of a function that does not exist");
        return;
    }
    const HkFunc *g = v->m->funcs[i->x->callee];
    if (g->is_kernel) {
        err(v, i->loc, "cannot call '@%s': it is a kernel, not a func", g->name);
        return;
    }
    add_edge(v, i->x->callee, i);
    if (i->nops != g->nparams)
        err(v, i->loc, "call to '@%s' passes %u argument%s, but it takes %u", g->name,
            i->nops, pl(i->nops), g->nparams);
    for (uint32_t k = 0; k < i->nops && k < g->nparams; k++) {
        if (g->params[k] >= g->nvalues)
            continue; /* reported when g itself is verified */
        HkType want = hk_value(g, g->params[k])->type;
        if (!hk_type_eq(ot(v, i, k), want))
            err(v, i->loc, "argument '%%%s' of call to '@%s' has type '%s', but '@%s' takes '%s'",
                vn(v, i->ops[k]), g->name, ts(v, ot(v, i, k)), g->name, ts(v, want));
    }
    if (i->nres != g->nrtypes)
        err(v, i->loc, "call to '@%s' has %u result%s, but '@%s' returns %u", g->name,
            i->nres, pl(i->nres), g->name, g->nrtypes);
    for (uint32_t k = 0; k < i->nres && k < g->nrtypes; k++)
        if (!hk_type_eq(vt(v, hk_res(i)[k]), g->rtypes[k]))
            err(v, i->loc, "result '%%%s' of call to '@%s' has type '%s', but '@%s' returns '%s'",
                vn(v, hk_res(i)[k]), g->name, ts(v, vt(v, hk_res(i)[k])), g->name,
                ts(v, g->rtypes[k]));
}

/* ret: nothing from a kernel, the result types from a func. */
static void verify_ret(Ver *v, const HkInst *i)
{
    const HkFunc *f = v->f;
    if (f->is_kernel) {
        if (i->nops)
            err(v, i->loc, "'ret' in kernel '@%s' takes no values", f->name);
        return;
    }
    if (i->nops != f->nrtypes) {
        err(v, i->loc, "'ret' in '@%s' needs %u value%s, but has %u", f->name, f->nrtypes,
            pl(f->nrtypes), i->nops);
        return;
    }
    for (uint32_t k = 0; k < i->nops; k++)
        if (!hk_type_eq(ot(v, i, k), f->rtypes[k]))
            err(v, i->loc, "'ret' value '%%%s' has type '%s', but '@%s' returns '%s'",
                vn(v, i->ops[k]), ts(v, ot(v, i, k)), f->name, ts(v, f->rtypes[k]));
}

/* Depth-first search from function root with an explicit stack (a long
 * call chain must not exhaust the C stack); a call back into a function
 * still on the path is recursion. */
static void dfs_calls(Ver *v, const uint32_t *first, uint8_t *color, uint32_t *stack,
                      uint32_t *next, uint32_t root)
{
    uint32_t depth = 0;
    stack[depth++] = root;
    color[root] = 1;
    next[root] = first[root];
    while (depth > 0) {
        uint32_t k = stack[depth - 1];
        if (next[k] == first[k + 1]) {
            color[k] = 2;
            depth--;
            continue;
        }
        const CallEdge *e = &v->calls[next[k]++];
        if (color[e->callee] == 1) {
            err(v, e->inst->loc, "recursive call to '@%s'", v->m->funcs[e->callee]->name);
        } else if (color[e->callee] == 0) {
            color[e->callee] = 1;
            next[e->callee] = first[e->callee];
            stack[depth++] = e->callee;
        }
    }
}

/* No function reaches itself through calls (LangRef "Control flow"). */
static void check_recursion(Ver *v)
{
    uint32_t n = v->m->nfuncs;
    uint32_t *first = hk_alloc(v->d->arena, (n + 1) * sizeof *first);
    uint32_t *stack = hk_alloc(v->d->arena, (n + 1) * sizeof *stack);
    uint32_t *next = hk_alloc(v->d->arena, (n + 1) * sizeof *next);
    uint8_t *color = hk_alloc(v->d->arena, n + 1);
    /* Edges were recorded function by function: group starts by counting. */
    for (uint32_t e = 0; e < v->ncalls; e++)
        first[v->calls[e].caller + 1]++;
    for (uint32_t k = 0; k < n; k++)
        first[k + 1] += first[k];
    for (uint32_t k = 0; k < n; k++)
        if (color[k] == 0)
            dfs_calls(v, first, color, stack, next, k);
}

/* ---- instructions ----------------------------------------------------- */

/* How many results an op of rule r has: 0, 1, or -1 when it varies. */
static int fixed_results(HkRule r)
{
    switch (r) {
    case HK_R_STORE: case HK_R_ACCUM: case HK_R_BUMP: case HK_R_BREAK:
    case HK_R_YIELD: case HK_R_RET: case HK_R_RAWDEV:
        return 0;
    case HK_R_LOOP: case HK_R_IF: case HK_R_DISPATCH: case HK_R_CALL:
        return -1;
    default:
        return 1;
    }
}

/* Operand and result counts agree with ops.def and the rule. */
static int check_counts(Ver *v, const HkInst *i)
{
    int nops = hk_ops[i->op].nops, nres = fixed_results(rule_of(i));
    if (nops >= 0 && i->nops != (uint32_t)nops) {
        err(v, i->loc, "'%s' takes %d operand%s, but has %u", mn(i), nops,
            pl((uint32_t)nops), i->nops);
        return 0;
    }
    if (nres >= 0 && i->nres != (uint32_t)nres) {
        err(v, i->loc, "'%s' has %d result%s, but %u %s given", mn(i), nres,
            pl((uint32_t)nres), i->nres, i->nres == 1 ? "is" : "are");
        return 0;
    }
    int ok = 1;
    for (uint32_t k = 0; k < i->nres; k++) {
        if (hk_res(i)[k] >= v->f->nvalues) {
            err(v, i->loc, "result %u of '%s' does not exist", k, mn(i));
            return 0;
        }
        ok &= check_value_type(v, hk_res(i)[k]);
    }
    if (!ok)
        return 0;
    if (nres == 1 && !hk_type_eq(i->type, st(v, i))) {
        err(v, i->loc, "'%s' has type '%s', but its result '%%%s' has type '%s'", mn(i),
            ts(v, i->type), vn(v, hk_res(i)[0]), ts(v, st(v, i)));
        return 0;
    }
    return 1;
}



/* Whether r is one of the plane ops, which only a kernel's body has. */
static int is_plane_rule(HkRule r)
{
    switch (r) {
    case HK_R_LOAD: case HK_R_GATHER: case HK_R_AT: case HK_R_STORE:
    case HK_R_ACCUM: case HK_R_BUMP: case HK_R_DISPATCH: case HK_R_CLAMPIDX:
        return 1;
    default:
        return 0;
    }
}

/* The rule of i: the region ops, break_if, yield, call and ret here, the
 * type rule of every other op in verify_types.c. */
static void verify_rule(Ver *v, const HkInst *i)
{
    switch (rule_of(i)) {
    case HK_R_LOOP: verify_loop(v, i); return;
    case HK_R_BREAK: check_cond(v, i, "'break_if'"); return;
    case HK_R_IF: verify_if(v, i); return;
    case HK_R_DISPATCH: verify_dispatch(v, i); return;
    case HK_R_YIELD: return; /* its region's owner checks it */
    case HK_R_CALL: verify_call(v, i); return;
    case HK_R_RET: verify_ret(v, i); return;
    default: hk_verify_types(v, i); return;
    }
}

/* Where i sits: yield last in a region, ret last in the body, break_if
 * directly in a loop body and once per loop. */
static void check_position(Ver *v, const HkBlock *b, const HkInst *i, uint32_t *breaks)
{
    switch (rule_of(i)) {
    case HK_R_YIELD:
        if (b->parent == NULL || i != b->last)
            err(v, i->loc, "'yield' must be the last instruction of a loop, if or case region");
        return;
    case HK_R_RET:
        if (b->parent != NULL || i != b->last)
            err(v, i->loc, "'ret' must be the last instruction of the function body");
        return;
    case HK_R_BREAK:
        if (b->parent == NULL || rule_of(b->parent) != HK_R_LOOP)
            err(v, i->loc, "'break_if' must be directly in a loop body");
        else if (++*breaks == 2)
            err(v, i->loc, "a loop body holds at most one 'break_if'");
        return;
    default:
        return;
    }
}

/* One instruction of b: place, operands, type rule, regions; then its
 * results.  breaks counts b's break_if. */
static void verify_inst(Ver *v, const HkBlock *b, const HkInst *i, uint32_t *breaks)
{
    if ((unsigned)i->op >= HK_OP_COUNT) {
        err(v, i->loc, "unknown operation");
        return;
    }
    check_position(v, b, i, breaks);
    int ok = check_operands(v, i) && check_counts(v, i);
    if (ok && !v->f->is_kernel && is_plane_rule(rule_of(i))) {
        err(v, i->loc, "'%s' cannot be used in func '@%s': funcs have no slots", mn(i),
            v->f->name);
        ok = 0;
    }
    if (ok)
        verify_rule(v, i);
    for (uint32_t k = 0; k < i->nres; k++)
        define(v, hk_res(i)[k], i->loc, 1);
}

/* The instructions of b in order; b's definitions go out of view after. */
static void verify_block(Ver *v, const HkBlock *b)
{
    uint32_t breaks = 0;
    for (const HkInst *i = b->first; i; i = i->next)
        verify_inst(v, b, i, &breaks);
    for (const HkInst *i = b->first; i; i = i->next)
        for (uint32_t k = 0; k < i->nres; k++)
            hide(v, hk_res(i)[k]);
}

/* ---- functions and the module ----------------------------------------- */

/* A func's signature: parameters (defined on entry) and result types. */
static void verify_signature(Ver *v)
{
    const HkFunc *f = v->f;
    if (f->nslots)
        err(v, f->loc, "func '@%s' cannot have slots", f->name);
    if (f->nrtypes == 0)
        err(v, f->loc, "func '@%s' needs a result type", f->name);
    for (uint32_t k = 0; k < f->nrtypes; k++) {
        const char *bad = hk_verify_extents(f->rtypes[k]);
        if (f->rtypes[k].elem == HK_VOID || hk_is_dyn(f->rtypes[k]))
            err(v, f->loc, "func '@%s' cannot return '%s'", f->name, ts(v, f->rtypes[k]));
        else if (bad != NULL)
            err(v, f->loc, "func '@%s' cannot return '%s': %s", f->name,
                ts(v, f->rtypes[k]), bad);
    }
    for (uint32_t k = 0; k < f->nparams; k++)
        define(v, f->params[k], f->loc, 0);
}

/* One function: its header, then its body, which ends with ret. */
static void verify_func(Ver *v, uint32_t idx)
{
    const HkFunc *f = v->m->funcs[idx];
    v->f = f;
    v->fidx = idx;
    memset(v->visible, 0, hk_bit_words(f->nvalues) * sizeof *v->visible);
    memset(v->defined, 0, hk_bit_words(f->nvalues) * sizeof *v->defined);
    memset(v->counted, 0, f->nslots);
    if (f->is_kernel) {
        if (f->nparams || f->nrtypes)
            err(v, f->loc, "kernel '@%s' cannot have parameters or results", f->name);
        verify_slots(v);
    } else {
        verify_signature(v);
        hk_verify_rules(v);
    }
    verify_block(v, &f->body);
    if (f->body.last == NULL || !is_rule(f->body.last, HK_R_RET))
        /* at the closing brace, where the ret is missing */
        err(v, f->end.line != 0 ? f->end : f->loc,
            "body of '@%s' does not end with 'ret'", f->name);
}

uint32_t hk_verify_module(const HkModule *m, HkDiags *d)
{
    uint32_t before = d->errors;
    Ver v;
    memset(&v, 0, sizeof v);
    v.m = m;
    v.d = d;
    uint32_t nvalues = 0, nslots = 0;
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        nvalues = m->funcs[k]->nvalues > nvalues ? m->funcs[k]->nvalues : nvalues;
        nslots = m->funcs[k]->nslots > nslots ? m->funcs[k]->nslots : nslots;
    }
    size_t words = hk_bit_words(nvalues);
    v.visible = hk_alloc(d->arena, 2 * words * sizeof *v.visible);
    v.defined = v.visible + words;
    v.counted = hk_alloc(d->arena, (size_t)nslots + 1);
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        const HkFunc *f = m->funcs[k];
        /* the module's table keeps the first function of a name */
        if (hk_func_index(m, f->name, strlen(f->name)) != k)
            err(&v, f->loc, "redefinition of '@%s'", f->name);
        verify_func(&v, k);
    }
    check_recursion(&v);
    return d->errors - before;
}
