/* scalar-form.c -- the legal scalar form: what the lowering hands a
 * writer, stated once and checked by both writers and the interpreter on
 * entry (and by `hawk-opt -passes=...,scalar-form`), so a writer spells
 * ops and decides nothing (docs/Passes.md, "scalar-form"):
 *
 *   - no call (inline ran) and no clip or rsqrt (legalize ran);
 *   - a value of rank > 0 only from a load or a build, and read only by
 *     an extract, a store or an accum into a plane (scalarize ran: every
 *     other op is rank 0);
 *   - the selector of a dispatch of K >= 2 cases held to [0, K - 1], the
 *     count of a runtime-count loop held to [lo, lo + K], every plane
 *     index not proven inside its plane a clamp_index into it, every
 *     write into a runtime-length plane indexed (legalize).
 */
#include "passctx.h"

typedef struct {
    const HkFunc *f;
    HkDiags *d;
    uint32_t n;
} Check;

static void bad(Check *c, const HkInst *i, const char *why)
{
    c->n++;
    hk_error(c->d, &c->f->module->src, i->loc,
             "'%s': '%s' is outside the legal scalar form: %s", c->f->name,
             hk_ops[i->op].mnemonic, why);
}

/* Whether op may make a value of rank > 0 / read one. */
static int makes_tensor(HkOp op)
{
    return op == HK_OP_LOAD || op == HK_OP_BUILD;
}

static int reads_tensor(HkOp op)
{
    return op == HK_OP_EXTRACT || op == HK_OP_STORE || op == HK_OP_ACCUM;
}

/* Why i is outside the form, or NULL when it is in it. */
static const char *why_not(const HkFunc *f, const HkInst *i)
{
    if (i->op == HK_OP_CALL)
        return "a call inline did not replace";
    if (i->op == HK_OP_CLIP || i->op == HK_OP_RSQRT)
        return "legalize writes it as simpler ops";
    if (i->nres == 1 && hk_value(f, hk_res(i)[0])->type.rank > 0 &&
        !makes_tensor(i->op))
        return "a tensor result scalarize did not take apart";
    for (uint32_t k = 0; k < i->nops; k++)
        if (hk_value(f, i->ops[k])->type.rank > 0 && !reads_tensor(i->op))
            return "a tensor operand scalarize did not take apart";
    if (i->op == HK_OP_DISPATCH && i->x->nregions >= 2 && i->nops >= 1 &&
        !hk_legal_held(f, i->ops[0], 0, (int64_t)i->x->nregions - 1))
        return "a selector legalize did not hold to [0, K - 1]";
    if (i->op == HK_OP_LOOP && !hk_legal_trip_end(f, i))
        return "a runtime count legalize did not hold to [lo, lo + K]";
    if (!hk_legal_table(f, i))
        return "a table index legalize did not hold to [0, N - 1]";
    if (!hk_legal_index(f, i))
        return "a plane index legalize did not clamp";
    return NULL;
}

uint32_t hk_scalar_form_check(const HkFunc *f, HkDiags *d)
{
    Check c = {f, d, 0};
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        const char *why = why_not(f, i);
        if (why != NULL)
            bad(&c, i, why);
    }
    return c.n;
}

/* Kernels only: a writer receives a kernel, its funcs inlined. */
int hk_pass_scalar_form(HawkPassRun *r, HkFunc *f)
{
    if (!f->is_kernel)
        return 0;
    return hk_scalar_form_check(f, hk_run_diags(r)) == 0 ? 0 : 1;
}
