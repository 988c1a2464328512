/* passctx.h -- what lib/Passes keeps in a HawkContext: the registry of
 * passes (built-ins first, made when first asked for) and the pass
 * managers.  Private to the library. */
#ifndef HAWK_PASSCTX_H
#define HAWK_PASSCTX_H

#include "context.h"
#include "passes.h"

/* One entry of a pipeline: a registered pass with its name{key=value}
 * options, or `print<name>` of an analysis. */
typedef struct {
    uint32_t pass;            /* index in the context's registry */
    int print;                /* print<name>: render the analysis result */
    const char *label;        /* "dce", "print<instcount>" */
    const char **keys, **vals;
    uint32_t nkv, cap_kv;
    double seconds;           /* wall time of the last run, all functions */
} HkPipeEntry;

struct HawkPassManager {
    HawkContext *ctx;
    HkPipeEntry *entries;
    uint32_t n, cap;
    const char **gkeys, **gvals;  /* hawk_pass_manager_set_option */
    uint32_t ng, cap_g;
    int verify_each;
    HawkAfterPassFn after_pass;
    void *after_user;
    HkBuf out;                /* text of the print<name> entries */
};

struct HkRegistry {
    HkPassInfo *passes;       /* built-ins (passes.def order), then user */
    uint32_t npasses, cap_passes;
    HkSymtab *pass_syms;      /* name -> registry index */
};

/* ctx's registry, filled with the built-in passes of passes.def the first
 * time it is asked for (registry.c). */
struct HkRegistry *hk_registry(const HawkContext *ctx);
/* The registry index of the pass spelled name[0..n), or UINT32_MAX. */
uint32_t hk_registry_find(const HawkContext *ctx, const char *name, size_t n);

#endif
