/* gen.h -- hawk-gen's pieces: the random source, the text being written,
 * the values in scope by type, and the generators of instructions
 * (gen_ops.c), of regions (gen_control.c) and of kernels and funcs
 * (gen_kernel.c).  Everything is a function of the seed: the same seed
 * writes the same bytes on every host. */
#ifndef HAWK_GEN_H
#define HAWK_GEN_H

#include <stdint.h>
#include <stdio.h>

#include "tool_io.h"

/* A value's element type. */
typedef enum { E_F64, E_F32, E_I64, E_I32, E_U32, E_I1 } Elem;

/* A value in scope: its name and type (n = 0: rank 0; n > 0 and r = 0:
 * <n x T>; r > 0: <r x n x T>). */
typedef struct {
    char name[32];
    Elem e;
    int n, r;
    int k;      /* computed from constants alone: the interval analysis
                   may prove it outside a math op's domain */
} Val;

#define GEN_MAX_VALS 4096
#define GEN_MAX_SLOTS 24

/* A slot of the kernel: its text and, for the ops that name it, what it
 * holds. */
typedef struct {
    char name[24];
    const char *role;
    Val type;           /* the type as a value of it would have */
    int runtime;        /* <? x T> */
    int rows;           /* out: K rows */
} Slot;

/* The text being written: tools/common's growing buffer. */
typedef ToolBuf Text;

/* What the generator may use (hawk-gen's options). */
typedef struct {
    uint64_t seed;
    int width;          /* 64, 32, or 0: the seed chooses */
    int size;           /* instructions per region, about */
} GenOptions;

typedef struct Gen {
    uint64_t rng;
    const GenOptions *o;
    Elem real;          /* the kernel's scalar mode */
    Text *out;          /* where instructions go now */
    int depth;          /* region depth: the indent */
    int loops;          /* loops enclosing the point written */
    int in_func;        /* a func's body: no slot is named */
    Val vals[GEN_MAX_VALS];
    int nvals;
    unsigned fresh;     /* for names */
    Slot slots[GEN_MAX_SLOTS];
    int nslots;
    int budget;         /* instructions left in this kernel */
    Text funcs;         /* the funcs the kernel calls, written after it */
    int nfuncs;
    const char *tag;    /* the kernel's name */
} Gen;

/* ---- gen_util.c ---------------------------------------------------------- */

uint64_t gen_next(Gen *g);
/* 0 <= r < n. */
int gen_pick(Gen *g, int n);
/* Whether a draw of p percent succeeds. */
int gen_chance(Gen *g, int p);
/* An instruction line at the current indent. */
void gen_line(Gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *elem_name(Elem e);
int elem_real(Elem e);
int elem_int(Elem e);  /* i64, i32, u32 */
/* v's type as HIR spells it, into buf. */
const char *type_text(const Val *v, char *buf, size_t n);
/* A new value of v's type with a fresh name, in scope. */
Val *gen_def(Gen *g, Elem e, int n, int r);
/* A value in scope that pred accepts, the newer ones likelier; NULL when
 * none. */
Val *gen_find(Gen *g, int (*pred)(const Val *, const void *),
              const void *arg);
/* A value in scope that pred accepts, else a new rank-0 constant of the
 * kernel's width. */
Val *gen_find_or_real(Gen *g, int (*pred)(const Val *, const void *));
/* A value of exactly type t in scope, else a new constant of it. */
Val *gen_of_type(Gen *g, const Val *t);
/* A new constant of type t. */
Val *gen_const(Gen *g, const Val *t);
/* A literal of element e: zeros of both signs, small and large
 * magnitudes, integers. */
const char *gen_literal(Gen *g, Elem e);

/* ---- gen_ops.c ----------------------------------------------------------- */

/* One straight-line instruction (or a few) of a random kind. */
void gen_op(Gen *g);
/* A rank-0 i1 value, made by a comparison now. */
Val *gen_mask(Gen *g);
/* A rank-0 i64 value in scope or made now. */
Val *gen_index(Gen *g);

/* ---- gen_control.c -------------------------------------------------------- */

/* A region's instructions: about g->o->size of them, some of them
 * control flow while the depth allows. */
void gen_block(Gen *g, int n);
/* An if, a loop or a dispatch, or a call of a new func. */
void gen_control(Gen *g);

/* ---- gen_kernel.c --------------------------------------------------------- */

/* The module of seed o->seed, into out. */
void gen_module(const GenOptions *o, Text *out);
/* The kernel's slot of a role (added when missing and allowed), or NULL:
 * the slot ops call it. */
Slot *gen_slot(Gen *g, const char *role, const Val *type, int runtime,
               int rows);

#endif
