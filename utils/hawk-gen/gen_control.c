/* gen_control.c -- regions: if (with and without results), loops (static
 * and runtime trip counts, carried values, a break_if at the head, in the
 * middle or at the tail, tape rows and a local's rows at the loop's
 * index, the local read back after it), dispatch over a
 * mix slot, and calls of funcs written for them.  A value defined in a
 * region leaves it only through yield, as LangRef scopes it. */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define MAX_DEPTH 2
#define MAX_CARRY 4

static int any_type(const Val *v, const void *arg)
{
    (void)arg;
    return v->e != E_I1 || v->n == 0;
}

/* The types a region yields: 1 to max values in scope (masks only rank 0). */
static int result_types(Gen *g, Val *types, int max)
{
    int n = 1 + gen_pick(g, max);
    for (int k = 0; k < n; k++) {
        Val *v = gen_find_or_real(g, any_type);
        types[k] = *v;
    }
    return n;
}

/* "%a, %b" of a value of each type, in scope at the yield. */
static void yield_list(Gen *g, const Val *types, int n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        Val *v = gen_of_type(g, &types[k]);
        len += (size_t)snprintf(buf + len, cap - len, "%s%%%s", k ? ", " : "",
                                v->name);
    }
}

/* "-> T1, T2" */
static void arrow(const Val *types, int n, char *buf, size_t cap)
{
    size_t len = 0;
    char tb[48];
    for (int k = 0; k < n; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", k ? ", " : "",
                                type_text(&types[k], tb, sizeof tb));
}

/* Names n new values of types, "%r1, %r2" into buf, in scope after. */
static void results(Gen *g, const Val *types, int n, char *buf, size_t cap)
{
    size_t len = 0;
    for (int k = 0; k < n; k++) {
        Val *r = gen_def(g, types[k].e, types[k].n, types[k].r);
        len += (size_t)snprintf(buf + len, cap - len, "%s%%%s", k ? ", " : "",
                                r->name);
    }
}

/* One region's body then its yield: values made in it go out of scope. */
static void region(Gen *g, const Val *types, int n, int size)
{
    int mark = g->nvals;
    g->depth++;
    gen_block(g, size);
    char ys[512];
    yield_list(g, types, n, ys, sizeof ys);
    gen_line(g, n > 0 ? "yield %s" : "yield", ys);
    g->depth--;
    g->nvals = mark;
}

static void gen_if(Gen *g)
{
    Val *c = gen_mask(g);
    Val types[MAX_CARRY];
    int n = gen_chance(g, 25) ? 0 : result_types(g, types, 2);
    char res[512] = "", ar[512] = "";
    Text body = {0}, *saved = g->out;
    /* the regions first, into their own text: the results are named at
     * the if, before them, but enter scope only after */
    g->out = &body;
    region(g, types, n, 2 + gen_pick(g, 4));
    int has_else = n > 0 || gen_chance(g, 50);
    Text other = {0};
    if (has_else) {
        g->out = &other;
        region(g, types, n, 1 + gen_pick(g, 4));
    }
    g->out = saved;
    arrow(types, n, ar, sizeof ar);
    results(g, types, n, res, sizeof res);
    gen_line(g, "%s%sif %%%s%s%s {", res, n ? " = " : "", c->name,
             n ? " -> " : "", ar);
    tool_buf_printf(g->out, "%s", body.data);
    if (has_else) {
        tool_buf_printf(g->out, "%*s} else {\n%s", 2 * (g->depth + 1), "",
                    other.data);
    }
    tool_buf_printf(g->out, "%*s}\n", 2 * (g->depth + 1), "");
    tool_buf_free(&body);
    tool_buf_free(&other);
}

static int carried_type(const Val *v, const void *arg)
{
    (void)arg;
    return v->e != E_I1 ? v->n <= 4 : v->n == 0;
}

