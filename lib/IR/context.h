/* context.h -- what a HawkContext owns: the arena everything lives in and
 * the diagnostics; the pass registry and the pass managers are
 * lib/Passes' (passctx.h).  Private to the library. */
#ifndef HAWK_CONTEXT_H
#define HAWK_CONTEXT_H

#include "ir.h"

struct HawkContext {
    HkArena *arena;
    HkDiags diags;
    /* the pass registry, made by lib/Passes when first asked for
     * (hk_registry, passctx.h): IR knows nothing of passes */
    struct HkRegistry *registry;
    int oom;               /* memory ran out: the context does no more */
};

/* Runs fn(ud) with running out of memory caught (hk_arena_protect): 0,
 * or 1 when memory ran out, then or before: the context then holds the
 * error "out of memory" and refuses every later protected call, since
 * what fn was changing may be half done.  The entry points include/hawk/
 * hawk.h names beside hawk_context_create run under it.  An entry point
 * called from inside another (the export lowering a derivative's primal
 * through a pass manager) catches nothing: running out of memory unwinds
 * to the outermost, which fails as a whole, so that no caller mistakes
 * the inner failure for a refusal of its input. */
int hk_ctx_protect(HawkContext *ctx, void (*fn)(void *ud), void *ud);

#endif
