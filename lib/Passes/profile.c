/* profile.c -- the EmbeddedProfile: the caps and policies the verify passes
 * read from their options, and its repr for the report and the header. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "passctx.h"
#include "embedded.h"

/* The text of option id (the pass's own, else the pipeline-wide one), or
 * NULL when absent, checked against the option's kind in options.def;
 * 0, or -1 after the diagnostic. */
static int option_text(HawkPassRun *r, HkOptId id, const char **out)
{
    *out = hk_option(r, hk_opts[id].key, NULL);
    if (*out == NULL)
        return 0;
    return hk_opt_check_value(hk_run_diags(r), r->module->arena, id, *out);
}

/* A cap: absent is HK_NONE, else the checked decimal integer. */
static int read_cap(HawkPassRun *r, HkOptId id, int64_t *out)
{
    const char *s;
    *out = HK_NONE;
    if (option_text(r, id, &s) != 0)
        return -1;
    if (s != NULL)
        *out = (int64_t)strtoll(s, NULL, 10);
    return 0;
}

/* A choice: *out is the index of its word in options.def's values, 0
 * (the first, the default) when absent. */
static int read_choice(HawkPassRun *r, HkOptId id, int *out)
{
    const char *s;
    *out = 0;
    if (option_text(r, id, &s) != 0)
        return -1;
    if (s != NULL)
        *out = hk_opt_choice(id, s);
    return 0;
}

const HkTarget *hk_profile_target(const HawkPassRun *r)
{
    const char *s = hk_option(r, hk_opts[HK_OPT_TARGET].key, NULL);
    return s == NULL ? hk_target_default() : hk_target_lookup(s);
}

/* The profiles a pass manager has parsed, one per options text (the
 * pipeline-wide options, and a pass's own on top of them). */
struct HkProfileCache {
    const char *key;          /* hk_run_key */
    HkProfile profile;
    int rc;                   /* what parsing it returned */
    struct HkProfileCache *next;
};

static int profile_parse(HawkPassRun *r, HkProfile *p);

/* Every option, the first bad one reported (once per pass manager and
 * options text: a bad option is one diagnostic, however many analyses
 * read it); the defaults when absent. */
int hk_profile_read(HawkPassRun *r, HkProfile *p)
{
    if (r->pm == NULL)
        return profile_parse(r, p);
    const char *key = hk_run_key(r);
    for (struct HkProfileCache *c = r->pm->am.profiles; c; c = c->next)
        if (strcmp(c->key, key) == 0) {
            *p = c->profile;
            return c->rc;
        }
    struct HkProfileCache *c = hk_alloc(r->ctx->arena, sizeof *c);
    c->key = key;
    c->rc = profile_parse(r, &c->profile);
    c->next = r->pm->am.profiles;
    r->pm->am.profiles = c;
    *p = c->profile;
    return c->rc;
}

static int profile_parse(HawkPassRun *r, HkProfile *p)
{
    memset(p, 0, sizeof *p);
    int fpd = 0, idx = 0, cpp = 0, c11 = 0, fpu = 0, math = 0, st = 0;
    const char *target;
    if (read_cap(r, HK_OPT_MAX_TRIPS, &p->max_trips) != 0 ||
        read_cap(r, HK_OPT_MAX_OPS, &p->max_ops) != 0 ||
        read_cap(r, HK_OPT_MAX_STACK_BYTES, &p->max_stack_bytes) != 0 ||
        read_choice(r, HK_OPT_FP_DOMAIN, &fpd) != 0 ||
        read_choice(r, HK_OPT_INDEX_POLICY, &idx) != 0 ||
        read_choice(r, HK_OPT_REQUIRE_CPPCHECK, &cpp) != 0 ||
        read_choice(r, HK_OPT_C_STD, &c11) != 0 ||
        read_cap(r, HK_OPT_MAX_SOFT_FLOAT_OPS, &p->max_soft_float_ops) != 0 ||
        read_choice(r, HK_OPT_FPU, &fpu) != 0 ||
        read_choice(r, HK_OPT_MATH, &math) != 0 ||
        read_choice(r, HK_OPT_SELFTEST, &st) != 0 ||
        option_text(r, HK_OPT_TARGET, &target) != 0)
        return -1;
    p->target = hk_profile_target(r);
    p->fp_domain = fpd ? HK_FPD_REFUSE : HK_FPD_RECORD;
    p->index_policy = idx ? HK_IDX_REFUSE : HK_IDX_CLAMP;
    p->require_cppcheck = cpp;
    p->c_std = c11 ? 11 : 99;
    p->fpu = (HkFpu)fpu;
    p->math = (HkMath)math;
    p->selftest = st;
    return 0;
}

/* The pass a run of no pass in particular names (hk_profile_of); the
 * report it serves asks for every analysis. */
static const HkPassInfo profile_info = {
    "profile", "the EmbeddedProfile of the pipeline-wide options",
    HAWK_PASS_ANALYSIS, NULL, NULL, 0, ~UINT64_C(0), NULL, NULL,
    HK_OPTS_PROFILE,
};

int hk_profile_of(HawkPassRun *run, HawkPassManager *pm, HkModule *m,
                  HkProfile *p)
{
    memset(run, 0, sizeof *run);
    run->ctx = pm->ctx;
    run->module = m;
    run->info = &profile_info;
    run->pm = pm;
    return hk_profile_read(run, p);
}

/* A cap as Python prints it: None, or the number. */
static void put_cap(HkBuf *b, const char *name, int64_t v, const char *sep)
{
    if (v == HK_NONE)
        hk_buf_printf(b, "%s=None%s", name, sep);
    else
        hk_buf_printf(b, "%s=%" PRId64 "%s", name, v, sep);
}

/* The contract's repr, field by field in its order. */
const char *hk_profile_repr(HkArena *a, const HkProfile *p)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_puts(&b, "EmbeddedProfile(");
    put_cap(&b, "max_trips", p->max_trips, ", ");
    put_cap(&b, "max_ops", p->max_ops, ", ");
    put_cap(&b, "max_stack_bytes", p->max_stack_bytes, ", ");
    hk_buf_printf(&b, "fp_domain='%s', ",
                  p->fp_domain == HK_FPD_REFUSE ? "refuse" : "record");
    hk_buf_printf(&b, "index_policy='%s', ",
                  p->index_policy == HK_IDX_REFUSE ? "refuse" : "clamp");
    hk_buf_printf(&b, "require_cppcheck=%s, ",
                  p->require_cppcheck ? "True" : "False");
    static const char *const fpu[] = {"dp", "sp", "none"};
    hk_buf_printf(&b, "c_std='c%d', fpu='%s', ", p->c_std == 11 ? 11 : 99,
                  fpu[p->fpu]);
    put_cap(&b, "max_soft_float_ops", p->max_soft_float_ops, ", ");
    hk_buf_printf(&b, "math='%s', ", p->math == HK_MATH_LIBM ? "libm" : "hawk");
    hk_buf_printf(&b, "selftest='%s')", p->selftest ? "on" : "off");
    return hk_buf_cstr(&b);
}
