/* passopts.c -- the options of the built-in passes (options.def): which
 * pass takes which key, whether a value is of the key's kind, the nearest
 * valid key to a mistyped one.  Checked when a pipeline is parsed and
 * before it runs, so a typo never silently drops a cap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "passctx.h"
#include "targets.h"

static const HkLoc noloc = {0, 0};

const HkOptInfo hk_opts[HK_OPT_COUNT] = {
#define CAP HK_OPTK_CAP
#define CHOICE HK_OPTK_CHOICE
#define TARGET HK_OPTK_TARGET
#define OPTION(id, key, kind, values, help)                                  \
    [HK_OPT_##id] = {key, kind, values, help},
#include "options.def"
#undef OPTION
#undef CAP
#undef CHOICE
#undef TARGET
};

/* The option called key, or HK_OPT_COUNT. */
static HkOptId find_opt(const char *key)
{
    for (int i = 0; i < (int)HK_OPT_COUNT; i++)
        if (strcmp(hk_opts[i].key, key) == 0)
            return (HkOptId)i;
    return HK_OPT_COUNT;
}

/* " (did you mean 'k'?)" for the option nearest key (hawk_nearest), or
 * "". */
static const char *suggestion(HkArena *a, const char *key)
{
    const char *names[HK_OPT_COUNT];
    for (int i = 0; i < (int)HK_OPT_COUNT; i++)
        names[i] = hk_opts[i].key;
    return hk_did_you_mean(a, key, strlen(key), names, HK_OPT_COUNT);
}

const char *hk_target_near(HkArena *a, const char *id)
{
    const char **ids = hk_alloc(a, (hk_ntargets + 1u) * sizeof *ids);
    for (unsigned k = 0; k < hk_ntargets; k++)
        ids[k] = hk_targets[k].id;
    return hk_did_you_mean(a, id, strlen(id), ids, hk_ntargets);
}

/* "max-trips, max-ops, ..." */
static const char *keys(HkArena *a)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (int i = 0; i < (int)HK_OPT_COUNT; i++)
        hk_buf_printf(&b, "%s%s", i ? ", " : "", hk_opts[i].key);
    return hk_buf_cstr(&b);
}

/* "'record' or 'refuse'" from "record|refuse". */
static const char *choices(HkArena *a, const char *values)
{
    HkBuf b;
    hk_buf_init(&b, a);
    const char *bar = strchr(values, '|');
    size_t n = bar != NULL ? (size_t)(bar - values) : strlen(values);
    hk_buf_printf(&b, "'%.*s'", (int)n, values);
    while (bar != NULL) {
        const char *w = bar + 1;
        bar = strchr(w, '|');
        n = bar != NULL ? (size_t)(bar - w) : strlen(w);
        hk_buf_printf(&b, " or '%.*s'", (int)n, w);
    }
    return hk_buf_cstr(&b);
}

int hk_opt_choice(HkOptId id, const char *value)
{
    size_t n = strlen(value);
    int k = 0;
    for (const char *w = hk_opts[id].values; w != NULL; k++) {
        const char *bar = strchr(w, '|');
        size_t m = bar != NULL ? (size_t)(bar - w) : strlen(w);
        if (m == n && memcmp(w, value, n) == 0)
            return k;
        w = bar != NULL ? bar + 1 : NULL;
    }
    return -1;
}

int hk_opt_check_value(HkDiags *d, HkArena *a, HkOptId id, const char *value)
{
    const HkOptInfo *o = &hk_opts[id];
    switch (o->kind) {
    case HK_OPTK_CAP:
        /* digits only: strtoll alone would take a sign, spaces and hex */
        if (*value != '\0' && strspn(value, "0123456789") == strlen(value)) {
            errno = 0;
            (void)strtoll(value, NULL, 10);
            if (errno != ERANGE)
                return 0;
        }
        hk_error(d, NULL, noloc,
                 "option '%s' expects a non-negative integer, got '%s'",
                 o->key, value);
        return -1;
    case HK_OPTK_CHOICE:
        if (hk_opt_choice(id, value) >= 0)
            return 0;
        hk_error(d, NULL, noloc, "option '%s' expects %s, got '%s'", o->key,
                 choices(a, o->values), value);
        return -1;
    case HK_OPTK_TARGET:
        if (hk_target_lookup(value) != NULL)
            return 0;
        hk_error(d, NULL, noloc, "unknown target '%s'%s; valid targets: %s",
                 value, hk_target_near(a, value), hk_target_ids());
        return -1;
    }
    return -1;
}

