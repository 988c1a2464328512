/* hostentry.c -- the entry of the host unit, the C entry's twin:
 *
 *   i32 <name>_host(const <name>_args_t *args, i64 base, i64 count,
 *                   i64 n_samples)
 *
 * checks in the C's order (args NULL, then any plane pointer NULL:
 * HAWK_E_NULL; base and count outside [0, n_samples]: HAWK_E_RANGE; a
 * runtime length below 1: HAWK_E_RANGE), touching nothing before they
 * pass, then runs samples base .. base + count - 1 (hostsamples.c) and
 * returns HAWK_OK. */
#include "hostint.h"

enum { STATUS_OK = 0, STATUS_NULL = 1, STATUS_RANGE = 2 };

/* A block that returns status. */
static LLVMBasicBlockRef ret_block(HkHostGen *g, int status, const char *name)
{
    LLVMBasicBlockRef bb = hk_host_block(g, name);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(g->ctx);
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMBuildRet(b, LLVMConstInt(LLVMInt32TypeInContext(g->ctx),
                                 (unsigned long long)status, 0));
    LLVMDisposeBuilder(b);
    return bb;
}

/* Continues at a new block when bad is false, else goes to fail. */
static void check(HkHostGen *g, LLVMValueRef bad, LLVMBasicBlockRef fail,
                  const char *name)
{
    LLVMBasicBlockRef ok = hk_host_block(g, name);
    LLVMBuildCondBr(g->b, bad, fail, ok);
    LLVMPositionBuilderAtEnd(g->b, ok);
}

/* a || b, where a NULL a is false. */
static LLVMValueRef either(HkHostGen *g, LLVMValueRef a, LLVMValueRef b)
{
    return a == NULL ? b : LLVMBuildOr(g->b, a, b, "");
}

/* Any plane pointer NULL. */
static LLVMValueRef any_null(HkHostGen *g)
{
    LLVMValueRef bad = NULL;
    for (uint32_t k = 0; k < g->abi.nfields; k++)
        if (g->abi.fields[k].kind == HK_ABI_PLANE)
            bad = either(g, bad, LLVMBuildIsNull(g->b, g->field[k], ""));
    return bad;
}

/* base or count out of range, or a runtime length below 1. */
static LLVMValueRef any_range(HkHostGen *g, LLVMValueRef base,
                              LLVMValueRef count)
{
    LLVMValueRef zero = hk_host_i64(g, 0), n = g->n_samples;
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntSLT, base, zero, "");
    bad = either(g, bad, LLVMBuildICmp(g->b, LLVMIntSGT, base, n, ""));
    bad = either(g, bad, LLVMBuildICmp(g->b, LLVMIntSLT, count, zero, ""));
    /* n - base cannot wrap once 0 <= base <= n */
    LLVMValueRef room = LLVMBuildSub(g->b, n, base, "");
    bad = either(g, bad, LLVMBuildICmp(g->b, LLVMIntSGT, count, room, ""));
    /* the C entry's bound: no plane ends past the largest int64_t offset */
    HkSampleBound sb = hk_plane_sample_bound(&g->abi);
    if (sb.max < INT64_MAX)
        bad = either(g, bad, LLVMBuildICmp(g->b, LLVMIntSGT, n,
                                           hk_host_i64(g, sb.max), ""));
    for (uint32_t k = 0; k < g->abi.nfields; k++)
        if (g->abi.fields[k].kind == HK_ABI_LEN)
            bad = either(g, bad,
                         LLVMBuildICmp(g->b, LLVMIntSLT, g->field[k],
                                       hk_host_i64(g, 1), ""));
    return bad;
}

/* Calls the sample loop: the noalias copy when the planes allow it. */
static void run_samples(HkHostGen *g, LLVMValueRef base, LLVMValueRef count)
{
    LLVMValueRef end = LLVMBuildAdd(g->b, base, count, "end");
    LLVMBasicBlockRef at = LLVMGetInsertBlock(g->b);
    LLVMValueRef fast = hk_host_samples_fn(g, 1);
    LLVMValueRef slow = hk_host_samples_fn(g, 0);
    LLVMPositionBuilderAtEnd(g->b, at);
    if (g->failed)
        return;
    LLVMValueRef disjoint = hk_host_disjoint(g, base, end);
    LLVMBasicBlockRef fast_bb = hk_host_block(g, "disjoint");
    LLVMBasicBlockRef slow_bb = hk_host_block(g, "overlapping");
    LLVMBasicBlockRef done = ret_block(g, STATUS_OK, "done");
    LLVMBuildCondBr(g->b, disjoint, fast_bb, slow_bb);
    LLVMPositionBuilderAtEnd(g->b, fast_bb);
    hk_host_call_samples(g, fast, base, end);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, slow_bb);
    hk_host_call_samples(g, slow, base, end);
    LLVMBuildBr(g->b, done);
}

void hk_host_entry(HkHostGen *g, const char *name)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(g->ctx);
    LLVMTypeRef params[4] = {LLVMPointerType(g->args_ty, 0), i64, i64, i64};
    LLVMTypeRef ft =
        LLVMFunctionType(LLVMInt32TypeInContext(g->ctx), params, 4, 0);
    g->fn = LLVMAddFunction(g->mod, name, ft);
    LLVMValueRef base = LLVMGetParam(g->fn, 1);
    LLVMValueRef count = LLVMGetParam(g->fn, 2);
    g->args = LLVMGetParam(g->fn, 0);
    g->n_samples = LLVMGetParam(g->fn, 3);
    LLVMSetValueName2(g->args, "args", 4);
    LLVMSetValueName2(base, "base", 4);
    LLVMSetValueName2(count, "count", 5);
    LLVMSetValueName2(g->n_samples, "n_samples", 9);

    g->entry_bb = hk_host_block(g, "entry");
    LLVMBasicBlockRef null_bb = ret_block(g, STATUS_NULL, "null");
    LLVMBasicBlockRef range_bb = ret_block(g, STATUS_RANGE, "range");
    LLVMPositionBuilderAtEnd(g->b, g->entry_bb);
    check(g, LLVMBuildIsNull(g->b, g->args, ""), null_bb, "args");
    hk_host_args_load(g);
    LLVMValueRef bad = any_null(g);
    if (bad != NULL)
        check(g, bad, null_bb, "planes");
    check(g, any_range(g, base, count), range_bb, "run");
    run_samples(g, base, count);
}
