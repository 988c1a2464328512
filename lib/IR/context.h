/* context.h -- what a HawkContext owns: the arena everything lives in, the
 * diagnostics, the pass registry and the pass managers.  Private to the
 * library (api.c, lib/Passes). */
#ifndef HAWK_CONTEXT_H
#define HAWK_CONTEXT_H

#include "ir.h"
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

struct HawkContext {
    HkArena *arena;
    HkDiags diags;
    HkPassInfo *passes;       /* built-ins (passes.def order), then user */
    uint32_t npasses, cap_passes;
    HkSymtab *pass_syms;      /* name -> registry index */
};

/* Fills the registry with the built-in passes of passes.def (registry.c). */
void hk_registry_init(HawkContext *ctx);
/* The registry index of the pass spelled name[0..n), or UINT32_MAX. */
uint32_t hk_registry_find(const HawkContext *ctx, const char *name, size_t n);

#endif
