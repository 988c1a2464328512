/* ir.h -- HIR in memory: the one private header of lib/IR.
 *
 * A Module holds functions (kernels and custom primitives) in source order.
 * A function owns its values (a growable array indexed by HkVal), its slots
 * (kernels only) and a body block.  Instructions live in doubly linked lists
 * inside blocks; structured ops (loop, if, dispatch) own nested blocks.
 * Every allocation comes from the module's arena and is freed with it.
 *
 * Sections follow the files that implement them: arena.c, diag.c, types.c,
 * ir.c, lexer.c, parser.c, printer.c, verifier.c (with verify_types.c,
 * through verify.h), walk.c.
 */
#ifndef HAWK_IR_H
#define HAWK_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>  /* vsnprintf for diag.c and arena.c */
#include <stdint.h>

#include "hawk/hawk.h"

#if defined(__GNUC__)
#define HK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HK_PRINTF(f, a)
#endif

/* An internal error: a bug in hawk, never a user's input. */
#define hk_unreachable() hk_die(__FILE__, __LINE__, "unreachable")
_Noreturn void hk_die(const char *file, int line, const char *what);

/* ---- arena.c ---------------------------------------------------------- */

typedef struct HkArena HkArena;
HkArena *hk_arena_new(void);               /* NULL when out of memory */
void hk_arena_free(HkArena *a);
/* Runs fn(ud); 0, or -1 when an allocation from a found no memory (fn
 * unwound from there: what it held of a is a's, freed with it, and
 * what it changed may be half done).  Unprotected, running out of
 * memory ends the process.  Protections nest. */
int hk_arena_protect(HkArena *a, void (*fn)(void *ud), void *ud);
/* Whether a call is running under hk_arena_protect of a. */
int hk_arena_protected(const HkArena *a);
/* Memory ran out (an arena's chunk, or a malloc beside it): the reserve
 * goes in as a's head, so the failure can still be reported, and the
 * protected call unwinds; unprotected, the process ends. */
_Noreturn void hk_out_of_memory(HkArena *a);
void *hk_alloc(HkArena *a, size_t n);          /* zeroed, 16-byte aligned */
/* Zeroed, aligned only to align (a power of two up to 16): the many small
 * blocks of a large program (names, operand lists) packed without the
 * padding of hk_alloc. */
void *hk_alloc_packed(HkArena *a, size_t n, size_t align);
char *hk_strndup(HkArena *a, const char *s, size_t n);
char *hk_strdup(HkArena *a, const char *s);
char *hk_asprintf(HkArena *a, const char *fmt, ...) HK_PRINTF(2, 3);
/* " (did you mean 'c'?)" for the candidate c nearest word[0..n)
 * (hawk_nearest, nearest.c), or "" when none is close. */
const char *hk_did_you_mean(HkArena *a, const char *word, size_t n,
                            const char *const *cands, size_t ncands);
/* Grow an arena array of elem-size items to hold at least need items. */
void *hk_grow(HkArena *a, void *arr, uint32_t *cap, uint32_t need, size_t elem);
/* p (a block of old bytes from a, or NULL) made n bytes long, the bytes
 * past old zeroed: a large block grows in its own chunk (and may move:
 * no pointer into it may be kept), a small one is copied into a new
 * block.  The text buffers grow so; hk_grow's arrays are copied. */
void *hk_resize(HkArena *a, void *p, size_t old, size_t n);
/* Gives a large block of n bytes back before the arena goes (a table
 * replaced by a larger one); a small one stays until then. */
void hk_release(HkArena *a, void *p, size_t n);

/* A growable byte buffer (printer, reports); its storage is the arena's. */
typedef struct {
    HkArena *arena;
    char *data;
    size_t len, cap;
} HkBuf;
void hk_buf_init(HkBuf *b, HkArena *a);
void hk_buf_put(HkBuf *b, const char *s, size_t n);
void hk_buf_puts(HkBuf *b, const char *s);
void hk_buf_printf(HkBuf *b, const char *fmt, ...) HK_PRINTF(2, 3);
const char *hk_buf_cstr(HkBuf *b);             /* NUL-terminated view */

/* ---- source locations and diagnostics (diag.c) ------------------------ */

/* Every value and instruction holds one, so it holds no byte offset: a
 * diagnostic finds its line's text by the line number (hk_vdiag). */
typedef struct {
    uint32_t line, col;    /* 1-based, col in bytes; line 0: no location */
} HkLoc;

typedef struct HkSource {
    const char *name;      /* file name as given ("-" shows as <stdin>) */
    const char *text;      /* the whole input, NUL-terminated */
    size_t len;
    uint32_t line_base;    /* lines before this chunk (-split-input-file) */
    int mapped;            /* text lies in a read-only private mapping of a
                              file: a scan may give its pages back
                              (hawk_parse_mapped) */
} HkSource;

