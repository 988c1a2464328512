/* chelpers.c -- the static functions a C unit may carry: the index clamp
 * and the integer helpers (report key `helpers`), the real minimum and
 * maximum and the real-to-integer conversions (the numerics core, report
 * key `core`, version hawk-core/1).
 *
 * Each gives LangRef's defined result where C leaves the operation
 * undefined or implementation-defined: signed arithmetic wraps through
 * the unsigned twin type, a zero divisor gives 0, MIN / -1 gives MIN,
 * shift counts outside [0, width) give 0 or the sign fill, a conversion
 * saturates and maps NaN to 0.  Every function has one exit point and
 * full parentheses (MISRA C:2012 Rules 15.5 and 12.1); bitwise operators
 * and shifts see only unsigned operands (Rule 10.1); a signed result is
 * converted back from the unsigned twin only through a named object, never
 * from a composite expression (Rule 10.8).
 *
 * The texts are templates: $T is the C type, $U its unsigned twin, $N the
 * type's tag (i64), $W its width, $C( and $UC( its constant macros, $MAX
 * its largest value, $R the real type of a core function, $F the literal
 * suffix of that real type.
 */
#include <string.h>

#include "cwriter.h"

typedef struct {
    const char *tag, *type, *utype, *width, *cmacro, *ucmacro, *max;
} IntSpell;

static const IntSpell int_spell[HK_IT_COUNT] = {
    {"i64", "int64_t", "uint64_t", "64", "INT64_C(", "UINT64_C(", "INT64_MAX"},
    {"i32", "int32_t", "uint32_t", "32", "INT32_C(", "UINT32_C(", "INT32_MAX"},
    {"u32", "uint32_t", "uint32_t", "32", "UINT32_C(", "UINT32_C(", "UINT32_MAX"},
};

static const char *const int_op_name[HK_IO_COUNT] = {
    "add", "sub", "mul", "neg", "div", "floordiv", "mod", "shl", "shr",
    "abs", "min", "max", "and", "or", "xor", "not",
};

/* ---- signed templates (i64, i32) ---------------------------------------- */

