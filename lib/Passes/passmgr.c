/* passmgr.c -- pipelines: parsing "a,b{key=value},print<c>", running them
 * pass-major over a module, analysis caching, options, verify-each, timing
 * and the after-pass hook. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "passctx.h"

static const HkLoc noloc = {0, 0};

/* An entry point's arguments and result, for hk_ctx_protect. */
typedef struct {
    HawkContext *ctx;
    HawkPassManager *pm;
    const char *key, *value;
    HawkModule *m;
    int status;
} Call;

static void create_call(void *ud)
{
    Call *c = ud;
    HawkPassManager *pm = hk_alloc(c->ctx->arena, sizeof *pm);
    pm->ctx = c->ctx;
    pm->verify_each = 1;
    hk_buf_init(&pm->out, c->ctx->arena);
    c->pm = pm;
}

HawkPassManager *hawk_pass_manager_create(HawkContext *ctx)
{
    Call c = {.ctx = ctx};
    return hk_ctx_protect(ctx, create_call, &c) == 0 ? c.pm : NULL;
}

void hawk_pass_manager_set_verify_each(HawkPassManager *pm, int on)
{
    pm->verify_each = on != 0;
}

void hawk_pass_manager_set_after_pass(HawkPassManager *pm,
                                      HawkAfterPassFn fn, void *user)
{
    pm->after_pass = fn;
    pm->after_user = user;
}

static void set_option(HawkPassManager *pm, const char *key, const char *value)
{
    HkArena *a = pm->ctx->arena;
    for (uint32_t i = 0; i < pm->ng; i++)
        if (strcmp(pm->gkeys[i], key) == 0) {
            pm->gvals[i] = hk_strdup(a, value);
            hk_analysis_clear(pm);
            return;
        }
    uint32_t cap = pm->cap_g;
    pm->gkeys = hk_grow(a, pm->gkeys, &cap, pm->ng + 1, sizeof *pm->gkeys);
    pm->gvals = hk_grow(a, pm->gvals, &pm->cap_g, pm->ng + 1,
                        sizeof *pm->gvals);
    pm->gkeys[pm->ng] = hk_strdup(a, key);
    pm->gvals[pm->ng++] = hk_strdup(a, value);
    hk_analysis_clear(pm);  /* what was computed saw other options */
}

static void set_option_call(void *ud)
{
    Call *c = ud;
    set_option(c->pm, c->key, c->value);
}

void hawk_pass_manager_set_option(HawkPassManager *pm, const char *key,
                                  const char *value)
{
    Call c = {.pm = pm, .key = key, .value = value};
    (void)hk_ctx_protect(pm->ctx, set_option_call, &c);
}

size_t hawk_pass_manager_size(const HawkPassManager *pm)
{
    return pm->n;
}

const char *hawk_pass_manager_pass_name(const HawkPassManager *pm, size_t i)
{
    return i < pm->n ? pm->entries[i].label : NULL;
}

double hawk_pass_manager_seconds(const HawkPassManager *pm, size_t i)
{
    return i < pm->n ? pm->entries[i].seconds : 0.0;
}

const char *hawk_pass_manager_output(const HawkPassManager *pm, size_t *len)
{
    if (len != NULL)
        *len = pm->out.len;
    return pm->out.len ? pm->out.data : "";
}

/* ---- pipeline text ---------------------------------------------------- */

typedef struct {
    HawkPassManager *pm;
    const char *text;
    size_t pos;
} PipeLex;