/* How far a scan of a source has given its pages back (source.c). */
typedef struct {
    const char *done;
} HkScanMark;

/* Starts a scan of src's text at at. */
HkScanMark hk_scan_mark(const char *at);
/* Gives back the pages of a mapped text from mark to at; moves mark. */
void hk_source_give_back(HkScanMark *mark, const char *at);
/* A scan of src is at at: when src is mapped and the scan has gone
 * HK_SCAN_STEP bytes since it last did, the pages it has passed are given
 * back (they map again, with the same bytes, when read). */
#define HK_SCAN_STEP ((size_t)1 << 20)
static inline void hk_source_pass(const HkSource *src, HkScanMark *mark,
                                  const char *at)
{
    if (src->mapped && (size_t)(at - mark->done) >= HK_SCAN_STEP)
        hk_source_give_back(mark, at);
}

typedef struct HkDiag {
    HawkSeverity severity;
    const HkSource *src;
    HkLoc loc;
    size_t line_at;        /* byte offset of loc's line in src's text, or
                              SIZE_MAX when src has no such line */
    const char *pos;       /* walk position ("3", "loop0.2", "kernel") or NULL */
    const char *rule;      /* refusal rule ("budget.trips") or NULL */
    const char *fix_option, *fix_value; /* the option the fix names */
    const char *message;
} HkDiag;

typedef struct HkDiags {
    HkArena *arena;
    HkDiag *items;
    uint32_t n, cap;
    uint32_t errors;
    int option_style;      /* HawkOptionStyle: how messages spell options */
    int warnings;          /* HawkWarnings: what becomes of a warning */
    /* the warnings given, by text, place and message (hk_warning_once):
     * open addressing over item index + 1, 0 empty */
    uint32_t *warned, warned_cap, nwarned;
    /* the line found last (hk_vdiag): diagnostics come mostly in source
     * order, so the next one's line is found from there */
    const HkSource *at_src;
    const char *at_text;
    uint32_t at_line;
    size_t at_off;
} HkDiags;

void hk_diags_init(HkDiags *d, HkArena *a);
HkDiag *hk_error(HkDiags *d, const HkSource *src, HkLoc loc, const char *fmt, ...)
    HK_PRINTF(4, 5);
HkDiag *hk_warning(HkDiags *d, const HkSource *src, HkLoc loc, const char *fmt, ...)
    HK_PRINTF(4, 5);
HkDiag *hk_note(HkDiags *d, const HkSource *src, HkLoc loc, const char *fmt, ...)
    HK_PRINTF(4, 5);
/* Appends warning msg at loc of src unless d holds one of the same
 * message at the same place of the same text (two copies of one module,
 * as a build exports a kernel once per target, prove the same); found
 * through a hash set, so n warnings cost O(n).  Returns it, or NULL. */
HkDiag *hk_warning_once(HkDiags *d, const HkSource *src, HkLoc loc,
                        const char *msg);
HkDiag *hk_vdiag(HkDiags *d, HawkSeverity sev, const HkSource *src, HkLoc loc,
                 const char *fmt, va_list ap);
/* "file:line:col: error: msg\n<line>\n<caret>\n" into b. */
void hk_diag_render(const HkDiag *d, HkBuf *b);
/* "error", "warning" or "note". */
const char *hk_severity_name(HawkSeverity s);
/* Profile option key = value as d's messages spell it (HawkOptionStyle):
 * "fp-domain=record", "-fp-domain=record" or "fp_domain='record'". */
const char *hk_spell_option(const HkDiags *d, const char *key,
                            const char *value);
/* The line of loc in the whole input, as diagnostics show it: src's chunk
 * base added (-split-input-file); 0 for no location.  src may be NULL. */
uint32_t hk_line(const HkSource *src, HkLoc loc);

/* ---- types (types.c) -------------------------------------------------- */

typedef enum {
    HK_VOID = 0,
    HK_I1,
    HK_I32,
    HK_U32,
    HK_I64,
    HK_F32,
    HK_F64,
} HkElem;

#define HK_DYN UINT32_MAX  /* a runtime extent, spelled '?' */

typedef struct {
    uint8_t elem;          /* HkElem */
    uint8_t rank;          /* 0, 1 or 2 */
    uint32_t dim[2];       /* extents; dim[0] may be HK_DYN */
} HkType;

