/* hostinit.c -- LLVM's native target: registration, the target machine of
 * this CPU and the optimization pipeline. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "hostint.h"

/* The native target, its asm printer and parser: LLVM's registration is
 * idempotent, so a second call is harmless. */
void hk_host_init(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
}

/* Copies an LLVM message into the arena and disposes it. */
static const char *take_message(HkArena *a, char *msg)
{
    const char *s = hk_strdup(a, msg != NULL ? msg : "(no message)");
    if (msg != NULL)
        LLVMDisposeMessage(msg);
    return s;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* LLVM lists the features in the order of a hash table: sorted here, so
 * the same CPU always gives the same line. */
const char *hk_host_cpu(HkArena *a)
{
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    char *list = hk_strdup(a, features);
    size_t n = 1;
    for (const char *p = list; *p != '\0'; p++)
        n += *p == ',';
    char **f = hk_alloc(a, n * sizeof *f);
    size_t k = 0;
    for (char *p = list; p != NULL; k++) {
        f[k] = p;
        p = strchr(p, ',');
        if (p != NULL)
            *p++ = '\0';
    }
    qsort(f, k, sizeof *f, cmp_str);
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "%s ", cpu);
    for (size_t j = 0; j < k; j++)
        hk_buf_printf(&b, "%s%s", j > 0 ? "," : "", f[j]);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(cpu);
    return hk_buf_cstr(&b);
}

/* The native triple, CPU and features: the code runs where it is built
 * (the JIT) or on a machine of the same kind (the object). */
LLVMTargetMachineRef hk_host_machine(HkArena *a, const char **why)
{
    hk_host_init();
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *err = NULL;
    int injected = hk_host_fault();
    if (injected || LLVMGetTargetFromTriple(triple, &target, &err) != 0) {
        *why = hk_asprintf(a, "no LLVM target for '%s': %s", triple,
                           injected ? HK_HOST_FAULT_MESSAGE : take_message(a, err));
        LLVMDisposeMessage(triple);
        return NULL;
    }
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    /* PIC so the object links into a shared library as well. */
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, cpu, features, LLVMCodeGenLevelDefault, LLVMRelocPIC,
        LLVMCodeModelDefault);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(cpu);
    if (tm != NULL && hk_host_fault()) {
        LLVMDisposeTargetMachine(tm);
        tm = NULL;
    }
    if (tm == NULL)
        *why = hk_asprintf(a, "LLVM made no target machine for '%s'", triple);
    LLVMDisposeMessage(triple);
    return tm;
}

/* default<O2> with both vectorizers on (what clang runs at -O2).  No
 * fast-math flag is ever set on the IR, and the machine's default
 * fp-contract mode fuses only llvm.fmuladd, which the unit never calls,
 * so the pipeline keeps every rounding the kernel states. */
int hk_host_optimize(HkArena *a, LLVMModuleRef m, LLVMTargetMachineRef tm,
                     const char **why)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
    LLVMPassBuilderOptionsSetLoopInterleaving(opts, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(opts, 1);
    LLVMErrorRef e = hk_host_fault_error();
    if (e == NULL)
        e = LLVMRunPasses(m, "default<O2>", tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e == NULL)
        return 0;
    char *msg = LLVMGetErrorMessage(e);
    *why = hk_strdup(a, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}
