/* cwriter_expr.c -- the C expression of each pure rank-0 op (LangRef is
 * the contract; docs/EmbeddedC.md "The C unit" the spelling).  Operands are
 * always named locals, so no expression nests a side effect and no cast
 * applies to a composite expression (MISRA C:2012 Rule 10.8).  Real ops
 * are infix with full parentheses, libm by name; integer arithmetic goes
 * through the helpers of chelpers.c. */
#include "cwriter.h"

static HkElem elem_of(const HkCW *w, HkVal v)
{
    return (HkElem)hk_value(w->f, v)->type.elem;
}

static int int_type(HkElem e, HkIntType *t)
{
    switch (e) {
    case HK_I64: *t = HK_IT_I64; return 1;
    case HK_I32: *t = HK_IT_I32; return 1;
    case HK_U32: *t = HK_IT_U32; return 1;
    default: return 0;
    }
}

/* hawk_<t>_<op>(a[, b]) for integer element e. */
static const char *int_call(HkCW *w, const HkInst *i, HkIntOp op)
{
    HkIntType t;
    if (!int_type(elem_of(w, i->ops[0]), &t)) {
        hk_cw_fail(w, i, "an integer op on a non-integer operand");
        return NULL;
    }
    uint32_t id = hk_ch_int(t, op);
    hk_cw_need(w, id);
    const char *name = hk_ch_name(w->a, id);
    if (i->nops == 1)
        return hk_asprintf(w->a, "%s(%s)", name, hk_cw_val(w, i->ops[0]));
    return hk_asprintf(w->a, "%s(%s, %s)", name, hk_cw_val(w, i->ops[0]),
                       hk_cw_val(w, i->ops[1]));
}

static const char *infix(HkCW *w, const HkInst *i, const char *op)
{
    return hk_asprintf(w->a, "(%s %s %s)", hk_cw_val(w, i->ops[0]), op,
                       hk_cw_val(w, i->ops[1]));
}

/* The position of logic op `op` in the writer's tables (and, or, xor,
 * not): by name, so nothing depends on the row order of ops.def. */
static uint32_t logic_index(HkOp op)
{
    switch (op) {
    case HK_OP_AND: return 0;
    case HK_OP_OR: return 1;
    case HK_OP_XOR: return 2;
    default: return 3; /* not */
    }
}

/* and, or, xor, not: logical on i1, infix on u32 (unsigned operands),
 * helpers on signed integers (MISRA C:2012 Rule 10.1). */
static const char *logic(HkCW *w, const HkInst *i)
{
    static const char *const bool_op[] = {"&&", "||", "!=", ""};
    static const char *const bit_op[] = {"&", "|", "^", ""};
    static const HkIntOp int_op[] = {HK_IO_AND, HK_IO_OR, HK_IO_XOR, HK_IO_NOT};
    uint32_t k = logic_index(i->op);
    HkElem e = elem_of(w, i->ops[0]);
    const char *a = hk_cw_val(w, i->ops[0]);
    if (e == HK_I1) {
        w->need_bool = 1;
        return i->op == HK_OP_NOT ? hk_asprintf(w->a, "!%s", a)
                                  : infix(w, i, bool_op[k]);
    }
    if (e == HK_U32)
        return i->op == HK_OP_NOT ? hk_asprintf(w->a, "~%s", a)
                                  : infix(w, i, bit_op[k]);
    return int_call(w, i, int_op[k]);
}

/* fcmp: an ordered predicate is the plain C comparison; an unordered one
 * the negation of the opposite ordered comparison, true on NaN. */