HkType hk_scalar(HkElem e);
HkType hk_vec(HkElem e, uint32_t n);
HkType hk_mat(HkElem e, uint32_t r, uint32_t c);
HkType hk_with_elem(HkType t, HkElem e);       /* same shape, other element */
int hk_type_eq(HkType a, HkType b);
int hk_same_shape(HkType a, HkType b);
int hk_is_float(HkElem e);
int hk_is_int(HkElem e);                       /* i32, u32, i64 (not i1) */
uint32_t hk_components(HkType t);              /* product of static extents */
int hk_is_dyn(HkType t);
const char *hk_elem_name(HkElem e);            /* "f64" */
uint32_t hk_elem_bytes(HkElem e);
void hk_type_print(HkBuf *b, HkType t);        /* f64, <3 x f64>, <? x f64> */
/* The row-major index of the first component the static indices
 * imm[0..nimm) select in t: a component, or a row (one index into a rank-2
 * type).  Every pass and writer that takes a tensor apart counts so. */
uint32_t hk_flat_index(HkType t, const int64_t *imm, uint32_t nimm);

/* ---- ops (ops.def) and roles (roles.def) ------------------------------ */

typedef enum {
#define OP(e, m, n, r, f, l, c, ft, dom, is) HK_OP_##e,
#include "ops.def"
#undef OP
    HK_OP_COUNT
} HkOp;

typedef enum {
    HK_R_FARITH, HK_R_FUNARY, HK_R_IARITH, HK_R_IUNARY, HK_R_LOGIC,
    HK_R_LOGICNOT, HK_R_FCMP, HK_R_ICMP, HK_R_SELECT, HK_R_CONV, HK_R_CONST,
    HK_R_MATH1, HK_R_MATH2, HK_R_ABS, HK_R_MINMAX, HK_R_CLIP, HK_R_DOT,
    HK_R_NORM, HK_R_CROSS, HK_R_MATVEC, HK_R_MATMUL, HK_R_TRANSPOSE,
    HK_R_REDUCE, HK_R_EXTRACT, HK_R_INSERT, HK_R_BUILD, HK_R_LOAD,
    HK_R_GATHER, HK_R_STORE, HK_R_ACCUM, HK_R_BUMP, HK_R_LOOP, HK_R_BREAK,
    HK_R_IF, HK_R_DISPATCH, HK_R_YIELD, HK_R_CALL, HK_R_RET, HK_R_RANDOM,
    HK_R_RAWDEV, HK_R_LANE, HK_R_AT, HK_R_CLAMPIDX, HK_R_TABLE,
} HkRule;

enum {
    HK_F_PURE = 1u << 0,    /* no side effect: removable, mergeable */
    HK_F_ELEM = 1u << 1,    /* applies per component */
    HK_F_LIBM = 1u << 2,    /* calls the libm function in the table */
    HK_F_REGION = 1u << 3,  /* owns blocks */
    HK_F_TERM = 1u << 4,    /* ends a block */
    HK_F_FOLD = 1u << 5,    /* tensor fold or product */
    HK_F_SIDE = 1u << 6,    /* writes a plane or has another effect */
    HK_F_EXACT = 1u << 7,   /* its libm function is exactly rounded (IEEE
                               754): every libm gives the same bits */
    HK_F_EXT = 1u << 8,     /* has fields of its own (HkInstExt) */
};

typedef enum {
    HK_C_NONE, HK_C_ARITH, HK_C_SPECIAL, HK_C_LOAD, HK_C_GATHER,
    HK_C_STORE, HK_C_CHAIN,
} HkCost;

/* What fp-domain needs of an op's domain operand (ops.def's Domain). */
typedef enum {
    HK_DOM_NONE, HK_DOM_POSITIVE, HK_DOM_NONNEG, HK_DOM_GT_M1, HK_DOM_UNIT,
    HK_DOM_OPEN_UNIT, HK_DOM_GE_1, HK_DOM_POW, HK_DOM_COUNT
} HkDomainNeed;

/* What int-sites lists an op as on integers (ops.def's IntSite). */
enum {
    HK_IS_IDIV = 1u << 0,   /* an integer division site */
    HK_IS_IUB = 1u << 1,    /* i64 arithmetic infix C leaves undefined
                               on overflow */
};

typedef struct {
    const char *mnemonic;
    int nops;
    HkRule rule;
    unsigned flags;
    const char *libm;
    HkCost cost;
    const char *feature;
    HkDomainNeed domain;
    unsigned intsite;       /* HK_IS_* */
} HkOpInfo;

extern const HkOpInfo hk_ops[HK_OP_COUNT];
int hk_op_lookup(const char *s, size_t n);     /* -1 if unknown */
/* The libm function op calls on element e: ops.def's name ("sqrt"), with
 * C's 'f' appended for f32 ("sqrtf"); "" when op calls none. */
