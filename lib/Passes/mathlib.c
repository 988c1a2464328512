/* mathlib.c -- hawk's own math: lib/Math/math.hir, built into the library
 * as text (cmake/embed.cmake), parsed and verified the first time a
 * context asks for it, and looked up by op and element type. */
#include <string.h>

#include "passctx.h"

extern const char hk_math_text[];
extern const size_t hk_math_text_len;

/* ctx's math module.  The text is part of the build and its tests parse
 * and verify it (test/Math), so a failure here is a defect of hawk. */
const HkModule *hk_math_module(HawkContext *ctx)
{
    struct HkRegistry *r = hk_registry(ctx);
    if (r->math != NULL)
        return r->math;
    HkModule *m = hawk_parse(ctx, "<hawk math>", hk_math_text,
                             hk_math_text_len);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        hk_unreachable();
    r->math = m;
    return m;
}

const HkFunc *hk_math_for(HawkContext *ctx, const HkFunc *f, const HkInst *i)
{
    if (i->nres != 1 || i->nops == 0)
        return NULL;
    HkElem e = (HkElem)i->type.elem;
    for (uint32_t k = 0; k < i->nops; k++)
        if (f->values[i->ops[k]].type.elem != e)
            return NULL;  /* an integer operand: the op converts first */
    return hk_math_func(ctx, i->op, e);
}

/* math.hir's functions no op is expanded to yet.  sin and cos reduce a
 * large argument by Payne and Hanek's method, a loop over the digits of
 * 2/pi: a copy per use costs about 5000 bytes of stack bound, and
 * cppcheck's time grows faster than the unit (haversine, four uses: 20 KB
 * and 110 s), so they wait for hawk's math to be emitted once, as
 * functions of the runtime unit.  They are measured all the same
 * (bench/math/trig*.hir call them). */
static int held_back(HkOp op)
{
    return op == HK_OP_SIN || op == HK_OP_COS;
}

const HkFunc *hk_math_func(HawkContext *ctx, HkOp op, HkElem e)
{
    unsigned fl = hk_ops[op].flags;
    if (!(fl & HK_F_LIBM) || (fl & HK_F_EXACT) || (e != HK_F64 && e != HK_F32) ||
        held_back(op))
        return NULL;
    const HkModule *m = hk_math_module(ctx);
    const char *name = hk_asprintf(ctx->arena, "hawk_%s_%s",
                                   hk_ops[op].mnemonic,
                                   e == HK_F64 ? "f64" : "f32");
    uint32_t k = hk_func_index(m, name, strlen(name));
    return k < m->nfuncs ? m->funcs[k] : NULL;
}
