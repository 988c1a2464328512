/* cwriter.h -- the C writer's private interface, shared by its files:
 *   cwriter.c       the unit: file comment, includes, asserts, helpers,
 *                   the per-sample function and the entry
 *   cwriter_names.c C names and types of values, literals, plane addresses
 *   cwriter_live.c  which values and instructions the C spells
 *   cwriter_expr.c  the expression of each pure op
 *   cwriter_stmt.c  the statements of the per-sample body
 *   chelpers.c      the helper and numerics-core texts (the runtime
 *                   unit's functions, cruntime.c)
 *   cstack.c        the stack bound
 *   cselftest.c     the self-test: known answers and <name>_selftest()
 */
#ifndef HAWK_CWRITER_H
#define HAWK_CWRITER_H

#include "cunit.h"

/* ---- chelpers.c: helpers and the numerics core ------------------------ */

/* The integer types the helpers come in, and their ops (LangRef's defined
 * results).  A helper's id is HK_CH_INT + type * HK_IO_COUNT + op. */
typedef enum { HK_IT_I64, HK_IT_I32, HK_IT_U32, HK_IT_COUNT } HkIntType;

typedef enum {
    HK_IO_ADD, HK_IO_SUB, HK_IO_MUL, HK_IO_NEG, HK_IO_DIV, HK_IO_FLOORDIV,
    HK_IO_MOD, HK_IO_SHL, HK_IO_SHR, HK_IO_ABS, HK_IO_MIN, HK_IO_MAX,
    HK_IO_AND, HK_IO_OR, HK_IO_XOR, HK_IO_NOT, HK_IO_COUNT
} HkIntOp;

/* Every static function the unit may carry, in the order it is emitted.
 * ORDER: the unit's helper section. */
enum {
    HK_CH_CLAMP_INDEX,      /* helpers */
    HK_CH_INT,              /* first of HK_IT_COUNT * HK_IO_COUNT */
    HK_CH_I64_TO_I32 = HK_CH_INT + HK_IT_COUNT * HK_IO_COUNT,
    HK_CH_F64_AS_I64,       /* bitcast, in chelpers.c's bitcast_pair order */
    HK_CH_I64_AS_F64,
    HK_CH_F32_AS_I32,
    HK_CH_I32_AS_F32,
    HK_CH_F32_AS_U32,
    HK_CH_U32_AS_F32,
    HK_CH_F64_MIN,          /* numerics core */
    HK_CH_F64_MAX,
    HK_CH_F32_MIN,
    HK_CH_F32_MAX,
    HK_CH_F64_TO_I64,
    HK_CH_F64_TO_I32,
    HK_CH_F32_TO_I64,
    HK_CH_F32_TO_I32,
    HK_CH_COUNT
};

/* The helper id of op on integer type t. */
uint32_t hk_ch_int(HkIntType t, HkIntOp op);
/* The helper id of bitcast from element from to element to (same width,
 * real to integer or back). */
uint32_t hk_ch_bitcast(HkElem from, HkElem to);
/* The function's C name: "hawk_i64_add". */
const char *hk_ch_name(HkArena *a, uint32_t id);
/* Whether id belongs to the numerics core (report key `core`). */
int hk_ch_is_core(uint32_t id);
/* Whether the function's text calls isnan (so <math.h> is needed). */
int hk_ch_uses_math(uint32_t id);
/* The implementation-defined behaviours helper id's text relies on
 * (HK_IDB_BIT set): a signed helper that reads an unsigned result back as
 * its signed type (C99 6.3.1.3p3), and hawk_i64_to_i32. */
unsigned hk_ch_impl_defined(uint32_t id);
/* Appends the function's definition (contract comment, then the body). */
void hk_ch_write(HkBuf *b, uint32_t id);

/* ---- cstack.c: the stack bound -------------------------------------------- */

/* The slots of the locals the C text declares, 8 bytes each. */
int64_t hk_c_locals_bytes(const char *text);
/* A frame's bound: 8 bytes per parameter, the locals, the overhead. */
int64_t hk_c_frame_bound(int64_t params, int64_t locals_bytes);
/* The frame bound of runtime function id. */
int64_t hk_ch_frame_bound(HkArena *a, uint32_t id);

/* ---- cselftest.c: the self-test ------------------------------------------- */

struct HkCW;
/* Appends kat's tables and <name>_selftest() to b; fills out's
 * selftest_* fields. */
void hk_cw_selftest(HkBuf *b, struct HkCW *w, const HkKat *kat, HkCUnit *out);

/* ---- the writer's state --------------------------------------------------- */

/* A plane element a value holds (cwriter_live.c): a later read of it,
 * with no write to its plane between, is the same value (so no
 * comparison sees two locals of one value, which cppcheck reports as a
 * condition known true or false). */
typedef struct {
    const HkBlock *block;   /* where the value is defined */
    HkVal val;
    uint32_t gen;           /* the slot's write count when it was read */
    uint32_t prev;          /* the element's previous read + 1, 0: none */
} HkCWRead;