const char *hk_libm_name(HkArena *a, HkOp op, HkElem e);
/* Whether the libm function called name (either form) is exactly rounded:
 * it is the function of an op flagged EXACT in ops.def.  A compiler may
 * fold or rewrite such a call freely; any other must be called as written
 * for the unit to compute what the libm computes. */
int hk_libm_exact(const char *name);

typedef enum {
#define ROLE(e, n, acc, lay, shp, pre) HK_ROLE_##e,
#include "roles.def"
#undef ROLE
    HK_ROLE_COUNT
} HkRole;

enum { HK_ACC_R = 1, HK_ACC_W = 2, HK_ACC_RW = 3 };
typedef enum { HK_LAY_SOA, HK_LAY_FLAT, HK_LAY_VALUE, HK_LAY_LOCAL } HkLayout;
typedef enum {
    HK_SHP_ANY, HK_SHP_SCALAR, HK_SHP_VEC, HK_SHP_MAT, HK_SHP_DYN,
    HK_SHP_DYN_OR_ANY, HK_SHP_ROWS, HK_SHP_ROWS1,
} HkShapeRule;

typedef struct {
    const char *name;
    unsigned access;
    HkLayout layout;
    HkShapeRule shape;
    const char *prefix;
} HkRoleInfo;

extern const HkRoleInfo hk_roles[HK_ROLE_COUNT];
int hk_role_lookup(const char *s, size_t n);   /* -1 if unknown */

/* Comparison predicates: fcmp takes the ordered/unordered set, icmp the
 * signed/unsigned set.  ORDER PRED: LangRef "Comparisons". */
typedef enum {
    HK_P_OEQ, HK_P_ONE, HK_P_OLT, HK_P_OLE, HK_P_OGT, HK_P_OGE,
    HK_P_UEQ, HK_P_UNE, HK_P_ULT, HK_P_ULE, HK_P_UGT, HK_P_UGE,
    HK_P_ORD, HK_P_UNO,
    HK_P_EQ, HK_P_NE, HK_P_SLT, HK_P_SLE, HK_P_SGT, HK_P_SGE,
    HK_P_ULT_I, HK_P_ULE_I, HK_P_UGT_I, HK_P_UGE_I,
    HK_P_COUNT
} HkPred;
extern const char *const hk_pred_names[HK_P_COUNT]; /* "olt", ..., "ult" */
int hk_pred_lookup(HkOp op, const char *s, size_t n); /* -1 if not op's */

/* ---- the IR (ir.c) ---------------------------------------------------- */

typedef uint32_t HkVal;
#define HK_NOVAL UINT32_MAX
/* The most results of one instruction or parameters of one func: a
 * value's index has 24 bits (HkValue). */
#define HK_MAX_INDEX ((1u << 24) - 1u)

typedef struct HkInst HkInst;
typedef struct HkFunc HkFunc;

typedef struct HkBlock {
    HkInst *first, *last;
    HkInst *parent;        /* the region op that owns it; NULL for a body */
    HkFunc *func;
} HkBlock;

typedef enum {
    HK_DEF_INST,           /* result i of an instruction */
    HK_DEF_PARAM,          /* parameter of a custom primitive (func) */
    HK_DEF_IVAR,           /* a loop's index */
    HK_DEF_ITER,           /* a loop-carried value inside the loop body */
} HkDefKind;

/* A function holds one record per value: the fields are ordered so that
 * no padding falls between them, and the kind and the index share one
 * word (40 bytes in all). */
typedef struct {
    HkType type;
    HkDefKind kind : 8;
    uint32_t index : 24;   /* result, parameter or iter-arg number */
    const char *name;      /* without '%'; unique in its function */
    HkInst *def;           /* defining instruction (INST), loop (IVAR, ITER) */
    HkLoc loc;
} HkValue;

/* Sets v's index, which the parser and the passes keep within
 * HK_MAX_INDEX (past it is an internal error). */
static inline void hk_value_set_index(HkValue *v, uint32_t index)
{
    if (index > HK_MAX_INDEX)
        hk_die(__FILE__, __LINE__, "value index past HK_MAX_INDEX");
    v->index = index & HK_MAX_INDEX;
}

typedef struct {
    const char *name;      /* without '%' */
    HkRole role;
    HkType type;
    HkLoc loc;
} HkSlot;

/* A constant's payload: one entry per component, row-major. */
typedef struct {
    uint32_t n;
    double *f;             /* float elements (NaN and infinities allowed) */
    int64_t *i;            /* integer and i1 elements */
} HkConst;

/* Component k of constant c read as real element e: the value the C and
 * the host unit both spell, an f32 literal rounded to the float it is (a
 * double beyond float's range is INFINITY); one literal fills every
 * component. */