static void gen_loop(Gen *g)
{
    int trips = 1 + gen_pick(g, 6);
    int lo = gen_chance(g, 70) ? 0 : 1 + gen_pick(g, 3);
    int runtime = gen_chance(g, 30);
    char count[64];
    if (runtime) {
        Val *n = gen_index(g);
        snprintf(count, sizeof count, "%d to %%%s max %d", lo, n->name, trips);
    } else {
        snprintf(count, sizeof count, "%d to %d", lo, lo + trips);
    }
    /* the carried values, and for a head break a carried mask */
    int where = gen_pick(g, 4);  /* 0 none, 1 head, 2 middle, 3 tail */
    Val init[MAX_CARRY + 1];
    int n = 0;
    for (int k = 1 + gen_pick(g, 3); n < k; n++) {
        Val *v = gen_find_or_real(g, carried_type);
        init[n] = *v;
    }
    if (where == 1)
        init[n++] = *gen_mask(g);
    unsigned id = g->fresh++;
    char iter[1024];
    size_t len = 0;
    Val carried[MAX_CARRY + 1];
    for (int k = 0; k < n; k++) {
        carried[k] = init[k];
        snprintf(carried[k].name, sizeof carried[k].name, "L%u.c%d", id, k);
        len += (size_t)snprintf(iter + len, sizeof iter - len, "%s%%%s = %%%s",
                                k ? ", " : "", carried[k].name, init[k].name);
    }
    Text body = {0}, *saved = g->out;
    int mark = g->nvals;
    g->out = &body;
    g->depth++;
    g->loops++;
    for (int k = 0; k < n; k++)
        g->vals[g->nvals++] = carried[k];
    Val *iv = gen_def(g, E_I64, 0, 0);
    snprintf(iv->name, sizeof iv->name, "L%u.i", id);
    if (where == 1)
        gen_line(g, "break_if %%%s", carried[n - 1].name);
    if (!runtime && lo + trips <= 4 && gen_chance(g, 40)) {
        /* a tape row at the loop's index: proven inside the 4 rows */
        Val scalar = {"", g->real, 0, 0, 0};
        Slot *s = gen_slot(g, "out", &scalar, 0, 4);
        if (s != NULL) {
            Val *v = gen_of_type(g, &scalar);
            gen_line(g, "store %%%s, %%%s[%%%s]", v->name, s->name, iv->name);
        }
    }
    /* a local's row at the loop's index, read back after the loop */
    Slot *loc = NULL;
    Val lscalar = {"", g->real, 0, 0, 0};
    if (!runtime && lo + trips <= 4 && gen_chance(g, 10)) {
        loc = gen_slot(g, "local", &lscalar, 0, 4);
        if (loc != NULL) {
            Val *v = gen_of_type(g, &lscalar);
            gen_line(g, "store %%%s, %%%s[%%%s]", v->name, loc->name, iv->name);
        }
    }
    int size = 2 + gen_pick(g, 5);
    gen_block(g, where == 2 ? size / 2 : size);
    if (where == 2 || where == 3)
        gen_line(g, "break_if %%%s", gen_mask(g)->name);
    if (where == 2)
        gen_block(g, size - size / 2);
    char ys[1024];
    yield_list(g, carried, n, ys, sizeof ys);
    gen_line(g, "yield %s", ys);
    g->loops--;
    g->depth--;
    g->nvals = mark;
    g->out = saved;
    char res[512];
    results(g, carried, n, res, sizeof res);
    gen_line(g, "%s = loop %%L%u.i = %s iter(%s) {", res, id, count, iter);
    tool_buf_printf(g->out, "%s%*s}\n", body.data, 2 * (g->depth + 1), "");
    tool_buf_free(&body);
    if (loc != NULL) {
        /* a runtime row (clamped) or one of the rows */
        Val *row = gen_index(g);
        Val *r = gen_def(g, g->real, 0, 0);
        char tb[48];
        gen_line(g, "%%%s = load %%%s[%%%s] : %s", r->name, loc->name, row->name,
                 type_text(&lscalar, tb, sizeof tb));
    }
}

