/* int-sites.c -- the int-sites analysis: where a kernel divides integers
 * (int_division_sites: every floordiv, mod and div, any integer type) and
 * where infix C or C++ arithmetic on Index (i64) would be undefined on
 * overflow, a zero divisor or MIN / -1 (int_ub_sites: every i64 add, sub,
 * mul, neg and div).  The unit defines all of them through its helpers;
 * the report lists the sites so a reviewer sees where code written by
 * hand with infix arithmetic would agree with the unit only where it is
 * defined.  Int32 and UInt32 arithmetic is not listed.
 */
#include "embedded.h"

/* Whether i divides integers (ops.def's IntSite). */
static int is_division(const HkInst *i)
{
    return (hk_ops[i->op].intsite & HK_IS_IDIV) &&
           hk_is_int((HkElem)i->type.elem);
}

/* Whether i is Index arithmetic that infix C leaves undefined at its
 * edges. */
static int is_ub(const HkInst *i)
{
    return (hk_ops[i->op].intsite & HK_IS_IUB) && i->type.elem == HK_I64;
}

/* Appends pos to the list *list of *n entries with capacity *cap. */
static void push(HkArena *a, const char ***list, uint32_t *n, uint32_t *cap,
                 const char *pos)
{
    *list = hk_grow(a, (void *)*list, cap, *n + 1, sizeof **list);
    (*list)[(*n)++] = pos;
}

int hk_pass_int_sites(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkIntSitesResult *res = hk_alloc(a, sizeof *res);
    if (!f->is_kernel) {
        hk_analysis_set(r, f, HK_PASS_INT_SITES, res);
        return 0;
    }
    const HkPositions *p = hk_positions(r, f);
    if (p == NULL)
        return 1;
    uint32_t cap_div = 0, cap_ub = 0;
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if (is_division(i))
            push(a, &res->division, &res->ndivision, &cap_div, hk_pos(p, i));
        if (is_ub(i))
            push(a, &res->ub, &res->nub, &cap_ub, hk_pos(p, i));
    }
    hk_analysis_set(r, f, HK_PASS_INT_SITES, res);
    return 0;
}

/* "  <name>: 3, loop0.2" or "  <name>: none". */
static void put_list(HkBuf *b, const char *name, const char *const *list,
                     uint32_t n)
{
    hk_buf_printf(b, "  %s:", name);
    for (uint32_t k = 0; k < n; k++)
        hk_buf_printf(b, "%s %s", k ? "," : "", list[k]);
    hk_buf_puts(b, n ? "\n" : " none\n");
}

void hk_print_int_sites(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkIntSitesResult *d = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "int-sites @%s:\n", f->name);
    put_list(b, "int_division_sites", d->division, d->ndivision);
    put_list(b, "int_ub_sites", d->ub, d->nub);
}
