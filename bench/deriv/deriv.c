/* deriv.c -- hawk-bench-deriv: ns/sample of each kernel of examples/
 * beside its forward (jvp) and reverse (vjp) derivative kernels, all
 * three as C units built as hawk-run builds them, in one run.  It prints
 * the measured ratios jvp/primal and vjp/primal beside the ratios of
 * operations per sample the cost analysis gives, so the cheap-gradient
 * bound (reverse mode within a small factor of the primal) is read off
 * the same row for both measures.  bench/deriv/run.sh is the usual
 * driver.
 *
 * The three kernels share their primal slots' inputs: each plane and
 * uniform is drawn from a generator seeded by its member's name, so the
 * primal and both derivative kernels run the same trips over the same
 * values.  Reals are uniform in [-2, 2] (a kernel with a restricted
 * domain computes NaN outside it, in all three alike), integers in
 * [0, 8), masks clear (every sample runs). */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runnerint.h"
#include "tool_io.h"
#include "tool_opts.h"

#define TOOL "hawk-bench-deriv"

#ifndef HAWK_EXAMPLES_DIR
#define HAWK_EXAMPLES_DIR "examples"
#endif

/* ---- configuration ------------------------------------------------------ */

typedef struct {
    int64_t samples, reps;
    const char *examples, *math;
    const char **kernels;
    int nkernels;
    int help;
} Config;

static int set_int(const char *opt, const char *v, int64_t lo, int64_t *out)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < lo)
        return tool_error(TOOL, "option '-%s' expects an integer >= %" PRId64
                                ", got '%s'", opt, lo, v);
    *out = (int64_t)x;
    return 0;
}

static int set_samples(void *st, const ToolOpt *row, const char *v)
{
    return set_int(row->name, v, 2, &((Config *)st)->samples);
}

static int set_reps(void *st, const ToolOpt *row, const char *v)
{
    return set_int(row->name, v, 1, &((Config *)st)->reps);
}

static int set_examples(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((Config *)st)->examples = v;
    return 0;
}

static int set_math(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    if (strcmp(v, "hawk") != 0 && strcmp(v, "libm") != 0)
        return tool_error(TOOL, "option '-math' expects hawk or libm, got "
                                "'%s'", v);
    ((Config *)st)->math = v;
    return 0;
}

static int set_help(void *st, const ToolOpt *row, const char *v)
{
    (void)row, (void)v;
    ((Config *)st)->help = 1;
    return 0;
}

static const ToolOpt table[] = {
    {"samples", TOOL_VALUE, set_samples, "N",
     "samples per launch (default 100000)"},
    {"reps", TOOL_VALUE, set_reps, "R",
     "timed launches per kernel; the best counts (default 5)"},
    {"examples", TOOL_VALUE, set_examples, "DIR",
     "where the kernels' .hir files are"},
    {"math", TOOL_VALUE, set_math, "hawk|libm",
     "the units' math (default hawk, as hawk-emit builds them)"},
    {"help", TOOL_FLAG, set_help, NULL, "print this help and exit"},
    {"h", TOOL_FLAG, set_help, NULL, "the same as -help"},
    {"color", TOOL_VALUE, tool_set_color, "auto|always|never",
     "colour the diagnostics (auto: on a terminal, unless NO_COLOR is set)"},
};

static int add_kernel(void *st, const char *arg)
{
    Config *cfg = st;
    cfg->kernels[cfg->nkernels++] = arg;
    return 0;
}

static const ToolSpec spec = {
    TOOL,
    "time each kernel of examples/ beside its jvp and vjp kernels (C units)",
    "[options] [kernel...]", table, sizeof table / sizeof table[0],
    add_kernel,
};

/* ---- one unit: built, filled, timed --------------------------------------- */

enum { K_PRIMAL, K_JVP, K_VJP, K_COUNT };
static const char *const kind_names[K_COUNT] = {"primal", "jvp", "vjp"};

typedef struct {
    HkFunc *kernel;           /* NULL: not made (note says why) */
    const char *note;
    HkLowered low;
    HkAbiLayout abi;
    CUnitLib lib;
    HkLaunchShape shape;
    HkLaunch init, work;
    int filled;
    double ns;
} Unit;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes n values of element type e at dst, from a generator seeded by
 * the member's name: reals in [-2, 2], integers in [0, 8), i1 clear. */
static void fill_values(const HkAbiField *f, unsigned char *dst, size_t n)
{
    HkRng r;
    hk_rng_init(&r, 1, f->name);
    for (size_t k = 0; k < n; k++) {
        double u = (double)(hk_rng_next(&r) >> 11) * 0x1p-53 * 4.0 - 2.0;
        uint64_t i = hk_rng_below(&r, 8);
        unsigned char *p = dst + k * f->elem_bytes;
        switch (f->elem) {
        case HK_F64: memcpy(p, &u, sizeof u); break;
        case HK_F32: { float x = (float)u; memcpy(p, &x, sizeof x); break; }
        case HK_I64: { int64_t x = (int64_t)i; memcpy(p, &x, sizeof x); break; }
        case HK_I32: { int32_t x = (int32_t)i; memcpy(p, &x, sizeof x); break; }
        case HK_U32: { uint32_t x = (uint32_t)i; memcpy(p, &x, sizeof x); break; }
        default: memset(p, 0, f->elem_bytes); break;
        }
    }
}

