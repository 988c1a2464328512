/* badlower.c -- hawk-capi-badlower: what the three implementations of a
 * kernel (the C writer, the host writer, the interpreter) do with lowered
 * IR that breaks the invariants the lowering guarantees them.  No HIR
 * text reaches these: the verifier, the lowering or the scalar-form check
 * stops it first.  A pass that hands the writers such IR must get a
 * diagnostic at the instruction from each, never a crash or a unit.
 *
 *   hawk-capi-badlower FILE CASE...
 *
 * For each CASE the first kernel of FILE is lowered afresh (lower.h), one
 * thing in it is broken, then each implementation is run on it: the C
 * writer (hk_cwriter) and the host writer (hk_host_emit_ir) on the
 * lowered kernel; the interpreter, which evaluates the kernel as
 * verified (HkLowered.source) instead, on that copy broken the same way
 * (hk_interp_new, then one sample through hk_interp_entry with every
 * plane holding ones).  Prints "case CASE:", then for each
 * implementation "c:", "host:" or "interp:" with "ok" or "failed" and the
 * rendered diagnostics.  The cases (each breaks the first instruction of
 * its kind, in walk order):
 *
 *   unlegalized   an fneg turned into rsqrt (outside the scalar form)
 *   no-mathfn     the first call of a hawk math function left without
 *                 its lowered function (the writers' l.mathfn; the
 *                 interpreter runs math.hir's functions themselves)
 *   no-member     a load of a slot the interface never saw
 *   fcmp-pred     an fcmp given an icmp predicate
 *   icmp-pred     an icmp given an fcmp predicate
 *   no-spelling   an fneg turned into lane_sum (no writer takes it)
 *   int-libm      a sitofp turned into sin (a libm call of an integer)
 *   mask-max      an and of masks turned into maximum
 *   yield-short   the yield of an if with one operand fewer
 *   loop-yield-short  the yield of a loop with one operand fewer
 *   stray-break   a break_if at the top of the kernel, outside any loop
 *   flat-no-index an indexed store into a runtime-length plane left
 *                 without its index
 *
 * In the kernel as written, four of the cases are HIR the interpreter
 * evaluates by LangRef (an rsqrt; a math op of an integer converts it
 * first; a store into a runtime-length plane without an index writes
 * the sample's own position) or leave it untouched (no-mathfn): it runs
 * them.  Exit status 0 when every case went so (every other refused by
 * every implementation), 1 when one did not, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../capi_test.h"
#include "../capi_interp.h"
#include "abi.h"
#include "passctx.h"
#include "cunit.h"
#include "host.h"
#include "interp.h"

#define TOOL "hawk-capi-badlower"

/* The first instruction of op in f, in walk order, or NULL. */
static HkInst *first_of(HkFunc *f, HkOp op)
{
    for (HkInst *i = f->body.first; i != NULL;
         i = hk_preorder_next(i))
        if (i->op == op)
            return i;
    return NULL;
}

/* The first indexed store into a runtime-length plane of f, or NULL. */
static HkInst *first_flat_store(HkFunc *f)
{
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == HK_OP_STORE && i->has_index && i->slot >= 0 &&
            hk_is_dyn(f->slots[i->slot].type))
            return i;
    return NULL;
}

/* The yield of the first op of kind op whose yields carry a value. */
static HkInst *first_yield(HkFunc *f, HkOp op)
{
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == op && i->nres > 0)
            return (HkInst *)hk_block_yield(&i->x->regions[0]);
    return NULL;
}

/* The first call of a hawk math function in l's kernel, or NULL. */
static HkInst *first_mathfn(HkLowered *l, uint32_t *id)
{
    for (HkInst *i = l->kernel->body.first; i != NULL; i = hk_preorder_next(i))
        if ((*id = hk_mathfn_of(l, i)) != UINT32_MAX)
            return i;
    return NULL;
}

/* Breaks f, l's kernel or its copy as verified, as case names it: 0, or
 * -1 when f has nothing to break that way or the case is unknown. */