static const char *fcmp(HkCW *w, const HkInst *i)
{
    const char *a = hk_cw_val(w, i->ops[0]), *b = hk_cw_val(w, i->ops[1]);
    HkArena *ar = w->a;
    switch (i->pred) {
    case HK_P_OEQ: return infix(w, i, "==");
    case HK_P_OLT: return infix(w, i, "<");
    case HK_P_OLE: return infix(w, i, "<=");
    case HK_P_OGT: return infix(w, i, ">");
    case HK_P_OGE: return infix(w, i, ">=");
    case HK_P_ONE: return hk_asprintf(ar, "((%s < %s) || (%s > %s))", a, b, a, b);
    case HK_P_UEQ: return hk_asprintf(ar, "!((%s < %s) || (%s > %s))", a, b, a, b);
    case HK_P_UNE: return infix(w, i, "!=");
    case HK_P_ULT: return hk_asprintf(ar, "!(%s >= %s)", a, b);
    case HK_P_ULE: return hk_asprintf(ar, "!(%s > %s)", a, b);
    case HK_P_UGT: return hk_asprintf(ar, "!(%s <= %s)", a, b);
    case HK_P_UGE: return hk_asprintf(ar, "!(%s < %s)", a, b);
    case HK_P_ORD:
        w->need_math = 1;
        return hk_asprintf(ar, "((isnan(%s) == 0) && (isnan(%s) == 0))", a, b);
    case HK_P_UNO:
        w->need_math = 1;
        return hk_asprintf(ar, "((isnan(%s) != 0) || (isnan(%s) != 0))", a, b);
    default: break;
    }
    hk_cw_fail(w, i, "an fcmp predicate outside the ordered/unordered set");
    return NULL;
}

/* icmp on i1: false is 0 and true 1 under every predicate. */
static const char *icmp_bool(HkCW *w, const HkInst *i)
{
    const char *a = hk_cw_val(w, i->ops[0]), *b = hk_cw_val(w, i->ops[1]);
    HkArena *ar = w->a;
    switch (i->pred) {
    case HK_P_EQ: return infix(w, i, "==");
    case HK_P_NE: return infix(w, i, "!=");
    case HK_P_SLT:
    case HK_P_ULT_I: return hk_asprintf(ar, "((!%s) && %s)", a, b);
    case HK_P_SLE:
    case HK_P_ULE_I: return hk_asprintf(ar, "((!%s) || %s)", a, b);
    case HK_P_SGT:
    case HK_P_UGT_I: return hk_asprintf(ar, "(%s && (!%s))", a, b);
    case HK_P_SGE:
    case HK_P_UGE_I: return hk_asprintf(ar, "(%s || (!%s))", a, b);
    default: break;
    }
    hk_cw_fail(w, i, "an icmp predicate outside the integer set");
    return NULL;
}

/* icmp: the signed predicates read a u32 as int32_t, the unsigned ones a
 * signed operand as its unsigned twin (LangRef "Comparisons"). */
static const char *icmp(HkCW *w, const HkInst *i)
{
    static const char *const rel[] = {"==", "!=", "<", "<=", ">", ">=",
                                      "<", "<=", ">", ">="};
    HkElem e = elem_of(w, i->ops[0]);
    if (e == HK_I1)
        return icmp_bool(w, i);
    if (i->pred < HK_P_EQ || i->pred > HK_P_UGE_I) {
        hk_cw_fail(w, i, "an icmp predicate outside the integer set");
        return NULL;
    }
    uint32_t k = (uint32_t)(i->pred - HK_P_EQ);
    int is_unsigned_pred = i->pred >= HK_P_ULT_I;
    int is_signed_pred = i->pred >= HK_P_SLT && i->pred <= HK_P_SGE;
    const char *cast = NULL;
    if (is_unsigned_pred && e == HK_I64)
        cast = "uint64_t";
    else if (is_unsigned_pred && e == HK_I32)
        cast = "uint32_t";
    else if (is_signed_pred && e == HK_U32) {
        cast = "int32_t";
        /* a u32 above INT32_MAX converts as the implementation says */
        w->impl_defined |= HK_IDB_BIT(SIGNED_CONVERSION);
    }
    if (cast == NULL)
        return infix(w, i, rel[k]);
    return hk_asprintf(w->a, "((%s)%s %s (%s)%s)", cast, hk_cw_val(w, i->ops[0]),
                       rel[k], cast, hk_cw_val(w, i->ops[1]));
}

/* fptosi through the numerics core: saturating, NaN to 0. */
static const char *fptosi(HkCW *w, const HkInst *i)
{
    int from32 = elem_of(w, i->ops[0]) == HK_F32;
    int to64 = i->type.elem == HK_I64;
    uint32_t id = from32 ? (to64 ? HK_CH_F32_TO_I64 : HK_CH_F32_TO_I32)
                         : (to64 ? HK_CH_F64_TO_I64 : HK_CH_F64_TO_I32);
    hk_cw_need(w, id);
    return hk_asprintf(w->a, "%s(%s)", hk_ch_name(w->a, id),
                       hk_cw_val(w, i->ops[0]));
}