static void skip_spaces(PipeLex *lx)
{
    while (lx->text[lx->pos] == ' ' || lx->text[lx->pos] == '\t')
        lx->pos++;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* Reads a name at the cursor; returns its length (0 if none). */
static size_t read_name(PipeLex *lx, const char **start)
{
    *start = lx->text + lx->pos;
    size_t n = 0;
    while (is_name_char(lx->text[lx->pos + n]))
        n++;
    lx->pos += n;
    return n;
}

/* Appends "malformed pipeline" with what was expected where; returns -1. */
static int malformed(PipeLex *lx, const char *what)
{
    hk_error(&lx->pm->ctx->diags, NULL, noloc,
             "malformed pipeline '%s': expected %s at column %zu", lx->text,
             what, lx->pos + 1);
    return -1;
}

/* Finds the pass name[0..n) or reports it unknown; UINT32_MAX if unknown. */
static uint32_t find_pass(PipeLex *lx, const char *name, size_t n)
{
    uint32_t id = hk_registry_find(lx->pm->ctx, name, n);
    if (id == UINT32_MAX)
        hk_error(&lx->pm->ctx->diags, NULL, noloc,
                 "unknown pass '%.*s' in pipeline%s; see --print-passes",
                 (int)n, name, hk_pass_near(lx->pm->ctx, name, n));
    return id;
}

/* option ::= key '=' value, value running to ',' or '}'. */
static int parse_option(PipeLex *lx, HkPipeEntry *e)
{
    HawkContext *ctx = lx->pm->ctx;
    skip_spaces(lx);
    const char *key;
    size_t nk = read_name(lx, &key);
    if (nk == 0)
        return malformed(lx, "an option name");
    skip_spaces(lx);
    if (lx->text[lx->pos] != '=')
        return malformed(lx, "'=' after the option name");
    lx->pos++;
    const char *val = lx->text + lx->pos;
    size_t nv = strcspn(val, ",{}");
    lx->pos += nv;
    while (nv > 0 && (val[0] == ' ' || val[0] == '\t'))
        val++, nv--;
    while (nv > 0 && (val[nv - 1] == ' ' || val[nv - 1] == '\t'))
        nv--;
    for (uint32_t i = 0; i < e->nkv; i++)
        if (strlen(e->keys[i]) == nk && memcmp(e->keys[i], key, nk) == 0) {
            hk_error(&ctx->diags, NULL, noloc,
                     "option '%.*s' given twice for pass '%s'", (int)nk, key,
                     e->label);
            return -1;
        }
    uint32_t cap = e->cap_kv;
    e->keys = hk_grow(ctx->arena, e->keys, &cap, e->nkv + 1, sizeof *e->keys);
    e->vals = hk_grow(ctx->arena, e->vals, &e->cap_kv, e->nkv + 1,
                      sizeof *e->vals);
    e->keys[e->nkv] = hk_strndup(ctx->arena, key, nk);
    e->vals[e->nkv] = hk_strndup(ctx->arena, val, nv);
    if (hk_opt_check_entry(ctx, &hk_registry(ctx)->passes[e->pass], e->keys[e->nkv],
                           e->vals[e->nkv]) != 0)
        return -1;
    e->nkv++;
    return 0;
}

/* options ::= '{' option (',' option)* '}' */
static int parse_options(PipeLex *lx, HkPipeEntry *e)
{
    lx->pos++;  /* '{' */
    for (;;) {
        if (parse_option(lx, e) != 0)
            return -1;
        char c = lx->text[lx->pos];
        lx->pos++;
        if (c == '}')
            return 0;
        if (c != ',') {
            lx->pos--;
            return malformed(lx, "',' or '}' after an option");
        }
    }
}

/* 'print' '<' name '>' where name is an analysis with a print function. */
static int parse_print(PipeLex *lx, HkPipeEntry *e)
{
    HawkContext *ctx = lx->pm->ctx;
    lx->pos++;  /* '<' */
    const char *name;
    size_t n = read_name(lx, &name);
    if (n == 0)
        return malformed(lx, "an analysis name after 'print<'");
    if (lx->text[lx->pos] != '>')
        return malformed(lx, "'>'");
    lx->pos++;
    e->pass = find_pass(lx, name, n);
    if (e->pass == UINT32_MAX)
        return -1;
    if (hk_registry(ctx)->passes[e->pass].print == NULL) {
        hk_error(&ctx->diags, NULL, noloc,
                 "pass '%.*s' has no result to print; print<name> takes an "
                 "analysis with a print function",
                 (int)n, name);
        return -1;
    }
    e->print = 1;
    e->label = hk_asprintf(ctx->arena, "print<%.*s>", (int)n, name);
    return 0;
}

/* entry ::= name [options] | 'print' '<' name '>' */
static int parse_entry(PipeLex *lx, HkPipeEntry *e)
{
    memset(e, 0, sizeof *e);
    skip_spaces(lx);
    const char *name;
    size_t n = read_name(lx, &name);
    if (n == 0)
        return malformed(lx, "a pass name");
    if (n == 5 && memcmp(name, "print", 5) == 0 && lx->text[lx->pos] == '<')
        return parse_print(lx, e);
    e->pass = find_pass(lx, name, n);
    if (e->pass == UINT32_MAX)
        return -1;
    e->label = hk_registry(lx->pm->ctx)->passes[e->pass].name;
    skip_spaces(lx);
    if (lx->text[lx->pos] == '{')
        return parse_options(lx, e);
    return 0;
}

static int parse_pipeline(HawkPassManager *pm, const char *pipeline)
{
    PipeLex lx = {pm, pipeline ? pipeline : "", 0};
    uint32_t n0 = pm->n;
    skip_spaces(&lx);
    if (lx.text[lx.pos] == '\0')
        return 0;  /* an empty pipeline runs nothing */
    for (;;) {
        pm->entries = hk_grow(pm->ctx->arena, pm->entries, &pm->cap,
                              pm->n + 1, sizeof *pm->entries);
        if (parse_entry(&lx, &pm->entries[pm->n]) != 0)
            break;
        pm->n++;
        skip_spaces(&lx);
        char c = lx.text[lx.pos];
        if (c == '\0')
            return 0;
        if (c != ',') {
            malformed(&lx, "',' between passes");
            break;
        }
        lx.pos++;
    }
    pm->n = n0;  /* all or nothing */
    return -1;
}

static void parse_call(void *ud)
{
    Call *c = ud;
    c->status = parse_pipeline(c->pm, c->value);
}

int hawk_pass_manager_parse(HawkPassManager *pm, const char *pipeline)
{
    Call c = {.pm = pm, .value = pipeline};
    return hk_ctx_protect(pm->ctx, parse_call, &c) == 0 ? c.status : -1;
}

/* ---- what a running pass sees ----------------------------------------- */

HkDiags *hk_run_diags(HawkPassRun *run)
{
    return &run->ctx->diags;
}

HawkContext *hawk_pass_context(const HawkPassRun *run)
{
    return run->ctx;
}

void *hawk_pass_user(const HawkPassRun *run)
{
    return run->info->user;
}

const char *hk_option(const HawkPassRun *run, const char *key, const char *def)
{
    for (uint32_t i = 0; i < run->nkv; i++)
        if (strcmp(run->keys[i], key) == 0)
            return run->vals[i];
    const HawkPassManager *pm = run->pm;
    for (uint32_t i = 0; pm != NULL && i < pm->ng; i++)
        if (strcmp(pm->gkeys[i], key) == 0)
            return pm->gvals[i];
    return def;
}

const char *hawk_pass_option(const HawkPassRun *run, const char *key)
{
    return hk_option(run, key, NULL);
}

int hk_option_int(HawkPassRun *run, const char *key, int64_t def, int64_t *out)
{
    const char *s = hk_option(run, key, NULL);
    if (s == NULL) {
        *out = def;
        return 0;
    }
    char *end = NULL;
    long long v = *s ? strtoll(s, &end, 0) : 0;
    if (*s == '\0' || *end != '\0' || *s == ' ') {
        hk_error(&run->ctx->diags, NULL, noloc,
                 "option '%s' of pass '%s' expects an integer, got '%s'", key,
                 run->info->name, s);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

void hawk_pass_error(HawkPassRun *run, const HawkFunction *fn,
                     const char *message)
{
    hk_error(&run->ctx->diags, fn ? &fn->module->src : NULL,
             fn ? fn->loc : noloc, "%s: %s", run->info->name, message);
}

/* ---- running ---------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs entry e on f; 0 on success. */
static int run_on_function(HawkPassRun *run, const HkPipeEntry *e, HkFunc *f)
{
    const HkPassInfo *info = run->info;
    if (e->print) {
        uint32_t errors = run->ctx->diags.errors;
        const void *res = hk_analysis_get(run, f, (HkPassId)e->pass);
        if (run->ctx->diags.errors != errors)
            return 1;
        if (res != NULL)  /* else nothing to print for this function */
            info->print(&run->pm->out, f, res);
        return 0;
    }
    /* a transform may change f: its source no longer spells it */
    if (info->kind == HAWK_PASS_TRANSFORM)
        f->derived = 1;
    if (info->user_run != NULL) {
        int rc = info->user_run(run, f);
        if (info->kind == HAWK_PASS_TRANSFORM)  /* it preserves nothing */
            hk_analysis_invalidate(run->pm, f, 0);
        return rc;
    }
    /* An analysis named in the pipeline runs with its own name{key=value}
     * options even when a result is cached: a cached result was computed
     * under other options, and a profile cap must reach its refusal. */
    if (info->kind == HAWK_PASS_ANALYSIS)
        return info->run(run, f) != 0;
    int rc = info->run(run, f);
    hk_analysis_invalidate(run->pm, f, info->preserves);
    return rc;
}

/* Runs entry e over every function of m in order; 0 on success. */
static int run_entry(HawkPassManager *pm, HkPipeEntry *e, HkModule *m)
{
    HawkContext *ctx = pm->ctx;
    HawkPassRun run;
    memset(&run, 0, sizeof run);
    run.ctx = ctx;
    run.module = m;
    run.info = &hk_registry(ctx)->passes[e->pass];
    run.pass_index = e->pass;
    run.keys = e->keys;
    run.vals = e->vals;
    run.nkv = e->nkv;
    run.pm = pm;
    uint32_t errors = ctx->diags.errors;
    int rc = 0;
    double t0 = now_seconds();
    /* nfuncs is re-read: a pass may add or remove functions. */
    for (uint32_t i = 0; rc == 0 && i < m->nfuncs; i++)
        rc = run_on_function(&run, e, m->funcs[i]);
    e->seconds += now_seconds() - t0;
    if (rc != 0 && ctx->diags.errors == errors)
        hk_error(&ctx->diags, NULL, noloc, "pass '%s' failed", e->label);
    return rc;
}

/* Verifies m after entry label; 0 when it is well formed. */
static int verify_after(HawkPassManager *pm, const char *label, HkModule *m)
{
    HawkContext *ctx = pm->ctx;
    HkDiags tmp;
    hk_diags_init(&tmp, ctx->arena);
    if (hk_verify_module(m, &tmp) == 0)
        return 0;
    /* The summary first, then what the verifier found. */
    hk_error(&ctx->diags, NULL, noloc, "verification failed after pass '%s'",
             label);
    for (uint32_t i = 0; i < tmp.n; i++) {
        HkDiags *d = &ctx->diags;
        d->items = hk_grow(ctx->arena, d->items, &d->cap, d->n + 1,
                           sizeof *d->items);
        d->items[d->n++] = tmp.items[i];
        if (tmp.items[i].severity == HAWK_ERROR)
            d->errors++;
    }
    return 1;
}

static int run_pipeline(HawkPassManager *pm, HawkModule *m)
{
    hk_buf_init(&pm->out, pm->ctx->arena);
    /* every pipeline-wide option, read by a pass of this pipeline or not;
     * a key of no built-in pass only where a pass of the C API, which
     * reads its own, may take it */
    int open_keys = 0, bad = 0;
    for (uint32_t i = 0; i < pm->n; i++)
        open_keys |= hk_registry(pm->ctx)->passes[pm->entries[i].pass].opts == HK_OPTS_ANY;
    for (uint32_t i = 0; i < pm->ng; i++)
        bad |= hk_opt_check_global(pm->ctx, pm->gkeys[i], pm->gvals[i],
                                   open_keys) != 0;
    if (bad)
        return 1;
    for (uint32_t i = 0; i < pm->n; i++)
        pm->entries[i].seconds = 0.0;
    for (uint32_t i = 0; i < pm->n; i++) {
        HkPipeEntry *e = &pm->entries[i];
        if (run_entry(pm, e, m) != 0)
            return 1;
        /* The hook sees the IR before it is checked, so a dump shows what
         * a broken pass left behind. */
        if (pm->after_pass != NULL)
            pm->after_pass(pm->after_user, e->label, m);
        if (pm->verify_each && verify_after(pm, e->label, m) != 0)
            return 1;
    }
    return 0;
}

static void run_call(void *ud)
{
    Call *c = ud;
    c->status = run_pipeline(c->pm, c->m);
}

int hawk_pass_manager_run(HawkPassManager *pm, HawkModule *m)
{
    Call c = {.pm = pm, .m = m};
    return hk_ctx_protect(pm->ctx, run_call, &c) == 0 ? c.status : 1;
}
