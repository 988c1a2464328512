/* cwriter_names.c -- how the C writer spells things: the C type of each
 * element, the identifier of each value, literals, and the address of a
 * plane element (docs/EmbeddedC.md, "The C unit"). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "cwriter.h"

/* Longest identifier base kept: with a uniquifying suffix every name stays
 * well inside the 63 significant characters of C99 (MISRA C:2012 5.2). */
#define NAME_MAX_BASE 40u

void hk_cw_fail(HkCW *w, const HkInst *i, const char *what)
{
    if (w->failed)
        return;
    w->failed = 1;
    hk_error(w->d, &w->f->module->src, i != NULL ? i->loc : w->f->loc,
             "'%s': the C writer cannot spell %s", w->f->name, what);
}

const char *hk_cw_ctype(const HkCW *w, HkElem e)
{
    (void)w;
    return hk_c_elem_type(e);
}

const char *hk_c_elem_type(HkElem e)
{
    switch (e) {
    case HK_F64: return "hawk_f64_t";
    case HK_F32: return "hawk_f32_t";
    case HK_I64: return "int64_t";
    case HK_I32: return "int32_t";
    case HK_U32: return "uint32_t";
    case HK_I1: return "bool";
    default: break;
    }
    return "void";
}

const char *hk_cw_fresh(HkCW *w, const char *base)
{
    size_t n = strlen(base);
    if (n > NAME_MAX_BASE)
        n = NAME_MAX_BASE;
    char *s = hk_strndup(w->a, base, n);
    for (char *p = s; *p != '\0'; p++) {
        int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                 (*p >= '0' && *p <= '9') || *p == '_';
        if (!ok)
            *p = '_';
    }
    if (hk_symtab_put(w->taken, s, strlen(s), 1))
        return s;
    /* "<s>_<k>" from the last k tried for s on: a kernel with many names
     * alike past NAME_MAX_BASE costs one probe each, not one per name
     * before it */
    uint32_t k = hk_symtab_get(w->next_suffix, s, strlen(s));
    if (k == UINT32_MAX)
        k = 2;
    const char *name = hk_asprintf(w->a, "%s_%u", s, k);
    while (!hk_symtab_put(w->taken, name, strlen(name), 1))
        name = hk_asprintf(w->a, "%s_%u", s, ++k);
    hk_symtab_del(w->next_suffix, s, strlen(s));
    hk_symtab_put(w->next_suffix, s, strlen(s), k + 1u);
    return name;
}

const char *hk_cw_name_value(HkCW *w, HkVal v, const char *suffix)
{
    const char *ir = hk_value(w->f, v)->name;
    /* in a math function, its own name before every inlined value's */
    if (w->fnprefix != NULL &&
        strncmp(ir, w->fnprefix, strlen(w->fnprefix)) == 0)
        ir += strlen(w->fnprefix);
    const char *base =
        hk_asprintf(w->a, "v_%s%s", ir, suffix != NULL ? suffix : "");
    const char *name = hk_cw_fresh(w, base);
    if (suffix == NULL)
        w->cname[v] = name;
    return name;
}

const char *hk_cw_val(HkCW *w, HkVal v)
{
    v = w->canon[v];
    if (w->cname[v] == NULL)
        hk_cw_name_value(w, v, NULL);
    return w->cname[v];
}

void hk_cw_need(HkCW *w, uint32_t id)
{
    w->need[id] = 1;
}

void hk_cw_libm(HkCW *w, const char *name)
{
    w->need_math = 1;
    for (uint32_t k = 0; k < w->nlibm; k++)
        if (strcmp(w->libm[k], name) == 0)
            return;
    w->libm = hk_grow(w->a, w->libm, &w->caplibm, w->nlibm + 1,
                      sizeof *w->libm);
    w->libm[w->nlibm++] = name;
}

const char *hk_cw_i64(HkCW *w, int64_t v)
{
    if (v == INT64_MIN)
        return "(-INT64_MAX - INT64_C(1))";
    return hk_asprintf(w->a, "INT64_C(%" PRId64 ")", v);
}

/* A real literal: the printer's shortest round-trip text, F in float;
 * NaN and the infinities as <math.h> spells them. */
