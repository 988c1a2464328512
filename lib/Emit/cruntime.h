/* cruntime.h -- the runtime unit of an output directory (docs/EmbeddedC.md,
 * "The runtime unit"): hawk_runtime.h and hawk_runtime.c, the one
 * definition of what the C units written there share (the types, the
 * status codes, the helpers and numerics-core functions they call), so a
 * firmware build that links every unit of the directory has one of each
 * (MISRA C:2012 Rules 5.6, 5.7, 5.9, 8.6).
 *
 * The header records the units it serves and the functions each calls;
 * a later export into the same directory reads that record back and
 * writes the union, so the runtime always serves every unit present.
 */
#ifndef HAWK_CRUNTIME_H
#define HAWK_CRUNTIME_H

#include "cunit.h"
#include "cwriter.h"

/* The file names, before the row's source and artifact suffixes. */
#define HK_RUNTIME_BASE "hawk_runtime"

/* The runtime unit's files as row t names them: "hawk_runtime.h" (the
 * artifact suffix) and "hawk_runtime.c" (the source suffix). */
const char *hk_runtime_header_name(HkArena *a, const HkTarget *t);
const char *hk_runtime_source_name(HkArena *a, const HkTarget *t);

/* The runtime's function ids: chelpers.c's helper ids, then hawk's
 * called math functions (HK_CH_COUNT + hk_mathfn_id). */
#define HK_RT_COUNT (HK_CH_COUNT + HK_MATHFN_COUNT)

/* One unit the runtime serves: its kernel and the runtime functions its
 * .c calls (runtime function ids, as flags). */
typedef struct {
    const char *kernel;
    uint8_t *uses;
} HkRuntimeUnit;

typedef struct {
    HkRuntimeUnit *units;     /* sorted by kernel name */
    uint32_t nunits, cap;
    HkSymtab *names;          /* function name -> id, built lazily */
    HkCFunc fn[HK_MATHFN_COUNT]; /* the called math functions' texts
                                 (hk_runtime_mathfns) */
} HkRuntime;

void hk_runtime_init(HkRuntime *rt);

/* Reads the record of a runtime header text written by hk_runtime_texts
 * into rt (which must be empty).  Returns 0, or -1 when the text is not
 * such a header. */
int hk_runtime_parse(HkArena *a, const char *h_text, HkRuntime *rt);

/* Adds (or replaces) kernel's entry, calling the runtime functions u
 * names (u->helpers and u->core).  Units of either width share one
 * runtime: it names each real type and function by its width. */
void hk_runtime_add(HkArena *a, HkRuntime *rt, const char *kernel,
                    const HkCUnit *u);

/* Drops the entry of kernel, if any. */
void hk_runtime_drop(HkRuntime *rt, const char *kernel);

/* Writes the called math functions some unit of rt calls into rt->fn:
 * each as l lowered it (l->mathfn, when l is not NULL)
 * or as ctx lowers it (hk_lower_mathfn).  0, or -1 after a diagnostic in
 * d (a hawk defect). */
int hk_runtime_mathfns(HkArena *a, HkRuntime *rt, HawkContext *ctx,
                       const HkLowered *l, HkDiags *d);

/* The texts of the runtime (after hk_runtime_mathfns): the header h_name and the source c_name
 * (always one: it defines hawk_runtime_version when no unit calls a
 * function). */
void hk_runtime_texts(HkArena *a, const HkRuntime *rt, const char *h_name,
                      const char *c_name, const char **h_text,
                      const char **c_text);

#endif
