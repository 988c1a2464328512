/* interval.h -- what fp-domain proves with: interval arithmetic over the
 * extended reals (interval.c) and the contract's sign rules (sign.c).
 *
 * An interval [lo, hi] speaks for the values that are numbers: a value it
 * describes is NaN or lies in [lo, hi] (signed zeros count as 0).  Every
 * bound is rounded outward, so a bound holds for the rounded arithmetic
 * the kernel runs, not only for the exact reals.
 */
#ifndef HAWK_INTERVAL_H
#define HAWK_INTERVAL_H

#include "ir.h"

/* ---- interval.c ---------------------------------------------------------- */

typedef struct {
    double lo, hi;            /* lo > hi: empty (no number yet) */
} HkIv;

HkIv hk_iv(double lo, double hi);
HkIv hk_iv_full(void);                        /* [-inf, +inf] */
HkIv hk_iv_empty(void);
int hk_iv_is_empty(HkIv a);
int hk_iv_is_full(HkIv a);
HkIv hk_iv_hull(HkIv a, HkIv b);
/* a widened outward onto the grid of element type e (f32: to floats). */
HkIv hk_iv_fit(HkIv a, HkElem e);

/* Correctly rounded operations: the bounds of the rounded result. */
HkIv hk_iv_add(HkIv a, HkIv b);
HkIv hk_iv_sub(HkIv a, HkIv b);
HkIv hk_iv_mul(HkIv a, HkIv b);
HkIv hk_iv_div(HkIv a, HkIv b);
HkIv hk_iv_sqr(HkIv a);                       /* x*x with one operand */
HkIv hk_iv_sqrt(HkIv a);
HkIv hk_iv_neg(HkIv a);
HkIv hk_iv_abs(HkIv a);
HkIv hk_iv_min(HkIv a, HkIv b);
HkIv hk_iv_max(HkIv a, HkIv b);
/* A left fold of n terms, each in t: ((t + t) + t) ... */
HkIv hk_iv_sum_of(HkIv t, uint32_t n);
/* A left fold of n factors, each in t. */
HkIv hk_iv_prod_of(HkIv t, uint32_t n);

/* The libm functions of ops.def on element type e: the one-operand ones
 * (sqrt ... ceil) and atan2, pow, hypot.  Transcendental results are
 * widened by HK_LIBM_ULPS units in the last place of e, since libm is not
 * correctly rounded. */
#define HK_LIBM_ULPS 4
HkIv hk_iv_math1(HkOp op, HkIv a, HkElem e);
HkIv hk_iv_math2(HkOp op, HkIv a, HkIv b, HkElem e);

/* ---- sign.c: the contract's sign rules --------------------------------------- */

typedef enum { HK_SIGN_UNKNOWN, HK_SIGN_NONNEG, HK_SIGN_POSITIVE } HkSign;

typedef struct {
    HkSign sign;
    const char *why;          /* "positive: 1 + x*x", "nonneg: exp" */
} HkSignFact;

/* The fact the contract's rules give the first result of i, reading the facts
 * of values defined before it (facts is indexed by HkVal). */
HkSignFact hk_sign_rule(HkArena *a, const HkFunc *f, const HkInst *i,
                        const HkSignFact *facts);

/* A literal as a reason spells it: "1", "0.5", "inf". */
void hk_put_number(HkBuf *b, double v, HkElem e);

#endif