/* Lays out and fills u's launch of n samples.  The runtime lengths are
 * drawn in member order, so the primal's members (which come first in
 * the derivative kernels too) get the same lengths in all three. */
static void fill(Unit *u, int64_t n)
{
    HkRng r;
    hk_rng_init(&r, 1, "launch");
    hk_launch_shape_init(&u->shape, &u->abi, n, &r);
    hk_launch_fill(&u->init, &u->shape, &r);
    for (uint32_t p = 0; p < u->shape.nplanes; p++) {
        const HkPlaneShape *ps = &u->shape.planes[p];
        fill_values(ps->field, u->init.data[p], ps->nelem);
    }
    for (uint32_t k = 0; k < u->abi.nfields; k++) {
        const HkAbiField *f = &u->abi.fields[k];
        if (f->kind == HK_ABI_VALUE)
            fill_values(f, u->init.args + f->offset, f->comps);
    }
    hk_launch_clone(&u->work, &u->init, &u->shape);
    u->filled = 1;
}

/* The best of reps launches over the whole range, in ns per sample; the
 * planes are reset from the initial ones outside the timed region.  A
 * negative result: the entry returned a status. */
static double time_unit(Unit *u, int64_t n, int64_t reps)
{
    double best = 1e300;
    for (int64_t r = 0; r < reps; r++) {
        for (uint32_t p = 0; p < u->shape.nplanes; p++)
            memcpy(u->work.data[p], u->init.data[p], u->shape.planes[p].bytes);
        double t0 = now();
        int32_t st = u->lib.entry(u->work.args, 0, n, n);
        double t = now() - t0;
        if (st != 0)
            return -1.0;
        if (t < best)
            best = t;
    }
    return best * 1e9 / (double)n;
}

static void unit_free(Unit *u)
{
    if (u->filled) {
        hk_launch_free(&u->init, &u->shape);
        hk_launch_free(&u->work, &u->shape);
        hk_launch_shape_free(&u->shape);
    }
    cbuild_unload(&u->lib);
}

/* ---- one kernel ------------------------------------------------------------ */

/* The first diagnostic since from, dropped from ctx. */
static const char *take_diags(HawkContext *ctx, uint32_t from)
{
    HkDiags *d = &ctx->diags;
    const char *first = from < d->n ? d->items[from].message : "refused";
    for (uint32_t k = from; k < d->n; k++)
        d->errors -= d->items[k].severity == HAWK_ERROR;
    d->n = from;
    return first;
}

/* Kernel <f>_<pass>, made by the pass in a copy of f's module; NULL with
 * u->note set. */
static HkFunc *derive(HawkContext *ctx, HkModule *m, HkFunc *f,
                      const char *pass, Unit *u)
{
    uint32_t from = ctx->diags.n;
    HkModule *nm = hk_module_clone_kernel(ctx->arena, m, f);
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    const char *name = hk_asprintf(ctx->arena, "%s_%s", f->name, pass);
    uint32_t k;
    if (pm == NULL || hawk_pass_manager_parse(pm, pass) != 0 ||
        hawk_pass_manager_run(pm, nm) != 0 ||
        (k = hk_func_index(nm, name, strlen(name))) >= nm->nfuncs) {
        u->note = take_diags(ctx, from);
        return NULL;
    }
    return nm->funcs[k];
}

/* Lowers u->kernel under math and loads its C unit; 0, or 1 with
 * diagnostics in ctx. */
static int build(HawkContext *ctx, Unit *u, const char *math)
{
    const char *keys[] = {"math"};
    const char *vals[] = {math};
    HkFunc *k = u->kernel;
    if (hk_lower(ctx, k->module, k, keys, vals, 1, &u->low) != 0)
        return 1;
    if (hk_abi_layout(ctx->arena, u->low.kernel, u->low.iface, &u->abi) != 0)
        return tool_error(TOOL, "'%s': no args layout", k->name);
    return cbuild_load(ctx, &u->low, NULL, &u->lib);
}

static void print_row(const char *name, const Unit *u)
{
    double p = u[K_PRIMAL].ns;
    double pops = (double)u[K_PRIMAL].low.cost->ops_total;
    printf("%-22s %9.2f", name, p);
    for (int k = K_JVP; k < K_COUNT; k++)
        if (u[k].kernel != NULL)
            printf(" %9.2f", u[k].ns);
        else
            printf(" %9s", "-");
    printf(" |");
    for (int k = K_JVP; k < K_COUNT; k++)
        if (u[k].kernel != NULL)
            printf(" %7.2f", u[k].ns / p);
        else
            printf(" %7s", "-");
    printf(" |");
    for (int k = K_JVP; k < K_COUNT; k++)
        if (u[k].kernel != NULL && pops > 0)
            printf(" %7.2f", (double)u[k].low.cost->ops_total / pops);
        else
            printf(" %7s", "-");
    printf("\n");
    for (int k = K_JVP; k < K_COUNT; k++)
        if (u[k].kernel == NULL)
            printf("  %s: no %s kernel: %s\n", name, kind_names[k], u[k].note);
}