/* zext: an i1 becomes 1 or 0 through a selection (a cast from a boolean
 * breaks MISRA C:2012 Rule 10.5); a u32 widens by a cast. */
static const char *zext(HkCW *w, const HkInst *i)
{
    const char *a = hk_cw_val(w, i->ops[0]);
    HkElem to = (HkElem)i->type.elem;
    if (elem_of(w, i->ops[0]) != HK_I1)
        return hk_asprintf(w->a, "(%s)%s", hk_cw_ctype(w, to), a);
    HkConst one = {1, NULL, (int64_t[]){1}}, zero = {1, NULL, (int64_t[]){0}};
    return hk_asprintf(w->a, "(%s ? %s : %s)", a, hk_cw_literal(w, &one, 0, to),
                       hk_cw_literal(w, &zero, 0, to));
}

static const char *conversion(HkCW *w, const HkInst *i)
{
    const char *a = hk_cw_val(w, i->ops[0]);
    const char *to = hk_cw_ctype(w, (HkElem)i->type.elem);
    switch (i->op) {
    case HK_OP_FPTOSI: return fptosi(w, i);
    case HK_OP_ZEXT: return zext(w, i);
    case HK_OP_BITCAST: {
        uint32_t id = hk_ch_bitcast(elem_of(w, i->ops[0]), (HkElem)i->type.elem);
        hk_cw_need(w, id);
        return hk_asprintf(w->a, "%s(%s)", hk_ch_name(w->a, id), a);
    }
    case HK_OP_TRUNC:
        if (i->type.elem == HK_I32) {
            hk_cw_need(w, HK_CH_I64_TO_I32);
            return hk_asprintf(w->a, "hawk_i64_to_i32(%s)", a);
        }
        return hk_asprintf(w->a, "(%s)%s", to, a);
    default:
        /* sitofp, uitofp, fpext, fptrunc, sext: a cast of a named value.
         * An i64 to a real, an i32 or u32 to f32 and an f64 to f32 may not
         * be exact: C leaves the direction of their rounding to the
         * implementation. */
        if (i->op == HK_OP_FPTRUNC ||
            ((i->op == HK_OP_SITOFP || i->op == HK_OP_UITOFP) &&
             (elem_of(w, i->ops[0]) == HK_I64 || i->type.elem == HK_F32)))
            w->impl_defined |= HK_IDB_BIT(CONVERSION_ROUNDING);
        return hk_asprintf(w->a, "(%s)%s", to, a);
    }
}

/* The libm function op calls on element e (sqrt, sqrtf in float),
 * recorded for the report and <math.h>. */
static const char *libm_call(HkCW *w, HkOp op, HkElem e)
{
    const char *name = hk_libm_name(w->a, op, e);
    hk_cw_libm(w, name);
    return name;
}

static const char *math(HkCW *w, const HkInst *i)
{
    HkElem e = elem_of(w, i->ops[0]);
    if (!hk_is_float(e)) {
        hk_cw_fail(w, i, "a libm function of an integer (int_libm)");
        return NULL;
    }
    uint32_t id = hk_mathfn_of(w->l, i);
    const char *fn;
    if (id != UINT32_MAX) {
        w->need_fn[id] = 1;  /* hawk's, in the runtime unit */
        fn = hk_mathfn_name(id);
    } else {
        fn = libm_call(w, i->op, e);
    }
    const char *a = hk_cw_val(w, i->ops[0]);
    if (i->nops == 2)
        return hk_asprintf(w->a, "%s(%s, %s)", fn, a, hk_cw_val(w, i->ops[1]));
    return hk_asprintf(w->a, "%s(%s)", fn, a);
}

