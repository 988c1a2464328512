/* main.c -- hawk-emit: read each HIR input, verify it, export the kernels
 * of all of them through a target as one export (hawk_export_modules),
 * print the diagnostics.  Exit status 0 on success,
 * 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "hawk_emit.h"
#include "driver.h"
#include "hawk/driver.h"
#if HAWK_HAVE_LLVM
#include "hawk/host.h"
#include "host.h"
#endif

typedef struct {
    const EmitConfig *cfg;
    double hawk_seconds, check_seconds;
    char **cflags;             /* -cflags-file: every unit's, malloc'd */
    size_t ncflags, capcflags;
    int out_of_memory;         /* a -cflags-file flag could not be kept */
} EmitRun;

/* Keeps flag for -cflags-file (duplicates go when it is written); a flag
 * that cannot be kept marks the run failed, so that the file is not
 * written without it. */
static void add_cflag(EmitRun *r, const char *flag)
{
    if (r->ncflags == r->capcflags) {
        size_t cap = r->capcflags ? 2 * r->capcflags : 16;
        char **p = tool_realloc(r->cflags, cap * sizeof *p);
        if (p == NULL) {
            r->out_of_memory = 1;
            return;
        }
        r->cflags = p;
        r->capcflags = cap;
    }
    char *copy = tool_strdup(flag);
    if (copy == NULL)
        r->out_of_memory = 1;
    else
        r->cflags[r->ncflags++] = copy;
}

static int cmp_flag(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* -cflags-file: the union of the units' flags, sorted, one a line (a
 * response file gcc and clang read with @FILE), written whole. */
static int write_cflags(const EmitRun *r)
{
    qsort(r->cflags, r->ncflags, sizeof *r->cflags, cmp_flag);
    ToolBuf b = {0};
    for (size_t k = 0; k < r->ncflags; k++) {
        if (k > 0 && strcmp(r->cflags[k], r->cflags[k - 1]) == 0)
            continue;
        tool_buf_puts(&b, r->cflags[k]);
        tool_buf_puts(&b, "\n");
    }
    int rc = tool_write_file(EMIT_TOOL, r->cfg->cflags_file,
                             b.data != NULL ? b.data : "", b.len);
    tool_buf_free(&b);
    return rc;
}

/* hawk_export's per-kernel hook: -print's texts and -time's lines. */
static void on_unit(void *user, const HawkExportUnit *u)
{
    EmitRun *r = user;
    if (r->cfg->print) {
        /* Marked as head(1) marks several files, so each text stays whole. */
        /* a built row has no header text, and its object is no text */
        if (u->h_text != NULL)
            printf("==> %s <==\n%s", u->h_name, u->h_text);
        if (u->c_text != NULL)
            printf("==> %s <==\n%s", u->c_name, u->c_text);
    }
    for (size_t k = 0; r->cfg->cflags_file != NULL && k < u->ncflags; k++)
        add_cflag(r, u->cflags[k]);
    if (r->cfg->time && u->kernel != NULL)
        fprintf(stderr, "%s: %s: hawk %.4f s, checks %.4f s\n", EMIT_TOOL,
                u->kernel, u->hawk_seconds, u->check_seconds);
    r->hawk_seconds += u->hawk_seconds;
    r->check_seconds += u->check_seconds;
}

/* The name of function k of m when it is a kernel the export selects
 * (cfg->kernel alone, when given), else NULL. */
static const char *selected(const EmitConfig *cfg, HawkModule *m, size_t k)
{
    const HawkFunction *f = hawk_module_function(m, k);
    const char *name = hawk_function_name(f);
    if (!hawk_function_is_kernel(f) ||
        (cfg->kernel != NULL && strcmp(cfg->kernel, name) != 0))
        return NULL;
    return name;
}

/* The kernels of m the export selects: two of one name, or whose entries
 * agree in their first 31 characters, hawk_export_modules refuses before
 * it writes anything, naming both. */