static const char *const signed_text[HK_IO_COUNT] = {
    [HK_IO_ADD] =
        "/* Wrapping addition (LangRef): computed in the unsigned twin, where\n"
        " * overflow is defined, then read back as two's complement. */\n"
        "static $T hawk_$N_add($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a + ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_SUB] =
        "/* Wrapping subtraction (LangRef), in the unsigned twin. */\n"
        "static $T hawk_$N_sub($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a - ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_MUL] =
        "/* Wrapping multiplication (LangRef), in the unsigned twin. */\n"
        "static $T hawk_$N_mul($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a * ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_NEG] =
        "/* Wrapping negation (LangRef): 0 - a in the unsigned twin, so the\n"
        " * negation of the minimum is the minimum. */\n"
        "static $T hawk_$N_neg($T a)\n"
        "{\n"
        "    const $U s = $UC(0) - ($U)a;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_DIV] =
        "/* Truncating division (LangRef): a zero divisor gives 0 and MIN / -1\n"
        " * gives MIN, the two cases C leaves undefined. */\n"
        "static $T hawk_$N_div($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if (b == $C(0)) {\n"
        "        r = $C(0);\n"
        "    } else if (b == $C(-1)) {\n"
        "        const $U s = $UC(0) - ($U)a;\n"
        "        r = ($T)s;\n"
        "    } else {\n"
        "        r = a / b;\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_FLOORDIV] =
        "/* Floor division (LangRef, rounding down as Python does): the\n"
        " * truncated quotient, one less when the remainder is not zero and the\n"
        " * signs differ; a zero divisor gives 0 and MIN floordiv -1 gives MIN. */\n"
        "static $T hawk_$N_floordiv($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if (b == $C(0)) {\n"
        "        r = $C(0);\n"
        "    } else if (b == $C(-1)) {\n"
        "        const $U s = $UC(0) - ($U)a;\n"
        "        r = ($T)s;\n"
        "    } else {\n"
        "        const $T q = a / b;\n"
        "        const $T m = a % b;\n"
        "        if ((m != $C(0)) && ((m < $C(0)) != (b < $C(0)))) {\n"
        "            r = q - $C(1);\n"
        "        } else {\n"
        "            r = q;\n"
        "        }\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_MOD] =
        "/* Floor modulo (LangRef, Python's %): the result has the sign of the\n"
        " * divisor; a zero divisor gives 0, and so does -1 (where C's MIN % -1\n"
        " * is undefined). */\n"
        "static $T hawk_$N_mod($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if ((b == $C(0)) || (b == $C(-1))) {\n"
        "        r = $C(0);\n"
        "    } else {\n"
        "        const $T m = a % b;\n"
        "        if ((m != $C(0)) && ((m < $C(0)) != (b < $C(0)))) {\n"
        "            r = m + b;\n"
        "        } else {\n"
        "            r = m;\n"
        "        }\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_SHL] =
        "/* Left shift (LangRef): the bits move in the unsigned twin; a count\n"
        " * outside [0, $W) gives 0. */\n"
        "static $T hawk_$N_shl($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if ((b >= $C(0)) && (b < $C($W))) {\n"
        "        const $U s = ($U)a << ($U)b;\n"
        "        r = ($T)s;\n"
        "    } else {\n"
        "        r = $C(0);\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_SHR] =
        "/* Arithmetic right shift (LangRef): a negative value is complemented\n"
        " * around a logical shift, so the sign fills in, by a mask (m, all\n"
        " * ones for a negative value) rather than a branch, which would follow\n"
        " * the value's sign; a count outside [0, $W) gives the sign fill. */\n"
        "static $T hawk_$N_shr($T a, $T b)\n"
        "{\n"
        "    const $U u = ($U)a;\n"
        "    const $U m = (a < $C(0)) ? ~$UC(0) : $UC(0);\n"
        "    $U s;\n"
        "    if ((b >= $C(0)) && (b < $C($W))) {\n"
        "        s = ((u ^ m) >> ($U)b) ^ m;\n"
        "    } else {\n"
        "        s = m;\n"
        "    }\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_ABS] =
        "/* Absolute value (LangRef): negated in the unsigned twin, so the\n"
        " * absolute value of the minimum is the minimum. */\n"
        "static $T hawk_$N_abs($T a)\n"
        "{\n"
        "    $T r;\n"
        "    if (a < $C(0)) {\n"
        "        const $U s = $UC(0) - ($U)a;\n"
        "        r = ($T)s;\n"
        "    } else {\n"
        "        r = a;\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_MIN] =
        "/* The smaller of a and b (LangRef minimum on integers). */\n"
        "static $T hawk_$N_min($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if (a < b) {\n"
        "        r = a;\n"
        "    } else {\n"
        "        r = b;\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_MAX] =
        "/* The larger of a and b (LangRef maximum on integers). */\n"
        "static $T hawk_$N_max($T a, $T b)\n"
        "{\n"
        "    $T r;\n"
        "    if (a > b) {\n"
        "        r = a;\n"
        "    } else {\n"
        "        r = b;\n"
        "    }\n"
        "    return r;\n"
        "}\n",
    [HK_IO_AND] =
        "/* Bitwise and (LangRef) of the two's complement bits, taken in the\n"
        " * unsigned twin: MISRA C:2012 Rule 10.1 keeps bitwise operators off\n"
        " * signed operands. */\n"
        "static $T hawk_$N_and($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a & ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_OR] =
        "/* Bitwise or (LangRef), in the unsigned twin (Rule 10.1). */\n"
        "static $T hawk_$N_or($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a | ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_XOR] =
        "/* Bitwise exclusive or (LangRef), in the unsigned twin (Rule 10.1). */\n"
        "static $T hawk_$N_xor($T a, $T b)\n"
        "{\n"
        "    const $U s = ($U)a ^ ($U)b;\n"
        "    return ($T)s;\n"
        "}\n",
    [HK_IO_NOT] =
        "/* Bitwise complement (LangRef), in the unsigned twin (Rule 10.1). */\n"
        "static $T hawk_$N_not($T a)\n"
        "{\n"
        "    const $U s = ~($U)a;\n"
        "    return ($T)s;\n"
        "}\n",
};

/* ---- unsigned templates (u32): C's unsigned arithmetic already wraps ----
 * min and max have none: the signed texts compare in $T, which serves an
 * unsigned type as it is (write_int).  abs and the bitwise ops have none
 * either: the C writer spells them inline on u32. */

