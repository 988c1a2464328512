/* runner.c -- one kernel end to end: lowered once, its host unit built in
 * memory (the LLVM-written row), its C unit built into a shared object,
 * both run over the same seeded launches (whole range and a partition)
 * and every plane compared byte for byte. */
#include <inttypes.h>
#include <string.h>

#include "hawk/rt.h"
#include "runnerint.h"
#if HAWK_HAVE_LLVM
#include "host.h"
#endif

/* The state of one kernel's comparison. */
typedef struct {
    const RunnerOptions *o;
    HawkContext *ctx;
    HkLowered low;
    HkAbiLayout abi;
    void *jit;                /* the host unit's JIT (HkHostJit), or NULL */
    CUnitLib lib;
    HawkRt *rt;               /* -build: the loaded build, or NULL */
    Pair pair;
} KernelRun;

/* The id of the targets table's row the LLVM writer builds (the host
 * unit's name in messages). */
static const char *llvm_row_id(void)
{
    const HkTarget *t = hk_target_written_by(HK_WRITER_LLVM);
    return t != NULL ? t->id : "LLVM";
}

int runner_lower_layout(HawkContext *ctx, HkModule *m, HkFunc *f,
                        const char *math, HkLowered *low, HkAbiLayout *abi)
{
    static const HkLoc noloc = {0, 0};
    const char *keys[] = {"math"};
    const char *vals[] = {math};
    if (hk_lower(ctx, m, f, keys, vals, math != NULL ? 1u : 0u, low) != 0)
        return 1;
    if (hk_abi_layout(ctx->arena, low->kernel, low->iface, abi) == 0)
        return 0;
    hk_error(&ctx->diags, NULL, noloc, "'%s': no C layout for its interface",
             f->name);
    return 1;
}

const char *runner_layout_text(HawkContext *ctx, HawkModule *m,
                               HawkFunction *f)
{
    HkLowered low;
    HkAbiLayout abi;
    if (runner_lower_layout(ctx, m, f, NULL, &low, &abi) != 0)
        return NULL;
    HkBuf b;
    hk_buf_init(&b, ctx->arena);
    hk_buf_printf(&b, "%s_args_t: size %" PRIu64 " align %" PRIu64 "\n",
                  f->name, abi.size, abi.align);
    for (uint32_t k = 0; k < abi.nfields; k++) {
        const HkAbiField *a = &abi.fields[k];
        hk_buf_printf(&b, "  %s offset %" PRIu64 " size %" PRIu64
                          " align %" PRIu64 " %s %s x%" PRIu32 "%s\n",
                      a->name, a->offset, a->size, a->align,
                      hk_abi_kind_name(a->kind),
                      hk_elem_name(a->elem), a->comps,
                      a->written ? " written" : "");
    }
    return hk_buf_cstr(&b);
}

/* The host unit of kernel f from the build in o->build_dir (libhawk-rt),
 * when the build was made from this kernel (its walk digest) and lays its
 * args struct out as this lowering does; 0, or 1 with a diagnostic. */
static int built_host(KernelRun *kr, HkModule *m, HkFunc *f,
                      UnitEntry *host)
{
    HawkContext *ctx = kr->ctx;
    static const HkLoc noloc = {0, 0};
    if (kr->rt == NULL) {
        HawkRtError err;
        char why[512];
        kr->rt = hawk_load(kr->o->build_dir, &err, why, sizeof why);
        if (kr->rt == NULL) {
            hk_error(&ctx->diags, NULL, noloc, "%s", why);
            return 1;
        }
    }
    const HawkRtKernel *k = hawk_rt_find(kr->rt, f->name);
    const char *why = NULL;
    if (k == NULL)
        why = "it has no such kernel";
    else if (strcmp(hawk_rt_walk_digest(k), kr->low.walk_digest) != 0)
        why = "it was built from another text of the kernel (walk digest)";
    else if (hawk_rt_args_size(k) != kr->abi.size)
        why = "its args struct has another size";
    for (uint32_t i = 0; why == NULL && k != NULL && i < kr->abi.nfields; i++)
        if (hawk_rt_field_offset(k, kr->abi.fields[i].name) !=
                (long)kr->abi.fields[i].offset ||
            hawk_rt_field_size(k, kr->abi.fields[i].name) !=
                kr->abi.fields[i].size)
            why = hk_asprintf(ctx->arena, "its member '%s' lies elsewhere or has "
                              "another size",
                              kr->abi.fields[i].name);
    if (why != NULL) {
        hk_error(&ctx->diags, &m->src, f->loc,
                 "'%s': the build in '%s' does not serve it: %s", f->name,
                 kr->o->build_dir, why);
        return 1;
    }
    *host = hawk_rt_entry(k);
    return 0;
}

/* The host unit built in memory through LLVM; 0, or 1 with a
 * diagnostic (one naming the configuration in a build without LLVM). */
static int jit_host(KernelRun *kr, HkFunc *f, UnitEntry *host)
{
#if HAWK_HAVE_LLVM
    (void)f;
    HkHostJit *jit = NULL;
    HkHostEntry entry = NULL;
    int rc = hk_host_jit(&kr->low, &jit, &entry, &kr->ctx->diags);
    kr->jit = jit;
    *host = entry;
    return rc != 0;
#else
    (void)host;
    hk_error(&kr->ctx->diags, &f->module->src, f->loc,
             "'%s': -oracle=%s compares with the host build, and this "
             "hawk-run is built without LLVM (HAWK_LLVM=OFF): give -build=DIR "
             "(a hawk-build's host build) or -oracle=interp", f->name,
             kr->o->oracle == RUNNER_ORACLE_LLVM ? "llvm" : "all");
    return 1;
#endif
}

