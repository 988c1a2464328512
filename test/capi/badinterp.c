/* badinterp.c -- hawk-capi-badinterp: what the HIR interpreter does with
 * a kernel as verified (HkLowered.source) that breaks what the verifier
 * guarantees it.  No HIR text reaches these: the verifier stops it.  The
 * interpreter must refuse each with a diagnostic at the instruction,
 * never a crash or a read outside the caller's planes.
 *
 *   hawk-capi-badinterp FILE CASE...
 *
 * For each CASE the first kernel of FILE is lowered afresh (lower.h), its
 * copy as verified broken as the case says, then the interpreter runs one
 * sample (hk_interp_new, hk_interp_entry) with every plane holding 64
 * elements per component of 1 (a mask 0, a runtime length 64).  Prints
 * "case CASE:", then "interp:" with "ok" or "failed" and the rendered
 * diagnostics.  The cases:
 *
 *   none           nothing broken: the interpreter runs it
 *   callee-no-ret  the called func's ret removed
 *   callee-fails   the called func's fmul turned into lane_sum
 *   wide-load      the first load's value given one component more than
 *                  its plane holds (a read past the plane's end)
 *   ghost-gather, ghost-clamp, ghost-store, ghost-accum, ghost-bump
 *                  the first gather, clamp_index, indexed store, indexed
 *                  accum or bump pointed at a slot the interface never
 *                  saw (one of the same role and type)
 *
 * Exit status 0 when every case went so (none ran, every other refused),
 * 1 when one did not, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "capi_interp.h"

#define TOOL "hawk-capi-badinterp"

/* The first instruction of op in f, in walk order (with an index where
 * indexed), or NULL. */
static HkInst *first_of(HkFunc *f, HkOp op, int indexed)
{
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->op == op && (!indexed || i->has_index))
            return i;
    return NULL;
}

/* The func the kernel's first call runs, in the copy's module. */
static HkFunc *callee(HkFunc *k)
{
    HkInst *c = first_of(k, HK_OP_CALL, 0);
    return c != NULL ? k->module->funcs[c->x->callee] : NULL;
}

/* i pointed at a new slot of its slot's role and type: one past the
 * slots the interface laid out. */
static HkInst *ghost(HkFunc *f, HkInst *i)
{
    if (i != NULL)
        i->slot = hk_slot_add(f, "ghost", f->slots[i->slot].role,
                              f->slots[i->slot].type, i->loc);
    return i;
}

/* Breaks k, the kernel as verified, as case name says: 0, or -1 when k
 * has nothing to break that way or the case is unknown. */
static int corrupt(HkFunc *k, const char *name)
{
    HkFunc *g = callee(k);
    HkInst *i = NULL;
    if (strcmp(name, "none") == 0)
        return 0;
    if (strcmp(name, "callee-no-ret") == 0 && g != NULL &&
        (i = first_of(g, HK_OP_RET, 0)) != NULL)
        hk_inst_remove(i);
    else if (strcmp(name, "callee-fails") == 0 && g != NULL &&
             (i = first_of(g, HK_OP_FMUL, 0)) != NULL)
        i->op = HK_OP_LANE_SUM;
    else if (strcmp(name, "wide-load") == 0 &&
             (i = first_of(k, HK_OP_LOAD, 0)) != NULL)
        hk_value(k, hk_res(i)[0])->type.dim[0]++;
    else if (strcmp(name, "ghost-gather") == 0)
        i = ghost(k, first_of(k, HK_OP_GATHER, 0));
    else if (strcmp(name, "ghost-clamp") == 0)
        i = ghost(k, first_of(k, HK_OP_CLAMP_INDEX, 0));
    else if (strcmp(name, "ghost-store") == 0)
        i = ghost(k, first_of(k, HK_OP_STORE, 1));
    else if (strcmp(name, "ghost-accum") == 0)
        i = ghost(k, first_of(k, HK_OP_ACCUM, 1));
    else if (strcmp(name, "ghost-bump") == 0)
        i = ghost(k, first_of(k, HK_OP_BUMP, 0));
    return i != NULL ? 0 : -1;
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
    if (corrupt((HkFunc *)(uintptr_t)l.source, name) != 0) {
        fprintf(stderr, TOOL ": error: case '%s' does not apply\n", name);
        hawk_context_destroy(ctx);
        return 2;
    }
    int failed = capi_interp_run(ctx, &l);
    printf("interp: %s\n", failed ? "failed" : "ok");
    for (size_t d = 0; d < hawk_diag_count(ctx); d++)
        fputs(hawk_diag_render(ctx, d), stdout);
    hawk_context_destroy(ctx);
    return failed == (strcmp(name, "none") != 0) ? 0 : 1;
}

int main(int argc, char **argv)
{
    return capi_run_cases(TOOL, argc, argv, run_case);
}
