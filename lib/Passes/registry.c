/* registry.c -- the passes a context knows: the built-ins of passes.def,
 * then the ones registered through the C API, looked up by name. */
#include <string.h>

#include "context.h"

#define ANALYSIS HAWK_PASS_ANALYSIS
#define TRANSFORM HAWK_PASS_TRANSFORM
#define NONE HK_OPTS_NONE
#define PROFILE HK_OPTS_PROFILE
static const HkPassInfo builtin[HK_PASS_BUILTIN_COUNT] = {
#define PASS(id, name, summary, kind, run, print, preserves, opts)           \
    [HK_PASS_##id] = {name, summary, kind, run, print, preserves,           \
                      NULL, NULL, opts},
#include "passes.def"
#undef PASS
};
#undef ANALYSIS
#undef TRANSFORM
#undef NONE
#undef PROFILE

/* Appends info to ctx's registry under its name; 0, or -1 if taken. */
static int add_pass(HawkContext *ctx, const HkPassInfo *info)
{
    uint32_t id = ctx->npasses;
    if (!hk_symtab_put(ctx->pass_syms, info->name, strlen(info->name), id))
        return -1;
    ctx->passes = hk_grow(ctx->arena, ctx->passes, &ctx->cap_passes, id + 1,
                          sizeof *ctx->passes);
    ctx->passes[id] = *info;
    ctx->npasses = id + 1;
    return 0;
}

void hk_registry_init(HawkContext *ctx)
{
    ctx->pass_syms = hk_symtab_new(ctx->arena);
    for (int i = 0; i < HK_PASS_BUILTIN_COUNT; i++)
        if (add_pass(ctx, &builtin[i]) != 0)
            hk_unreachable();  /* passes.def lists a name twice */
}

uint32_t hk_registry_find(const HawkContext *ctx, const char *name, size_t n)
{
    return hk_symtab_get(ctx->pass_syms, name, n);
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
    info.opts = HK_OPTS_ANY;
    return add_pass(ctx, &info);
}

size_t hawk_pass_count(const HawkContext *ctx)
{
    return ctx->npasses;
}

const char *hawk_pass_name(const HawkContext *ctx, size_t i)
{
    return i < ctx->npasses ? ctx->passes[i].name : NULL;
}

const char *hawk_pass_summary(const HawkContext *ctx, size_t i)
{
    return i < ctx->npasses ? ctx->passes[i].summary : NULL;
}

const char *hawk_pass_options(const HawkContext *ctx, size_t i)
{
    return i < ctx->npasses ? hk_opt_list(ctx->arena, &ctx->passes[i]) : NULL;
}

HawkPassKind hawk_pass_kind(const HawkContext *ctx, size_t i)
{
    return i < ctx->npasses ? ctx->passes[i].kind : HAWK_PASS_ANALYSIS;
}
