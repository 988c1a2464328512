/* interpint.h -- what the interpreter's files share: a component's value
 * and the semantics of the component-wise ops (interp_ops.c). */
#ifndef HAWK_INTERPINT_H
#define HAWK_INTERPINT_H

#include "interp.h"

/* One component, in the canonical form of its element type: f64 in d,
 * f32 in f, i64 and i32 (sign-extended) in i, u32 (zero-extended) and i1
 * (0 or 1) in u. */
typedef union {
    double d;
    float f;
    int64_t i;
    uint64_t u;
} HkWord;

/* Bits u as element type e's canonical form (wrapping to its width). */
HkWord hk_interp_norm(HkElem e, uint64_t u);
/* The real component x of type e as a double (exact). */
double hk_interp_real(HkElem e, HkWord x);

/* One component of component-wise op i (not a math op) whose result has
 * element e and whose first operand element oe, from its operands'
 * components x, y, z; *ok cleared when the op is not one of them. */
HkWord hk_interp_elem(const HkInst *i, HkElem e, HkElem oe, HkWord x,
                      HkWord y, HkWord z, int *ok);
/* The C library's function of math op op on element e (the exactly
 * rounded ones, and every one under math=libm); *ok cleared when op
 * calls none. */
HkWord hk_interp_libm(HkOp op, HkElem e, HkWord x, HkWord y, int *ok);

#endif