double hk_const_real(const HkConst *c, uint32_t k, HkElem e);
/* Component k of constant c read as an integer (or i1) element. */
int64_t hk_const_int(const HkConst *c, uint32_t k);

/* What only some ops have: a constant's payload (const), static indices
 * (extract, insert), the callee (call), the spliced text (raw_device), a
 * loop's bounds and carried values, and the regions of loop, if and
 * dispatch.  An instruction of any other op
 * shares one read-only record of defaults (hk_inst_ext_none: no index
 * variable, no carried values, no payload), so a reader need not ask the
 * op first, and the common record stays small: a module holds one per
 * instruction. */
typedef struct HkInstExt {
    HkConst cst;           /* const */
    const char *text;      /* raw_device: the spliced text */
    int64_t imm[2];        /* static component indices (extract/insert) */
    uint32_t nimm;
    uint32_t callee;       /* call: index into the module's functions */

    /* loop: %iv = lo to (hi | %count max trip) iter(%a = init, ...) */
    int64_t lo, hi;        /* static bounds; hi unused with a count */
    int64_t max_trip;      /* static trip bound of a runtime-count loop */
    HkVal *iters;          /* nres loop-carried values inside the body */
    HkVal ivar;
    int has_count;         /* runtime count is ops[0] */

    /* regions: loop 1, if 1 or 2 (then, else), dispatch one per case */
    uint32_t nregions;
    HkBlock *regions;
} HkInstExt;

extern const HkInstExt hk_inst_ext_none;

struct HkInst {
    /* The fields are ordered so that no padding falls between them, and
     * the op's, the predicate's and the index flag share one word: a
     * module holds one record per instruction. */
    HkOp op : 8;
    HkPred pred : 8;       /* fcmp/icmp */
    unsigned has_index : 1; /* slot[idx]: the index is the last of ops */
    uint32_t serial;       /* unique in its function: index for side tables */
    HkInst *prev, *next;
    HkBlock *block;

    /* results: one for most ops, several for loop/if/dispatch/call; and
     * every value the instruction uses, in order (see LangRef per op):
     * store v[, idx]; accum v[, idx]; load [idx]; gather idx;
     * loop [count,] inits...; dispatch selector; call args...; ret v? */
    uint32_t nres;
    uint32_t nops;
    /* the results, read through hk_res: a single one is held here, where
     * its array would cost 4 bytes more (most instructions have one) */
    union {
        HkVal one;         /* nres == 1 */
        HkVal *many;       /* otherwise (NULL for none) */
    } r;
    HkVal *ops;
    HkType type;           /* result type of a single-result op */

    int32_t slot;          /* slot operand (load/store/...), -1 if none */
    HkLoc loc;

    /* the op's own fields: the instruction's if op has HK_F_EXT, else
     * &hk_inst_ext_none (read only) */
    HkInstExt *x;
};

/* The results of i, nres of them (writable, as strchr's result is: a
 * pass that holds a const instruction reads them the same way). */
static inline HkVal *hk_res(const HkInst *i)
{
    return i->nres == 1 ? (HkVal *)(uintptr_t)&i->r.one : i->r.many;
}

/* Gives i n results, their values unset (HK_NOVAL): held in the record
 * for one, else in an array from a. */
void hk_inst_size_res(HkArena *a, HkInst *i, uint32_t n);
/* Gives i the n results of vals: the array itself when n is not 1. */
static inline void hk_inst_put_res(HkInst *i, HkVal *vals, uint32_t n)
{
    i->nres = n;
    if (n == 1)
        i->r.one = vals[0];
    else
        i->r.many = vals;
}

typedef enum {
    HK_GUARD_DEFAULT,      /* gate on a bound terminated slot, if any */
    HK_GUARD_NONE,         /* data-only: run every sample */
    HK_GUARD_ACTIVE_SET,   /* active-set index map (refused by the C target) */
} HkGuard;

/* BANDED is named and kept in the IR but built by no target: the verify
 * pipeline refuses it (sink.banded). */
typedef enum {
    HK_SINK_PLAIN,
    HK_SINK_ATOMIC,
    HK_SINK_COMPENSATED,
    HK_SINK_BANDED,
} HkSink;

/* What a derivative pass (jvp, vjp) recorded of the kernel it made, for
 * the report's derivative figures: the primal as the pass found it and
 * the activity it differentiated. */
typedef struct HkDerivOrigin {
    const char *mode;                /* "jvp" or "vjp" */
    const char *primal;              /* the primal kernel's name */
    const struct HkModule *module;   /* a copy of the primal and the funcs
                                        it calls, before the pass */
    const char **wrt, **of;          /* active inputs, outputs: slot order */
    uint32_t nwrt, nof;
} HkDerivOrigin;

