/* hostemit.c -- the host unit as bytes: the textual IR (<name>.ll) and the
 * native object (<name>.host.o).
 *
 * Each call builds the unit afresh in a context of its own, so the bytes
 * depend on the kernel and the machine alone: the same kernel on the
 * same machine gives the same bytes. */
#include <string.h>

#include "hostint.h"

/* Builds l's unit in a fresh context for a fresh native machine. */
typedef struct {
    LLVMContextRef ctx;
    LLVMTargetMachineRef tm;
    LLVMModuleRef mod;
} Unit;

/* Builds l's unit into u; 0, or -1 with a diagnostic (u is closable). */
static int open_unit(const HkLowered *l, Unit *u, HkDiags *d)
{
    memset(u, 0, sizeof *u);
    u->tm = hk_host_machine_for(l, d);
    if (u->tm == NULL)
        return -1;
    u->ctx = LLVMContextCreate();
    return hk_host_build_for(l, u->ctx, u->tm, &u->mod, d);
}

/* Disposes what open_unit made. */
static void close_unit(Unit *u)
{
    if (u->mod != NULL)
        LLVMDisposeModule(u->mod);
    if (u->ctx != NULL)
        LLVMContextDispose(u->ctx);
    if (u->tm != NULL)
        LLVMDisposeTargetMachine(u->tm);
}

int hk_host_emit_ir(HkArena *a, const HkLowered *l, const char **text,
                    size_t *len, HkDiags *d)
{
    Unit u;
    int rc = open_unit(l, &u, d);
    if (rc == 0) {
        char *s = LLVMPrintModuleToString(u.mod);
        *len = strlen(s);
        *text = hk_strndup(a, s, *len);
        LLVMDisposeMessage(s);
    }
    close_unit(&u);
    return rc;
}

int hk_host_emit_object(HkArena *a, const HkLowered *l, const char **bytes,
                        size_t *len, HkDiags *d)
{
    Unit u;
    int rc = open_unit(l, &u, d);
    if (rc == 0) {
        char *err = NULL;
        LLVMMemoryBufferRef buf = NULL;
        if (hk_host_fault() ||
            LLVMTargetMachineEmitToMemoryBuffer(u.tm, u.mod, LLVMObjectFile,
                                                &err, &buf) != 0) {
            hk_host_error(d, l,
                          hk_asprintf(a, "LLVM wrote no object: %s",
                                      err != NULL ? err : HK_HOST_FAULT_MESSAGE));
            LLVMDisposeMessage(err);
            rc = -1;
        } else {
            *len = LLVMGetBufferSize(buf);
            char *copy = hk_alloc(a, *len + 1u);
            memcpy(copy, LLVMGetBufferStart(buf), *len);
            *bytes = copy;
            LLVMDisposeMemoryBuffer(buf);
        }
        LLVMDisposeMessage(err);
    }
    close_unit(&u);
    return rc;
}