/* The body of a u32 division or remainder: expr, or 0 for a zero
 * divisor. */
#define UNSIGNED_BY_NONZERO(expr)                                            \
    "{\n"                                                                    \
    "    $T r;\n"                                                            \
    "    if (b == $C(0)) {\n"                                                \
    "        r = $C(0);\n"                                                   \
    "    } else {\n"                                                         \
    "        r = " expr ";\n"                                                \
    "    }\n"                                                                \
    "    return r;\n"                                                        \
    "}\n"

/* The body of a u32 shift: expr, or 0 for a count outside [0, $W). */
#define UNSIGNED_SHIFT(expr)                                                 \
    "{\n"                                                                    \
    "    $T r;\n"                                                            \
    "    if (b < $C($W)) {\n"                                                \
    "        r = " expr ";\n"                                                \
    "    } else {\n"                                                         \
    "        r = $C(0);\n"                                                   \
    "    }\n"                                                                \
    "    return r;\n"                                                        \
    "}\n"

static const char *const unsigned_text[HK_IO_COUNT] = {
    [HK_IO_ADD] =
        "/* Wrapping addition (LangRef): unsigned arithmetic wraps in C. */\n"
        "static $T hawk_$N_add($T a, $T b)\n"
        "{\n"
        "    return a + b;\n"
        "}\n",
    [HK_IO_SUB] =
        "/* Wrapping subtraction (LangRef). */\n"
        "static $T hawk_$N_sub($T a, $T b)\n"
        "{\n"
        "    return a - b;\n"
        "}\n",
    [HK_IO_MUL] =
        "/* Wrapping multiplication (LangRef). */\n"
        "static $T hawk_$N_mul($T a, $T b)\n"
        "{\n"
        "    return a * b;\n"
        "}\n",
    [HK_IO_NEG] =
        "/* Wrapping negation (LangRef): 0 - a. */\n"
        "static $T hawk_$N_neg($T a)\n"
        "{\n"
        "    return $C(0) - a;\n"
        "}\n",
    [HK_IO_DIV] =
        "/* Unsigned division (LangRef): a zero divisor gives 0. */\n"
        "static $T hawk_$N_div($T a, $T b)\n"
        UNSIGNED_BY_NONZERO("a / b"),
    [HK_IO_FLOORDIV] =
        "/* Floor division (LangRef): on unsigned operands the truncated\n"
        " * quotient; a zero divisor gives 0. */\n"
        "static $T hawk_$N_floordiv($T a, $T b)\n"
        UNSIGNED_BY_NONZERO("a / b"),
    [HK_IO_MOD] =
        "/* Unsigned remainder (LangRef mod): a zero divisor gives 0. */\n"
        "static $T hawk_$N_mod($T a, $T b)\n"
        UNSIGNED_BY_NONZERO("a % b"),
    [HK_IO_SHL] =
        "/* Left shift (LangRef): a count outside [0, $W) gives 0. */\n"
        "static $T hawk_$N_shl($T a, $T b)\n"
        UNSIGNED_SHIFT("a << b"),
    [HK_IO_SHR] =
        "/* Logical right shift (LangRef): a count outside [0, $W) gives 0. */\n"
        "static $T hawk_$N_shr($T a, $T b)\n"
        UNSIGNED_SHIFT("a >> b"),
};

/* ---- the others ------------------------------------------------------------ */

static const char clamp_text[] =
    "/* The index k held to [0, len - 1] (LangRef \"Index clamping\"): no\n"
    " * index the kernel computes reads or writes outside its plane.  The\n"
    " * entry has checked len >= 1. */\n"
    "static int64_t hawk_clamp_index(int64_t k, int64_t len)\n"
    "{\n"
    "    int64_t r;\n"
    "    if (k < INT64_C(0)) {\n"
    "        r = INT64_C(0);\n"
    "    } else if (k >= len) {\n"
    "        r = len - INT64_C(1);\n"
    "    } else {\n"
    "        r = k;\n"
    "    }\n"
    "    return r;\n"
    "}\n";

static const char trunc_text[] =
    "/* The low 32 bits of k (LangRef trunc), read through the unsigned twin\n"
    " * as two's complement. */\n"
    "static int32_t hawk_i64_to_i32(int64_t k)\n"
    "{\n"
    "    const uint32_t low = (uint32_t)k;\n"
    "    return (int32_t)low;\n"
    "}\n";

