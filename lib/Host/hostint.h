/* hostint.h -- lib/Host's private interface: the state of one unit being
 * built (HkHostGen) and the files that fill it.
 *
 *   hostinit.c     the native target machine, the pass pipeline
 *   hostargs.c     the args struct type and its layout self-check
 *   hostentry.c    the entry: argument checks, the call of the samples
 *   hostsamples.c  the sample loop and mask guard, the plane overlap test
 *   hostbody.c     the instructions of a block, the value map
 *   hostinteger.c  integer ops with LangRef's defined results
 *   hostreal.c     real ops, comparisons, conversions, libm
 *   hostmathfn.c   hawk's called math functions
 *   hostplanes.c   plane addressing: load, gather, store, accum, bump
 *   hostcontrol.c  loop, break_if, if, dispatch
 *   hostwriter.c   hk_host_build_for: module, verify, optimize
 *   hostemit.c     hk_host_emit_ir, hk_host_emit_object
 *   hostjit.c      hk_host_jit (ORC LLJIT)
 *   hostunit.c     the LLVMWriter as the export calls it
 */
#ifndef HAWK_HOSTINT_H
#define HAWK_HOSTINT_H

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "fault.h"
#include "host.h"

/* Fault injection over LLVM's answers (HAWK_FAULT=llvm:N, fault.h): each
 * answer the host row checks (a target found, a machine made, the unit
 * verified, the pipeline run, the struct laid out, the JIT made, the unit
 * added and linked) asks whether it is the one to fail, and then goes the
 * way LLVM's failure goes, with this message where LLVM would give one. */
#define HK_HOST_FAULT_MESSAGE "an injected fault (HAWK_FAULT=llvm)"
static inline int hk_host_fault(void)
{
    return hk_fault(HK_FAULT_LLVM);
}
/* The injected failure of an answer LLVM gives as an LLVMErrorRef: the
 * error to take in its place, or NULL when this answer is not the one to
 * fail.  The caller still owns what LLVM would have consumed. */
static inline LLVMErrorRef hk_host_fault_error(void)
{
    return hk_host_fault() ? LLVMCreateStringError(HK_HOST_FAULT_MESSAGE) : NULL;
}

/* ---- hostinit.c ---------------------------------------------------------- */

/* Registers LLVM's native target (idempotent). */
void hk_host_init(void);

/* A target machine for the native triple, CPU and features (PIC, default
 * code model, -O2 code generation), or NULL with *why set (an arena
 * string). */
LLVMTargetMachineRef hk_host_machine(HkArena *a, const char **why);

/* Runs default<O2> on m for machine tm.  Returns 0, or -1 with *why. */
int hk_host_optimize(HkArena *a, LLVMModuleRef m, LLVMTargetMachineRef tm,
                     const char **why);

/* Builds l's unit into ctx for machine tm: the module's data layout and
 * triple are tm's, the IR is verified and optimized.  hostwriter.c. */
int hk_host_build_for(const HkLowered *l, LLVMContextRef ctx,
                      LLVMTargetMachineRef tm, LLVMModuleRef *out, HkDiags *d);

/* A diagnostic about l's kernel, at its name. */
void hk_host_error(HkDiags *d, const HkLowered *l, const char *what);
/* The native target machine to build l's unit for, or NULL with a
 * diagnostic at l's kernel saying why.  hostwriter.c. */
LLVMTargetMachineRef hk_host_machine_for(const HkLowered *l, HkDiags *d);

/* ---- the unit being built ------------------------------------------------- */

/* A loop being built: where break_if goes. */
typedef struct HkHostLoop {
    LLVMBasicBlockRef exit;
    struct HkHostLoop *outer;
} HkHostLoop;

typedef struct {
    HkArena *a;
    const HkLowered *l;
    HkFunc *f;
    HkDiags *d;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTargetDataRef td;
    LLVMValueRef fn;            /* the function being built: the entry,
                                   or a copy of the sample loop */
    LLVMBasicBlockRef entry_bb; /* its first block: allocas go there */

    /* the args struct (hostargs.c) */
    HkAbiLayout abi;
    LLVMTypeRef args_ty;
    LLVMValueRef args;          /* const <name>_args_t* */
    int32_t *slot_field;        /* slot -> index of its member in abi
                                   (hk_plane_members) */
    LLVMValueRef *local;        /* slot -> a local's rows (an array alloca
                                   of the sample loop's function), or NULL */
    LLVMValueRef *field;        /* abi member -> its value: loaded once in
                                   the entry, a parameter of the loop */

    /* the sample */
    LLVMValueRef n_samples;
    LLVMValueRef sample;        /* i, the sample index */

    /* values: HkVal -> its components (one for rank 0) */
    LLVMValueRef **vals;
    HkHostLoop *loop;
    const HkInst *at;           /* the instruction being lowered: where a
                                   failure without one of its own is told */
    int failed;
    int fnmode;                 /* building a called math function: a load
                                   of an argument is its parameter, the
                                   store of the result the return */
} HkHostGen;

/* ---- types and small helpers (hostbody.c) -------------------------------- */

/* The register type of element e (i1 for masks). */
LLVMTypeRef hk_host_elem(HkHostGen *g, HkElem e);
/* The memory type of element e (bool planes are i8). */
LLVMTypeRef hk_host_mem_elem(HkHostGen *g, HkElem e);
LLVMValueRef hk_host_i64(HkHostGen *g, int64_t v);
/* An entry-block alloca of type t. */
LLVMValueRef hk_host_alloca(HkHostGen *g, LLVMTypeRef t, const char *name);
LLVMValueRef hk_host_alloca_n(HkHostGen *g, LLVMTypeRef t, LLVMValueRef n,
                              const char *name);
