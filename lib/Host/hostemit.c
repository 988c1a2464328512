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

/* One emission: the unit and what LLVM hands back while it is open (the
 * IR's text, the object's buffer, an error message), each disposed
 * whether the emission ends or memory runs out in the arena midway. */
typedef struct {
    HkArena *a;
    const HkLowered *l;
    HkDiags *d;
    const char **out;
    size_t *len;
    Unit u;
    char *text;                 /* LLVM's: the IR, or the error message */
    LLVMMemoryBufferRef buf;
    int rc;
} Emit;

static void emit_ir(void *ud)
{
    Emit *e = ud;
    if ((e->rc = open_unit(e->l, &e->u, e->d)) != 0)
        return;
    e->text = LLVMPrintModuleToString(e->u.mod);
    *e->len = strlen(e->text);
    *e->out = hk_strndup(e->a, e->text, *e->len);
}

static void emit_object(void *ud)
{
    Emit *e = ud;
    if ((e->rc = open_unit(e->l, &e->u, e->d)) != 0)
        return;
    if (hk_host_fault() ||
        LLVMTargetMachineEmitToMemoryBuffer(e->u.tm, e->u.mod, LLVMObjectFile,
                                            &e->text, &e->buf) != 0) {
        hk_host_error(e->d, e->l,
                      hk_asprintf(e->a, "LLVM wrote no object: %s",
                                  e->text != NULL ? e->text
                                                  : HK_HOST_FAULT_MESSAGE));
        e->rc = -1;
        return;
    }
    *e->len = LLVMGetBufferSize(e->buf);
    char *copy = hk_alloc(e->a, *e->len + 1u);
    memcpy(copy, LLVMGetBufferStart(e->buf), *e->len);
    *e->out = copy;
}

/* Runs fn under the arena's catcher, disposes what LLVM made, and lets a
 * failure to allocate go on once nothing of LLVM's is left. */
static int emit(Emit *e, void (*fn)(void *ud))
{
    memset(&e->u, 0, sizeof e->u);
    int oom = hk_arena_protect(e->a, fn, e);
    if (e->text != NULL)
        LLVMDisposeMessage(e->text);
    if (e->buf != NULL)
        LLVMDisposeMemoryBuffer(e->buf);
    close_unit(&e->u);
    if (oom != 0)
        hk_out_of_memory(e->a);
    return e->rc;
}

int hk_host_emit_ir(HkArena *a, const HkLowered *l, const char **text,
                    size_t *len, HkDiags *d)
{
    Emit e = {a, l, d, text, len, {0}, NULL, NULL, -1};
    return emit(&e, emit_ir);
}

int hk_host_emit_object(HkArena *a, const HkLowered *l, const char **bytes,
                        size_t *len, HkDiags *d)
{
    Emit e = {a, l, d, bytes, len, {0}, NULL, NULL, -1};
    return emit(&e, emit_object);
}
