/* hostoracle.c -- the host build as the export's oracle: the known
 * answers a C unit's self-test records are what the kernel's host unit,
 * built in memory, computes over the vectors the export drew. */
#include "hostint.h"
#include "hawk/host.h"

/* Launches of l's host unit over each args: samples [0, n) of n. */
static int run_unit(const HkLowered *l, void *const *args, uint32_t nargs,
                    int64_t n, int32_t *status, HkDiags *d)
{
    HkHostJit *jit;
    HkHostEntry entry;
    if (hk_host_jit(l, &jit, &entry, d) != 0)
        return -1;
    for (uint32_t k = 0; k < nargs; k++)
        status[k] = entry(args[k], 0, n, n);
    hk_host_jit_free(jit);
    return 0;
}

static const HawkUnitOracle oracle = {"host build", run_unit};

const HawkUnitOracle *hawk_host_oracle(void)
{
    return &oracle;
}
