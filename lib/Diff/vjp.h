/* vjp.h -- what the reverse sweep (vjp.c) shares with the reversal of
 * loops (vjp_loop.c): the sweep's state, the adjoints' bookkeeping and
 * the recomputation of a region's values. */
#ifndef HAWK_VJP_H
#define HAWK_VJP_H

#include "diff.h"

typedef struct {
    Diff d;
    HkVal *adj;          /* value -> its adjoint so far, HK_NOVAL for zero */
    HkVal *sadj;         /* slot -> the adjoint of what was read from it */
    int32_t *bslot;      /* slot -> its cotangent slot, or -1 */
    HkInst **store;      /* slot -> its one store, or NULL */
    uint8_t *every;      /* slot -> its one store is in the body of a loop
                            whose every trip runs it: an input too never
                            passes through to the output */
    HkVal *tape_w;       /* slot -> an active tape's cotangent, loaded once */
    HkVal gate;          /* an i1 the reverse of a loop sets: whether the
                            trip being swept made the loop's last
                            own-column write (HK_NOVAL: it did) */
    int32_t *tape_loc;   /* slot -> the first of the locals its cotangent's
                            rows are copied into (one per component of a
                            row) for reads at a runtime row, or -1 */
    HkVal *wadj;         /* value -> 1 + the value whose adjoint it is a
                            share of (a write's cotangent read where the
                            write was), 0 for none; grown on demand */
    uint32_t nwadj;
    int rerun;           /* copying trips rerun for their values only: a
                            write's copy is left out (a local's would zero
                            the row its own trip's reverse reads) */
} Vjp;

/* The values a region op's reverse needs from outside it (the real
 * active operands of the instructions and yields in its regions, at any
 * depth, first use first) and the active input slots it loads: what its
 * reverse yields the shares of. */
typedef struct {
    HkVal *vals;
    uint32_t nvals;
    int32_t *slots;
    uint32_t nslots;
    int effects;         /* a gather from an active table, whose reverse
                            adds into the table's cotangent plane, or a
                            write (below) */
    int writes;          /* a write into an active output that the sweep
                            transposes where it was (hk_vjp_writes) */
} Outer;

/* Adds contribution c to the adjoint *slot of a value of type t (summed
 * to t's rank when c was broadcast). */
void hk_vjp_add_to(Vjp *v, HkVal *slot, HkVal c, HkType t);
/* Adds contribution c to the adjoint of x, when x is active. */
void hk_vjp_add_adj(Vjp *v, HkVal x, HkVal c);
/* Grows the per-value tables to the function's values, after copies. */
void hk_vjp_grow(Vjp *v);
/* What region op i's reverse needs from outside it. */
void hk_vjp_outer(Vjp *v, const HkInst *i, Outer *o);
/* Whether x is a write into an active output that the sweep transposes
 * where it is, in any region: a scattered accum into a shared plane, a
 * tape row.  A copy of the region (hk_vjp_recompute) holds its
 * cotangent read instead, a share of the written value's adjoint. */
int hk_vjp_writes(const Vjp *v, const HkInst *x);
/* Whether x is such a write's copy in a recomputed region: its
 * cotangent read, a share of the written value's adjoint. */
int hk_vjp_write_copy(const Vjp *v, const HkInst *x);
/* Copies the instructions of b but its closing yield, its break_if and
 * those with an effect (store, accum, bump: the primal ran them) into
 * the end of nb; nested regions whole but their effects (their yields
 * and break_ifs are their own computation).  Each result, index and
 * carried value is a new value "<name>.re"; map (nmap entries) takes
 * each old value to its copy, and may map values of b's op beforehand
 * (a loop's index and carried values). */
void hk_vjp_recompute(Vjp *v, const HkBlock *b, HkBlock *nb, HkVal *map,
                      uint32_t nmap);
/* The same up to b's break_if (a breaking trip's part that ran); the
 * break condition's copy, or HK_NOVAL when b has no break_if. */
HkVal hk_vjp_recompute_to_break(Vjp *v, const HkBlock *b, HkBlock *nb,
                                HkVal *map, uint32_t nmap);
/* A new if on cond placed at the insertion point, its n results of
 * types, named names, its two regions empty. */
HkInst *hk_vjp_if(Vjp *v, HkVal cond, const HkType *types,
                  const char **names, uint32_t n);
/* Gives the operands of i their shares of the adjoints of i's results. */
void hk_vjp_reverse(Vjp *v, HkInst *i);

/* Component k of x, row-major (x itself at rank 0). */
HkVal hk_vjp_part(Vjp *v, HkVal x, uint32_t k);
/* A new local "%name" of type t (LangRef "Locals") in the kernel, the
 * per-slot tables grown to it (inactive, no cotangent); its slot. */
int32_t hk_vjp_add_local(Vjp *v, const char *name, HkType t);

/* A store of x into row row of local slot, at the insertion point. */
void hk_vjp_row_store(Vjp *v, HkVal x, int32_t slot, HkVal row);
/* A load of row row of local slot (its element type), named name, at
 * the insertion point. */
HkVal hk_vjp_row_load(Vjp *v, int32_t slot, HkVal row, const char *name);

/* ---- vjp_sink.c ---------------------------------------------------------- */

/* Sinks the own-column writes into active outputs out of the branches
 * that hold them, where it can (vjp_sink.c): one write after the op. */
void hk_vjp_sink_stores(Vjp *v);

/* ---- vjp_loop.c ---------------------------------------------------------- */

/* The reverse of loop i at the insertion point (vjp_loop.c). */
void hk_vjp_reverse_loop(Vjp *v, HkInst *i);

#endif
