/* fault.h -- fault injection for the test build (CMake HAWK_FAULT=ON,
 * docs/CommandGuide.md "Fault injection"): whether the next allocation,
 * the next write, rename or directory creation, or the next answer of
 * LLVM's that the host row checks is to fail.  In any other
 * build hk_fault is 0 and costs nothing. */
#ifndef HAWK_FAULT_H
#define HAWK_FAULT_H

#include <stddef.h>

typedef enum {
    HK_FAULT_ALLOC,        /* a malloc (an arena's chunk, a buffer) */
    HK_FAULT_IO,           /* a file written, renamed, a directory made */
    HK_FAULT_LLVM,         /* an answer of LLVM's the host row checks: a
                              target, a machine, the verifier, the pass
                              pipeline, the struct layout, the JIT */
    HK_FAULT_KINDS
} HkFault;

#ifdef HAWK_FAULT_INJECTION
/* Counts one event of kind; whether it is the one HAWK_FAULT names. */
int hk_fault(HkFault kind);
#else
static inline int hk_fault(HkFault kind)
{
    (void)kind;
    return 0;
}
#endif

/* Whether the test hook HAWK_PLANT names plant: a defect planted on
 * purpose in a pass of the lowering ("scalarize-fold": a dot folded
 * from its last product; "legalize-clamp": clip x, lo, hi spelt
 * maximum(minimum(x, hi), lo)), so that a test sees the interpreter
 * catch what both units share.  0 in any other build. */
#ifdef HAWK_FAULT_INJECTION
int hk_plant(const char *plant);
#else
static inline int hk_plant(const char *plant)
{
    (void)plant;
    return 0;
}
#endif

/* malloc, calloc and realloc, failing where hk_fault says so.  libhawk-rt carries
 * its own copy of these (it links without libhawk); they are weak, so a
 * program that links both libraries counts one sequence of events. */
void *hk_malloc(size_t n);
void *hk_calloc(size_t n, size_t size);
void *hk_realloc(void *p, size_t n);

#endif
