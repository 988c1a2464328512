/* gen_util.c -- the random source (splitmix64: the same stream from the
 * same seed on every host), the text buffer, and the values in scope. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

uint64_t gen_next(Gen *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

int gen_pick(Gen *g, int n)
{
    return n <= 1 ? 0 : (int)(gen_next(g) % (uint64_t)n);
}

int gen_chance(Gen *g, int p)
{
    return gen_pick(g, 100) < p;
}

void gen_line(Gen *g, const char *fmt, ...)
{
    tool_buf_printf(g->out, "%*s", 2 * (g->depth + 1), "");
    va_list ap;
    va_start(ap, fmt);
    tool_buf_vprintf(g->out, fmt, ap);
    va_end(ap);
    tool_buf_printf(g->out, "\n");
    if (g->budget > 0)
        g->budget--;
}

const char *elem_name(Elem e)
{
    static const char *const names[] = {"f64", "f32", "i64", "i32", "u32",
                                        "i1"};
    return names[e];
}

int elem_real(Elem e)
{
    return e == E_F64 || e == E_F32;
}

int elem_int(Elem e)
{
    return e == E_I64 || e == E_I32 || e == E_U32;
}

const char *type_text(const Val *v, char *buf, size_t n)
{
    if (v->r > 0)
        snprintf(buf, n, "<%d x %d x %s>", v->r, v->n, elem_name(v->e));
    else if (v->n > 0)
        snprintf(buf, n, "<%d x %s>", v->n, elem_name(v->e));
    else
        snprintf(buf, n, "%s", elem_name(v->e));
    return buf;
}

Val *gen_def(Gen *g, Elem e, int n, int r)
{
    if (g->nvals == GEN_MAX_VALS)
        g->nvals--;  /* the oldest stay; the newest is overwritten */
    Val *v = &g->vals[g->nvals++];
    snprintf(v->name, sizeof v->name, "v%u", g->fresh++);
    v->e = e;
    v->n = n;
    v->r = r;
    v->k = 0;
    return v;
}

Val *gen_find(Gen *g, int (*pred)(const Val *, const void *),
              const void *arg)
{
    /* two tries at a recent value, then the newest that fits */
    for (int t = 0; t < 2 && g->nvals > 0; t++) {
        int lo = g->nvals > 12 ? g->nvals - 12 : 0;
        Val *v = &g->vals[lo + gen_pick(g, g->nvals - lo)];
        if (pred(v, arg))
            return v;
    }
    int start = gen_pick(g, g->nvals > 0 ? g->nvals : 1);
    for (int k = 0; k < g->nvals; k++) {
        Val *v = &g->vals[(start + k) % g->nvals];
        if (pred(v, arg))
            return v;
    }
    return NULL;
}

Val *gen_find_or_real(Gen *g, int (*pred)(const Val *, const void *))
{
    Val *v = gen_find(g, pred, NULL);
    if (v != NULL)
        return v;
    Val t = {"", g->real, 0, 0, 0};
    return gen_const(g, &t);
}

static int same_type(const Val *v, const void *arg)
{
    const Val *t = arg;
    return v->e == t->e && v->n == t->n && v->r == t->r;
}

Val *gen_of_type(Gen *g, const Val *t)
{
    Val *v = gen_find(g, same_type, t);
    return v != NULL && !gen_chance(g, 10) ? v : gen_const(g, t);
}

/* A literal of element e, from values that reach every path of the ops:
 * zeros of both signs, small and large magnitudes, integers. */
const char *gen_literal(Gen *g, Elem e)
{
    static const char *const reals[] = {
        "0.0", "-0.0", "1.0", "-1.0", "0.5", "2.0", "-2.5", "3.0",
        "0.1", "1e-3", "100.0", "-7.25", "0.75", "1e10", "-1e-8", "6.0"};
    static const char *const ints[] = {"0", "1", "-1", "2", "3", "7", "-5",
                                       "100", "63", "-64", "31"};
    static const char *const uints[] = {"0", "1", "2", "3", "7", "100",
                                        "31", "4294967295"};
    if (elem_real(e))
        return reals[gen_pick(g, 16)];
    if (e == E_I1)
        return gen_chance(g, 50) ? "true" : "false";
    if (e == E_U32)
        return uints[gen_pick(g, 8)];
    return ints[gen_pick(g, 11)];
}

Val *gen_const(Gen *g, const Val *t)
{
    Val ty = *t;
    Val *v = gen_def(g, ty.e, ty.n, ty.r);
    v->k = 1;
    char tb[48];
    int comps = (t->r > 0 ? t->r : 1) * (t->n > 0 ? t->n : 1);
    if (comps == 1 || gen_chance(g, 30)) {
        gen_line(g, "%%%s = const %s : %s", v->name, gen_literal(g, t->e),
                 type_text(t, tb, sizeof tb));
        return v;
    }
    char list[512];
    size_t len = 0;
    for (int k = 0; k < comps && len + 24 < sizeof list; k++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                k ? ", " : "", gen_literal(g, t->e));
    gen_line(g, "%%%s = const [%s] : %s", v->name, list,
             type_text(t, tb, sizeof tb));
    return v;
}
