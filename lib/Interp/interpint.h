/* interpint.h -- what the interpreter's files share: a component's value,
 * the semantics of the component-wise ops (interp_ops.c) and of the
 * folds and products (interp_tensor.c), and the frame the walk
 * (interp.c) and the plane ops (interp_planes.c) both read. */
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

/* One component of component-wise op op (predicate pred for fcmp and
 * icmp; not a math op) whose result has element e and whose first
 * operand element oe, from its operands' components x, y, z; *ok cleared
 * when the op is not one of them. */
HkWord hk_interp_op(HkOp op, HkPred pred, HkElem e, HkElem oe, HkWord x,
                    HkWord y, HkWord z, int *ok);
/* The same for instruction i's op and predicate. */
HkWord hk_interp_elem(const HkInst *i, HkElem e, HkElem oe, HkWord x,
                      HkWord y, HkWord z, int *ok);
/* The C library's function of math op op on element e (the exactly
 * rounded ones, and every one under math=libm); *ok cleared when op
 * calls none. */
HkWord hk_interp_libm(HkOp op, HkElem e, HkWord x, HkWord y, int *ok);

/* Fold or product op (dot, norm, cross, matvec, matmul, transpose, sum,
 * prod) of the components of a (type ta) and b (type tb; unused by the
 * one-operand ops) into out, in LangRef's order ("Tensor folds and
 * products"); 0, or -1 for an op that is none of them.  interp_tensor.c */
int hk_interp_fold(HkOp op, HkType ta, HkType tb, const HkWord *a,
                   const HkWord *b, HkWord *out);

/* ---- the frame ----------------------------------------------------------- */

typedef struct HkFrames HkFrames;

/* A function's frame: the kernel's (the root, which holds the planes,
 * the current sample and the failure) or a func's that the kernel calls
 * (a custom primitive, or a function of hawk's math). */
struct HkInterp {
    HkArena *a;
    HawkContext *ctx;
    HkDiags *d;
    const HkLowered *l;
    const HkFunc *f;         /* the function as verified, before inlining */
    HkInterp *root;          /* the kernel's frame (itself for the kernel) */
    HkWord *vals;            /* each value's components */
    uint32_t *off;           /* value -> its first component in vals */
    uint32_t *tmp;           /* loop (by serial) -> room for its yield */
    int broke;               /* a break_if fired in the innermost loop */
    /* the root's alone */
    HkAbiLayout abi;
    int32_t *by_slot;        /* slot -> its member, or -1 */
    HkWord **locals;         /* slot -> a local's rows, NULL for planes */
    const HkAbiField **guard;/* the guard masks' members */
    uint32_t nguard;
    HkFrames *frames;        /* the funcs' frames, made when first called */
    HkInterp **mathfr;       /* math function id -> its frame */
    const unsigned char *args;
    int64_t sample, n;
    int failed;
};

/* Reports the first failure at i (the function's location when NULL):
 * the launch then stops and its entry returns -1. */
void hk_interp_fail(HkInterp *ip, const HkInst *i, const char *what);

/* Component k of v (its one component at rank 0: a broadcast), and the
 * room of v's components. */
HkWord hk_interp_comp(const HkInterp *ip, HkVal v, uint32_t k);
HkWord *hk_interp_dest(HkInterp *ip, HkVal v);

/* ---- interp_planes.c: the ops that name slots ------------------------------ */

void hk_interp_load(HkInterp *ip, const HkInst *i);
void hk_interp_gather(HkInterp *ip, const HkInst *i);
void hk_interp_clamp_index(HkInterp *ip, const HkInst *i);
void hk_interp_store(HkInterp *ip, const HkInst *i);
void hk_interp_accum(HkInterp *ip, const HkInst *i);
/* Cell k of the u32 cells of i's slot (finished_count, mix) += 1. */
void hk_interp_bump(HkInterp *ip, const HkInst *i, int64_t k);
/* Element idx of the plane member m, checked inside it (a report at i
 * and 0 when it is not). */
HkWord hk_interp_read(HkInterp *ip, const HkInst *i, const HkAbiField *m,
                      int64_t idx);

#endif
