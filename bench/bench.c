/* bench.c -- hawk-bench: ns/sample of kernels of examples/ built four
 * ways in one run: the host build (LLVM ORC JIT) serial and threaded over
 * two partitions, the emitted C unit compiled with the resolved C compiler
 * (-O2 and the unit's own flags, as hawk-run builds it), and a hand-written C
 * version (bench/hand/).  Every variant's output planes are checked equal,
 * byte for byte, to the emitted C's.  The units are lowered under
 * math=libm, as the hand-written C calls the C library.  bench/run.sh is the usual driver. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hand/hand.h"
#include "host.h"
#include "runnerint.h"
#include "tool_io.h"
#include "tool_opts.h"

#define BENCH_TOOL "hawk-bench"

#ifndef HAWK_EXAMPLES_DIR
#define HAWK_EXAMPLES_DIR "examples"
#endif

/* ---- configuration --------------------------------------------------- */

typedef struct {
    int64_t samples, reps;
    const char *examples;
    const char **kernels;
    int nkernels;
    int help;
} BenchConfig;

static int set_int(const char *opt, const char *v, int64_t lo, int64_t *out)
{
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < lo)
        return tool_error(BENCH_TOOL, "option '-%s' expects an integer >= %"
                                      PRId64 ", got '%s'", opt, lo, v);
    *out = (int64_t)x;
    return 0;
}

static int set_samples(void *st, const ToolOpt *row, const char *v)
{
    return set_int(row->name, v, 2, &((BenchConfig *)st)->samples);
}

static int set_reps(void *st, const ToolOpt *row, const char *v)
{
    return set_int(row->name, v, 1, &((BenchConfig *)st)->reps);
}

static int set_examples(void *st, const ToolOpt *row, const char *v)
{
    (void)row;
    ((BenchConfig *)st)->examples = v;
    return 0;
}

static int set_help(void *st, const ToolOpt *row, const char *v)
{
    (void)row, (void)v;
    ((BenchConfig *)st)->help = 1;
    return 0;
}

static const ToolOpt bench_table[] = {
    {"samples", TOOL_VALUE, set_samples, "N",
     "samples per launch (default 1000000)"},
    {"reps", TOOL_VALUE, set_reps, "R",
     "timed launches per variant; the best counts (default 5)"},
    {"examples", TOOL_VALUE, set_examples, "DIR",
     "where the kernels' .hir files are"},
    {"help", TOOL_FLAG, set_help, NULL, "print this help and exit"},
    {"h", TOOL_FLAG, set_help, NULL, "the same as -help"},
    {"color", TOOL_VALUE, tool_set_color, "auto|always|never",
     "colour the diagnostics (auto: on a terminal, unless NO_COLOR is set)"},
};

static int add_kernel(void *st, const char *arg)
{
    BenchConfig *cfg = st;
    cfg->kernels[cfg->nkernels++] = arg;
    return 0;
}

static const ToolSpec bench_spec = {
    BENCH_TOOL,
    "time kernels of examples/: the host build, the emitted C, hand-written C",
    "[options] [kernel...]", bench_table,
    sizeof bench_table / sizeof bench_table[0], add_kernel,
};

/* ---- the kernels: inputs and the hand-written twin -------------------- */

/* A value range for a plane or uniform field: uniform in [lo, hi]. */
typedef struct {
    const char *field;
    double lo, hi;
} Range;

struct Bench;
typedef void (*HandFn)(const struct Bench *b);

typedef struct {
    const char *name;
    Range ranges[6];
    HandFn hand;
} BenchKernel;

/* One kernel being measured: its layout, the initial planes, the working
 * planes the variants run on, and the args struct pointing at them. */
typedef struct Bench {
    const BenchKernel *k;
    HkAbiLayout abi;
    size_t n;
    double **init, **work;   /* by field index (planes only) */
    size_t *bytes;           /* by field index */
    unsigned char *args;
} Bench;

/* The working plane of field name. */
static double *plane(const Bench *b, const char *name)
{
    const HkAbiField *f = hk_abi_field(&b->abi, name);
    return b->work[f - b->abi.fields];
}