/* Measures the kernel of file examples/<name>.hir named name; 0, or 1
 * after an error. */
static int bench_kernel(const Config *cfg, const char *name)
{
    HawkContext *ctx = hawk_context_create();
    ToolBuf text = {0};
    Unit u[K_COUNT];
    memset(u, 0, sizeof u);
    const char *path =
        hk_asprintf(ctx->arena, "%s/%s.hir", cfg->examples, name);
    int rc = tool_read_file(TOOL, path, &text) != 0;
    HkModule *m = rc ? NULL : hawk_parse(ctx, path, text.data, text.len);
    rc = rc || m == NULL || hawk_verify(ctx, m) != 0;
    uint32_t id = rc ? 0 : hk_func_index(m, name, strlen(name));
    if (rc == 0 && (id >= m->nfuncs || !m->funcs[id]->is_kernel))
        rc = tool_error(TOOL, "'%s' has no kernel '@%s'", path, name);
    if (rc == 0) {
        u[K_PRIMAL].kernel = m->funcs[id];
        u[K_JVP].kernel = derive(ctx, m, m->funcs[id], "jvp", &u[K_JVP]);
        u[K_VJP].kernel = derive(ctx, m, m->funcs[id], "vjp", &u[K_VJP]);
    }
    for (int k = 0; k < K_COUNT && rc == 0; k++)
        if (u[k].kernel != NULL) {
            rc = build(ctx, &u[k], cfg->math);
            if (rc == 0) {
                fill(&u[k], cfg->samples);
                u[k].ns = time_unit(&u[k], cfg->samples, cfg->reps);
                if (u[k].ns < 0)
                    rc = tool_error(TOOL, "'%s': the entry returned an error "
                                          "status", u[k].kernel->name);
            }
        }
    if (rc != 0)
        tool_print_diags(TOOL, ctx, 0);
    else
        print_row(name, u);
    for (int k = 0; k < K_COUNT; k++)
        unit_free(&u[k]);
    tool_buf_free(&text);
    hawk_context_destroy(ctx);
    return rc;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of the .hir files of dir, sorted (malloc'd); NULL when dir
 * cannot be read. */
static char **list_examples(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    *n = 0;
    struct dirent *e;
    while (names != NULL && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".hir") != 0)
            continue;
        if (*n == cap) {
            char **grown = realloc(names, (cap *= 2) * sizeof *names);
            if (grown == NULL)
                break;
            names = grown;
        }
        names[*n] = malloc(len - 3);
        if (names[*n] == NULL)
            break;
        memcpy(names[*n], e->d_name, len - 4);
        names[(*n)++][len - 4] = '\0';
    }
    closedir(d);
    if (names != NULL)
        qsort(names, *n, sizeof *names, by_name);
    return names;
}

static void print_header(const Config *cfg)
{
    HkArena *a = hk_arena_new();
    HkTool cc;
    const char *why;
    const char *ccname = hk_resolve_cc(a, &cc, &why) == 0
                             ? hk_asprintf(a, "%s (%s)", cc.path, cc.version)
                             : "none";
    printf("hawk-bench-deriv: %" PRId64 " samples per launch, best of %" PRId64
           " launches, ns/sample of the C units, math=%s\n",
           cfg->samples, cfg->reps, cfg->math);
    printf("  C units: -std=c99 -O2 and their own flags, cc %s\n", ccname);
    printf("  ops: operations per sample from the cost analysis "
           "(jvp/primal, vjp/primal)\n");
    printf("%-22s %9s %9s %9s | %7s %7s | %7s %7s\n", "kernel", "primal",
           "jvp", "vjp", "jvp/p", "vjp/p", "ops jvp", "ops vjp");
    hk_arena_free(a);
}

int main(int argc, char **argv)
{
    Config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.samples = 100000;
    cfg.reps = 5;
    cfg.examples = HAWK_EXAMPLES_DIR;
    cfg.math = "hawk";
    cfg.kernels = malloc((size_t)argc * sizeof *cfg.kernels);
    if (cfg.kernels == NULL || tool_parse_args(&spec, argc, argv, &cfg) != 0) {
        free(cfg.kernels);
        return 1;
    }
    if (cfg.help) {
        tool_print_help(&spec, stdout);
        free(cfg.kernels);
        return 0;
    }
    size_t n = 0;
    char **names = NULL;
    if (cfg.nkernels == 0) {
        names = list_examples(cfg.examples, &n);
        if (names == NULL) {
            free(cfg.kernels);
            return tool_error(TOOL, "cannot read '%s'", cfg.examples);
        }
    }
    print_header(&cfg);
    int rc = 0;
    for (int i = 0; i < cfg.nkernels; i++)
        rc |= bench_kernel(&cfg, cfg.kernels[i]);
    for (size_t i = 0; i < n; i++) {
        rc |= bench_kernel(&cfg, names[i]);
        free(names[i]);
    }
    free(names);
    free(cfg.kernels);
    return rc;
}
