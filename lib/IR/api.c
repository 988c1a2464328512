/* api.c -- the public C API for contexts, reading, checking and printing
 * HIR, diagnostics and looking at a module.  Passes: lib/Passes. */
#include <stdlib.h>
#include <string.h>

#include "context.h"

const char *hawk_version(void)
{
    return HAWK_VERSION;
}

extern const char hk_source_digest[];  /* generated: cmake/digest.cmake */

const char *hawk_source_digest(void)
{
    return hk_source_digest;
}

extern const char hk_build_config[];   /* generated: cmake/digest.cmake */

const char *hawk_build_config(void)
{
    return hk_build_config;
}

/* ---- context ---------------------------------------------------------- */

HawkContext *hawk_context_create(void)
{
    HkArena *a = hk_arena_new();
    if (a == NULL)
        return NULL;
    HawkContext *ctx = hk_alloc(a, sizeof *ctx);
    ctx->arena = a;
    hk_diags_init(&ctx->diags, a);
    ctx->registry = NULL; /* lib/Passes makes it when asked */
    return ctx;
}

void hawk_context_destroy(HawkContext *ctx)
{
    /* The context itself lives in its arena: everything goes at once. */
    if (ctx != NULL)
        hk_arena_free(ctx->arena);
}

int hk_ctx_protect(HawkContext *ctx, void (*fn)(void *ud), void *ud)
{
    if (ctx->oom)
        return 1;
    if (hk_arena_protected(ctx->arena)) {
        fn(ud);
        return 0;
    }
    if (hk_arena_protect(ctx->arena, fn, ud) == 0)
        return 0;
    ctx->oom = 1;
    HkLoc none = {0, 0};
    hk_error(&ctx->diags, NULL, none, "out of memory");
    return 1;
}

/* ---- reading, checking and writing ------------------------------------ */

typedef struct {
    HawkContext *ctx;
    const char *name, *text;
    size_t len;
    unsigned line_base;
    int view;              /* keep text as it is given (hawk_parse_view);
                              2: and it is mapped (hawk_parse_mapped) */
    const HawkModule *m;
    HawkModule *parsed;
    int status;
    HkBuf out;
} Call;

static void parse_call(void *ud)
{
    Call *c = ud;
    HkArena *a = c->ctx->arena;
    /* The source outlives the call: diagnostics point into it. */
    HkSource *src = hk_alloc(a, sizeof *src);
    src->name = hk_strdup(a, c->name ? c->name : "-");
    if (c->view && c->text != NULL)
        src->text = c->text;
    else
        src->text = hk_strndup(a, c->text ? c->text : "", c->text ? c->len : 0);
    src->len = c->text ? c->len : 0;
    src->line_base = (uint32_t)c->line_base;
    src->mapped = c->view == 2 && c->text != NULL;
    c->parsed = hk_parse(a, src, &c->ctx->diags);
}

static HawkModule *parse(HawkContext *ctx, const char *name, const char *text,
                         size_t len, unsigned line_base, int view)
{
    Call c = {.ctx = ctx, .name = name, .text = text, .len = len,
              .line_base = line_base, .view = view};
    return hk_ctx_protect(ctx, parse_call, &c) == 0 ? c.parsed : NULL;
}

HawkModule *hawk_parse_chunk(HawkContext *ctx, const char *name,
                             const char *text, size_t len, unsigned line_base)
{
    return parse(ctx, name, text, len, line_base, 0);
}

HawkModule *hawk_parse_view(HawkContext *ctx, const char *name,
                            const char *text, size_t len, unsigned line_base)
{
    return parse(ctx, name, text, len, line_base, 1);
}

HawkModule *hawk_parse_mapped(HawkContext *ctx, const char *name,
                              const char *text, size_t len, unsigned line_base)
{
    return parse(ctx, name, text, len, line_base, 2);
}

HawkModule *hawk_parse(HawkContext *ctx, const char *name, const char *text,
                       size_t len)
{
    return hawk_parse_chunk(ctx, name, text, len, 0);
}

static void verify_call(void *ud)
{
    Call *c = ud;
    c->status = (int)hk_verify_module(c->m, &c->ctx->diags);
}

int hawk_verify(HawkContext *ctx, const HawkModule *m)
{
    Call c = {.ctx = ctx, .m = m};
    return hk_ctx_protect(ctx, verify_call, &c) == 0 ? c.status : 1;
}

static void print_call(void *ud)
{
    Call *c = ud;
    hk_buf_init(&c->out, c->ctx->arena);
    hk_print_module(&c->out, c->m);
    c->text = hk_buf_cstr(&c->out);
}