/* minimum/maximum: the numerics core on reals, helpers on integers. */
static const char *minmax_call(HkCW *w, const HkInst *i, int is_min,
                               const char *a, const char *b)
{
    HkElem e = elem_of(w, i->ops[0]);
    HkIntType t;
    uint32_t id;
    if (e == HK_F64)
        id = is_min ? HK_CH_F64_MIN : HK_CH_F64_MAX;
    else if (e == HK_F32)
        id = is_min ? HK_CH_F32_MIN : HK_CH_F32_MAX;
    else if (int_type(e, &t))
        id = hk_ch_int(t, is_min ? HK_IO_MIN : HK_IO_MAX);
    else {
        hk_cw_fail(w, i, "minimum or maximum of a mask");
        return NULL;
    }
    hk_cw_need(w, id);
    return hk_asprintf(w->a, "%s(%s, %s)", hk_ch_name(w->a, id), a, b);
}

static const char *abs_expr(HkCW *w, const HkInst *i)
{
    HkElem e = elem_of(w, i->ops[0]);
    if (hk_is_float(e))
        return hk_asprintf(w->a, "%s(%s)", libm_call(w, HK_OP_ABS, e),
                           hk_cw_val(w, i->ops[0]));
    if (e == HK_U32)
        return hk_cw_val(w, i->ops[0]);  /* an unsigned value is its own abs */
    return int_call(w, i, HK_IO_ABS);
}

/* ---- a value against itself ------------------------------------------------ */

/* cse merges equal values, so an op may take one value twice.  Spelled
 * as is, `a < a` or `c ? a : a` is a condition cppcheck reports as known
 * (duplicateExpression, knownConditionTrueFalse), so these ops are spelled
 * by what they give for every a, NaN included.  NULL: the op is spelled as
 * usual. */
static const char *fcmp_self(HkCW *w, const HkInst *i, const char *a)
{
    switch (i->pred) {
    case HK_P_OEQ:
    case HK_P_OLE:
    case HK_P_OGE:
    case HK_P_ORD:
        w->need_math = 1;
        return hk_asprintf(w->a, "(isnan(%s) == 0)", a);
    case HK_P_UNE:
    case HK_P_ULT:
    case HK_P_UGT:
    case HK_P_UNO:
        w->need_math = 1;
        return hk_asprintf(w->a, "(isnan(%s) != 0)", a);
    case HK_P_ONE:
    case HK_P_OLT:
    case HK_P_OGT: return "false";
    default: return "true";  /* ueq, ule, uge */
    }
}

static const char *icmp_self(const HkInst *i)
{
    switch (i->pred) {
    case HK_P_EQ:
    case HK_P_SLE:
    case HK_P_SGE:
    case HK_P_ULE_I:
    case HK_P_UGE_I: return "true";
    default: return "false";
    }
}

/* a / a: 1 for a finite non-zero a; else (a * 0) / 0, the NaN a / a
 * gives, bit for bit (the invalid operation's default NaN, or a's own). */
static const char *fdiv_self(HkCW *w, HkElem e, const char *a)
{
    const char *f = e == HK_F32 ? "F" : "";
    w->need_math = 1;
    return hk_asprintf(w->a,
                       "(((isfinite(%s) != 0) && (%s != 0.0%s)) ? 1.0%s : "
                       "((%s * 0.0%s) / 0.0%s))",
                       a, a, f, f, a, f, f);
}

typedef enum { SELF_NO, SELF_READS_ONE, SELF_READS_NONE } SelfKind;

/* Whether i takes one value twice and is spelled by its result, and
 * whether that result still reads the value. */
static SelfKind self_kind(const HkCW *w, const HkInst *i)
{
    if (i->op == HK_OP_SELECT)
        return w->canon[i->ops[1]] == w->canon[i->ops[2]] ? SELF_READS_ONE
                                                         : SELF_NO;
    if (i->nops != 2 || w->canon[i->ops[0]] != w->canon[i->ops[1]])
        return SELF_NO;
    HkElem e = elem_of(w, i->ops[0]);
    switch (i->op) {
    case HK_OP_FCMP:
        switch (i->pred) {
        case HK_P_ONE: case HK_P_OLT: case HK_P_OGT:
        case HK_P_UEQ: case HK_P_ULE: case HK_P_UGE: return SELF_READS_NONE;
        default: return SELF_READS_ONE;
        }
    case HK_OP_ICMP: return SELF_READS_NONE;
    case HK_OP_FDIV: return SELF_READS_ONE;
    case HK_OP_AND:
    case HK_OP_OR:
        return e == HK_I1 || e == HK_U32 ? SELF_READS_ONE : SELF_NO;
    case HK_OP_XOR:
        return e == HK_I1 || e == HK_U32 ? SELF_READS_NONE : SELF_NO;
    default: return SELF_NO;
    }
}