static int corrupt(HkLowered *l, HkFunc *f, const char *name)
{
    HkInst *i = NULL;
    uint32_t id;
    if (strcmp(name, "no-mathfn") == 0 && f != l->kernel)
        return 0;  /* the writers' functions: the copy has none */
    if (strcmp(name, "unlegalized") == 0 && (i = first_of(f, HK_OP_FNEG)))
        i->op = HK_OP_RSQRT;
    else if (strcmp(name, "no-mathfn") == 0 && (i = first_mathfn(l, &id)))
        l->mathfn[id] = NULL;
    else if (strcmp(name, "no-member") == 0 && (i = first_of(f, HK_OP_LOAD)))
        i->slot = hk_slot_add(f, "ghost", HK_ROLE_PER_SAMPLE,
                              hk_value(f, hk_res(i)[0])->type, i->loc);
    else if (strcmp(name, "fcmp-pred") == 0 && (i = first_of(f, HK_OP_FCMP)))
        i->pred = HK_P_EQ;
    else if (strcmp(name, "icmp-pred") == 0 && (i = first_of(f, HK_OP_ICMP)))
        i->pred = HK_P_OEQ;
    else if (strcmp(name, "no-spelling") == 0 && (i = first_of(f, HK_OP_FNEG)))
        i->op = HK_OP_LANE_SUM;
    else if (strcmp(name, "int-libm") == 0 && (i = first_of(f, HK_OP_SITOFP)))
        i->op = HK_OP_SIN;
    else if (strcmp(name, "mask-max") == 0 && (i = first_of(f, HK_OP_AND)))
        i->op = HK_OP_MAXIMUM;
    else if (strcmp(name, "yield-short") == 0 && (i = first_yield(f, HK_OP_IF)))
        i->nops--;
    else if (strcmp(name, "loop-yield-short") == 0 &&
             (i = first_yield(f, HK_OP_LOOP)))
        i->nops--;
    else if (strcmp(name, "flat-no-index") == 0 && (i = first_flat_store(f))) {
        i->has_index = 0;
        i->nops = 1;
    } else if (strcmp(name, "stray-break") == 0 && (i = first_of(f, HK_OP_FCMP))) {
        HkInst *b = hk_inst_new(f, HK_OP_BREAK_IF, i->loc);
        hk_inst_set_ops(f, b, &hk_res(i)[0], 1);
        hk_insert_before(f->body.last, b);
    }
    return i != NULL ? 0 : -1;
}

static void report(HawkContext *ctx, const char *who, int failed)
{
    printf("%s: %s\n", who, failed ? "failed" : "ok");
    for (size_t k = 0; k < hawk_diag_count(ctx); k++)
        fputs(hawk_diag_render(ctx, k), stdout);
    hawk_diag_clear(ctx);
}

/* Whether the interpreter runs case name (see the top of the file). */
static int runs(const char *name)
{
    static const char *const ok[] = {"unlegalized", "no-mathfn", "int-libm",
                                     "flat-no-index"};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
        if (strcmp(name, ok[k]) == 0)
            return 1;
    return 0;
}

static int run_case(const char *path, const char *text, size_t len,
                    const char *name)
{
    printf("case %s:\n", name);
    HawkContext *ctx = hawk_context_create();
    HkLowered l;
    if (capi_lower_first(TOOL, ctx, path, text, len, &l) != 0) {
        hawk_context_destroy(ctx);
        return 2;
    }
    HkFunc *src = (HkFunc *)(uintptr_t)l.source;
    if (corrupt(&l, l.kernel, name) != 0 || corrupt(&l, src, name) != 0) {
        fprintf(stderr, TOOL ": error: case '%s' does not apply\n", name);
        hawk_context_destroy(ctx);
        return 2;
    }
    HkCUnit unit;
    int c = hk_cwriter(ctx->arena, &l, &unit, &ctx->diags) != 0;
    report(ctx, "c", c);
    const char *ir;
    size_t irlen;
    int host = hk_host_emit_ir(ctx->arena, &l, &ir, &irlen, &ctx->diags) != 0;
    report(ctx, "host", host);
    int interp = capi_interp_run(ctx, &l);
    report(ctx, "interp", interp);
    hawk_context_destroy(ctx);
    return c && host && interp != runs(name) ? 0 : 1;
}

int main(int argc, char **argv)
{
    return capi_run_cases(TOOL, argc, argv, run_case);
}