/* The by-value uniform field name (its first component's address). */
static const double *uniform(const Bench *b, const char *name)
{
    const HkAbiField *f = hk_abi_field(&b->abi, name);
    return (const double *)(const void *)(b->args + f->offset);
}

static void hand_drag(const Bench *b)
{
    drag_hand(b->n, plane(b, "vin_state"), *uniform(b, "uni_rho"),
              plane(b, "mut_out"));
}

static void hand_gravity(const Bench *b)
{
    gravity_hand(b->n, plane(b, "vin_r"), *uniform(b, "uni_mu"),
                 plane(b, "mut_a"));
}

static void hand_spring(const Bench *b)
{
    spring_damper_hand(b->n, plane(b, "mut_x"), plane(b, "mut_v"),
                       *uniform(b, "uni_m"), *uniform(b, "uni_k"),
                       *uniform(b, "uni_c"), *uniform(b, "uni_dt"));
}

static void hand_haversine(const Bench *b)
{
    haversine_hand(b->n, plane(b, "vin_p1"), plane(b, "vin_p2"),
                   *uniform(b, "uni_R"), plane(b, "mut_d"));
}

static void hand_kalman(const Bench *b)
{
    kalman_predict_hand(b->n, plane(b, "mut_x"), plane(b, "mut_P"),
                        plane(b, "min_F"), uniform(b, "uni_Q"));
}

/* Physically plausible inputs: ordinary values, no subnormals, so the
 * timing measures the arithmetic and not a slow path. */
static const BenchKernel bench_kernels[] = {
    {"drag",
     {{"vin_state", -50, 50}, {"mut_out", 0, 0}, {"uni_rho", 0.012, 0.012}},
     hand_drag},
    {"gravity",
     {{"vin_r", 6.4e6, 4.2e7}, {"mut_a", 0, 0},
      {"uni_mu", 3.986004418e14, 3.986004418e14}},
     hand_gravity},
    {"spring_damper",
     {{"mut_x", -1, 1}, {"mut_v", -1, 1}, {"uni_m", 2, 2}, {"uni_k", 10, 10},
      {"uni_c", 0.3, 0.3}, {"uni_dt", 1e-3, 1e-3}},
     hand_spring},
    {"haversine",
     {{"vin_p1", -1.5, 1.5}, {"vin_p2", -1.5, 1.5}, {"mut_d", 0, 0},
      {"uni_R", 6371000, 6371000}},
     hand_haversine},
    {"kalman_predict",
     {{"mut_x", -10, 10}, {"mut_P", 0, 1}, {"min_F", -1, 1},
      {"uni_Q", 0, 0.01}},
     hand_kalman},
};

#define NKERNELS (sizeof bench_kernels / sizeof bench_kernels[0])

static const BenchKernel *find_kernel(const char *name)
{
    for (size_t k = 0; k < NKERNELS; k++)
        if (strcmp(bench_kernels[k].name, name) == 0)
            return &bench_kernels[k];
    return NULL;
}

/* The range of field name in k (every field has one). */
static const Range *range_of(const BenchKernel *k, const char *name)
{
    for (size_t j = 0; j < 6 && k->ranges[j].field != NULL; j++)
        if (strcmp(k->ranges[j].field, name) == 0)
            return &k->ranges[j];
    return NULL;
}

