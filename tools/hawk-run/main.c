/* main.c -- hawk-run: for every kernel of each .hir file, build the host unit
 * in memory and the C unit as a shared object, run both over identical
 * seeded planes (whole range and a partition) and compare every byte.
 * One line per kernel; exit status 1 on any mismatch or error. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "run.h"
#include "tool_io.h"
#include "tool_opts.h"

/* The state of one kernel's comparison. */
typedef struct {
    const RunConfig *cfg;
    HawkContext *ctx;
    HkLowered low;
    HkAbiLayout abi;
    HkHostJit *jit;
    CUnitLib lib;
    Pair pair;
} KernelRun;

/* Prints the diagnostics appended since from; returns 1. */
static int fail_diags(HawkContext *ctx, size_t from)
{
    tool_print_diags(RUN_TOOL, ctx, from);
    return 1;
}

/* The id of the targets table's row the LLVM writer builds (the host
 * unit's name in messages). */
static const char *llvm_row_id(void)
{
    const HkTarget *t = hk_target_written_by(HK_WRITER_LLVM);
    return t != NULL ? t->id : "LLVM";
}

/* Lowers kernel f and builds both units into kr. */
static int build_units(KernelRun *kr, HkModule *m, HkFunc *f)
{
    HawkContext *ctx = kr->ctx;
    size_t from = hawk_diag_count(ctx);
    if (hk_lower(ctx, m, f, NULL, NULL, 0, &kr->low) != 0)
        return fail_diags(ctx, from);
    if (hk_abi_layout(ctx->arena, kr->low.kernel, kr->low.iface, &kr->abi) != 0)
        return tool_error(RUN_TOOL, "'%s': no C layout for its interface",
                          f->name);
    HkHostEntry host;
    if (hk_host_jit(&kr->low, &kr->jit, &host, &ctx->diags) != 0)
        return fail_diags(ctx, from);
    if (cbuild_load(ctx, &kr->low, kr->cfg->cflags, &kr->lib) != 0)
        return fail_diags(ctx, from);
    kr->pair.kernel = f->name;
    kr->pair.c_name = kr->low.profile.target->id;
    kr->pair.host_name = llvm_row_id();
    kr->pair.guarded = kr->low.iface->nguard > 0;
    kr->pair.c_entry = kr->lib.entry;
    kr->pair.host_entry = host;
    return 0;
}

/* Samples of round r when total samples are spread over rounds. */
static int64_t round_samples(int64_t total, int64_t rounds, int64_t r)
{
    return total / rounds + (r < total % rounds ? 1 : 0);
}

/* One launch: fresh planes, uniforms and lengths; round 0 also checks
 * the entry's refusals. */
static int run_round(KernelRun *kr, Rng *rng, int64_t n)
{
    LaunchShape s;
    Launch l;
    launch_shape_init(&s, &kr->abi, n, rng);
    launch_fill(&l, &s, rng);
    int rc = 0;
    if (kr->pair.round == 0)
        rc = compare_entry_checks(&kr->pair, &s, &l);
    if (rc == 0)
        rc = compare_launch(&kr->pair, &s, &l, rng);
    launch_free(&l, &s);
    launch_shape_free(&s);
    return rc;
}

/* Written planes of the layout: what the line's "planes" counts. */
static uint32_t written_planes(const HkAbiLayout *abi)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < abi->nfields; k++)
        n += abi->fields[k].kind == HK_ABI_PLANE && abi->fields[k].written;
    return n;
}

/* What a member holds, for -print-layout. */
static const char *member_kind(const HkAbiField *f)
{
    switch (f->kind) {
    case HK_ABI_PLANE: return "plane";
    case HK_ABI_LEN: return "length";
    case HK_ABI_VALUE: return "value";
    }
    return "?";
}

/* -print-layout: the args struct of kernel f as the runner fills it. */
static int print_layout(HawkContext *ctx, HkModule *m, HkFunc *f)
{
    size_t from = hawk_diag_count(ctx);
    HkLowered low;
    HkAbiLayout abi;
    if (hk_lower(ctx, m, f, NULL, NULL, 0, &low) != 0)
        return fail_diags(ctx, from);
    if (hk_abi_layout(ctx->arena, low.kernel, low.iface, &abi) != 0)
        return tool_error(RUN_TOOL, "'%s': no C layout for its interface",
                          f->name);
    printf("%s_args_t: size %" PRIu64 " align %" PRIu64 "\n", f->name,
           abi.size, abi.align);
    for (uint32_t k = 0; k < abi.nfields; k++) {
        const HkAbiField *a = &abi.fields[k];
        printf("  %s offset %" PRIu64 " size %" PRIu64 " align %" PRIu64
               " %s %s x%" PRIu32 "%s\n",
               a->name, a->offset, a->size, a->align, member_kind(a),
               hk_elem_name(a->elem), a->comps, a->written ? " written" : "");
    }
    return 0;
}