const char *hawk_print(HawkContext *ctx, const HawkModule *m, size_t *len)
{
    Call c = {.ctx = ctx, .m = m};
    if (hk_ctx_protect(ctx, print_call, &c) != 0)
        return NULL;
    if (len != NULL)
        *len = c.out.len;
    return c.text;
}

/* ---- diagnostics ------------------------------------------------------ */

/* Diagnostic i, or NULL when out of range. */
static const HkDiag *diag_at(const HawkContext *ctx, size_t i)
{
    return i < ctx->diags.n ? &ctx->diags.items[i] : NULL;
}

size_t hawk_diag_count(const HawkContext *ctx)
{
    return ctx->diags.n;
}

size_t hawk_error_count(const HawkContext *ctx)
{
    return ctx->diags.errors;
}

HawkSeverity hawk_diag_severity(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d ? d->severity : HAWK_ERROR;
}

const char *hawk_diag_message(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d ? d->message : NULL;
}

const char *hawk_diag_rule(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d ? d->rule : NULL;
}

const char *hawk_diag_file(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d != NULL && d->src != NULL ? d->src->name : NULL;
}

unsigned hawk_diag_line(const HawkContext *ctx, size_t i)
{
    /* The line in the whole input, as rendered: chunks add their base. */
    const HkDiag *d = diag_at(ctx, i);
    return d ? hk_line(d->src, d->loc) : 0;
}

unsigned hawk_diag_col(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d && d->loc.line ? d->loc.col : 0;
}

typedef struct {
    const HkDiag *d;
    HkBuf b;
} Render;

static void render_call(void *ud)
{
    Render *r = ud;
    /* Without a source (pipeline text, options) there is no file to name:
     * the tool puts its own name in front. */
    if (r->d->src == NULL)
        hk_buf_printf(&r->b, "%s: %s\n", hk_severity_name(r->d->severity),
                      r->d->message);
    else
        hk_diag_render(r->d, &r->b);
    hk_buf_cstr(&r->b);
}

const char *hawk_diag_render(HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    if (d == NULL)
        return "";
    /* after running out of memory too: how else would it be reported */
    Render r = {.d = d};
    hk_buf_init(&r.b, ctx->arena);
    if (hk_arena_protect(ctx->arena, render_call, &r) != 0)
        return "error: out of memory\n";
    return hk_buf_cstr(&r.b);
}

const char *hawk_severity_name(HawkSeverity s)
{
    return hk_severity_name(s);
}

const char *hawk_diag_fix_option(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d ? d->fix_option : NULL;
}

const char *hawk_diag_fix_value(const HawkContext *ctx, size_t i)
{
    const HkDiag *d = diag_at(ctx, i);
    return d ? d->fix_value : NULL;
}

void hawk_set_option_style(HawkContext *ctx, HawkOptionStyle style)
{
    if (ctx != NULL && (unsigned)style <= HAWK_OPTION_PYTHON)
        ctx->diags.option_style = (int)style;
}

void hawk_set_warnings(HawkContext *ctx, HawkWarnings w)
{
    if (ctx != NULL && (unsigned)w <= HAWK_WARNINGS_AS_ERRORS)
        ctx->diags.warnings = (int)w;
}

void hawk_diag_clear(HawkContext *ctx)
{
    ctx->diags.n = 0;
    ctx->diags.errors = 0;
}

/* ---- looking at a module ---------------------------------------------- */

size_t hawk_module_function_count(const HawkModule *m)
{
    return m ? m->nfuncs : 0;
}

HawkFunction *hawk_module_function(HawkModule *m, size_t i)
{
    return m && i < m->nfuncs ? m->funcs[i] : NULL;
}

const char *hawk_function_name(const HawkFunction *fn)
{
    return fn->name;
}

int hawk_function_is_kernel(const HawkFunction *fn)
{
    return fn->is_kernel;
}

int hawk_function_walk(const HawkFunction *fn, HawkInstVisitor visit,
                       void *user)
{
    /* Iterative, so deep nesting cannot exhaust the stack. */
    const HkSource *src = fn->module ? &fn->module->src : NULL;
    for (const HkInst *i = fn->body.first; i != NULL; i = hk_preorder_next(i)) {
        int rc = visit(user, hk_ops[i->op].mnemonic, hk_line(src, i->loc),
                       i->loc.col);
        if (rc != 0)
            return rc;
    }
    return 0;
}
