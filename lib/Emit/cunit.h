/* cunit.h -- the C unit written from a lowered kernel (lib/Lower,
 * lower.h): cwriter.c fills the .c text and the lists the report needs;
 * cheader.c fills the .h text.
 */
#ifndef HAWK_CUNIT_H
#define HAWK_CUNIT_H

#include "lower.h"

/* The C type every unit spells element e with: the runtime's typedef of
 * the real by its width (hawk_f64_t, hawk_f32_t, so units of both widths
 * share one runtime), int64_t, int32_t, uint32_t, bool.  cwriter_names.c. */
const char *hk_c_elem_type(HkElem e);

/* The implementation-defined behaviours (MISRA C:2012 Directive 1.1) an
 * emitted unit relies on, as its header names them; docs/EmbeddedC.md,
 * "Implementation-defined behaviour", says what hawk assumes of each.
 * ORDER: the header's line. */
#define HK_IDB_KINDS(X)                                                      \
    X(EXACT_WIDTH, "exact-width integer types")                              \
    X(LAYOUT, "struct layout and enum width")                                \
    X(IEEE_REALS, "IEEE 754 reals")                                          \
    X(SIGNED_CONVERSION, "unsigned-to-signed conversion")                    \
    X(CONVERSION_ROUNDING, "rounding of inexact conversions")                \
    X(REAL_BYTES, "byte order of reals")

typedef enum {
#define X(e, text) HK_IDB_##e,
    HK_IDB_KINDS(X)
#undef X
    HK_IDB_COUNT
} HkIdb;

#define HK_IDB_BIT(e) (1u << HK_IDB_##e)

/* The words of behaviour k, for the header. */
const char *hk_idb_text(HkIdb k);
/* "<prefix>Relies on implementation-defined behaviour (...): a, b.\n":
 * the header line naming the behaviours of bits (HK_IDB_BIT set). */
void hk_idb_line(HkBuf *b, const char *prefix, unsigned bits);

typedef struct {
    const char *c_text, *h_text;
    unsigned impl_defined;                   /* HK_IDB_BIT set the .c and
                                                .h rely on */
    const char **helpers; uint32_t nhelpers; /* integer/index helpers
                                                emitted, sorted */
    const char **core; uint32_t ncore;       /* numerics-core functions
                                                emitted, sorted */
    const char **libm; uint32_t nlibm;       /* libm functions the .c
                                                calls, sorted */
    const char **mathfns; uint32_t nmathfns; /* hawk's called math
                                                functions the .c calls
                                                (runtime unit), in id
                                                order: name order */
    const char **cflags; uint32_t ncflags;   /* the C compiler flags the
                                                unit's bit identity needs:
                                                -ffp-contract=off, then
                                                -fno-builtin-<f> per libm
                                                function that is not
                                                exactly rounded */
    /* The stack bound (cstack.c): the entry's frame, the per-sample
     * function's (0 when the body is empty), the largest frame of a runtime
     * function the unit calls (0 for none), and their sum. */
    int64_t stack_entry, stack_sample, stack_runtime, stack_total;
    /* The self-test (0 samples: none): its samples, the output values it
     * compares, and the bytes of its frame's planes. */
    int64_t selftest_samples, selftest_values, selftest_frame;
    const char *selftest_source; /* whose known answers ("host build") */
} HkCUnit;

/* Bytes every frame may hold beyond its parameters and locals in the
 * stack bound: the return address, the callee-saved core and
 * floating-point registers a function may push (ARM: r4-r11, lr, s16-s31;
 * x86-64: rbp, rbx, r12-r15) and alignment. */
#define HK_FRAME_OVERHEAD INT64_C(128)

/* Writes the .c text of l's kernel: fills c_text, helpers, core and libm.
 * Returns 0, or -1 with a diagnostic in d for a construct it cannot
 * spell (an internal limit, never an input the verify passes accept). */
int hk_cwriter(HkArena *a, const HkLowered *l, HkCUnit *out, HkDiags *d);

/* The known answers of a unit's self-test (kat.c; docs/EmbeddedC.md, "The
 * self-test"): one launch of n samples drawn by the runner's generator
 * from a seed fixed by the kernel's name, and the planes the host build
 * left.  Arena storage. */
typedef struct {
    int64_t n;                   /* samples: the entry's count and
                                    n_samples */
    HkAbiLayout abi;
    const unsigned char *args;   /* abi.size bytes: lengths and uniforms */
    uint32_t nplanes;
    const HkAbiField **field;    /* by plane, in member order */
    size_t *nelem;               /* by plane: elements */
    const unsigned char **in;    /* by plane: the bytes the entry gets */
    const unsigned char **want;  /* by plane: written planes, the bytes
                                    the host build left; NULL otherwise */
    int32_t status;              /* what the host build returned */
    const char *source;          /* the oracle's source: "host build" */
} HkKat;

/* Draws l's self-test launch, runs it through o (the host build) and
 * records both into out.  A NaN drawn is replaced by the NAN of this
 * machine's <math.h>, the NaN the unit's text spells.  0, or -1 with
 * diagnostics in d. */
int hk_kat_draw(HkArena *a, const HkLowered *l, const HawkUnitOracle *o,
                HkKat *out, HkDiags *d);

/* hk_cwriter, with the self-test of kat (NULL: none) after the entry:
 * <name>_selftest() and its tables; fills selftest_*. */
int hk_cwriter_kat(HkArena *a, const HkLowered *l, const HkKat *kat,
                   HkCUnit *out, HkDiags *d);

/* A called math function as the runtime unit defines it
 * (hk_cwriter_mathfn). */
typedef struct {
    const char *def_text;    /* its comment, signature and body */
    const char *decl_text;   /* its comment and prototype */
    uint8_t *need;           /* by helper id (cwriter.h): it calls it */
    unsigned impl_defined;   /* HK_IDB_BIT set its own text relies on
                                (its helpers bring theirs to the runtime) */
    int need_math, need_bool;/* <math.h> (NAN, INFINITY), <stdbool.h> */
    int64_t stack;           /* its frame and the largest frame of a
                                helper it calls (cstack.c's model) */
} HkCFunc;

/* Writes the called math function id from its lowering l
 * (hk_lower_mathfn).  Returns 0, or -1 with a diagnostic in d (a hawk
 * defect). */
int hk_cwriter_mathfn(HkArena *a, const HkLowered *l, uint32_t id,
                      HkCFunc *out, HkDiags *d);

/* Writes the .h text of l's kernel into u->h_text. */
void hk_cheader(HkArena *a, const HkLowered *l, HkCUnit *u);

#endif