/* Compares kernel f's two units; prints its line.  Returns 0 or 1. */
static int run_kernel(const RunConfig *cfg, HawkContext *ctx, HkModule *m,
                      HkFunc *f)
{
    KernelRun kr;
    memset(&kr, 0, sizeof kr);
    kr.cfg = cfg;
    kr.ctx = ctx;
    uint64_t nan_only = 0;
    kr.pair.exact_nan = cfg->exact_nan;
    kr.pair.nan_only = &nan_only;
    int rc = build_units(&kr, m, f);
    if (rc == 0) {
        Rng rng;
        rng_init(&rng, cfg->seed, f->name);
        int64_t rounds =
            cfg->rounds < cfg->samples ? cfg->rounds : cfg->samples;
        for (int64_t r = 0; r < rounds && rc == 0; r++) {
            kr.pair.round = (unsigned)r;
            rc = run_round(&kr, &rng, round_samples(cfg->samples, rounds, r));
        }
    }
    if (rc == 0) {
        uint32_t p = written_planes(&kr.abi);
        printf("%s: %" PRIu32 " plane%s, %" PRId64 " sample%s: bit-identical",
               f->name, p, p == 1 ? "" : "s", cfg->samples,
               cfg->samples == 1 ? "" : "s");
        if (nan_only > 0)
            printf(" but for the sign or payload of %" PRIu64 " NaN%s",
                   nan_only, nan_only == 1 ? "" : "s");
        printf("\n");
    }
    fflush(stdout);
    cbuild_unload(&kr.lib);
    hk_host_jit_free(kr.jit);
    return rc;
}

/* The name an input is reported by. */
static const char *input_name(const char *input)
{
    return strcmp(input, "-") == 0 ? "<stdin>" : input;
}

/* Runs every kernel of m (or cfg->kernel alone); *seen counts them. */
static int run_module(const RunConfig *cfg, HawkContext *ctx, HkModule *m,
                      const char *input, uint32_t *seen)
{
    int rc = 0;
    uint32_t before = *seen;
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        HkFunc *f = m->funcs[k];
        if (!f->is_kernel ||
            (cfg->kernel != NULL && strcmp(cfg->kernel, f->name) != 0))
            continue;
        (*seen)++;
        rc |= cfg->print_layout ? print_layout(ctx, m, f)
                                : run_kernel(cfg, ctx, m, f);
    }
    if (*seen == before && cfg->kernel == NULL)
        return tool_error(RUN_TOOL, "'%s' holds no kernel", input_name(input));
    return rc;
}

/* Reads, verifies and runs one input in a context of its own. */
static int run_input(const RunConfig *cfg, const char *input, uint32_t *seen)
{
    ToolBuf text = {0};
    if (tool_read_file(RUN_TOOL, input, &text) != 0)
        return 1;
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, input, text.data, text.len);
    int rc;
    if (m == NULL || hawk_verify(ctx, m) != 0)
        rc = fail_diags(ctx, 0);
    else
        rc = run_module(cfg, ctx, m, input, seen);
    hawk_context_destroy(ctx);
    tool_buf_free(&text);
    return rc;
}

/* Every input in order: a failing one does not stop the others. */
static int run_inputs(RunConfig *cfg)
{
    static const char *const stdin_only[] = {"-"};
    const char *const *inputs = cfg->inputs.n ? cfg->inputs.names : stdin_only;
    size_t n = cfg->inputs.n ? cfg->inputs.n : 1;
    uint32_t seen = 0;
    int rc = 0;
    for (size_t k = 0; k < n; k++)
        rc |= run_input(cfg, inputs[k], &seen);
    if (seen == 0 && cfg->kernel != NULL)
        return tool_error(RUN_TOOL, "no kernel named '%s' in %s%s%s",
                          cfg->kernel, n > 1 ? "any of the " : "'",
                          n > 1 ? "inputs" : input_name(inputs[0]),
                          n > 1 ? "" : "'");
    return rc;
}

int main(int argc, char **argv)
{
    RunConfig cfg;
    int rc = run_parse_command_line(&cfg, argc, argv);
    if (rc != 0) {
        /* the error is printed */
    } else if (cfg.help) {
        run_print_help();
    } else if (cfg.version) {
        printf("%s (hawk) %s\n", RUN_TOOL, hawk_version());
    } else {
        if (compare_perturb_armed())
            fprintf(stderr, "%s: note: HAWK_RUN_TEST_PERTURB is set: one "
                            "output bit of each C unit is flipped (a test "
                            "hook)\n",
                    RUN_TOOL);
        rc = run_inputs(&cfg);
    }
    tool_inputs_free(&cfg.inputs);
    return rc;
}
