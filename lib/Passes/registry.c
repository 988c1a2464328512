/* registry.c -- the passes a context knows: the built-ins of passes.def,
 * then the ones registered through the C API, looked up by name. */
#include <string.h>

#include "passctx.h"

#define ANALYSIS HAWK_PASS_ANALYSIS
#define TRANSFORM HAWK_PASS_TRANSFORM
#define NONE HK_OPTS_NONE
#define PROFILE HK_OPTS_PROFILE
#define DIFF HK_OPTS_DIFF
static const HkPassInfo builtin[HK_PASS_BUILTIN_COUNT] = {
#define PASS(id, name, summary, kind, run, print, preserves, requires, opts) \
    [HK_PASS_##id] = {name, summary, kind, run, print, preserves, requires, \
                      NULL, NULL, opts},
#include "passes.def"
#undef PASS
};
#undef ANALYSIS
#undef TRANSFORM
#undef NONE
#undef PROFILE
#undef DIFF

/* Appends info to registry r under its name; 0, or -1 if taken. */
static int add_pass(HkArena *a, struct HkRegistry *r, const HkPassInfo *info)
{
    uint32_t id = r->npasses;
    if (!hk_symtab_put(r->pass_syms, info->name, strlen(info->name), id))
        return -1;
    r->passes = hk_grow(a, r->passes, &r->cap_passes, id + 1,
                        sizeof *r->passes);
    r->passes[id] = *info;
    r->npasses = id + 1;
    return 0;
}

struct HkRegistry *hk_registry(const HawkContext *cctx)
{
    /* made on first use: the context is IR's, the registry ours */
    HawkContext *ctx = (HawkContext *)cctx;
    if (ctx->registry != NULL)
        return ctx->registry;
    struct HkRegistry *r = hk_alloc(ctx->arena, sizeof *r);
    r->pass_syms = hk_symtab_new(ctx->arena);
    for (int i = 0; i < HK_PASS_BUILTIN_COUNT; i++)
        if (add_pass(ctx->arena, r, &builtin[i]) != 0)
            hk_unreachable();  /* passes.def lists a name twice */
    ctx->registry = r;
    return r;
}

uint32_t hk_registry_find(const HawkContext *ctx, const char *name, size_t n)
{
    return hk_symtab_get(hk_registry(ctx)->pass_syms, name, n);
}

const char *hk_pass_near(const HawkContext *ctx, const char *name, size_t n)
{
    const struct HkRegistry *r = hk_registry(ctx);
    const char **names = hk_alloc(ctx->arena, (r->npasses + 1u) * sizeof *names);
    for (uint32_t k = 0; k < r->npasses; k++)
        names[k] = r->passes[k].name;
    return hk_did_you_mean(ctx->arena, name, n, names, r->npasses);
}

/* A pass name is letters, digits and '-', not empty. */
static int valid_name(const char *s)
{
    if (s == NULL || *s == '\0')
        return 0;
    for (; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '-';
        if (!ok)
            return 0;
    }
    return 1;
}

int hawk_register_pass(HawkContext *ctx, const char *name,
                       const char *summary, HawkPassKind kind, HawkPassFn fn,
                       void *user)
{
    if (ctx == NULL || fn == NULL || !valid_name(name))
        return -1;
    HkPassInfo info;
    memset(&info, 0, sizeof info);
    info.name = hk_strdup(ctx->arena, name);
    info.summary = hk_strdup(ctx->arena, summary ? summary : "");
    info.kind = kind == HAWK_PASS_TRANSFORM ? HAWK_PASS_TRANSFORM
                                            : HAWK_PASS_ANALYSIS;
    info.user_run = fn;
    info.user = user;
    info.requires = ~UINT64_C(0);
    info.opts = HK_OPTS_ANY;
    return add_pass(ctx->arena, hk_registry(ctx), &info);
}

/* Pass i of ctx's registry, or NULL. */
static const HkPassInfo *pass_at(const HawkContext *ctx, size_t i)
{
    const struct HkRegistry *r = hk_registry(ctx);
    return i < r->npasses ? &r->passes[i] : NULL;
}

size_t hawk_pass_count(const HawkContext *ctx)
{
    return hk_registry(ctx)->npasses;
}

const char *hawk_pass_name(const HawkContext *ctx, size_t i)
{
    const HkPassInfo *p = pass_at(ctx, i);
    return p != NULL ? p->name : NULL;
}

const char *hawk_pass_summary(const HawkContext *ctx, size_t i)
{
    const HkPassInfo *p = pass_at(ctx, i);
    return p != NULL ? p->summary : NULL;
}

const char *hawk_pass_options(const HawkContext *ctx, size_t i)
{
    const HkPassInfo *p = pass_at(ctx, i);
    return p != NULL ? hk_opt_list(ctx->arena, p) : NULL;
}

HawkPassKind hawk_pass_kind(const HawkContext *ctx, size_t i)
{
    const HkPassInfo *p = pass_at(ctx, i);
    return p != NULL ? p->kind : HAWK_PASS_ANALYSIS;
}
