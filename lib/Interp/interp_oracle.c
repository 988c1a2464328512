/* interp_oracle.c -- the HIR interpreter as the export's oracle: the
 * known answers a C unit's self-test records, computed with neither LLVM
 * nor a C compiler, for a program that links libhawk alone. */
#include "context.h"
#include "hawk/emit.h"
#include "interp.h"

/* Runs l's kernel in the interpreter over each args: samples [0, n) of
 * n.  hawk's math functions the kernel calls are lowered in a context of
 * the oracle's own, so the caller's is left as it was. */
static int run_unit(const HkLowered *l, void *const *args, uint32_t nargs,
                    int64_t n, int32_t *status, HkDiags *d)
{
    HawkContext *ctx = hawk_context_create();
    if (ctx == NULL)
        return -1;
    HkInterp *ip = hk_interp_new(ctx->arena, ctx, l, d);
    for (uint32_t k = 0; ip != NULL && k < nargs; k++)
        status[k] = hk_interp_entry(ip, args[k], 0, n, n);
    hawk_context_destroy(ctx);
    return ip != NULL ? 0 : -1;
}

static const HawkUnitOracle oracle = {"HIR interpreter", run_unit};

const HawkUnitOracle *hawk_interp_oracle(void)
{
    return &oracle;
}
