/* gen_ops.c -- straight-line instructions: real and integer arithmetic,
 * math, comparisons and selects, conversions, tables, folds and products,
 * building and taking apart, and the slot ops (gather, tape rows,
 * accumulates, bump, the finish mask).  Each picks operands among the
 * values in scope, making a constant when none fits. */
#include <string.h>

#include "gen.h"

/* ---- predicates over values in scope -------------------------------------- */

static int is_real(const Val *v, const void *arg)
{
    (void)arg;
    return elem_real(v->e) && v->r == 0;
}

static int is_real_scalar(const Val *v, const void *arg)
{
    const Elem *e = arg;
    return elem_real(v->e) && v->n == 0 && (e == NULL || v->e == *e);
}

static int is_vec(const Val *v, const void *arg)
{
    const int *n = arg;
    return elem_real(v->e) && v->r == 0 && v->n > 0 && (n == NULL || v->n == *n);
}

static int is_mat(const Val *v, const void *arg)
{
    (void)arg;
    return elem_real(v->e) && v->r > 0;
}

static int is_int_scalar(const Val *v, const void *arg)
{
    const Elem *e = arg;
    return elem_int(v->e) && v->n == 0 && (e == NULL || v->e == *e);
}

static int is_mask(const Val *v, const void *arg)
{
    (void)arg;
    return v->e == E_I1 && v->n == 0;
}

/* ---- operands -------------------------------------------------------------- */

/* A real value of any rank-0 or rank-1 type (the kernel's width likelier). */
static Val *real_val(Gen *g)
{
    return gen_find_or_real(g, is_real);
}

/* A real of element e and rank 0. */
static Val *real_scalar(Gen *g, Elem e)
{
    Val *v = gen_find(g, is_real_scalar, &e);
    if (v != NULL && !gen_chance(g, 8))
        return v;
    Val t = {"", e, 0, 0, 0};
    return gen_const(g, &t);
}

/* A second operand for a: a's type, or rank 0 of a's element (broadcast). */
static Val *partner(Gen *g, const Val *a)
{
    if (a->n > 0 && gen_chance(g, 30))
        return real_scalar(g, a->e);
    return gen_of_type(g, a);
}

Val *gen_mask(Gen *g)
{
    static const char *const preds[] = {"oeq", "one", "olt", "ole", "ogt",
                                        "oge", "ueq", "une", "ult", "ule",
                                        "ugt", "uge", "ord", "uno"};
    static const char *const ipreds[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                         "sge", "ult", "ule", "ugt", "uge"};
    Val *m;
    if (gen_chance(g, 75)) {
        Val *a = real_scalar(g, gen_chance(g, 80) ? g->real
                                                  : (g->real == E_F64 ? E_F32
                                                                      : E_F64));
        Val *b = real_scalar(g, a->e);
        m = gen_def(g, E_I1, 0, 0);
        gen_line(g, "%%%s = fcmp %s %%%s, %%%s : i1", m->name,
                 preds[gen_pick(g, 14)], a->name, b->name);
    } else {
        Val *a = gen_index(g);
        Val *b = gen_of_type(g, a);
        m = gen_def(g, E_I1, 0, 0);
        gen_line(g, "%%%s = icmp %s %%%s, %%%s : i1", m->name,
                 ipreds[gen_pick(g, 10)], a->name, b->name);
    }
    return m;
}

Val *gen_index(Gen *g)
{
    Elem e = E_I64;
    Val *v = gen_find(g, is_int_scalar, &e);
    if (v != NULL && !gen_chance(g, 20))
        return v;
    Val *x = real_scalar(g, g->real);
    v = gen_def(g, E_I64, 0, 0);
    gen_line(g, "%%%s = fptosi %%%s : i64", v->name, x->name);
    v->k = x->k;
    return v;
}

/* ---- real ops ---------------------------------------------------------------- */

static void arith(Gen *g)
{
    static const char *const ops[] = {"fadd", "fsub", "fmul", "fdiv",
                                      "minimum", "maximum", "atan2", "pow",
                                      "hypot"};
    Val *a = real_val(g);
    Val *b = partner(g, a);
    if (gen_chance(g, 50)) {  /* the scalar may come first */
        Val *t = a;
        a = b;
        b = t;
    }
    const Val *wide = a->n >= b->n ? a : b;
    Val *r = gen_def(g, wide->e, wide->n, 0);
    r->k = a->k && b->k;
    char tb[48];
    int k = gen_chance(g, 70) ? gen_pick(g, 4) : gen_pick(g, 9);
    gen_line(g, "%%%s = %s %%%s, %%%s : %s", r->name, ops[k], a->name,
             b->name, type_text(r, tb, sizeof tb));
}