static void gen_dispatch(Gen *g)
{
    int cases = 2 + gen_pick(g, 2);
    Val mixt = {"", E_U32, cases, 0, 0};
    Slot *mix = gen_slot(g, "mix", &mixt, 0, 0);
    if (mix == NULL)
        return;
    Val *sel = gen_index(g);
    Val types[MAX_CARRY];
    int n = result_types(g, types, 2);
    Text body = {0}, *saved = g->out;
    g->out = &body;
    for (int k = 0; k < cases; k++) {
        tool_buf_printf(g->out, "%*scase {\n", 2 * (g->depth + 2), "");
        g->depth++;
        region(g, types, n, 1 + gen_pick(g, 3));
        g->depth--;
        tool_buf_printf(g->out, "%*s}\n", 2 * (g->depth + 2), "");
    }
    g->out = saved;
    char res[512], ar[512];
    arrow(types, n, ar, sizeof ar);
    results(g, types, n, res, sizeof res);
    gen_line(g, "%s = dispatch %%%s mix %%%s -> %s {", res, sel->name,
             mix->name, ar);
    tool_buf_printf(g->out, "%s%*s}\n", body.data, 2 * (g->depth + 1), "");
    tool_buf_free(&body);
}

/* A new func of the module, of params like some values in scope, and a
 * call of it here. */
static void gen_call(Gen *g)
{
    if (g->in_func || g->nfuncs >= 3)
        return;
    Val params[3], types[2];
    int np = 1 + gen_pick(g, 3);
    for (int k = 0; k < np; k++) {
        Val *v = gen_find_or_real(g, carried_type);
        params[k] = *v;
    }
    /* the func's body: its own scope, its params only */
    Gen *f = malloc(sizeof *f);
    if (f == NULL)
        return;
    memcpy(f, g, sizeof *f);
    f->nvals = 0;
    f->depth = 0;
    f->loops = 0;
    f->in_func = 1;
    f->budget = 6 + gen_pick(g, 10);
    Text body = {0};
    f->out = &body;
    char plist[512], args[512];
    size_t pl = 0, al = 0;
    char tb[48];
    for (int k = 0; k < np; k++) {
        Val *p = gen_def(f, params[k].e, params[k].n, params[k].r);
        snprintf(p->name, sizeof p->name, "p%d", k);
        pl += (size_t)snprintf(plist + pl, sizeof plist - pl, "%s%%%s: %s",
                               k ? ", " : "", p->name,
                               type_text(&params[k], tb, sizeof tb));
        al += (size_t)snprintf(args + al, sizeof args - al, "%s%%%s",
                               k ? ", " : "", params[k].name);
    }
    gen_block(f, f->budget);
    int n = result_types(f, types, 2);
    char ys[512], ar[512];
    yield_list(f, types, n, ys, sizeof ys);
    gen_line(f, "ret %s", ys);
    arrow(types, n, ar, sizeof ar);
    int id = g->nfuncs++;
    g->fresh = f->fresh;
    g->rng = f->rng;
    tool_buf_printf(&g->funcs, "\nfunc @%s_f%d(%s) -> %s%s%s {\n%s}\n", g->tag, id,
                plist, n > 1 ? "(" : "", ar, n > 1 ? ")" : "", body.data);
    tool_buf_free(&body);
    free(f);
    char res[512];
    results(g, types, n, res, sizeof res);
    gen_line(g, "%s = call @%s_f%d(%s) : %s%s%s", res, g->tag, id, args,
             n > 1 ? "(" : "", ar, n > 1 ? ")" : "");
}

void gen_control(Gen *g)
{
    int k = gen_pick(g, 100);
    if (k < 35)
        gen_if(g);
    else if (k < 75)
        gen_loop(g);
    else if (k < 88 && !g->in_func)
        gen_dispatch(g);
    else
        gen_call(g);
}

void gen_block(Gen *g, int n)
{
    for (int k = 0; k < n && g->budget > 0; k++) {
        if (g->depth < MAX_DEPTH && gen_chance(g, 12))
            gen_control(g);
        else
            gen_op(g);
    }
}