#define HK_VSEG0 16u
#define HK_VSEGS 28

struct HkFunc {
    /* A module holds one record per function: the fields are ordered so
     * that no padding falls between them, and the flags share one word. */
    struct HkModule *module;
    const char *name;      /* without '@' */
    HkLoc loc;
    uint32_t src_begin, src_end;  /* byte span of the definition's text */
    HkLoc end;             /* its closing '}' (line 0: made, not parsed) */

    unsigned is_kernel : 1; /* kernel (slots) or func (params, result) */
    unsigned derived : 1;  /* a transform ran on it after parsing: its IR
                              is no longer what its source text says */
    unsigned parsed : 1;   /* the parser made it (or a copy of what it
                              made): while not derived, each name is one
                              value's or slot's, as the parser checked */
    /* kernel attributes */
    unsigned segmented : 1, fused_lanes : 1, two_path : 1;
    HkGuard guard : 8;
    HkSink sink : 8;
    uint32_t nslots;

    const char *made_by;   /* the pass that made this func ("jvp": the
                              <primal>_jvp), or NULL */
    const HkDerivOrigin *origin; /* a derivative kernel's, or NULL */

    HkSlot *slots;         /* kernels */
    uint32_t cap_slots;

    uint32_t nparams;
    HkVal *params;         /* funcs: parameter values, in order */
    HkType *rtypes;        /* funcs: result types */
    uint32_t nrtypes;

    /* values, by index.  The first cap0 are in vseg0, sized by the
     * maker's estimate (hk_func_reserve_values; HK_VSEG0 without one);
     * past them, segment s holds HK_VSEG0 << s.  No segment moves, so a
     * value's record stays where it is while more are made and growing
     * copies nothing (hk_value).  The directory of the segments is made
     * when a function outgrows vseg0 (a program of many small functions
     * pays for none). */
    uint32_t nvalues;
    HkValue *vseg0;
    HkValue **vsegs;       /* HK_VSEGS entries, or NULL */
    uint32_t cap0;

    uint32_t fresh;        /* counter for generated names */
    HkBlock body;

    /* func attributes: the funcs given as this func's derivative rules
     * (attributes {jvp = @g, vjp = @h}), names without '@', or NULL; the
     * jvp and vjp passes call them instead of differentiating its body */
    const char *rule_jvp, *rule_vjp;
    HkLoc rule_jvp_loc, rule_vjp_loc;

    /* name -> value or slot: a hash map over this function's names,
     * made on first use (hk_func_syms); NULL until then, so a program
     * read and checked holds no table per function */
    struct HkNames *syms;

    uint32_t nserials;     /* instructions ever created: bound of serials */
};

/* The segment of the w-th value past vseg0: floor(log2(w + HK_VSEG0)) - 4. */
static inline uint32_t hk_vseg_of(uint32_t w)
{
    uint32_t x = w + HK_VSEG0, s = 0;
#if defined(__GNUC__)
    s = (uint32_t)(31 - __builtin_clz(x)) - 4u;
#else
    while ((x >> (s + 5u)) != 0)
        s++;
#endif
    return s;
}

/* The record of value v of f. */
static inline HkValue *hk_value(const HkFunc *f, HkVal v)
{
    if (v < f->cap0)
        return &f->vseg0[v];
    uint32_t w = v - f->cap0, s = hk_vseg_of(w);
    return &f->vsegs[s][w + HK_VSEG0 - (HK_VSEG0 << s)];
}

typedef struct HkModule {
    HkArena *arena;
    HkSource src;
    HkFunc **funcs;
    uint32_t nfuncs, cap_funcs;
    struct HkSymtab *fsyms; /* name -> function index */
} HkModule;

/* Symbol tables: open addressing over arena strings; O(1) lookups.  A
 * name looked up is n bytes without a NUL among them. */
typedef struct HkSymtab HkSymtab;
HkSymtab *hk_symtab_new(HkArena *a);
/* Returns the stored id for name, or UINT32_MAX. */
uint32_t hk_symtab_get(const HkSymtab *t, const char *name, size_t n);
/* The hash a table keys name by (HkSymtab and HkNames alike). */
uint32_t hk_symtab_hash(const char *name, size_t n);
/* Inserts name -> id; returns 0 if the name was already present. */
int hk_symtab_put(HkSymtab *t, const char *name, size_t n, uint32_t id);
void hk_symtab_del(HkSymtab *t, const char *name, size_t n);

/* Function symbol ids: a value is its HkVal, a slot is HK_SYM_SLOT | index. */
#define HK_SYM_SLOT 0x80000000u