static void unary(Gen *g)
{
    static const char *const ops[] = {
        "fneg", "abs",  "sqrt",  "exp",   "log",   "log2",  "log10",
        "log1p", "expm1", "sin", "cos",   "tan",   "asin",  "acos",
        "atan", "sinh", "cosh",  "tanh",  "asinh", "acosh", "atanh",
        "floor", "ceil", "rsqrt"};
    Val *a = real_val(g);
    Val *r = gen_def(g, a->e, a->n, 0);
    r->k = a->k;
    char tb[48];
    /* math of constants alone may be proven outside its domain, which
     * the C target refuses: those get a sign op */
    int k = gen_chance(g, 40) || a->k ? gen_pick(g, 2) : gen_pick(g, 24);
    gen_line(g, "%%%s = %s %%%s : %s", r->name, ops[k], a->name,
             type_text(r, tb, sizeof tb));
}

static void clip(Gen *g)
{
    Val *x = real_val(g);
    Val *lo = partner(g, x), *hi = partner(g, x);
    Val *r = gen_def(g, x->e, x->n, 0);
    r->k = x->k && lo->k && hi->k;
    char tb[48];
    gen_line(g, "%%%s = clip %%%s, %%%s, %%%s : %s", r->name, x->name,
             lo->name, hi->name, type_text(r, tb, sizeof tb));
}

static void select_op(Gen *g)
{
    Val *c = gen_find(g, is_mask, NULL);
    if (c == NULL)
        c = gen_mask(g);
    Val *a = real_val(g);
    Val *b = gen_of_type(g, a);
    Val *r = gen_def(g, a->e, a->n, 0);
    r->k = a->k && b->k;
    char tb[48];
    gen_line(g, "%%%s = select %%%s, %%%s, %%%s : %s", r->name, c->name,
             a->name, b->name, type_text(r, tb, sizeof tb));
}

/* A vector of n components of element e, in scope or built now. */
static Val *vec(Gen *g, int n, Elem e)
{
    Val t = {"", e, n, 0, 0};
    Val *v = gen_find(g, is_vec, &n);
    if (v != NULL && v->e == e && !gen_chance(g, 15))
        return v;
    if (gen_chance(g, 50))
        return gen_const(g, &t);
    char args[256];
    size_t len = 0;
    int all = 1;
    for (int k = 0; k < n; k++) {
        Val *s = real_scalar(g, e);
        all = all && s->k;
        len += (size_t)snprintf(args + len, sizeof args - len, "%s%%%s",
                                k ? ", " : "", s->name);
    }
    Val *r = gen_def(g, e, n, 0);
    r->k = all;
    char tb[48];
    gen_line(g, "%%%s = build %s : %s", r->name, args,
             type_text(r, tb, sizeof tb));
    return r;
}

static void fold(Gen *g)
{
    Val *a = gen_find(g, is_vec, NULL);
    if (a == NULL)
        a = vec(g, 2 + gen_pick(g, 3), g->real);
    const char *e = elem_name(a->e);
    Val *r;
    char tb[48];
    switch (gen_pick(g, 6)) {
    case 0: {
        Val *b = vec(g, a->n, a->e);
        r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = dot %%%s, %%%s : %s", r->name, a->name, b->name, e);
        break;
    }
    case 1:
        r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = norm %%%s : %s", r->name, a->name, e);
        break;
    case 2:
        r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = sum %%%s : %s", r->name, a->name, e);
        break;
    case 3:
        r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = prod %%%s : %s", r->name, a->name, e);
        break;
    case 4: {
        Val *u = vec(g, 3, a->e), *w = vec(g, 3, a->e);
        r = gen_def(g, a->e, 3, 0);
        gen_line(g, "%%%s = cross %%%s, %%%s : %s", r->name, u->name,
                 w->name, type_text(r, tb, sizeof tb));
        break;
    }
    default: {
        int k = gen_pick(g, a->n);
        r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = extract %%%s, %d : %s", r->name, a->name, k, e);
        if (gen_chance(g, 50)) {
            Val *s = real_scalar(g, a->e);
            Val *q = gen_def(g, a->e, a->n, 0);
            gen_line(g, "%%%s = insert %%%s, %%%s, %d : %s", q->name, a->name,
                     s->name, gen_pick(g, a->n), type_text(q, tb, sizeof tb));
            q->k = a->k && s->k;
        }
        break;
    }
    }
    r->k = a->k;
}

/* A matrix product: matvec, matmul or transpose of a matrix in scope (a
 * mat_in slot's load) or a constant one. */