static void jit_free(KernelRun *kr)
{
#if HAWK_HAVE_LLVM
    hk_host_jit_free(kr->jit);
#else
    (void)kr;
#endif
}

/* RunnerOptions.oracle with its default resolved. */
static int oracle_of(const RunnerOptions *o)
{
    if (o->oracle != RUNNER_ORACLE_DEFAULT)
        return o->oracle;
    return HAWK_HAVE_LLVM || o->build_dir != NULL ? RUNNER_ORACLE_ALL
                                                  : RUNNER_ORACLE_INTERP;
}

/* Lowers kernel f and builds both units into kr. */
static int build_units(KernelRun *kr, HkModule *m, HkFunc *f)
{
    HawkContext *ctx = kr->ctx;
    int oracle = oracle_of(kr->o);
    if (runner_lower_layout(ctx, m, f, kr->o->math, &kr->low, &kr->abi) != 0)
        return 1;
    UnitEntry host = NULL;
    if (oracle != RUNNER_ORACLE_LLVM) {
        HkInterp *ip = hk_interp_new(ctx->arena, ctx, &kr->low, &ctx->diags);
        if (ip == NULL)
            return 1;
        *(oracle == RUNNER_ORACLE_INTERP ? &kr->pair.interp
                                         : &kr->pair.third) = ip;
    }
    if (kr->pair.interp != NULL) {
    } else if (kr->o->build_dir != NULL ? built_host(kr, m, f, &host) != 0
                                        : jit_host(kr, f, &host) != 0) {
        return 1;
    }
    const char *row = kr->low.profile.target->id;
    if (kr->o->cc != NULL || kr->o->exec != NULL) {
        /* processor in the loop: the unit runs in a harness program */
        const char *cc = kr->o->cc != NULL ? kr->o->cc : "cc";
        if (pil_build(ctx, &kr->low, &kr->abi, cc, kr->o->exec,
                      kr->o->cflags, &kr->pair.c_pil) != 0)
            return 1;
        kr->pair.c_name = hk_asprintf(
            ctx->arena, "%s (%s%s%s)", row, cc,
            kr->o->exec != NULL ? " under " : "",
            kr->o->exec != NULL ? kr->o->exec : "");
    } else {
        if (cbuild_load(ctx, &kr->low, kr->o->cflags, &kr->lib) != 0)
            return 1;
        kr->pair.c_entry = kr->lib.entry;
        kr->pair.c_name = row;
    }
    kr->pair.kernel = f->name;
    kr->pair.out = kr->o->out;
    kr->pair.host_name = kr->pair.interp != NULL ? INTERP_NAME
                         : kr->o->build_dir != NULL
                             ? hk_asprintf(ctx->arena, "%s (%s)", llvm_row_id(),
                                           kr->o->build_dir)
                             : llvm_row_id();
    kr->pair.guarded = kr->low.iface->nguard > 0;
    kr->pair.host_entry = host;
    kr->pair.sample_max = hk_plane_sample_bound(&kr->abi).max;
    return 0;
}

/* Samples of round r when total samples are spread over rounds. */
static int64_t round_samples(int64_t total, int64_t rounds, int64_t r)
{
    return total / rounds + (r < total % rounds ? 1 : 0);
}

/* One launch: fresh planes, uniforms and lengths; round 0 also checks
 * the entry's refusals. */
static int run_round(KernelRun *kr, HkRng *rng, int64_t n)
{
    HkLaunchShape s;
    HkLaunch l;
    hk_launch_shape_init(&s, &kr->abi, n, rng);
    hk_launch_fill(&l, &s, rng);
    if (kr->pair.c_pil != NULL)
        pil_set_shape(kr->pair.c_pil, &s);
    int rc = 0;
    if (kr->pair.round == 0)
        rc = compare_entry_checks(&kr->pair, &s, &l);
    if (rc == 0)
        rc = compare_launch(&kr->pair, &s, &l, rng);
    hk_launch_free(&l, &s);
    hk_launch_shape_free(&s);
    return rc;
}

/* Written planes of the layout: what a run's "planes" counts. */
static uint32_t written_planes(const HkAbiLayout *abi)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < abi->nfields; k++)
        n += abi->fields[k].kind == HK_ABI_PLANE && abi->fields[k].written;
    return n;
}

int runner_kernel(HawkContext *ctx, HkModule *m, HkFunc *f,
                  const RunnerOptions *o, RunnerResult *res)
{
    KernelRun kr;
    memset(&kr, 0, sizeof kr);
    memset(res, 0, sizeof *res);
    kr.o = o;
    kr.ctx = ctx;
    kr.pair.exact_nan = o->exact_nan;
    kr.pair.nan_only = &res->nan_only;
    int rc = build_units(&kr, m, f);
    if (rc == 0) {
        HkRng rng;
        hk_rng_init(&rng, o->seed, f->name);
        int64_t rounds = o->rounds < o->samples ? o->rounds : o->samples;
        for (int64_t r = 0; r < rounds && rc == 0; r++) {
            kr.pair.round = (unsigned)r;
            rc = run_round(&kr, &rng, round_samples(o->samples, rounds, r));
        }
        res->planes = written_planes(&kr.abi);
    }
    cbuild_unload(&kr.lib);
    pil_unload(kr.pair.c_pil);
    jit_free(&kr);
    hawk_unload(kr.rt);
    return rc;
}
