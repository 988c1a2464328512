/* gen_kernel.c -- one module of random HIR: a kernel whose inputs are
 * loaded first, whose body the op and region generators write, and whose
 * mutable outputs are stored last; then the funcs it calls.  A local is a
 * slot too, declared at the start of the body instead of the signature.  The slots the
 * slot ops ask for are added as they are named, so the signature is
 * written after the body. */
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* A new slot of role and type, named s<k>; NULL when there are too
 * many. */
static Slot *new_slot(Gen *g, const char *role, const Val *type)
{
    if (g->nslots == GEN_MAX_SLOTS)
        return NULL;
    Slot *s = &g->slots[g->nslots];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "s%d", g->nslots);
    g->nslots++;
    s->role = role;
    s->type = *type;
    return s;
}

Slot *gen_slot(Gen *g, const char *role, const Val *type, int runtime,
               int rows)
{
    int is_mix = strcmp(role, "mix") == 0;
    /* a slot's reals are the kernel's width; a func names no slot */
    if (g->in_func || (elem_real(type->e) && type->e != g->real))
        return NULL;
    for (int k = 0; k < g->nslots && !is_mix; k++) {
        Slot *s = &g->slots[k];
        if (strcmp(s->role, role) == 0 && s->type.e == type->e &&
            s->type.n == type->n && s->type.r == type->r &&
            s->runtime == runtime && s->rows == rows)
            return s;
    }
    Slot *s = new_slot(g, role, type);
    if (s != NULL) {
        s->runtime = runtime;
        s->rows = rows;
    }
    return s;
}

/* The slot's type as its signature spells it. */
static const char *slot_type(const Slot *s, char *buf, size_t n)
{
    char tb[48];
    type_text(&s->type, tb, sizeof tb);
    if (s->runtime)
        snprintf(buf, n, "<? x %s>", tb);
    else if (s->rows > 0 && s->type.n > 0)
        snprintf(buf, n, "<%d x %d x %s>", s->rows, s->type.n,
                 elem_name(s->type.e));
    else if (s->rows > 0)
        snprintf(buf, n, "<%d x %s>", s->rows, tb);
    else
        snprintf(buf, n, "%s", tb);
    return buf;
}

/* An input slot of role and type, loaded at the top of the body. */
static void input(Gen *g, const char *role, Val t)
{
    Slot *s = strcmp(role, "mutable") == 0 ? gen_slot(g, role, &t, 0, 0)
                                           : new_slot(g, role, &t);
    if (s == NULL)
        return;
    Val *v = gen_def(g, t.e, t.n, t.r);
    char tb[48];
    gen_line(g, "%%%s = load %%%s : %s", v->name, s->name,
             type_text(&t, tb, sizeof tb));
}

/* The kernel's inputs: rank 0 per sample, vectors, a matrix, uniforms,
 * and the caller's values of the outputs. */
static void inputs(Gen *g, Val *outs, int *nouts)
{
    Elem w = g->real;
    for (int k = 1 + gen_pick(g, 3); k > 0; k--)
        input(g, "per_sample", (Val){"", w, 0, 0, 0});
    if (gen_chance(g, 70))
        input(g, "vec_in", (Val){"", w, 2 + gen_pick(g, 3), 0, 0});
    if (gen_chance(g, 25)) {
        /* one draw per statement: C leaves the order of the arguments'
         * evaluation open, and gcc and clang take different ones */
        int cols = 2 + gen_pick(g, 2);
        input(g, "mat_in", (Val){"", w, cols, 2 + gen_pick(g, 2), 0});
    }
    if (gen_chance(g, 60))
        input(g, "uniform", (Val){"", w, 0, 0, 0});
    if (gen_chance(g, 20))
        input(g, "uniform", (Val){"", w, 2 + gen_pick(g, 3), 0, 0});
    if (gen_chance(g, 15))
        input(g, "per_sample", (Val){"", E_I64, 0, 0, 0});
    *nouts = 1 + gen_pick(g, 2);
    for (int k = 0; k < *nouts; k++) {
        outs[k] = (Val){"", w, k == 0 ? 0 : 2 + gen_pick(g, 3), 0, 0};
        if (gen_chance(g, 40))
            input(g, "mutable", outs[k]);  /* read before written: inout */
    }
}