/* ---- planes ----------------------------------------------------------- */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fputs(BENCH_TOOL ": error: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

static double draw(HkRng *r, const Range *g)
{
    return g->lo + (g->hi - g->lo) * ((double)(hk_rng_next(r) >> 11) * 0x1p-53);
}

/* Allocates and fills the initial planes and uniforms of b. */
static int bench_setup(Bench *b, HkRng *r)
{
    uint32_t nf = b->abi.nfields;
    b->init = xmalloc(nf * sizeof *b->init);
    b->work = xmalloc(nf * sizeof *b->work);
    b->bytes = xmalloc(nf * sizeof *b->bytes);
    b->args = xmalloc((size_t)b->abi.size);
    memset(b->args, 0, (size_t)b->abi.size);
    for (uint32_t k = 0; k < nf; k++)
        b->init[k] = b->work[k] = NULL;
    for (uint32_t k = 0; k < nf; k++) {
        const HkAbiField *f = &b->abi.fields[k];
        const Range *g = range_of(b->k, f->name);
        if (g == NULL || f->elem != HK_F64)
            return tool_error(BENCH_TOOL, "'%s': no f64 input range for '%s'",
                              b->k->name, f->name);
        size_t count = f->kind == HK_ABI_VALUE ? f->comps : f->comps * b->n;
        double *dst = f->kind == HK_ABI_VALUE
                          ? (double *)(void *)(b->args + f->offset)
                          : (b->init[k] = xmalloc(count * sizeof(double)));
        for (size_t e = 0; e < count; e++)
            dst[e] = draw(r, g);
        if (f->kind != HK_ABI_PLANE)
            continue;
        b->bytes[k] = count * sizeof(double);
        b->work[k] = xmalloc(b->bytes[k]);
        memcpy(b->args + f->offset, &b->work[k], sizeof b->work[k]);
    }
    return 0;
}

static void bench_free(Bench *b)
{
    for (uint32_t k = 0; k < b->abi.nfields; k++) {
        free(b->init[k]);
        free(b->work[k]);
    }
    free(b->init);
    free(b->work);
    free(b->bytes);
    free(b->args);
}

/* Resets the working planes to the initial values. */
static void reset(Bench *b)
{
    for (uint32_t k = 0; k < b->abi.nfields; k++)
        if (b->work[k] != NULL)
            memcpy(b->work[k], b->init[k], b->bytes[k]);
}

/* ---- the variants ------------------------------------------------------ */

typedef enum { V_HOST1, V_HOST2, V_C, V_HAND, V_COUNT } Variant;
static const char *const variant_names[V_COUNT] = {
    "host-1t", "host-2t", "emitted-c", "hand-c",
};

typedef struct {
    UnitEntry entry;
    const Bench *b;
    int64_t base, count;
    int32_t status;
} Part;

static void *run_part(void *p)
{
    Part *q = p;
    q->status = q->entry(q->b->args, q->base, q->count, (int64_t)q->b->n);
    return NULL;
}

/* Runs entry over [0, n) on two threads, one partition each. */
static int32_t run_threaded(const Bench *b, UnitEntry entry)
{
    int64_t n = (int64_t)b->n, half = n / 2;
    Part parts[2] = {{entry, b, 0, half, 0}, {entry, b, half, n - half, 0}};
    pthread_t t;
    if (pthread_create(&t, NULL, run_part, &parts[1]) != 0) {
        run_part(&parts[1]);
        run_part(&parts[0]);
    } else {
        run_part(&parts[0]);
        pthread_join(t, NULL);
    }
    return parts[0].status != 0 ? parts[0].status : parts[1].status;
}

typedef struct {
    UnitEntry host, c;
} Units;

/* One launch of variant v over the working planes; 0 on success. */
static int32_t run_variant(const Bench *b, const Units *u, Variant v)
{
    switch (v) {
    case V_HOST1: return u->host(b->args, 0, (int64_t)b->n, (int64_t)b->n);
    case V_HOST2: return run_threaded(b, u->host);
    case V_C: return u->c(b->args, 0, (int64_t)b->n, (int64_t)b->n);
    case V_HAND: b->k->hand(b); return 0;
    case V_COUNT: break;
    }
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The best of reps timed launches of v, in ns per sample; the planes are
 * reset before each launch, outside the timed region. */
static double time_variant(Bench *b, const Units *u, Variant v, int64_t reps)
{
    double best = 1e300;
    for (int64_t r = 0; r < reps; r++) {
        reset(b);
        double t0 = now();
        (void)run_variant(b, u, v);
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    return best * 1e9 / (double)b->n;
}

/* Copies the written planes of b into *out (malloc'd, concatenated). */
static unsigned char *snapshot(const Bench *b, size_t *len)
{
    size_t n = 0;
    for (uint32_t k = 0; k < b->abi.nfields; k++)
        if (b->work[k] != NULL && b->abi.fields[k].written)
            n += b->bytes[k];
    unsigned char *s = xmalloc(n), *p = s;
    for (uint32_t k = 0; k < b->abi.nfields; k++)
        if (b->work[k] != NULL && b->abi.fields[k].written) {
            memcpy(p, b->work[k], b->bytes[k]);
            p += b->bytes[k];
        }
    *len = n;
    return s;
}

/* Runs every variant once from the initial planes and compares its
 * written planes with the emitted C's.  Returns the number that differ. */
static int check_identical(Bench *b, const Units *u, char *which, size_t n)
{
    reset(b);
    if (run_variant(b, u, V_C) != 0)
        return snprintf(which, n, "emitted-c failed"), 1;
    size_t len, len2;
    unsigned char *ref = snapshot(b, &len);
    int bad = 0;
    which[0] = '\0';
    for (int v = 0; v < V_COUNT; v++) {
        if (v == V_C)
            continue;
        reset(b);
        int32_t st = run_variant(b, u, (Variant)v);
        unsigned char *got = snapshot(b, &len2);
        if (st != 0 || len2 != len || memcmp(ref, got, len) != 0) {
            size_t used = strlen(which);
            snprintf(which + used, n - used, "%s%s", bad ? "," : "",
                     variant_names[v]);
            bad++;
        }
        free(got);
    }
    free(ref);
    return bad;
}

/* ---- one kernel -------------------------------------------------------- */

/* Parses examples/<name>.hir into ctx and returns the kernel, or NULL. */
static HkFunc *load_kernel(HawkContext *ctx, const BenchConfig *cfg,
                           const char *name, ToolBuf *text, HkModule **m)
{
    const char *path =
        hk_asprintf(ctx->arena, "%s/%s.hir", cfg->examples, name);
    if (tool_read_file(BENCH_TOOL, path, text) != 0)
        return NULL;
    *m = hawk_parse(ctx, path, text->data, text->len);
    if (*m == NULL || hawk_verify(ctx, *m) != 0) {
        tool_print_diags(BENCH_TOOL, ctx, 0);
        return NULL;
    }
    uint32_t id = hk_func_index(*m, name, strlen(name));
    return id < (*m)->nfuncs ? (*m)->funcs[id] : NULL;
}

/* Builds both units of kernel k; 0, or 1 after an error message. */
static int build(HawkContext *ctx, HkModule *m, HkFunc *k, Bench *b,
                 HkHostJit **jit, CUnitLib *lib, Units *u)
{
    HkLowered l;
    HkHostEntry host;
    /* math=libm: the hand-written versions call the C library, so the
     * units must too for their bytes to agree (bench/math/run.sh times
     * hawk's own math) */
    static const char *const keys[] = {"math"}, *const vals[] = {"libm"};
    if (hk_lower(ctx, m, k, keys, vals, 1, &l) != 0 ||
        hk_host_jit(&l, jit, &host, &ctx->diags) != 0 ||
        cbuild_load(ctx, &l, NULL, lib) != 0) {
        tool_print_diags(BENCH_TOOL, ctx, 0);
        return 1;
    }
    if (hk_abi_layout(ctx->arena, l.kernel, l.iface, &b->abi) != 0)
        return tool_error(BENCH_TOOL, "'%s': no args layout", k->name);
    u->host = host;
    u->c = lib->entry;
    return 0;
}

/* Measures kernel name and prints its row; 0, or 1 on an error or when
 * some variant's bytes differ. */
static int bench_kernel(const BenchConfig *cfg, const BenchKernel *bk)
{
    HawkContext *ctx = hawk_context_create();
    ToolBuf text = {0};
    HkModule *m = NULL;
    HkHostJit *jit = NULL;
    CUnitLib lib = {0};
    Units u;
    Bench b;
    memset(&b, 0, sizeof b);
    b.k = bk;
    b.n = (size_t)cfg->samples;
    HkFunc *k = load_kernel(ctx, cfg, bk->name, &text, &m);
    int rc = k == NULL || build(ctx, m, k, &b, &jit, &lib, &u) != 0;
    HkRng r;
    hk_rng_init(&r, 1, bk->name);
    if (rc == 0)
        rc = bench_setup(&b, &r);
    if (rc == 0) {
        double ns[V_COUNT];
        for (int v = 0; v < V_COUNT; v++)
            ns[v] = time_variant(&b, &u, (Variant)v, cfg->reps);
        char which[96];
        int bad = check_identical(&b, &u, which, sizeof which);
        printf("%-16s %9.3f %9.3f %9.3f %9.3f | %7.2f %9.2f %9.2f | %s%s\n",
               bk->name, ns[V_HOST1], ns[V_HOST2], ns[V_C], ns[V_HAND],
               ns[V_C] / ns[V_HAND], ns[V_C] / ns[V_HOST1],
               ns[V_C] / ns[V_HOST2], bad ? "DIFFER: " : "identical", which);
        rc = bad != 0;
    }
    if (b.init != NULL)
        bench_free(&b);
    cbuild_unload(&lib);
    hk_host_jit_free(jit);
    tool_buf_free(&text);
    hawk_context_destroy(ctx);
    return rc;
}

/* The header lines: what was built how, and the column names. */
static void print_header(const BenchConfig *cfg)
{
    HkArena *a = hk_arena_new();
    HkTool cc;
    const char *why;
    const char *ccname = hk_resolve_cc(a, &cc, &why) == 0
                             ? hk_asprintf(a, "%s (%s)", cc.path, cc.version)
                             : "none";
    printf("hawk-bench: %" PRId64 " samples per launch, best of %" PRId64
           " launches, ns/sample\n", cfg->samples, cfg->reps);
    printf("  host-1t, host-2t: host build, LLVM ORC JIT, one thread / two "
           "partitions on two threads\n");
    printf("  emitted-c: the C unit, -std=c99 -O2 and its own flags "
           "(-ffp-contract=off, -fno-builtin-<f>), cc %s\n",
           ccname);
    printf("  hand-c: bench/hand/, the same compiler, -O2 -ffp-contract=off\n");
    printf("%-16s %9s %9s %9s %9s | %7s %9s %9s | %s\n", "kernel", "host-1t",
           "host-2t", "emitted-c", "hand-c", "c/hand", "c/host-1t",
           "c/host-2t", "bytes");
    hk_arena_free(a);
}

int main(int argc, char **argv)
{
    BenchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.samples = 1000000;
    cfg.reps = 5;
    cfg.examples = HAWK_EXAMPLES_DIR;
    cfg.kernels = xmalloc((size_t)argc * sizeof *cfg.kernels);
    if (tool_parse_args(&bench_spec, argc, argv, &cfg) != 0)
        return 1;
    if (cfg.help) {
        tool_print_help(&bench_spec, stdout);
        free(cfg.kernels);
        return 0;
    }
    int rc = 0;
    const BenchKernel **list =
        xmalloc((NKERNELS + (size_t)argc) * sizeof *list);
    size_t nlist = 0;
    for (int i = 0; i < cfg.nkernels; i++) {
        const BenchKernel *bk = find_kernel(cfg.kernels[i]);
        if (bk == NULL) {
            rc = tool_error(BENCH_TOOL, "no benchmark kernel '%s'",
                            cfg.kernels[i]);
            break;
        }
        list[nlist++] = bk;
    }
    if (cfg.nkernels == 0)
        for (size_t k = 0; k < NKERNELS; k++)
            list[nlist++] = &bench_kernels[k];
    if (rc == 0) {
        print_header(&cfg);
        for (size_t k = 0; k < nlist; k++)
            rc |= bench_kernel(&cfg, list[k]);
    }
    free(list);
    free(cfg.kernels);
    return rc;
}