static size_t count_selected(const EmitConfig *cfg, HawkModule *m)
{
    size_t n = 0;
    for (size_t k = 0; k < hawk_module_function_count(m); k++)
        n += selected(cfg, m, k) != NULL;
    return n;
}

/* Whether m holds a kernel called name. */
static int has_kernel(HawkModule *m, const char *name)
{
    for (size_t k = 0; k < hawk_module_function_count(m); k++) {
        const HawkFunction *f = hawk_module_function(m, k);
        if (hawk_function_is_kernel(f) &&
            strcmp(hawk_function_name(f), name) == 0)
            return 1;
    }
    return 0;
}

/* Parses and verifies one input in ctx, runs pm's passes over it (pm
 * NULL: none) and counts its kernels the export selects in *seen;
 * the module to export, or NULL (after diagnostics, or when the input
 * holds no kernel -kernel names while other inputs may). */
static HawkModule *read_input(const EmitConfig *cfg, HawkContext *ctx,
                              HawkPassManager *pm, const char *name,
                              int many, size_t *seen, ToolNames *kernels,
                              ToolBuf *in, int *rc)
{
    if (tool_read_file(EMIT_TOOL, name, in) != 0) {
        *rc = 1;
        return NULL;
    }
    HawkModule *m = hawk_parse(ctx, name, in->data, in->len);
    if (m == NULL || hawk_verify(ctx, m) != 0 ||
        (pm != NULL && hawk_pass_manager_run(pm, m) != 0)) {
        *rc = 1;
        return NULL;
    }
    /* another input may hold the kernel (alone, hawk_export names the
     * ones this input has) */
    /* each kernel's name, for the "did you mean" when none is -kernel= */
    for (size_t k = 0; cfg->kernel != NULL && k < hawk_module_function_count(m);
         k++) {
        const HawkFunction *f = hawk_module_function(m, k);
        if (hawk_function_is_kernel(f))
            (void)tool_names_add(kernels, hawk_function_name(f));
    }
    if (many && cfg->kernel != NULL && !has_kernel(m, cfg->kernel))
        return NULL;
    *seen += count_selected(cfg, m);
    return m;
}

/* Exports ms as one export (one runtime unit, one cppcheck run); 0, or 1
 * after diagnostics. */
static int export_all(const EmitConfig *cfg, HawkContext *ctx,
                      HawkModule **ms, size_t n, EmitRun *r)
{
    HawkExportOptions o;
    hawk_export_options_init(&o);
    o.target = cfg->target;
    o.out_dir = cfg->out_dir;
    o.kernel = cfg->kernel;
    o.opt_keys = cfg->profile.keys;
    o.opt_vals = cfg->profile.vals;
    o.nopts = cfg->profile.n;
    o.check = !cfg->no_check;
    char *cache = cfg->no_cache              ? NULL
                  : cfg->cache_dir != NULL ? tool_strdup(cfg->cache_dir)
                                           : hawk_default_cache_dir();
    if (cfg->cache_dir != NULL && !cfg->no_cache && cache == NULL)
        return tool_error(EMIT_TOOL, "out of memory");
    o.checker = hawk_driver_checker_cached(ctx, cache);
    free(cache);
    o.print_only = cfg->print;
    o.on_unit = on_unit;
    o.on_runtime = on_unit;
    o.user = r;
#if HAWK_HAVE_LLVM
    o.llvm_writer = hk_host_writer(); /* rows whose writer is LLVM's */
    /* selftest=on: the known answers */
    o.oracle = cfg->oracle != NULL && strcmp(cfg->oracle, "interp") == 0
                   ? hawk_interp_oracle()
                   : hawk_host_oracle();
#else
    /* no LLVM: a row LLVM writes is refused by name, and the self-test's
     * known answers come from the HIR interpreter */
    o.oracle = hawk_interp_oracle();
#endif
    o.emit_llvm = cfg->emit_llvm;
    return o.checker == NULL || hawk_export_modules(ctx, ms, n, &o) != 0;
}