static const char *real_literal(HkCW *w, double x, HkElem e)
{
    const char *t = hk_cw_ctype(w, e);
    if (isnan(x) || isinf(x)) {
        w->need_math = 1;
        if (isnan(x))
            return hk_asprintf(w->a, "(%s)NAN", t);
        return hk_asprintf(w->a, "%s(%s)INFINITY", x < 0 ? "-" : "", t);
    }
    HkBuf b;
    hk_buf_init(&b, w->a);
    hk_print_float(&b, x, e);
    const char *text = hk_buf_cstr(&b);
    return e == HK_F32 ? hk_asprintf(w->a, "%sF", text) : text;
}

const char *hk_cw_real(HkCW *w, double x, HkElem e)
{
    return real_literal(w, x, e);
}

const char *hk_cw_literal(HkCW *w, const HkConst *c, uint32_t k, HkElem e)
{
    if (hk_is_float(e))
        return real_literal(w, hk_const_real(c, k, e), e);
    int64_t x = hk_const_int(c, k);
    switch (e) {
    case HK_I1:
        w->need_bool = 1;
        return x != 0 ? "true" : "false";
    case HK_I64: return hk_cw_i64(w, x);
    case HK_I32:
        if (x == INT32_MIN)
            return "(-INT32_MAX - INT32_C(1))";
        return hk_asprintf(w->a, "INT32_C(%" PRId64 ")", x);
    case HK_U32: return hk_asprintf(w->a, "UINT32_C(%" PRId64 ")", x);
    default: break;
    }
    return "0";
}

/* How slot s's plane is addressed (its member in the args struct). */
static HkAbiAddressing addressing(const HkCW *w, int32_t s)
{
    return w->abi.fields[w->member[s]].addr;
}

int hk_cw_is_flat(const HkCW *w, int32_t s)
{
    HkAbiAddressing a = addressing(w, s);
    return a == HK_ABI_FLAT_LEN || a == HK_ABI_FLAT_CELLS;
}

const char *hk_cw_soa(HkCW *w, int32_t s, uint32_t comp, const char *row,
                      uint32_t row_comps)
{
    const HkSlot *slot = &w->f->slots[s];
    const char *field = w->field[s];
    if (addressing(w, s) == HK_ABI_BY_VALUE) {
        if (slot->type.rank == 0)
            return hk_asprintf(w->a, "args->%s", field);
        return hk_asprintf(w->a, "args->%s[%u]", field, comp);
    }
    w->uses_i = 1;
    if (row != NULL) {
        /* A tape row r of N components: ((r * N) + c) * n_samples + i. */
        w->uses_n = 1;
        const char *flat = row_comps == 1
                               ? row
                               : hk_asprintf(w->a, "(%s * %u)", row, row_comps);
        if (comp != 0)
            flat = hk_asprintf(w->a, "(%s + %u)", flat, comp);
        return hk_asprintf(w->a, "args->%s[(%s * n_samples) + i]", field, flat);
    }
    if (comp == 0)
        return hk_asprintf(w->a, "args->%s[i]", field);
    w->uses_n = 1;
    if (comp == 1)  /* not 1 * n_samples: MISRA C:2012 Rule 2.2 */
        return hk_asprintf(w->a, "args->%s[n_samples + i]", field);
    return hk_asprintf(w->a, "args->%s[(%u * n_samples) + i]", field, comp);
}

/* Whether slot s's plane holds masks (bytes, i1 in the IR). */
static int mask_plane(const HkCW *w, int32_t s)
{
    return w->f->slots[s].type.elem == HK_I1 &&
           addressing(w, s) != HK_ABI_BY_VALUE;
}

const char *hk_cw_plane_read(HkCW *w, int32_t s, const char *access)
{
    return mask_plane(w, s) ? hk_asprintf(w->a, "(%s != 0U)", access) : access;
}

const char *hk_cw_plane_value(HkCW *w, int32_t s, const char *x)
{
    return mask_plane(w, s) ? hk_asprintf(w->a, "(%s ? 1U : 0U)", x) : x;
}

const char *hk_cw_flat(HkCW *w, int32_t s, const char *k)
{
    return hk_asprintf(w->a, "args->%s[%s]", w->field[s], k);
}
