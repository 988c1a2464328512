/* profile.c -- the EmbeddedProfile: the caps and policies the verify passes
 * read from their options, and its repr for the report and the header. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "passctx.h"
#include "embedded.h"

static const HkLoc noloc = {0, 0, 0};

/* Appends "option 'key' expects <what>, got 'value'"; returns -1. */
static int bad_option(HawkPassRun *r, const char *key, const char *what,
                      const char *value)
{
    hk_error(hk_run_diags(r), NULL, noloc, "option '%s' expects %s, got '%s'",
             key, what, value);
    return -1;
}

/* A cap: absent is HK_NONE, else a decimal integer >= 0. */
static int read_cap(HawkPassRun *r, const char *key, int64_t *out)
{
    const char *s = hk_option(r, key, NULL);
    *out = HK_NONE;
    if (s == NULL)
        return 0;
    /* Digits only: strtoll alone would take a sign, spaces and hex. */
    if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
        return bad_option(r, key, "a non-negative integer", s);
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE)
        return bad_option(r, key, "a non-negative integer", s);
    *out = (int64_t)v;
    return 0;
}

/* A choice of two words: *out = 0 for a (the default), 1 for b. */
static int read_choice(HawkPassRun *r, const char *key, const char *a,
                       const char *b, int *out)
{
    const char *s = hk_option(r, key, a);
    if (strcmp(s, a) == 0 || strcmp(s, b) == 0) {
        *out = strcmp(s, b) == 0;
        return 0;
    }
    const char *what = hk_asprintf(r->module->arena, "'%s' or '%s'", a, b);
    return bad_option(r, key, what, s);
}

const HkTarget *hk_profile_target(const HawkPassRun *r)
{
    const char *s = hk_option(r, "target", NULL);
    return s == NULL ? hk_target_default() : hk_target_lookup(s);
}

/* target=<id>: a row of the targets table, the default when absent. */
static int read_target(HawkPassRun *r, const HkTarget **out)
{
    *out = hk_profile_target(r);
    if (*out != NULL)
        return 0;
    hk_error(hk_run_diags(r), NULL, noloc,
             "unknown target '%s'; valid targets: %s",
             hk_option(r, "target", NULL), hk_target_ids());
    return -1;
}

/* Every option, the first bad one reported; the defaults when absent. */
int hk_profile_read(HawkPassRun *r, HkProfile *p)
{
    memset(p, 0, sizeof *p);
    int fpd = 0, idx = 0, cpp = 0, c11 = 0;
    if (read_cap(r, "max-trips", &p->max_trips) != 0 ||
        read_cap(r, "max-ops", &p->max_ops) != 0 ||
        read_cap(r, "max-stack-bytes", &p->max_stack_bytes) != 0 ||
        read_choice(r, "fp-domain", "record", "refuse", &fpd) != 0 ||
        read_choice(r, "index-policy", "clamp", "refuse", &idx) != 0 ||
        read_choice(r, "require-cppcheck", "false", "true", &cpp) != 0 ||
        read_choice(r, "c-std", "c99", "c11", &c11) != 0 ||
        read_target(r, &p->target) != 0)
        return -1;
    p->fp_domain = fpd ? HK_FPD_REFUSE : HK_FPD_RECORD;
    p->index_policy = idx ? HK_IDX_REFUSE : HK_IDX_CLAMP;
    p->require_cppcheck = cpp;
    p->c_std = c11 ? 11 : 99;
    return 0;
}

/* The pass a run of no pass in particular names (hk_profile_of). */
static const HkPassInfo profile_info = {
    "profile", "the EmbeddedProfile of the pipeline-wide options",
    HAWK_PASS_ANALYSIS, NULL, NULL, 0, NULL, NULL, HK_OPTS_PROFILE,
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

/* The seed's repr, field by field in its order. */
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
    hk_buf_printf(&b, "c_std='c%d')", p->c_std == 11 ? 11 : 99);
    return hk_buf_cstr(&b);
}