/* The kernel's text: its signature, then the body. */
static void write_kernel(Gen *g, const Text *body, Text *out, int guard_none)
{
    tool_buf_printf(out, "kernel @%s(", g->tag);
    char tb[64];
    int n = 0;
    for (int k = 0; k < g->nslots; k++)
        if (strcmp(g->slots[k].role, "local") != 0)
            tool_buf_printf(out, "%s%%%s: %s %s", n++ ? ", " : "", g->slots[k].name,
                            g->slots[k].role, slot_type(&g->slots[k], tb, sizeof tb));
    tool_buf_printf(out, ")%s {\n", guard_none ? " attributes {guard = none}" : "");
    /* the locals, declared at the start of the body */
    for (int k = 0; k < g->nslots; k++)
        if (strcmp(g->slots[k].role, "local") == 0)
            tool_buf_printf(out, "  local %%%s : %s\n", g->slots[k].name,
                            slot_type(&g->slots[k], tb, sizeof tb));
    tool_buf_printf(out, "%s  ret\n}\n", body->data);
}

static int sinks_into(const Val *v, const void *arg)
{
    const Val *t = arg;
    return v->e == t->e && v->r == 0 && (v->n == 0 || v->n == t->n);
}

/* A value of output type t that depends on several values of the body:
 * a few of them (its type, or rank 0 broadcast) summed in, so that what
 * the body computes reaches the outputs and is compared. */
static Val *sink(Gen *g, const Val *t)
{
    Val *acc = gen_of_type(g, t);
    for (int k = 1 + gen_pick(g, 4); k > 0; k--) {
        Val *v = gen_find(g, sinks_into, t);
        if (v == NULL || v == acc)
            continue;
        Val *r = gen_def(g, t->e, t->n, 0);
        char tb[48];
        gen_line(g, "%%%s = fadd %%%s, %%%s : %s", r->name, acc->name,
                 v->name, type_text(t, tb, sizeof tb));
        acc = r;
    }
    return acc;
}

void gen_module(const GenOptions *o, Text *out)
{
    Gen *g = calloc(1, sizeof *g);
    if (g == NULL) {
        fputs("hawk-gen: out of memory\n", stderr);
        exit(1);
    }
    g->o = o;
    g->rng = o->seed;
    g->real = o->width == 32                ? E_F32
              : o->width == 64              ? E_F64
              : gen_chance(g, 50) ? E_F32 : E_F64;
    char tag[32];
    snprintf(tag, sizeof tag, "g%llu", (unsigned long long)o->seed);
    g->tag = tag;
    Text body = {0};
    g->out = &body;
    g->budget = o->size;
    Val outs[4];
    int nouts;
    inputs(g, outs, &nouts);
    /* the finish mask: read by the default guard, stored from a test */
    int term = gen_chance(g, 15);
    int guard_none = term && gen_chance(g, 30);
    g->budget += g->nvals;
    gen_block(g, o->size);
    /* every output stored last, from a value of its type */
    g->budget = 1 << 20;
    for (int k = 0; k < nouts; k++) {
        Slot *s = gen_slot(g, "mutable", &outs[k], 0, 0);
        gen_line(g, "store %%%s, %%%s", sink(g, &outs[k])->name, s->name);
    }
    if (term) {
        Val b = {"", E_I1, 0, 0, 0};
        Slot *s = gen_slot(g, "terminated", &b, 0, 0);
        gen_line(g, "store %%%s, %%%s", gen_mask(g)->name, s->name);
    }
    write_kernel(g, &body, out, guard_none);
    if (g->funcs.len > 0)
        tool_buf_printf(out, "%s", g->funcs.data);
    tool_buf_free(&body);
    tool_buf_free(&g->funcs);
    free(g);
}