int hk_cw_reads(const HkCW *w, const HkInst *i, uint32_t k)
{
    switch (self_kind(w, i)) {
    case SELF_NO: return 1;
    case SELF_READS_ONE: return k == (i->op == HK_OP_SELECT ? 1u : 0u);
    default: return 0;
    }
}

static const char *self_expr(HkCW *w, const HkInst *i)
{
    HkElem e = elem_of(w, i->ops[0]);
    if (self_kind(w, i) == SELF_NO)
        return NULL;
    if (i->op == HK_OP_SELECT) {
        w->note = "both choices are one value";
        return hk_cw_val(w, i->ops[1]);
    }
    const char *a = hk_cw_val(w, i->ops[0]);
    switch (i->op) {
    case HK_OP_FCMP:
        w->note = "a value compared with itself: its result for every value";
        return fcmp_self(w, i, a);
    case HK_OP_ICMP:
        w->note = "a value compared with itself";
        return icmp_self(i);
    case HK_OP_FDIV:
        w->note = "a value divided by itself: 1, or the NaN a / a gives";
        return fdiv_self(w, e, a);
    case HK_OP_AND:
    case HK_OP_OR:
        w->note = "a value combined with itself is itself";
        return a;
    case HK_OP_XOR:
        w->note = "a value exclusive-or itself is zero";
        return e == HK_I1 ? "false" : "UINT32_C(0)";
    default: return NULL;
    }
}

/* The C operator of a real arithmetic op. */
static const char *farith_op(HkOp op)
{
    switch (op) {
    case HK_OP_FADD: return "+";
    case HK_OP_FSUB: return "-";
    case HK_OP_FMUL: return "*";
    default: return "/"; /* fdiv */
    }
}

/* The integer helper of an integer arithmetic op. */
static HkIntOp iarith_op(HkOp op)
{
    switch (op) {
    case HK_OP_ADD: return HK_IO_ADD;
    case HK_OP_SUB: return HK_IO_SUB;
    case HK_OP_MUL: return HK_IO_MUL;
    case HK_OP_DIV: return HK_IO_DIV;
    case HK_OP_FLOORDIV: return HK_IO_FLOORDIV;
    case HK_OP_MOD: return HK_IO_MOD;
    case HK_OP_SHL: return HK_IO_SHL;
    default: return HK_IO_SHR; /* shr */
    }
}

const char *hk_cw_expr(HkCW *w, const HkInst *i)
{
    const char *self = self_expr(w, i);
    if (self != NULL)
        return self;
    switch (hk_ops[i->op].rule) {
    case HK_R_FARITH: return infix(w, i, farith_op(i->op));
    case HK_R_FUNARY: return hk_asprintf(w->a, "-%s", hk_cw_val(w, i->ops[0]));
    case HK_R_IARITH: return int_call(w, i, iarith_op(i->op));
    case HK_R_IUNARY: return int_call(w, i, HK_IO_NEG);
    case HK_R_LOGIC:
    case HK_R_LOGICNOT: return logic(w, i);
    case HK_R_FCMP: w->need_bool = 1; return fcmp(w, i);
    case HK_R_ICMP: w->need_bool = 1; return icmp(w, i);
    case HK_R_SELECT:
        return hk_asprintf(w->a, "(%s ? %s : %s)", hk_cw_val(w, i->ops[0]),
                           hk_cw_val(w, i->ops[1]), hk_cw_val(w, i->ops[2]));
    case HK_R_CONV: return conversion(w, i);
    case HK_R_MATH1:
    case HK_R_MATH2: return math(w, i);
    case HK_R_ABS: return abs_expr(w, i);
    case HK_R_MINMAX:
        return minmax_call(w, i, i->op == HK_OP_MINIMUM, hk_cw_val(w, i->ops[0]),
                           hk_cw_val(w, i->ops[1]));
    default: break;
    }
    /* the scalar-form check at entry keeps every other op out */
    hk_cw_fail(w, i, hk_asprintf(w->a, "'%s' has no C spelling",
                                 hk_ops[i->op].mnemonic));
    return NULL;
}