/* A new block at the end of the function being built. */
LLVMBasicBlockRef hk_host_block(HkHostGen *g, const char *name);
/* Records an internal failure at i (once). */
void hk_host_fail(HkHostGen *g, const HkInst *i, const char *what);

/* Component k of v (a rank-0 operand broadcasts: its only component). */
LLVMValueRef hk_host_comp(HkHostGen *g, HkVal v, uint32_t k);
/* Binds v's components (hk_components(type) of them, copied). */
void hk_host_bind(HkHostGen *g, HkVal v, LLVMValueRef *c);
void hk_host_bind1(HkHostGen *g, HkVal v, LLVMValueRef c);
HkType hk_host_type(HkHostGen *g, HkVal v);

/* Lowers every instruction of block b in order. */
void hk_host_block_body(HkHostGen *g, HkBlock *b);

/* ---- hostargs.c ----------------------------------------------------------- */

/* Lays out the args struct (abi.c's rules), builds its LLVM type and
 * checks LLVM's offsets against the C ones.  Returns 0, or -1 with a
 * diagnostic. */
int hk_host_args_type(HkHostGen *g);
/* Loads every member of *args into g->field (at the builder). */
void hk_host_args_load(HkHostGen *g);
/* The LLVM type of member k of the args struct. */
LLVMTypeRef hk_host_member_type(HkHostGen *g, uint32_t k);

/* ---- hostentry.c ---------------------------------------------------------- */

/* Builds the entry function `<name>_<entry>` into g->mod. */
void hk_host_entry(HkHostGen *g, const char *name);

/* ---- hostsamples.c -------------------------------------------------------- */

/* Builds the sample loop of the entry g->fn as an internal function over
 * the args members, base, end and n_samples; no_alias marks its plane
 * pointers noalias.  Leaves the builder unpositioned. */
LLVMValueRef hk_host_samples_fn(HkHostGen *g, int no_alias);
/* Calls fn (from hk_host_samples_fn) with the entry's members. */
void hk_host_call_samples(HkHostGen *g, LLVMValueRef fn, LLVMValueRef base,
                          LLVMValueRef end);
/* Whether no plane the unit writes overlaps another plane over the samples
 * [base, end) (i1, at the builder). */
LLVMValueRef hk_host_disjoint(HkHostGen *g, LLVMValueRef base,
                              LLVMValueRef end);

/* ---- hostinteger.c -------------------------------------------------------- */

/* The integer ops (add ... shr, neg, abs, minimum, maximum, clip on
 * integers) on rank-0 values of element e. */
LLVMValueRef hk_host_int_binary(HkHostGen *g, HkOp op, HkElem e,
                                LLVMValueRef x, LLVMValueRef y);
LLVMValueRef hk_host_int_neg(HkHostGen *g, LLVMValueRef x);
LLVMValueRef hk_host_int_abs(HkHostGen *g, HkElem e, LLVMValueRef x);
/* icmp under LangRef's reading (i1: false 0, true 1). */
LLVMValueRef hk_host_icmp(HkHostGen *g, HkPred p, HkElem e, LLVMValueRef x,
                          LLVMValueRef y);
/* clamp(k, 0, len - 1) for len >= 1 (hawk_clamp_index). */
LLVMValueRef hk_host_clamp_index(HkHostGen *g, LLVMValueRef k,
                                 LLVMValueRef len);

/* ---- hostreal.c ----------------------------------------------------------- */

LLVMValueRef hk_host_real_binary(HkHostGen *g, HkOp op, HkElem e,
                                 LLVMValueRef x, LLVMValueRef y);
LLVMValueRef hk_host_fcmp(HkHostGen *g, HkPred p, LLVMValueRef x,
                          LLVMValueRef y);
/* A libm call of op (sqrt ... hypot, abs) on element e: by name. */
LLVMValueRef hk_host_libm(HkHostGen *g, HkOp op, HkElem e,
                          LLVMValueRef *args, unsigned n);
LLVMValueRef hk_host_convert(HkHostGen *g, HkOp op, HkElem from, HkElem to,
                             LLVMValueRef x);
/* A const component: canonical NaN and infinities as the C spells them. */
LLVMValueRef hk_host_const(HkHostGen *g, const HkInst *i, HkElem e,
                           uint32_t k);

/* ---- hostmathfn.c --------------------------------------------------------- */

/* A call of the called math function id (hk_mathfn_name) on args, built
 * into g's module from its lowering (g->l->mathfn) the first time. */
LLVMValueRef hk_host_mathfn_call(HkHostGen *g, uint32_t id, LLVMValueRef *args,
                                 unsigned n);

/* ---- hostplanes.c --------------------------------------------------------- */

void hk_host_load(HkHostGen *g, HkInst *i);
void hk_host_gather(HkHostGen *g, HkInst *i);
void hk_host_clamp_index_op(HkHostGen *g, HkInst *i);
void hk_host_store(HkHostGen *g, HkInst *i);
void hk_host_accum(HkHostGen *g, HkInst *i);
void hk_host_bump(HkHostGen *g, HkInst *i);
/* Adds 1 (wrapping) to cell k of mix slot s. */
void hk_host_mix_bump(HkHostGen *g, int32_t slot, LLVMValueRef k);
/* The mask of terminated slot s for the current sample (i1). */
LLVMValueRef hk_host_mask(HkHostGen *g, int32_t slot);

/* ---- hostcontrol.c -------------------------------------------------------- */

void hk_host_loop(HkHostGen *g, HkInst *i);
void hk_host_break_if(HkHostGen *g, HkInst *i);
void hk_host_if(HkHostGen *g, HkInst *i);
void hk_host_dispatch(HkHostGen *g, HkInst *i);

#endif