/* bitcast (LangRef): no cast or union of C reads a real's bits, and
 * memcpy between a real and an integer breaks Rule 21.15; Rule 11.3 lets
 * any object be read and written through a pointer to a character type,
 * so the bytes are copied one by one (compilers make one move of it). */
static const char bitcast_text[] =
    "/* bitcast (LangRef): the bits of x read as $TO, copied byte by byte\n"
    " * through character pointers (Rule 11.3's exception). */\n"
    "static $TO hawk_$A_as_$B($FROM x)\n"
    "{\n"
    "    $TO r = $ZERO;\n"
    "    const uint8_t *const s = (const uint8_t *)&x;\n"
    "    uint8_t *const d = (uint8_t *)&r;\n"
    "    uint32_t k;\n"
    "    for (k = 0U; k < $NU; ++k) {\n"
    "        d[k] = s[k];\n"
    "    }\n"
    "    return r;\n"
    "}\n";

static const char min_text[] =
    "/* minimum (LangRef): NaN when either operand is NaN (the first one),\n"
    " * else a < b ? a : b, so minimum(-0.0, +0.0) is +0.0. */\n"
    "static $R hawk_$N_min($R a, $R b)\n"
    "{\n"
    "    $R r;\n"
    "    if (isnan(a) != 0) {\n"
    "        r = a;\n"
    "    } else if (isnan(b) != 0) {\n"
    "        r = b;\n"
    "    } else if (a < b) {\n"
    "        r = a;\n"
    "    } else {\n"
    "        r = b;\n"
    "    }\n"
    "    return r;\n"
    "}\n";

static const char max_text[] =
    "/* maximum (LangRef): NaN when either operand is NaN (the first one),\n"
    " * else a > b ? a : b. */\n"
    "static $R hawk_$N_max($R a, $R b)\n"
    "{\n"
    "    $R r;\n"
    "    if (isnan(a) != 0) {\n"
    "        r = a;\n"
    "    } else if (isnan(b) != 0) {\n"
    "        r = b;\n"
    "    } else if (a > b) {\n"
    "        r = a;\n"
    "    } else {\n"
    "        r = b;\n"
    "    }\n"
    "    return r;\n"
    "}\n";

/* $LO: a value at or below which the conversion saturates to the minimum
 * ("x < -2^63" or "x <= -2^31 - 1"), $HI the bound at or above which it
 * saturates to the maximum. */
static const char to_int_text[] =
    "/* fptosi (LangRef): truncation toward zero; NaN gives 0 and a value\n"
    " * outside the range saturates, where C leaves the conversion\n"
    " * undefined. */\n"
    "static $T hawk_$N_to_$I($R x)\n"
    "{\n"
    "    $T r;\n"
    "    if (isnan(x) != 0) {\n"
    "        r = $C(0);\n"
    "    } else if (x >= $HI) {\n"
    "        r = $MAX;\n"
    "    } else if ($LO) {\n"
    "        r = -$MAX - $C(1);\n"
    "    } else {\n"
    "        r = ($T)x;\n"
    "    }\n"
    "    return r;\n"
    "}\n";

/* ---- ids and names ---------------------------------------------------------- */

uint32_t hk_ch_int(HkIntType t, HkIntOp op)
{
    return (uint32_t)HK_CH_INT + (uint32_t)t * HK_IO_COUNT + (uint32_t)op;
}

/* The pairs of bitcast's helpers, in id order from HK_CH_F64_AS_I64. */
static const HkElem bitcast_pair[][2] = {
    {HK_F64, HK_I64}, {HK_I64, HK_F64}, {HK_F32, HK_I32},
    {HK_I32, HK_F32}, {HK_F32, HK_U32}, {HK_U32, HK_F32},
};
#define NBITCAST (sizeof bitcast_pair / sizeof bitcast_pair[0])

uint32_t hk_ch_bitcast(HkElem from, HkElem to)
{
    for (uint32_t k = 0; k < NBITCAST; k++)
        if (bitcast_pair[k][0] == from && bitcast_pair[k][1] == to)
            return HK_CH_F64_AS_I64 + k;
    hk_unreachable();  /* the verifier allows no other pair */
}