typedef struct HkCW {
    HkArena *a;
    const HkLowered *l;
    HkFunc *f;
    HkDiags *d;
    int failed;

    HkBuf *out;             /* the per-sample body being written */
    uint32_t indent;        /* in levels of 4 spaces */

    const char **cname;     /* by value: the C identifier, NULL if unset */
    HkSymtab *taken;        /* C identifiers in use in the sample function */

    /* cwriter_live.c */
    uint32_t *uses;         /* by value: uses the C spells */
    uint8_t *dead;          /* by value: a result or carried value the C
                               does not declare */
    uint8_t *skip;          /* by serial: an instruction the C omits */
    uint8_t *whole;         /* by value: a tensor load used whole (stored
                               as it is), so its components are locals */

    const char ***comps;    /* by value: the component locals of a tensor
                               load used whole */

    HkAbiLayout abi;        /* the args struct (hk_plane_members) */
    int32_t *member;        /* by slot: its member in abi */
    const char **field;     /* by slot: the args field ("vin_state") */
    const char **lenfield;  /* by slot: "<field>_len" or NULL */

    HkVal *canon;           /* by value: the value the C spells for it (an
                               earlier read of the same plane element) */
    HkCWRead *reads;        /* plane reads, in program order */
    uint32_t nreads, capreads;
    uint32_t **read_head;   /* by slot, by component: its last read + 1 */
    uint32_t *slot_gen;     /* by slot: writes seen so far */
    uint8_t **loop_writes;  /* by loop serial: slots its body writes */
    const char *note;       /* a comment line for the next pure op */

    uint8_t need[HK_CH_COUNT];  /* helpers referenced */
    unsigned impl_defined;  /* HK_IDB_BIT set the text relies on */
    int need_math;          /* <math.h>: libm, NAN, INFINITY or isnan */
    int need_bool;          /* <stdbool.h> */
    int uses_i, uses_n;     /* the sample index, n_samples referenced */
    const char **libm;      /* libm functions called, unsorted, unique */
    uint32_t nlibm, caplibm;
    uint8_t need_fn[HK_MATHFN_COUNT]; /* called math functions referenced */
    HkSymtab *next_suffix;  /* name base -> next uniquifying suffix */
    const char *fnprefix;   /* non-NULL: writing a called math function
                               (hk_lower_mathfn), a load of an argument
                               its parameter, the store of the result the
                               return; "hawk_sin_f64.", the prefix its
                               inlined values' names share */
} HkCW;

/* An internal limit of the writer: a diagnostic at i (or the kernel). */
void hk_cw_fail(HkCW *w, const HkInst *i, const char *what);

/* ---- cwriter_names.c ------------------------------------------------------ */

/* The C type of element e: hawk_f64_t, hawk_f32_t, int64_t, int32_t,
 * uint32_t, bool (hk_c_elem_type). */
const char *hk_cw_ctype(const HkCW *w, HkElem e);
/* Gives value v a C name made from base ("v_" + the IR name with every
 * character outside [A-Za-z0-9_] turned into '_'), unique in the sample
 * function.  Returns it. */
const char *hk_cw_name_value(HkCW *w, HkVal v, const char *suffix);
/* A fresh C name from base, unique in the sample function. */
const char *hk_cw_fresh(HkCW *w, const char *base);
/* v's C name (naming it first when needed). */
const char *hk_cw_val(HkCW *w, HkVal v);
/* The literal of component k of constant c as element e: INT64_C(5),
 * 1.5, 1.5F, (hawk_f64_t)NAN, true. */
const char *hk_cw_literal(HkCW *w, const HkConst *c, uint32_t k, HkElem e);
/* The literal of real x as element e (hk_cw_literal's spelling). */
const char *hk_cw_real(HkCW *w, double x, HkElem e);
/* An int64_t literal: INT64_C(7), (-INT64_MAX - INT64_C(1)). */
const char *hk_cw_i64(HkCW *w, int64_t v);
/* Marks helper id referenced. */
void hk_cw_need(HkCW *w, uint32_t id);
/* Records a libm call of name (and <math.h>). */
void hk_cw_libm(HkCW *w, const char *name);
/* args->f[<index>] of slot s at SoA component comp (flat, row-major) of
 * the sample, row row (an expression, NULL when the plane has no rows). */
const char *hk_cw_soa(HkCW *w, int32_t s, uint32_t comp, const char *row,
                      uint32_t row_comps);
/* args->f[k]: a flat plane at index k (legalize clamped it). */
const char *hk_cw_flat(HkCW *w, int32_t s, const char *k);
/* A plane element access (hk_cw_soa, hk_cw_flat) of slot s as the value
 * it holds: a mask plane's byte as "(p[i] != 0U)" (any byte defined: 0
 * false, else true), any other element as it is. */
const char *hk_cw_plane_read(HkCW *w, int32_t s, const char *access);
/* Value x as slot s's plane stores it: a bool as "(x ? 1U : 0U)" into a
 * mask plane's byte, any other value as it is. */
const char *hk_cw_plane_value(HkCW *w, int32_t s, const char *x);
/* Whether slot s is a flat plane: of runtime length, or shared cells. */
int hk_cw_is_flat(const HkCW *w, int32_t s);

/* ---- cwriter_live.c ------------------------------------------------------- */

/* Fills canon, then uses, dead and skip: what the C spells of the scalar
 * kernel. */
void hk_cw_liveness(HkCW *w);

/* ---- cwriter_expr.c ------------------------------------------------------- */

/* Whether the C expression of pure op i reads its operand k (an op that
 * takes one value twice may be spelled by its result alone). */
int hk_cw_reads(const HkCW *w, const HkInst *i, uint32_t k);
/* The C expression of pure rank-0 op i (not const, extract or build), or
 * NULL after hk_cw_fail. */
const char *hk_cw_expr(HkCW *w, const HkInst *i);

/* ---- cwriter_stmt.c ------------------------------------------------------- */

/* Appends the statements of block b (a body or a region) at the current
 * indent. */
void hk_cw_block(HkCW *w, const HkBlock *b);
/* Appends one line at the current indent (the text, then a line end). */
void hk_cw_line(HkCW *w, const char *fmt, ...) HK_PRINTF(2, 3);

#endif