int hk_opt_check_entry(HawkContext *ctx, const HkPassInfo *info,
                       const char *key, const char *value)
{
    if (info->opts == HK_OPTS_ANY)
        return 0;
    if (info->opts == HK_OPTS_DIFF) {
        int rev = strcmp(info->name, "vjp") == 0;
        if (rev && strcmp(key, "loops") == 0) {
            if (strcmp(value, "auto") == 0 || strcmp(value, "tape") == 0 ||
                strcmp(value, "recompute") == 0)
                return 0;
            hk_error(&ctx->diags, NULL, noloc,
                     "option 'loops' of pass 'vjp' expects auto, tape or "
                     "recompute, got '%s'", value);
            return -1;
        }
        if (strcmp(key, "wrt") != 0 && strcmp(key, "of") != 0) {
            static const char *const diff_keys[] = {"wrt", "of", "loops"};
            hk_error(&ctx->diags, NULL, noloc,
                     "pass '%s' has no option '%s'%s; its options: %s",
                     info->name, key,
                     hk_did_you_mean(ctx->arena, key, strlen(key), diff_keys,
                                     rev ? 3u : 2u),
                     hk_opt_list(ctx->arena, info));
            return -1;
        }
        if (*value == '\0' || value[0] == ':' ||
            value[strlen(value) - 1] == ':' || strstr(value, "::") != NULL) {
            hk_error(&ctx->diags, NULL, noloc,
                     "option '%s' of pass '%s' expects slot names joined by "
                     "':', got '%s'", key, info->name, value);
            return -1;
        }
        return 0;
    }
    HkOptId id = find_opt(key);
    if (info->opts == HK_OPTS_NONE) {
        hk_error(&ctx->diags, NULL, noloc,
                 "pass '%s' takes no options, got '%s'; see --print-passes",
                 info->name, key);
        return -1;
    }
    if (id == HK_OPT_COUNT) {
        hk_error(&ctx->diags, NULL, noloc,
                 "pass '%s' has no option '%s'%s; its options: %s", info->name,
                 key, suggestion(ctx->arena, key), keys(ctx->arena));
        return -1;
    }
    return hk_opt_check_value(&ctx->diags, ctx->arena, id, value);
}

int hk_opt_check_global(HawkContext *ctx, const char *key, const char *value,
                        int open_keys)
{
    HkOptId id = find_opt(key);
    if (id == HK_OPT_COUNT && open_keys)
        return 0;
    if (id == HK_OPT_COUNT) {
        hk_error(&ctx->diags, NULL, noloc,
                 "unknown pipeline-wide option '%s'%s; the options: %s", key,
                 suggestion(ctx->arena, key), keys(ctx->arena));
        return -1;
    }
    return hk_opt_check_value(&ctx->diags, ctx->arena, id, value);
}

const char *hk_opt_list(HkArena *a, const HkPassInfo *info)
{
    if (info->opts == HK_OPTS_ANY)
        return "*";
    if (info->opts == HK_OPTS_NONE)
        return "";
    if (info->opts == HK_OPTS_DIFF)
        return strcmp(info->name, "vjp") == 0
                   ? "wrt=SLOT:... of=SLOT:... loops=auto|tape|recompute"
                   : "wrt=SLOT:... of=SLOT:...";
    HkBuf b;
    hk_buf_init(&b, a);
    for (int i = 0; i < (int)HK_OPT_COUNT; i++)
        hk_buf_printf(&b, "%s%s=%s", i ? " " : "", hk_opts[i].key,
                      hk_opts[i].values);
    return hk_buf_cstr(&b);
}
