/* instcount.c -- the instcount analysis: how many instructions of each
 * mnemonic a function holds, nested regions included. */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

typedef struct {
    uint32_t count[HK_OP_COUNT];
} InstCount;

int hk_pass_instcount(HawkPassRun *r, HkFunc *f)
{
    (void)r;
    InstCount *ic = hk_alloc(f->module->arena, sizeof *ic);
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        ic->count[i->op]++;
    hk_analysis_set(r, f, HK_PASS_INSTCOUNT, ic);
    return 0;
}

/* qsort order of op ids: by mnemonic. */
static int by_mnemonic(const void *a, const void *b)
{
    return strcmp(hk_ops[*(const int *)a].mnemonic,
                  hk_ops[*(const int *)b].mnemonic);
}

void hk_print_instcount(HkBuf *b, const HkFunc *f, const void *result)
{
    const InstCount *ic = result;
    int ops[HK_OP_COUNT];
    size_t n = 0;
    for (int op = 0; op < HK_OP_COUNT; op++)
        if (ic->count[op] > 0)
            ops[n++] = op;
    qsort(ops, n, sizeof ops[0], by_mnemonic);
    hk_buf_printf(b, "instcount @%s:\n", f->name);
    for (size_t k = 0; k < n; k++)
        hk_buf_printf(b, "  %u %s\n", ic->count[ops[k]], hk_ops[ops[k]].mnemonic);
}