static void matrix(Gen *g)
{
    Val *m = gen_find(g, is_mat, NULL);
    if (m == NULL) {
        int cols = 2 + gen_pick(g, 2);  /* one draw per statement */
        Val t = {"", g->real, cols, 2 + gen_pick(g, 2), 0};
        m = gen_const(g, &t);
    }
    char tb[48];
    Val *r;
    switch (gen_pick(g, 4)) {
    case 0: {
        Val *v = vec(g, m->n, m->e);
        r = gen_def(g, m->e, m->r, 0);
        gen_line(g, "%%%s = matvec %%%s, %%%s : %s", r->name, m->name,
                 v->name, type_text(r, tb, sizeof tb));
        break;
    }
    case 1: {
        Val t = {"", m->e, 2, m->n, 0};
        Val *b = gen_of_type(g, &t);
        r = gen_def(g, m->e, 2, m->r);
        gen_line(g, "%%%s = matmul %%%s, %%%s : %s", r->name, m->name,
                 b->name, type_text(r, tb, sizeof tb));
        break;
    }
    case 2:
        r = gen_def(g, m->e, m->r, m->n);
        gen_line(g, "%%%s = transpose %%%s : %s", r->name, m->name,
                 type_text(r, tb, sizeof tb));
        break;
    default:
        r = gen_def(g, m->e, m->n, 0);
        gen_line(g, "%%%s = extract %%%s, %d : %s", r->name, m->name,
                 gen_pick(g, m->r), type_text(r, tb, sizeof tb));
        break;
    }
    r->k = m->k;
}

/* ---- conversions and integers ------------------------------------------------ */

static void convert(Gen *g)
{
    char tb[48];
    switch (gen_pick(g, 6)) {
    case 0: {  /* the other width and back */
        Val *a = real_val(g);
        Elem to = a->e == E_F64 ? E_F32 : E_F64;
        Val *r = gen_def(g, to, a->n, 0);
        r->k = a->k;
        gen_line(g, "%%%s = %s %%%s : %s", r->name,
                 to == E_F64 ? "fpext" : "fptrunc", a->name,
                 type_text(r, tb, sizeof tb));
        break;
    }
    case 1: {
        Val *a = real_scalar(g, g->real);
        static const Elem to[] = {E_I64, E_I32};
        Val *r = gen_def(g, to[gen_pick(g, 2)], 0, 0);
        gen_line(g, "%%%s = fptosi %%%s : %s", r->name, a->name,
                 elem_name(r->e));
        r->k = a->k;
        break;
    }
    case 2: {
        Elem u = E_U32;
        Val *a = gen_chance(g, 40) ? gen_find(g, is_int_scalar, &u) : NULL;
        if (a == NULL)
            a = gen_find(g, is_int_scalar, NULL);
        if (a == NULL)
            a = gen_index(g);
        Val *r = gen_def(g, g->real, 0, 0);
        gen_line(g, "%%%s = %s %%%s : %s", r->name,
                 a->e == E_U32 ? "uitofp" : "sitofp", a->name,
                 elem_name(r->e));
        r->k = a->k;
        break;
    }
    case 3: {
        Val *a = gen_index(g);
        Val *r = gen_def(g, gen_chance(g, 50) ? E_I32 : E_U32, 0, 0);
        gen_line(g, "%%%s = trunc %%%s : %s", r->name, a->name,
                 elem_name(r->e));
        break;
    }
    case 4: {
        Elem e = E_I32;
        Val *a = gen_find(g, is_int_scalar, &e);
        if (a == NULL)
            break;
        Val *r = gen_def(g, E_I64, 0, 0);
        gen_line(g, "%%%s = sext %%%s : i64", r->name, a->name);
        break;
    }
    default: {
        Val *m = gen_find(g, is_mask, NULL);
        if (m == NULL)
            m = gen_mask(g);
        Val *r = gen_def(g, E_I64, 0, 0);
        gen_line(g, "%%%s = zext %%%s : i64", r->name, m->name);
        break;
    }
    }
}

/* A table read at an index in scope: one to eight literals of a real
 * (the kernel's width likelier) or an integer element; an index past
 * either end reads the entry there. */
static void table(Gen *g)
{
    static const Elem elems[] = {E_F64, E_F32, E_I64, E_I32, E_U32};
    Elem e = gen_chance(g, 60) ? g->real : elems[gen_pick(g, 5)];
    Val *k = gen_index(g);
    int n = 1 + gen_pick(g, 8);
    char list[256];
    size_t len = 0;
    for (int j = 0; j < n; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                j ? ", " : "", gen_literal(g, e));
    Val *r = gen_def(g, e, 0, 0);
    r->k = 1;  /* within its entries' hull, as a constant is */
    gen_line(g, "%%%s = table %%%s, [%s] : %s", r->name, k->name, list,
             elem_name(e));
}