/* A function's name table (names.c): name -> id, 8 bytes an entry; the
 * name an entry stands for is read back through key(owner, id) (a
 * value's or slot's name: hk_func_key), so the names must stay where
 * they are while the table holds them.  A name looked up is n bytes
 * without a NUL among them. */
typedef struct HkNames HkNames;
typedef const char *(*HkNameKey)(const void *owner, uint32_t id);
HkNames *hk_names_new(HkArena *a, HkNameKey key, const void *owner);
/* The table reads its names through key(owner, id) from now on. */
void hk_names_rekey(HkNames *t, HkNameKey key, const void *owner);
/* The id of name, or UINT32_MAX. */
uint32_t hk_names_get(const HkNames *t, const char *name, size_t n);
/* Asks the cache for the entry of a name of hash h (hk_symtab_hash)
 * ahead of its put. */
void hk_names_prefetch(const HkNames *t, uint32_t h);
/* Room for n names more than t holds without growing again. */
void hk_names_reserve(HkNames *t, uint32_t n);
/* Puts name -> id (key(owner, id) must give name from now on); 0 when
 * the name is there already. */
int hk_names_put(HkNames *t, const char *name, size_t n, uint32_t id);
/* hk_names_put of a name whose hash h the caller has; *at (if not NULL)
 * receives the entry's place, for hk_names_set_at. */
int hk_names_put_at(HkNames *t, const char *name, size_t n, uint32_t id,
                    uint32_t h, uint32_t *at);
/* The entry put for name as id was (at place at) now stands for id: no
 * probe while it is still there, else a lookup of name. */
void hk_names_set_at(HkNames *t, uint32_t at, uint32_t was, const char *name,
                     uint32_t id);
void hk_names_del(HkNames *t, const char *name, size_t n);
uint32_t hk_names_cap(const HkNames *t);
uint32_t hk_names_used(const HkNames *t);
/* Empties the run of entries from name's home place to the next empty
 * one (every entry of a table that holds only names being cleared lies
 * in the run of its own name's home). */
void hk_names_clear_run(HkNames *t, const char *name);
void hk_names_clear(HkNames *t);

/* The name of id in f: a slot's (HK_SYM_SLOT | index) or a value's. */
const char *hk_func_key(const void *f, uint32_t id);

/* f's name table (values and slots), made from its values and slots if
 * f has none yet. */
HkNames *hk_func_syms(const HkFunc *f);
/* Leaves f without a name table (hk_func_syms makes one again when
 * asked), and empties the one it had of f's names, so that its owner may
 * give it to the next function: the parser reads every function with one
 * table, sized to the largest. */
void hk_func_drop_syms(HkFunc *f);

HkModule *hk_module_new(HkArena *a);
HkFunc *hk_func_new(HkModule *m, const char *name, int is_kernel, HkLoc loc);
uint32_t hk_func_index(const HkModule *m, const char *name, size_t n);

/* New value; name NULL makes a fresh unique name ("t<N>"); a taken name gets
 * a ".<N>" suffix.  Returns its index. */
HkVal hk_value_new(HkFunc *f, HkType t, const char *name, HkDefKind k,
                   HkInst *def, uint32_t index, HkLoc loc);
/* Room for one more value of f, uninitialised but zeroed: its index. */
HkVal hk_value_slot(HkFunc *f);
/* Sizes f's first run of value records for n values, when f has none
 * yet: a maker that knows about how many values f will hold (the parser,
 * a copy) spends no room past them.  n = 0 leaves the default. */
void hk_func_reserve_values(HkFunc *f, uint32_t n);
/* hk_value_new for a name the caller reserved in f->syms as id was (the
 * parser names a result before it reads its instruction): name, an arena
 * string the value keeps, is taken as it is and its entry (at place at,
 * from hk_names_put_at) given the new value. */
HkVal hk_value_new_reserved(HkFunc *f, HkType t, const char *name,
                            HkDefKind k, HkInst *def, uint32_t index,
                            HkLoc loc, uint32_t at, uint32_t was);
int32_t hk_slot_add(HkFunc *f, const char *name, HkRole role, HkType t,
                    HkLoc loc);  /* -1 if the name is taken */

HkInst *hk_inst_new(HkFunc *f, HkOp op, HkLoc loc);
/* A copy of i's own fields (op, type, slot, predicate, immediates, the
 * constant payload, loop bounds, callee, ...), deep where they point,
 * with the given serial and no operands, results, carried values,
 * regions or links: the part every copier shares (clone.c), so a field
 * added to HkInst reaches every copy. */