/* Whether id is a bitcast helper; sets its pair. */
static int bitcast_helper(uint32_t id, HkElem *from, HkElem *to)
{
    if (id < HK_CH_F64_AS_I64 || id >= HK_CH_F64_AS_I64 + NBITCAST)
        return 0;
    *from = bitcast_pair[id - HK_CH_F64_AS_I64][0];
    *to = bitcast_pair[id - HK_CH_F64_AS_I64][1];
    return 1;
}

/* Whether id is an integer helper; sets its type and op. */
static int int_helper(uint32_t id, HkIntType *t, HkIntOp *op)
{
    if (id < HK_CH_INT || id >= HK_CH_I64_TO_I32)
        return 0;
    *t = (HkIntType)((id - HK_CH_INT) / HK_IO_COUNT);
    *op = (HkIntOp)((id - HK_CH_INT) % HK_IO_COUNT);
    return 1;
}

unsigned hk_ch_impl_defined(uint32_t id)
{
    HkIntType t;
    HkIntOp op;
    HkElem from, to;
    if (id == HK_CH_I64_TO_I32)
        return HK_IDB_BIT(SIGNED_CONVERSION);
    if (bitcast_helper(id, &from, &to))  /* binary64 and binary32 bits */
        return HK_IDB_BIT(IEEE_REALS) | HK_IDB_BIT(REAL_BYTES);
    if (!int_helper(id, &t, &op) || t == HK_IT_U32)
        return 0;
    /* every signed text but these returns ($T) of an unsigned twin */
    if (op == HK_IO_MOD || op == HK_IO_MIN || op == HK_IO_MAX)
        return 0;
    return HK_IDB_BIT(SIGNED_CONVERSION);
}

const char *hk_ch_name(HkArena *a, uint32_t id)
{
    HkIntType t;
    HkIntOp op;
    HkElem from, to;
    if (int_helper(id, &t, &op))
        return hk_asprintf(a, "hawk_%s_%s", int_spell[t].tag, int_op_name[op]);
    if (bitcast_helper(id, &from, &to))
        return hk_asprintf(a, "hawk_%s_as_%s", hk_elem_name(from), hk_elem_name(to));
    switch (id) {
    case HK_CH_CLAMP_INDEX: return "hawk_clamp_index";
    case HK_CH_I64_TO_I32: return "hawk_i64_to_i32";
    case HK_CH_F64_MIN: return "hawk_f64_min";
    case HK_CH_F64_MAX: return "hawk_f64_max";
    case HK_CH_F32_MIN: return "hawk_f32_min";
    case HK_CH_F32_MAX: return "hawk_f32_max";
    case HK_CH_F64_TO_I64: return "hawk_f64_to_i64";
    case HK_CH_F64_TO_I32: return "hawk_f64_to_i32";
    case HK_CH_F32_TO_I64: return "hawk_f32_to_i64";
    case HK_CH_F32_TO_I32: return "hawk_f32_to_i32";
    default: break;
    }
    hk_unreachable();
}

int hk_ch_is_core(uint32_t id)
{
    return id >= HK_CH_F64_MIN && id < HK_CH_COUNT;
}

int hk_ch_uses_math(uint32_t id)
{
    return hk_ch_is_core(id);
}

/* ---- writing -------------------------------------------------------------- */

typedef struct {
    const char *key, *value;
} Subst;

/* Appends text with every $key replaced (longest keys first in subs). */
static void expand(HkBuf *b, const char *text, const Subst *subs, uint32_t n)
{
    const char *p = text;
    while (*p != '\0') {
        const char *d = strchr(p, '$');
        if (d == NULL) {
            hk_buf_puts(b, p);
            return;
        }
        hk_buf_put(b, p, (size_t)(d - p));
        uint32_t k = 0;
        while (k < n && strncmp(d + 1, subs[k].key, strlen(subs[k].key)) != 0)
            k++;
        if (k == n)
            hk_unreachable();  /* a template names an unknown key */
        hk_buf_puts(b, subs[k].value);
        p = d + 1 + strlen(subs[k].key);
    }
}

