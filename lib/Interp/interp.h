/* interp.h -- the HIR interpreter: a third implementation of a kernel,
 * with neither LLVM nor a C compiler.
 *
 * It evaluates the kernel as verified (HkLowered.source), before any
 * pass of the lowering the units share, one instruction at a time in the
 * order the IR fixes, each op by LangRef's semantics, over the same args
 * struct and planes the units take; hawk's own math (math=hawk) is
 * math.hir's functions, run as calls, and the exactly rounded libm
 * functions (sqrt, fabs, floor, ceil) and, under math=libm, the others
 * are this process's libm, as the units call them.  So where the
 * lowering is right the three agree bit for bit, and where it is wrong
 * the interpreter is the row that disagrees.  docs/CommandGuide.md,
 * "hawk-run", "-oracle". */
#ifndef HAWK_INTERP_H
#define HAWK_INTERP_H

#include <stdint.h>

#include "lower.h"

typedef struct HkInterp HkInterp;

/* An interpreter of l's kernel, in arena a; NULL with a diagnostic in d
 * when the kernel holds what it does not evaluate (an op no writer
 * takes either). */
HkInterp *hk_interp_new(HkArena *a, HawkContext *ctx, const HkLowered *l,
                        HkDiags *d);

/* The units' entry: the same checks in the same order (args or a plane
 * NULL: 1; base, count, n_samples or a runtime length out of range: 2),
 * then samples base .. base + count - 1 in order, a sample whose guard
 * mask is set skipped; 0.  args is the C header's <name>_args_t. */
int32_t hk_interp_entry(HkInterp *ip, const void *args, int64_t base,
                        int64_t count, int64_t n_samples);

#endif
