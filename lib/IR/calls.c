/* calls.c -- the call graph below a function: the functions it reaches,
 * callees before their callers, and its longest chain of calls, found
 * with an explicit stack so that a chain of any length (the parser and
 * the verifier take 10^5 and more) costs no C stack.  A pass that
 * follows calls by recursion visits the functions in this order instead
 * (cost), or refuses past a stated depth (jvp, vjp: HK_CALL_DEPTH_MAX). */
#include <string.h>

#include "ir.h"

/* The callee of call i, or UINT32_MAX when i is no call of m's. */
static uint32_t callee_of(const HkModule *m, const HkInst *i)
{
    return i->op == HK_OP_CALL && i->x->callee < m->nfuncs ? i->x->callee
                                                            : UINT32_MAX;
}

uint32_t hk_call_order(HkArena *a, const HkModule *m, uint32_t root,
                       uint32_t **order, uint32_t **depth)
{
    uint32_t nf = m->nfuncs + 1u, n = 0, top = 0;
    uint32_t *out = hk_alloc(a, nf * sizeof *out);
    uint32_t *stack = hk_alloc(a, nf * sizeof *stack);
    uint32_t *deep = hk_alloc(a, nf * sizeof *deep);
    const HkInst **next = hk_alloc(a, nf * sizeof *next);
    uint8_t *state = hk_alloc(a, nf);  /* 0 new, 1 on the stack, 2 done */
    stack[top++] = root;
    state[root] = 1;
    next[root] = m->funcs[root]->body.first;
    while (top > 0) {
        uint32_t k = stack[top - 1];
        const HkInst *i = next[k];
        if (i == NULL) {  /* k is done: its chain lengthens its caller's */
            state[k] = 2;
            out[n++] = k;
            top--;
            if (top > 0 && deep[k] + 1u > deep[stack[top - 1]])
                deep[stack[top - 1]] = deep[k] + 1u;
            continue;
        }
        next[k] = hk_preorder_next(i);
        uint32_t c = callee_of(m, i);
        if (c == UINT32_MAX || state[c] == 1)
            continue;  /* recursion is the verifier's error */
        if (state[c] == 2) {
            if (deep[c] + 1u > deep[k])
                deep[k] = deep[c] + 1u;
            continue;
        }
        state[c] = 1;
        next[c] = m->funcs[c]->body.first;
        stack[top++] = c;
    }
    *order = out;
    if (depth != NULL)
        *depth = deep;
    return n;
}

const HkInst *hk_call_too_deep(HkArena *a, const HkFunc *f, uint32_t max)
{
    const HkModule *m = f->module;
    uint32_t root = hk_func_index(m, f->name, strlen(f->name));
    if (root >= m->nfuncs)
        return NULL;
    uint32_t *order, *depth;
    (void)hk_call_order(a, m, root, &order, &depth);
    /* levels: f, then one per call of the chain (inline's count) */
    if (depth[root] + 1u <= max)
        return NULL;
    /* the first call of f's whose callee's chain takes it past max */
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        uint32_t c = callee_of(m, i);
        if (c != UINT32_MAX && depth[c] + 2u > max)
            return i;
    }
    return NULL;
}
