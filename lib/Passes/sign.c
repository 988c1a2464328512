/* sign.c -- the contract's sign rules for fp-domain, exactly as the
 * contract lists them ("Floating-point domain"):
 *
 *   positive  a positive literal; 1 + x*x, x*x + c, norm(v) + c (c a
 *             positive literal, on either side of the add)
 *   nonneg    exp, abs, norm, dot(v, v), x*x, a zero literal, sqrt of a
 *             nonneg value; and anything positive
 *
 * Everything else is unknown.  The rules read only the defining
 * instruction of a value and the facts already found for its operands, so
 * one forward pass finds every fact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"

static const HkSignFact unknown = {HK_SIGN_UNKNOWN, NULL};

/* Whether text s reads back as v in element type e. */
static int reads_back(const char *s, double v, HkElem e)
{
    double r = strtod(s, NULL);
    return e == HK_F32 ? (float)r == (float)v : r == v;
}

void hk_put_number(HkBuf *b, double v, HkElem e)
{
    char s[48];
    if (!hk_is_float(e) || (v == floor(v) && fabs(v) < 1e16)) {
        /* integers read best whole: "10", not "1e+01" */
        hk_buf_printf(b, "%.0f", v);  /* -0.0 prints "-0" */
        return;
    }
    if (isnan(v) || isinf(v)) {
        hk_buf_puts(b, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(s, sizeof s, "%.*g", p, v);
        if (reads_back(s, v, e))
            break;
    }
    /* "1e-09" and "1e+300" read as "1e-9" and "1e300" */
    char *x = strchr(s, 'e');
    if (x != NULL) {
        char *d = x + 1;
        if (*d == '+')
            memmove(d, d + 1, strlen(d));
        else if (*d == '-')
            d++;
        while (d[0] == '0' && d[1] != '\0')
            memmove(d, d + 1, strlen(d));
    }
    hk_buf_puts(b, s);
}

/* Component k of a constant as a double: an f32 literal as the float it
 * is (1e-50 is 0 there), an integer converted. */
static double component(const HkInst *c, uint32_t k)
{
    HkElem e = (HkElem)c->type.elem;
    if (hk_is_float(e)) {
        double v = c->x->cst.f ? c->x->cst.f[k] : 0.0;
        return e == HK_F32 ? (double)(float)v : v;
    }
    return c->x->cst.i ? (double)c->x->cst.i[k] : 0.0;
}

/* The one value every component of constant c holds; 0 if they differ. */
static int uniform_value(const HkInst *c, double *v)
{
    *v = component(c, 0);
    for (uint32_t k = 1; k < c->x->cst.n; k++)
        if (component(c, k) != *v)
            return 0;
    return 1;
}

/* "literal 2", or "literals" when the components differ. */
static const char *literal_why(HkArena *a, const HkInst *c, const char *sign)
{
    double v;
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "%s: literal", sign);
    if (uniform_value(c, &v)) {
        hk_buf_puts(&b, " ");
        hk_put_number(&b, v, (HkElem)c->type.elem);
    } else {
        hk_buf_puts(&b, "s");
    }
    return hk_buf_cstr(&b);
}

/* A positive literal (every component > 0) or a zero literal. */
static HkSignFact literal_rule(HkArena *a, const HkInst *c)
{
    int pos = 1, zero = 1;
    if (c->type.elem == HK_I1)
        return unknown;  /* a mask is not a number */
    for (uint32_t k = 0; k < c->x->cst.n; k++) {
        double v = component(c, k);
        pos = pos && v > 0.0;    /* NaN fails both */
        zero = zero && v == 0.0;
    }
    if (pos) {
        HkSignFact r = {HK_SIGN_POSITIVE, literal_why(a, c, "positive")};
        return r;
    }
    if (zero) {
        HkSignFact r = {HK_SIGN_NONNEG, literal_why(a, c, "nonneg")};
        return r;
    }
    return unknown;
}

/* The instruction defining v, or NULL for a parameter, index or carry. */
static const HkInst *def_of(const HkFunc *f, HkVal v)
{
    const HkValue *x = hk_value(f, v);
    return x->kind == HK_DEF_INST ? x->def : NULL;
}

/* "x*x" or "norm(v)" when v is one, else NULL. */
static const char *square_form(const HkFunc *f, HkVal v)
{
    const HkInst *d = def_of(f, v);
    if (d == NULL)
        return NULL;
    if (d->op == HK_OP_FMUL && d->ops[0] == d->ops[1])
        return "x*x";
    if (d->op == HK_OP_NORM)
        return "norm(v)";
    return NULL;
}

/* c + s or s + c, c a positive literal, s a square or a norm. */
static HkSignFact positive_sum(HkArena *a, const HkFunc *f, const HkInst *i,
                               const HkSignFact *facts)
{
    for (int k = 0; k < 2; k++) {
        HkVal c = i->ops[k], s = i->ops[1 - k];
        const HkInst *cd = def_of(f, c);
        const char *form = square_form(f, s);
        if (cd == NULL || cd->op != HK_OP_CONST || form == NULL ||
            facts[c].sign != HK_SIGN_POSITIVE)
            continue;
        HkBuf b;
        double v;
        hk_buf_init(&b, a);
        hk_buf_puts(&b, "positive: ");
        if (k == 1)
            hk_buf_printf(&b, "%s + ", form);
        if (uniform_value(cd, &v))
            hk_put_number(&b, v, (HkElem)cd->type.elem);
        else
            hk_buf_puts(&b, "c");
        if (k == 0)
            hk_buf_printf(&b, " + %s", form);
        HkSignFact r = {HK_SIGN_POSITIVE, hk_buf_cstr(&b)};
        return r;
    }
    return unknown;
}

/* A nonneg fact with reason "nonneg: <form>". */
static HkSignFact nonneg(const char *why)
{
    HkSignFact r = {HK_SIGN_NONNEG, why};
    return r;
}

HkSignFact hk_sign_rule(HkArena *a, const HkFunc *f, const HkInst *i,
                        const HkSignFact *facts)
{
    if (i->nres != 1)
        return unknown;
    switch (i->op) {
    case HK_OP_CONST:
        return literal_rule(a, i);
    case HK_OP_EXP:
        return nonneg("nonneg: exp");
    case HK_OP_ABS:
        /* integer abs of MIN is MIN: only the real one is fabs */
        return hk_is_float((HkElem)i->type.elem) ? nonneg("nonneg: abs")
                                                  : unknown;
    case HK_OP_NORM:
        return nonneg("nonneg: norm");
    case HK_OP_DOT:
        return i->ops[0] == i->ops[1] ? nonneg("nonneg: dot(v, v)") : unknown;
    case HK_OP_FMUL:
        return i->ops[0] == i->ops[1] ? nonneg("nonneg: x*x") : unknown;
    case HK_OP_SQRT:
        return facts[i->ops[0]].sign != HK_SIGN_UNKNOWN
                   ? nonneg("nonneg: sqrt of nonneg")
                   : unknown;
    case HK_OP_FADD:
        return positive_sum(a, f, i, facts);
    default:
        return unknown;
    }
}
