/* hostjit.c -- the host unit built in memory by ORC's LLJIT for the native
 * machine (the CPU and features the optimizer saw).  libm and every other
 * external symbol resolve from the process. */
#include <stdlib.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "fault.h"
#include "hostint.h"

struct HkHostJit {
    LLVMOrcLLJITRef jit;
};

/* Takes err's message into a diagnostic; returns -1. */
static int jit_error(HkDiags *d, const HkLowered *l, const char *what,
                     LLVMErrorRef err)
{
    char *msg = LLVMGetErrorMessage(err);
    hk_host_error(d, l,
                  hk_asprintf(d->arena, "host JIT: %s: %s", what, msg));
    LLVMDisposeErrorMessage(msg);
    return -1;
}

/* An LLJIT for machine tm (taken over) that resolves from the process. */
static int make_jit(const HkLowered *l, LLVMTargetMachineRef tm,
                    LLVMOrcLLJITRef *out, HkDiags *d)
{
    LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
    LLVMErrorRef err = hk_host_fault_error();
    if (err != NULL)
        LLVMOrcDisposeLLJITBuilder(b);
    else
        err = LLVMOrcCreateLLJIT(out, b);
    if (err != NULL)
        return jit_error(d, l, "cannot create the JIT", err);
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    if ((err = hk_host_fault_error()) == NULL)
        err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
            &gen, LLVMOrcLLJITGetGlobalPrefix(*out), NULL, NULL);
    if (err != NULL) {
        LLVMOrcDisposeLLJIT(*out);
        return jit_error(d, l, "cannot search the process", err);
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(*out), gen);
    return 0;
}

/* Adds mod (built in tsc's context) and looks up the entry. */
static int add_and_lookup(const HkLowered *l, LLVMOrcLLJITRef jit,
                          LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod,
                          HkHostEntry *entry, HkDiags *d)
{
    LLVMValueRef fn = LLVMGetFirstFunction(mod);
    while (fn != NULL && LLVMIsDeclaration(fn))
        fn = LLVMGetNextFunction(fn);
    size_t n = 0;
    const char *name = hk_strdup(d->arena, LLVMGetValueName2(fn, &n));
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
    LLVMErrorRef err = hk_host_fault_error();
    if (err != NULL)
        LLVMOrcDisposeThreadSafeModule(tsm);
    else
        err = LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm);
    if (err != NULL) /* the JIT owns tsm even then */
        return jit_error(d, l, "cannot add the unit", err);
    LLVMOrcExecutorAddress addr = 0;
    if ((err = hk_host_fault_error()) == NULL)
        err = LLVMOrcLLJITLookup(jit, &addr, name);
    if (err != NULL)
        return jit_error(d, l, "cannot link the unit", err);
    /* An object pointer to a function pointer: what dlsym asks of POSIX. */
    *entry = (HkHostEntry)(uintptr_t)addr;
    return 0;
}

int hk_host_jit(const HkLowered *l, HkHostJit **out, HkHostEntry *entry,
                HkDiags *d)
{
    LLVMTargetMachineRef tm = hk_host_machine_for(l, d);
    if (tm == NULL)
        return -1;
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMModuleRef mod = NULL;
    if (hk_host_build_for(l, LLVMOrcThreadSafeContextGetContext(tsc), tm,
                          &mod, d) != 0) {
        LLVMDisposeTargetMachine(tm);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return -1;
    }
    LLVMOrcLLJITRef jit = NULL;
    if (make_jit(l, tm, &jit, d) != 0) {
        LLVMDisposeModule(mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return -1;
    }
    int rc = add_and_lookup(l, jit, tsc, mod, entry, d);
    /* the module (when added) holds its own reference to the context */
    LLVMOrcDisposeThreadSafeContext(tsc);
    if (rc != 0) {
        LLVMOrcDisposeLLJIT(jit);
        return -1;
    }
    HkHostJit *j = hk_malloc(sizeof *j);
    if (j == NULL) {
        LLVMOrcDisposeLLJIT(jit);
        hk_out_of_memory(d->arena);
    }
    j->jit = jit;
    *out = j;
    return 0;
}

void hk_host_jit_free(HkHostJit *j)
{
    if (j == NULL)
        return;
    LLVMErrorRef err = LLVMOrcDisposeLLJIT(j->jit);
    if (err != NULL)
        LLVMConsumeError(err);
    free(j);
}
