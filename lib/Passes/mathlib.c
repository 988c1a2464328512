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
    int bad = m == NULL || hawk_verify(ctx, m) != 0;
    if (ctx->oom)  /* memory ran out: the caller's failure too */
        hk_out_of_memory(ctx->arena);
    if (bad)
        hk_unreachable();
    r->math = m;
    return m;
}

int hk_math_operands(const HkFunc *f, const HkInst *i)
{
    if (i->nres != 1 || i->nops == 0)
        return 0;
    for (uint32_t k = 0; k < i->nops; k++)
        if (hk_value(f, i->ops[k])->type.elem != i->type.elem)
            return 0;  /* an integer operand: the op converts first */
    return 1;
}

const HkFunc *hk_math_for(HawkContext *ctx, const HkFunc *f, const HkInst *i)
{
    if (!hk_math_operands(f, i))
        return NULL;
    return hk_math_func(ctx, i->op, (HkElem)i->type.elem);
}

/* The functions the writers call where their ops are (hawk_<op>_<f> in
 * the runtime unit and in the host module), in name order: the runtime
 * unit's order.  Every one is called, none copied in per use: a copy per
 * component made a unit's length, flash and cppcheck's time grow with
 * its math ops (exp of a <3 x f64>: 421 lines and 66 s of cppcheck,
 * called 53 lines and 3 s; bench/units/run.sh), and sin, cos and tan
 * hold a loop over the digits of 2/pi that cost 5000 bytes of stack
 * bound per copy. */
/* The ops with a function of each width, in name order. */
#define MATH_OPS(X)                                                    \
    X(ACOS, acos) X(ACOSH, acosh) X(ASIN, asin) X(ASINH, asinh)         \
    X(ATAN, atan) X(ATAN2, atan2) X(ATANH, atanh) X(COS, cos)           \
    X(COSH, cosh) X(EXP, exp) X(EXPM1, expm1) X(HYPOT, hypot)           \
    X(LOG, log) X(LOG10, log10) X(LOG1P, log1p) X(LOG2, log2)           \
    X(POW, pow) X(SIN, sin) X(SINH, sinh) X(TAN, tan) X(TANH, tanh)

/* Both widths of one op, its name spelt once: id 2p is f32, 2p+1 f64. */
#define MATHFN(OP, op)                        \
    {HK_OP_##OP, HK_F32, "hawk_" #op "_f32"}, \
    {HK_OP_##OP, HK_F64, "hawk_" #op "_f64"},
static const struct {
    HkOp op;
    HkElem e;
    const char *name;
} mathfns[HK_MATHFN_COUNT] = {MATH_OPS(MATHFN)};
#undef MATHFN

/* Each op's pair plus one (0: none), so that an id is found by index:
 * the interpreter asks per execution of a math op. */
#define PAIR(OP, op) MATH_PAIR_##OP,
enum { MATH_OPS(PAIR) MATH_PAIRS };
#undef PAIR
#define PAIR_OF(OP, op) [HK_OP_##OP] = MATH_PAIR_##OP + 1,
static const uint8_t pair_of[HK_OP_COUNT] = {MATH_OPS(PAIR_OF)};
#undef PAIR_OF
_Static_assert(2 * MATH_PAIRS == HK_MATHFN_COUNT, "two widths per op");

uint32_t hk_mathfn_id(HkOp op, HkElem e)
{
    if ((unsigned)op >= HK_OP_COUNT || pair_of[op] == 0 ||
        (e != HK_F32 && e != HK_F64))
        return UINT32_MAX;
    return 2u * (pair_of[op] - 1u) + (e == HK_F64 ? 1u : 0u);
}

const char *hk_mathfn_name(uint32_t id)
{
    return mathfns[id].name;
}

HkOp hk_mathfn_op(uint32_t id)
{
    return mathfns[id].op;
}

HkElem hk_mathfn_elem(uint32_t id)
{
    return mathfns[id].e;
}

int hk_math_called(HkOp op)
{
    return hk_mathfn_id(op, HK_F64) != UINT32_MAX;
}

const HkFunc *hk_math_func(HawkContext *ctx, HkOp op, HkElem e)
{
    unsigned fl = hk_ops[op].flags;
    if (!(fl & HK_F_LIBM) || (fl & HK_F_EXACT) || (e != HK_F64 && e != HK_F32))
        return NULL;
    uint32_t id = hk_mathfn_id(op, e);
    if (id == UINT32_MAX)
        return NULL;
    /* the table's name, not one spelt per call: the interpreter asks per
     * execution of a math op, and the context's arena would grow by a
     * name each time */
    const HkModule *m = hk_math_module(ctx);
    const char *name = mathfns[id].name;
    uint32_t k = hk_func_index(m, name, strlen(name));
    return k < m->nfuncs ? m->funcs[k] : NULL;
}
