/* hostwriter.c -- the LLVMWriter: builds the host unit of a lowered kernel
 * into an LLVM module (docs/EmbeddedC.md, "The host target").
 *
 * The module holds one function, `<name>_<entry>` with the entry suffix of
 * the targets row whose writer is the LLVMWriter, over the C header's
 * args struct.  Its data layout and triple are the target machine's, the
 * IR is verified, then optimized with default<O2> for the native CPU. */
#include <llvm-c/Analysis.h>

#include "hostint.h"

void hk_host_error(HkDiags *d, const HkLowered *l, const char *what)
{
    hk_error(d, &l->kernel->module->src, l->kernel->loc, "'%s': %s",
             l->kernel->name, what);
}

/* The machine's CPU and features on the entry, so the textual IR and the
 * object say what they were optimized for. */
static void machine_attributes(HkHostGen *g, LLVMTargetMachineRef tm)
{
    char *cpu = LLVMGetTargetMachineCPU(tm);
    char *features = LLVMGetTargetMachineFeatureString(tm);
    LLVMAddTargetDependentFunctionAttr(g->fn, "target-cpu", cpu);
    LLVMAddTargetDependentFunctionAttr(g->fn, "target-features", features);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(cpu);
}

/* A module with tm's data layout and triple. */
static LLVMModuleRef new_module(HkHostGen *g, LLVMTargetMachineRef tm)
{
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext(g->f->name, g->ctx);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, td);
    LLVMDisposeTargetData(td);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    return m;
}

/* Fills g->mod with the unit; 0, or -1 after a diagnostic. */
static int build_unit(HkHostGen *g, LLVMTargetMachineRef tm)
{
    g->mod = new_module(g, tm);
    g->td = LLVMGetModuleDataLayout(g->mod);
    g->vals = hk_alloc(g->a, (g->f->nvalues + 1u) * sizeof *g->vals);
    if (hk_host_args_type(g) != 0)
        return -1;
    /* the row the LLVMWriter writes, whatever row the profile names */
    const HkTarget *row = hk_target_written_by(HK_WRITER_LLVM);
    if (row == NULL) {
        hk_host_error(g->d, g->l, "no target row is written by the LLVMWriter");
        return -1;
    }
    hk_host_entry(g, hk_asprintf(g->a, "%s_%s", g->f->name, row->entry));
    if (g->failed)
        return -1;
    machine_attributes(g, tm);
    char *msg = NULL;
    if (hk_host_fault() ||
        LLVMVerifyModule(g->mod, LLVMReturnStatusAction, &msg) != 0) {
        hk_host_error(g->d, g->l,
                      hk_asprintf(g->a, "the host unit does not verify: %s",
                                  msg != NULL ? msg : HK_HOST_FAULT_MESSAGE));
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    const char *why = NULL;
    if (hk_host_optimize(g->a, g->mod, tm, &why) != 0) {
        hk_host_error(g->d, g->l,
                      hk_asprintf(g->a, "LLVM's pipeline failed: %s", why));
        return -1;
    }
    return 0;
}

typedef struct {
    HkHostGen *g;
    LLVMTargetMachineRef tm;
    int rc;
} BuildCall;

static void build_call(void *ud)
{
    BuildCall *c = ud;
    c->rc = build_unit(c->g, c->tm);
}

int hk_host_build_for(const HkLowered *l, LLVMContextRef ctx,
                      LLVMTargetMachineRef tm, LLVMModuleRef *out, HkDiags *d)
{
    /* the writer spells the legal scalar form and decides nothing */
    if (hk_scalar_form_check(l->kernel, d) != 0)
        return -1;
    HkHostGen g = {0};
    g.a = l->kernel->module->arena;
    g.l = l;
    g.f = l->kernel;
    g.d = d;
    g.ctx = ctx;
    g.b = LLVMCreateBuilderInContext(ctx);
    BuildCall c = {&g, tm, -1};
    /* memory that runs out in the arena while the builder and the module
     * are LLVM's disposes them before the failure goes on */
    int oom = hk_arena_protect(g.a, build_call, &c);
    int rc = c.rc;
    LLVMDisposeBuilder(g.b);
    if (oom != 0) {
        if (g.mod != NULL)
            LLVMDisposeModule(g.mod);
        hk_out_of_memory(g.a);
    }
    if (rc != 0) {
        if (g.mod != NULL)
            LLVMDisposeModule(g.mod);
        return -1;
    }
    *out = g.mod;
    return 0;
}

LLVMTargetMachineRef hk_host_machine_for(const HkLowered *l, HkDiags *d)
{
    const char *why = NULL;
    LLVMTargetMachineRef tm = hk_host_machine(l->kernel->module->arena, &why);
    if (tm == NULL)
        hk_host_error(d, l, why);
    return tm;
}
