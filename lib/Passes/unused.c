/* unused.c -- the unused analysis: every instruction of a function as
 * parsed whose results nothing reads, each a warning (a value computed for
 * nothing is most often a value meant for a store that was never
 * written).  Regions are left out: a loop's or an if's results are its
 * carried values, which a loop may carry only to iterate.  A function a
 * transform made or changed (jvp, vjp, inline) is not the user's text, so
 * it is not looked at.  docs/Passes.md "unused". */
#include "embedded.h"
#include "uses.h"

/* Whether i is looked at: it has results and is no region. */
static int has_plain_results(const HkInst *i)
{
    return i->nres > 0 && (hk_ops[i->op].flags & HK_F_REGION) == 0;
}

/* Whether every result of i has zero uses. */
static int all_unused(const uint32_t *uses, const HkInst *i)
{
    for (uint32_t k = 0; k < i->nres; k++)
        if (uses[hk_res(i)[k]] != 0)
            return 0;
    return 1;
}

/* "%t" or "%a, %b": the results of i as the text names them. */
static const char *result_names(HkArena *a, const HkFunc *f, const HkInst *i)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (uint32_t k = 0; k < i->nres; k++)
        hk_buf_printf(&b, "%s%%%s", k ? ", " : "", hk_value(f, hk_res(i)[k])->name);
    return hk_buf_cstr(&b);
}

/* The warning for i, whose results nothing reads. */
static const char *unused_text(HkArena *a, const HkFunc *f, const HkInst *i)
{
    const char *names = result_names(a, f, i);
    if (i->op == HK_OP_CALL)
        return hk_asprintf(a, "%s of call @%s %s never used", names,
                           f->module->funcs[i->x->callee]->name,
                           i->nres == 1 ? "is" : "are");
    return hk_asprintf(a, "%s (%s) is never used", names, hk_ops[i->op].mnemonic);
}

static void push(HkArena *a, HkUnusedResult *res, uint32_t *cap,
                 const HkInst *i, const char *text)
{
    res->sites = hk_grow(a, res->sites, cap, res->nsites + 1, sizeof *res->sites);
    res->sites[res->nsites].inst = i;
    res->sites[res->nsites].warning = text;
    res->nsites++;
}

int hk_pass_unused(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkUnusedResult *res = hk_alloc(a, sizeof *res);
    if (f->parsed && !f->derived) {
        const uint32_t *uses = hk_use_counts(f);
        uint32_t cap = 0;
        for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
            if (has_plain_results(i) && all_unused(uses, i))
                push(a, res, &cap, i, unused_text(a, f, i));
    }
    for (uint32_t k = 0; k < res->nsites; k++)
        if (hk_warn_at(r, f, hk_value(f, hk_res(res->sites[k].inst)[0])->loc,
                       res->sites[k].warning) != 0)
            return 1;
    hk_analysis_set(r, f, HK_PASS_UNUSED, res);
    return 0;
}

/* "unused @k: %t (fmul) is never used", a line per site, or "none". */
void hk_print_unused(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkUnusedResult *res = result;
    hk_buf_printf(b, "unused @%s:%s\n", f->name, res->nsites ? "" : " none");
    for (uint32_t k = 0; k < res->nsites; k++)
        hk_buf_printf(b, "  %s\n", res->sites[k].warning);
}