static void integer(Gen *g)
{
    static const char *const ops[] = {"add", "sub", "mul", "div", "floordiv",
                                      "mod", "shl", "shr", "and", "or",
                                      "xor", "minimum", "maximum"};
    Val *a = gen_find(g, is_int_scalar, NULL);
    if (a == NULL)
        a = gen_index(g);
    if (gen_chance(g, 15)) {
        static const char *const un[] = {"neg", "abs", "not"};
        Val *r = gen_def(g, a->e, 0, 0);
        gen_line(g, "%%%s = %s %%%s : %s", r->name, un[gen_pick(g, 3)],
                 a->name, elem_name(a->e));
        return;
    }
    Val *b = gen_of_type(g, a);
    Val *r = gen_def(g, a->e, 0, 0);
    r->k = a->k && b->k;
    gen_line(g, "%%%s = %s %%%s, %%%s : %s", r->name, ops[gen_pick(g, 13)],
             a->name, b->name, elem_name(a->e));
}

static void logic(Gen *g)
{
    static const char *const ops[] = {"and", "or", "xor"};
    Val *a = gen_find(g, is_mask, NULL);
    if (a == NULL)
        a = gen_mask(g);
    if (gen_chance(g, 25)) {
        Val *r = gen_def(g, E_I1, 0, 0);
        gen_line(g, "%%%s = not %%%s : i1", r->name, a->name);
        return;
    }
    Val *b = gen_mask(g);
    Val *r = gen_def(g, E_I1, 0, 0);
    gen_line(g, "%%%s = %s %%%s, %%%s : i1", r->name, ops[gen_pick(g, 3)],
             a->name, b->name);
}

/* ---- slot ops ---------------------------------------------------------------- */

static void slot_op(Gen *g)
{
    Val scalar = {"", g->real, 0, 0, 0};
    switch (gen_pick(g, 6)) {
    case 0: {  /* a lookup or wide_in table read at a clamped index */
        Slot *s = gen_slot(g, gen_chance(g, 50) ? "lookup" : "wide_in",
                           &scalar, 1, 0);
        Val *k = gen_index(g);
        Val *r = gen_def(g, g->real, 0, 0);
        gen_line(g, "%%%s = gather %%%s, %%%s : %s", r->name, s->name,
                 k->name, elem_name(g->real));
        break;
    }
    case 1: {  /* a tape row, at a literal row or a clamped one */
        Slot *s = gen_slot(g, "out", &scalar, 0, 4);
        Val *v = real_scalar(g, g->real);
        Val *k;
        if (gen_chance(g, 50)) {
            k = gen_def(g, E_I64, 0, 0);
            gen_line(g, "%%%s = const %d : i64", k->name, gen_pick(g, 4));
        } else {
            k = gen_index(g);
        }
        gen_line(g, "store %%%s, %%%s[%%%s]", v->name, s->name, k->name);
        break;
    }
    case 2: {  /* a scattered accumulate */
        Slot *s = gen_slot(g, "accum_out", &scalar, 1, 0);
        Val *v = real_scalar(g, g->real);
        Val *k = gen_index(g);
        gen_line(g, "accum %%%s, %%%s[%%%s]", v->name, s->name, k->name);
        break;
    }
    case 3: {  /* an own-column write of a shared plane */
        Slot *s = gen_slot(g, "wide_out", &scalar, 1, 0);
        Val *v = real_scalar(g, g->real);
        gen_line(g, "store %%%s, %%%s", v->name, s->name);
        break;
    }
    case 4: {
        Val u = {"", E_U32, 0, 0, 0};
        Slot *s = gen_slot(g, "finished_count", &u, 0, 0);
        gen_line(g, "bump %%%s", s->name);
        break;
    }
    default: {  /* an own-column accumulate of any real type */
        Val *v = real_val(g);
        Slot *s = gen_slot(g, "accum_out", v, 0, 0);
        if (s == NULL)
            break;
        gen_line(g, "accum %%%s, %%%s", v->name, s->name);
        break;
    }
    }
}

void gen_op(Gen *g)
{
    int k = gen_pick(g, 100);
    if (k < 30)
        arith(g);
    else if (k < 48)
        unary(g);
    else if (k < 52)
        clip(g);
    else if (k < 60)
        select_op(g);
    else if (k < 70)
        fold(g);
    else if (k < 74)
        matrix(g);
    else if (k < 80)
        convert(g);
    else if (k < 81)
        table(g);
    else if (k < 86)
        integer(g);
    else if (k < 89)
        logic(g);
    else if (k < 94 && !g->in_func)
        slot_op(g);
    else {
        int n = 2 + gen_pick(g, 3);  /* one draw per statement */
        (void)vec(g, n, gen_chance(g, 85) ? g->real : E_F32);
    }
}