HkInst *hk_inst_copy_shell(HkArena *a, const HkInst *i, uint32_t serial);
void hk_inst_set_ops(HkFunc *f, HkInst *i, const HkVal *ops, uint32_t n);
/* Gives i n results of the given types (names may be NULL: fresh). */
void hk_inst_set_results(HkFunc *f, HkInst *i, const HkType *types,
                         const char *const *names, uint32_t n);
HkVal hk_inst_result(HkFunc *f, HkInst *i, HkType t, const char *name);
HkBlock *hk_inst_add_regions(HkFunc *f, HkInst *i, uint32_t n);

void hk_block_append(HkBlock *b, HkInst *i);
/* The yield that ends region b, or NULL. */
const HkInst *hk_block_yield(const HkBlock *b);
void hk_insert_before(HkInst *pos, HkInst *i);
void hk_inst_remove(HkInst *i);      /* unlinks; memory stays in the arena */

/* A new module in a holding a deep copy of kernel k and of every func of m
 * k calls, directly or not (the other kernels and funcs are left out, in
 * m's order); values keep their indices, instructions
 * their serials and locations, and the source is shared (clone.c). */
HkModule *hk_module_clone_kernel(HkArena *a, const HkModule *m, const HkFunc *k);

/* A deep copy of f in m (f's module or another) named name, appended to
 * m's functions; values keep their indices and instructions their
 * serials, as in hk_module_clone_kernel (clone.c). */
HkFunc *hk_func_copy(HkModule *m, const HkFunc *f, const char *name);

/* Replace every use of from with to in every instruction of f. */
void hk_replace_all_uses(HkFunc *f, HkVal from, HkVal to);

/* ---- lexer.c / parser.c ----------------------------------------------- */

/* Parses src into a module; errors go to d.  Returns NULL on any error. */
HkModule *hk_parse(HkArena *a, const HkSource *src, HkDiags *d);

/* ---- printer.c -------------------------------------------------------- */

/* The canonical text of a module: printing it and parsing the text back
 * prints the same bytes. */
void hk_print_module(HkBuf *b, const HkModule *m);
void hk_print_func(HkBuf *b, const HkFunc *f);
void hk_print_inst(HkBuf *b, const HkFunc *f, const HkInst *i, int indent);
void hk_print_float(HkBuf *b, double v, HkElem e);  /* exact, re-readable */

/* ---- verifier.c ------------------------------------------------------- */

/* Checks every rule of LangRef "Verification"; returns the error count. */
uint32_t hk_verify_module(const HkModule *m, HkDiags *d);

/* ---- walk.c ----------------------------------------------------------- */

/* Walk positions (the contract's <pos>): top-level instructions are numbered in
 * order from 0, counting instructions inside if/dispatch regions in
 * pre-order; loop i (pre-order over the whole kernel) numbers its own body
 * from 0 as "loop<i>.<k>".  hk_walk fills one entry per instruction. */
typedef struct {
    HkInst *inst;
    int32_t loop;          /* innermost loop number, -1 at top level */
    uint32_t k;            /* ordinal within that scope */
    uint32_t depth;        /* loop nesting depth */
} HkWalkEntry;

typedef struct {
    HkWalkEntry *items;
    uint32_t n;
    uint32_t nloops;
    HkInst **loops;        /* loop i */
} HkWalk;

void hk_walk(HkArena *a, const HkFunc *f, HkWalk *w);
/* "7", "loop0.3" */
const char *hk_walk_pos(HkArena *a, const HkWalkEntry *e);

/* The instruction after i in a pre-order walk of its function (i's own
 * regions first, then what follows i), or NULL at the end:
 *   for (HkInst *i = f->body.first; i; i = hk_preorder_next(i)) ...
 * Iterative, so deep nesting cannot exhaust the stack. */
HkInst *hk_preorder_next(const HkInst *i);

/* ---- calls.c ----------------------------------------------------------- */

/* The deepest chain of calls the passes that make a function per level
 * take (inline, jvp, vjp): each level is a C stack frame of theirs. */
#define HK_CALL_DEPTH_MAX 64

/* The functions reachable from function root of m (by index) through
 * calls, each once, callees before their callers (root last), into
 * *order (in the arena), and their number; *depth (when not NULL), by
 * function index, the longest chain of calls below each of them (0: it
 * calls nothing).  Found with an explicit stack: a chain of any length
 * costs no C stack.  Recursion, the verifier's error, is not followed. */
uint32_t hk_call_order(HkArena *a, const HkModule *m, uint32_t root,
                       uint32_t **order, uint32_t **depth);
/* When a chain of calls from f nests deeper than max levels (f the
 * first, each call one more, as inline counts them): the first call of
 * f's that starts one; else NULL. */
const HkInst *hk_call_too_deep(HkArena *a, const HkFunc *f, uint32_t max);

#endif
