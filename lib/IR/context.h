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
};

#endif