static void write_int(HkBuf *b, HkIntType t, HkIntOp op)
{
    const IntSpell *s = &int_spell[t];
    const Subst subs[] = {
        {"UC(", s->ucmacro}, {"MAX", s->max}, {"C(", s->cmacro},
        {"T", s->type},      {"U", s->utype}, {"N", s->tag},
        {"W", s->width},
    };
    /* min and max compare in $T: their signed texts serve u32 as well */
    int shared = op == HK_IO_MIN || op == HK_IO_MAX;
    const char *text = t == HK_IT_U32 && !shared ? unsigned_text[op]
                                                 : signed_text[op];
    if (text == NULL)
        hk_unreachable();
    expand(b, text, subs, sizeof subs / sizeof subs[0]);
}

/* The C spelling of real element e (f64 or f32). */
static const char *real_type(int is_f32)
{
    return hk_c_elem_type(is_f32 ? HK_F32 : HK_F64);
}

static void write_minmax(HkBuf *b, uint32_t id)
{
    int is_f32 = id == HK_CH_F32_MIN || id == HK_CH_F32_MAX;
    int is_min = id == HK_CH_F64_MIN || id == HK_CH_F32_MIN;
    const Subst subs[] = {
        {"R", real_type(is_f32)},
        {"N", is_f32 ? "f32" : "f64"},
    };
    expand(b, is_min ? min_text : max_text, subs, 2);
}

static void write_to_int(HkBuf *b, uint32_t id)
{
    int is_f32 = id == HK_CH_F32_TO_I64 || id == HK_CH_F32_TO_I32;
    int to64 = id == HK_CH_F64_TO_I64 || id == HK_CH_F32_TO_I64;
    const IntSpell *s = &int_spell[to64 ? HK_IT_I64 : HK_IT_I32];
    const char *suffix = is_f32 ? "F" : "";
    const char *hi, *lo;
    if (to64) {
        /* -2^63 and 2^63 are exact in both formats. */
        hi = hk_asprintf(b->arena, "9223372036854775808.0%s", suffix);
        lo = hk_asprintf(b->arena, "x < -9223372036854775808.0%s", suffix);
    } else if (is_f32) {
        /* -2^31 is exact in binary32 and the next value below it is out
         * of range. */
        hi = "2147483648.0F";
        lo = "x < -2147483648.0F";
    } else {
        /* Every double above -2^31 - 1 truncates into range. */
        hi = "2147483648.0";
        lo = "x <= -2147483649.0";
    }
    const Subst subs[] = {
        {"MAX", s->max}, {"C(", s->cmacro}, {"HI", hi}, {"LO", lo},
        {"R", real_type(is_f32)}, {"N", is_f32 ? "f32" : "f64"},
        {"I", s->tag}, {"T", s->type},
    };
    expand(b, to_int_text, subs, sizeof subs / sizeof subs[0]);
}

static void write_bitcast(HkBuf *b, HkElem from, HkElem to)
{
    HkElem real = hk_is_float(from) ? from : to;
    const Subst subs[] = {
        {"TO", hk_c_elem_type(to)},
        {"FROM", hk_c_elem_type(from)},
        {"A", hk_elem_name(from)},
        {"B", hk_elem_name(to)},
        {"ZERO", hk_is_float(to) ? (to == HK_F32 ? "0.0F" : "0.0")
                 : to == HK_I64 ? "INT64_C(0)" : to == HK_I32 ? "INT32_C(0)"
                                                             : "UINT32_C(0)"},
        {"NU", real == HK_F64 ? "8U" : "4U"},
    };
    expand(b, bitcast_text, subs, sizeof subs / sizeof subs[0]);
}

void hk_ch_write(HkBuf *b, uint32_t id)
{
    HkIntType t;
    HkIntOp op;
    HkElem from, to;
    if (int_helper(id, &t, &op)) {
        write_int(b, t, op);
        return;
    }
    if (bitcast_helper(id, &from, &to)) {
        write_bitcast(b, from, to);
        return;
    }
    switch (id) {
    case HK_CH_CLAMP_INDEX: hk_buf_puts(b, clamp_text); return;
    case HK_CH_I64_TO_I32: hk_buf_puts(b, trunc_text); return;
    case HK_CH_F64_MIN:
    case HK_CH_F64_MAX:
    case HK_CH_F32_MIN:
    case HK_CH_F32_MAX: write_minmax(b, id); return;
    default: write_to_int(b, id); return;
    }
}