/* The -passes pipeline with the profile flags set for every pass, as
 * hawk-opt's; NULL after diagnostics in ctx. */
static HawkPassManager *pipeline(const EmitConfig *cfg, HawkContext *ctx)
{
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (pm == NULL)
        return NULL;
    for (size_t i = 0; i < cfg->profile.n; i++)
        hawk_pass_manager_set_option(pm, cfg->profile.keys[i],
                                     cfg->profile.vals[i]);
    return hawk_pass_manager_parse(pm, cfg->passes) == 0 ? pm : NULL;
}

/* Every input in order, in one context: an input that does not parse or
 * verify is reported and left out, the others are exported together. */
static int run(const EmitConfig *cfg)
{
    static const char *const stdin_only[] = {"-"};
    const char *const *inputs = cfg->inputs.n ? cfg->inputs.names : stdin_only;
    size_t n = cfg->inputs.n ? cfg->inputs.n : 1;
    EmitRun r = {cfg, 0, 0, NULL, 0, 0, 0};
    size_t seen = 0, nms = 0, printed = 0;
    ToolNames kernels = {0};
    int rc = 0;
    HawkContext *ctx = tool_context_create();
    HawkModule **ms = tool_calloc(n, sizeof *ms);
    ToolBuf *bufs = tool_calloc(n, sizeof *bufs);
    if (ctx == NULL || ms == NULL || bufs == NULL) {
        rc = tool_error(EMIT_TOOL, "out of memory");
        n = 0;
    }
    HawkPassManager *pm = NULL;
    if (ctx != NULL && cfg->passes != NULL &&
        (pm = pipeline(cfg, ctx)) == NULL) {
        tool_print_diags(EMIT_TOOL, ctx, 0);
        printed = hawk_diag_count(ctx);
        rc = 1;
        n = 0;
    }
    for (size_t k = 0; k < n; k++) {
        HawkModule *m = read_input(cfg, ctx, pm, inputs[k], n > 1, &seen,
                                   &kernels, &bufs[k], &rc);
        if (m != NULL)
            ms[nms++] = m;
        tool_print_diags(EMIT_TOOL, ctx, printed);
        printed = hawk_diag_count(ctx);
    }
    if (nms > 0)
        rc |= export_all(cfg, ctx, ms, nms, &r);
    if (ctx != NULL)
        tool_print_diags(EMIT_TOOL, ctx, printed);
    if (rc == 0 && seen == 0 && cfg->kernel != NULL) {
        const char *near = tool_names_near(&kernels, cfg->kernel);
        rc = tool_error(EMIT_TOOL, "no kernel named '%s' in any of the "
                                   "inputs%s%s%s",
                        cfg->kernel, near ? " (did you mean '" : "",
                        near ? near : "", near ? "'?)" : "");
    }
    if (cfg->time)
        fprintf(stderr, "%s: total: hawk %.4f s, checks %.4f s\n", EMIT_TOOL,
                r.hawk_seconds, r.check_seconds);
    if (rc == 0 && r.out_of_memory)
        rc = tool_error(EMIT_TOOL, "out of memory: '%s' is not written",
                        cfg->cflags_file);
    if (rc == 0 && cfg->cflags_file != NULL)
        rc = write_cflags(&r);
    tool_names_free(&kernels);
    for (size_t k = 0; k < r.ncflags; k++)
        free(r.cflags[k]);
    free(r.cflags);
    for (size_t k = 0; k < n; k++)
        tool_buf_free(&bufs[k]);
    free(bufs);
    free(ms);
    hawk_context_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    EmitConfig cfg;
    if (emit_parse_command_line(&cfg, argc, argv) != 0) {
        emit_config_free(&cfg);
        return 1;
    }
    int rc = 0;
    if (cfg.help) {
        emit_print_help();
    } else if (cfg.version) {
        printf("%s (hawk) %s\n", EMIT_TOOL, hawk_version());
    } else {
        rc = run(&cfg);
    }
    emit_config_free(&cfg);
    return rc;
}
