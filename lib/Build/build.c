/* build.c -- the build door: every kernel of the modules exported through
 * each requested row of the targets table into one directory; the host
 * row's objects linked into shared objects a program can load; then the
 * build's records (records.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildint.h"
#include "context.h"
#include "emit.h"
#include "hawk/emit.h"
#include "hawk/host.h"
#include "host.h"

static const HkLoc noloc = {0, 0};

void hawk_build_options_init(HawkBuildOptions *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->check = 1;
}

int build_row_loadable(const HkTarget *t)
{
    return t->toolchain == HK_TOOLCHAIN_CPU;
}

const char *build_shared_name(HkArena *a, const HkTarget *t,
                              const char *name)
{
    /* the object's suffix with .o made .so: drag.host.o -> drag.host.so */
    size_t n = strlen(t->artifact);
    if (n >= 2 && strcmp(t->artifact + n - 2, ".o") == 0)
        return hk_asprintf(a, "%s%.*s.so", name, (int)(n - 2), t->artifact);
    return hk_asprintf(a, "%s%s.so", name, t->artifact);
}

/* The rows opts names, each once, in the table's order; 0, or -1 with a
 * diagnostic. */
static int pick_rows(HawkContext *ctx, const HawkBuildOptions *opts,
                     BuildRecord *r)
{
    r->rows = hk_alloc(ctx->arena, (hk_ntargets + 1u) * sizeof *r->rows);
    r->nrows = 0;
    if (opts->targets == NULL) {  /* every row */
        for (unsigned i = 0; i < hk_ntargets; i++)
            r->rows[r->nrows++] = &hk_targets[i];
        return 0;
    }
    const char *const *ids = opts->targets;
    size_t n = opts->ntargets;
    if (n == 0) {
        hk_error(&ctx->diags, NULL, noloc, "a build needs at least one target");
        return -1;
    }
    uint8_t *want = hk_alloc(ctx->arena, hk_ntargets + 1u);
    memset(want, 0, hk_ntargets + 1u);
    for (size_t k = 0; k < n; k++) {
        const HkTarget *t = hk_target_lookup(ids[k]);
        if (t == NULL) {
            hk_error(&ctx->diags, NULL, noloc,
                     "unknown target '%s'; the targets: %s", ids[k],
                     hk_target_ids());
            return -1;
        }
        unsigned i = (unsigned)(t - hk_targets);
        if (want[i]) {
            hk_error(&ctx->diags, NULL, noloc,
                     "target '%s' is named twice", ids[k]);
            return -1;
        }
        want[i] = 1;
    }
    for (unsigned i = 0; i < hk_ntargets; i++)
        if (want[i])
            r->rows[r->nrows++] = &hk_targets[i];
    return 0;
}

/* The profile's repr, read from the options alone (the key needs no
 * kernel lowered); 0, or -1 with a diagnostic naming a bad option. */
static int read_profile(HawkContext *ctx, const HawkBuildOptions *opts,
                        BuildRecord *r)
{
    HkProfile p;
    if (r->nms == 0)
        return 0;
    if (hk_lower_options(ctx, r->ms[0], opts->opt_keys, opts->opt_vals,
                         (uint32_t)opts->nopts, &p) == NULL)
        return -1;
    r->profile = hk_profile_repr(ctx->arena, &p);
    return 0;
}

/* Lowers every kernel of the modules under the profile (for the records:
 * the args layout; and so a refusal stops the build before a file is
 * written); 0, or -1 with diagnostics. */
static int lower_kernels(HawkContext *ctx, const HawkBuildOptions *opts,
                         BuildRecord *r)
{
    size_t cap = 0;
    for (size_t k = 0; k < r->nms; k++)
        cap += r->ms[k]->nfuncs;
    r->kernels = hk_alloc(ctx->arena, (cap + 1u) * sizeof *r->kernels);
    r->nkernels = 0;
    for (size_t k = 0; k < r->nms; k++) {
        HkModule *m = r->ms[k];
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            if (!m->funcs[i]->is_kernel)
                continue;
            BuildKernel *b = &r->kernels[r->nkernels++];
            b->m = m;
            b->f = m->funcs[i];
            if (hk_lower(ctx, m, b->f, opts->opt_keys, opts->opt_vals,
                         (uint32_t)opts->nopts, &b->low) != 0)
                return -1;
            if (hk_abi_layout(ctx->arena, b->low.kernel, b->low.iface,
                              &b->abi) != 0) {
                hk_error(&ctx->diags, &m->src, b->f->loc,
                         "'%s': no C layout for its interface", b->f->name);
                return -1;
            }
        }
    }
    return 0;
}

/* Exports every kernel through row t into dir; a row without a runtime
 * unit writes only the kernels keep answers 1 for (NULL: all). */
static int export_row(HawkContext *ctx, const HawkBuildOptions *opts,
                      const BuildRecord *r, const HkTarget *t,
                      const char *dir, HkExportKeep keep, void *ud)
{
    HawkExportOptions o;
    hawk_export_options_init(&o);
    o.target = t->id;
    o.out_dir = dir;
    o.opt_keys = opts->opt_keys;
    o.opt_vals = opts->opt_vals;
    o.nopts = opts->nopts;
    o.check = opts->check;
    o.checker = hk_driver_checker_cached(ctx->arena, opts->cache_dir);
    o.llvm_writer = hk_host_writer();
    o.oracle = hawk_host_oracle();
    return hk_export_modules_keeping(ctx, r->ms, r->nms, &o, keep, ud);
}

/* Links kernel name's object of row t into its shared object with cc,
 * run in dir (the build's own staging directory, so the command names
 * no temporary path), through a temporary file and a rename; 0, or -1
 * with a diagnostic. */
static int link_shared(HawkContext *ctx, const char *dir, const HkTool *cc,
                       const HkTarget *t, const BuildKernel *b)
{
    HkArena *a = ctx->arena;
    const char *name = b->f->name;
    const char *obj = hk_asprintf(a, "%s%s", name, t->artifact);
    const char *so_name = build_shared_name(a, t, name);
    const char *tmp_name = hk_asprintf(a, "%s.tmp", so_name);
    const char *so = hk_path_join(a, dir, so_name);
    const char *tmp = hk_path_join(a, dir, tmp_name);
    const char *argv[] = {cc->path, "-shared", "-o", tmp_name, obj, "-lm", NULL};
    HkRunResult res = hk_run_in(a, dir, argv);
    if (!res.started || !res.exited || res.status != 0) {
        hk_error(&ctx->diags, &b->m->src, b->f->loc,
                 "'%s': linking its shared object failed: %s\n%s", name,
                 hk_command_text(a, argv),
                 hk_run_output_trimmed(a, res.output));
        unlink(tmp);
        return -1;
    }
    if (hk_rename(tmp, so) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot write '%s': %s", so,
                 strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* A loadable row's kernels, each with its key and whether its files came
 * from the cache. */
typedef struct {
    BuildRecord *r;
    const char **keys;        /* by kernel; NULL without a cache */
    uint8_t *restored;        /* by kernel */
} RowKernels;

/* Whether the export writes kernel k: not when its files came from the
 * cache.  The export picks the build's kernels, every one, in the order
 * lower_kernels took them (module order), so k is the build's index. */
static int keep_kernel(void *ud, uint32_t k, const HkFunc *f)
{
    const RowKernels *rk = ud;
    (void)f;
    return !rk->restored[k];
}

/* The files of kernel b in row t: its object and its shared object. */
static void kernel_files(HkArena *a, const HkTarget *t, const BuildKernel *b,
                         const char *files[2])
{
    files[0] = hk_asprintf(a, "%s%s", b->f->name, t->artifact);
    files[1] = build_shared_name(a, t, b->f->name);
}

/* Restores into dir each kernel of row t whose own entry in the cache's
 * kernels/ is sound (and, unless trust, written by this user alone); 0,
 * or -1 after a diagnostic. */
static int restore_kernels(HawkContext *ctx, const char *kcache, int trust,
                           const HkTarget *t, RowKernels *rk, const char *dir)
{
    BuildRecord *r = rk->r;
    for (size_t i = 0; i < r->nkernels; i++) {
        const char *terms, *why;
        rk->keys[i] = build_kernel_key(r, t, &r->kernels[i], &terms);
        int hit = build_cache_restore(ctx, kcache, rk->keys[i], dir,
                                      trust, &why);
        if (hit < 0)
            return -1;
        rk->restored[i] = (uint8_t)hit;
        r->kernels_restored += (size_t)hit;
    }
    return 0;
}

/* Row t, which a program loads: its objects, and each one linked into a
 * shared object.  With a cache, a kernel whose own entry is sound comes
 * from it (key: kernelkey.c), and every kernel made is stored, so a
 * build that changed one kernel of N makes one. */
static int build_loadable_row(HawkContext *ctx, const HawkBuildOptions *opts,
                              BuildRecord *r, const HkTarget *t,
                              const char *dir)
{
    HkArena *a = ctx->arena;
    if (!r->cc_found) {
        hk_error(&ctx->diags, NULL, noloc,
                 "the %s target's shared objects need a C compiler to "
                 "link them: %s",
                 t->display, r->cc_why);
        return -1;
    }
    r->cc = &r->cc_tool;
    RowKernels rk = {r, NULL, hk_alloc(a, r->nkernels + 1u)};
    memset(rk.restored, 0, r->nkernels + 1u);
    const char *kcache = NULL;
    if (opts->cache_dir != NULL) {
        kcache = hk_path_join(a, opts->cache_dir, "kernels");
        rk.keys = hk_alloc(a, (r->nkernels + 1u) * sizeof *rk.keys);
        if (restore_kernels(ctx, kcache, opts->trust_cache, t, &rk, dir) != 0)
            return -1;
    }
    if (export_row(ctx, opts, r, t, dir, keep_kernel, &rk) != 0)
        return -1;
    for (size_t i = 0; i < r->nkernels; i++) {
        if (rk.restored[i])
            continue;
        const char *files[2];
        kernel_files(a, t, &r->kernels[i], files);
        if (link_shared(ctx, dir, r->cc, t, &r->kernels[i]) != 0 ||
            (kcache != NULL &&
             build_cache_store(ctx, kcache, rk.keys[i], dir, files, 2,
                               opts->trust_cache) != 0))
            return -1;
        r->kernels_built++;
    }
    return 0;
}

/* Whether any row of the build is loadable. */
static int any_loadable(const BuildRecord *r)
{
    for (size_t k = 0; k < r->nrows; k++)
        if (build_row_loadable(r->rows[k]))
            return 1;
    return 0;
}

/* Writes text to dir/name whole; 0, or -1 with a diagnostic. */
static int write_record(HawkContext *ctx, const char *dir, const char *name,
                        const char *text)
{
    const char *why;
    if (hk_write_whole(ctx->arena, hk_path_join(ctx->arena, dir, name), text,
                       strlen(text), &why) == 0)
        return 0;
    hk_error(&ctx->diags, NULL, noloc, "%s", why);
    return -1;
}

/* The manifest, when a row is loadable. */
static int write_manifest(HawkContext *ctx, const char *dir,
                          const BuildRecord *r)
{
    return any_loadable(r) ? write_record(ctx, dir, "hawk.manifest.json",
                                          build_manifest_text(r))
                           : 0;
}

/* A build with no loadable row has no manifest: a stale one an earlier
 * build left in dir goes. */
static int drop_stale_manifest(HawkContext *ctx, const char *dir,
                               const BuildRecord *r)
{
    if (any_loadable(r))
        return 0;
    const char *path = hk_path_join(ctx->arena, dir, "hawk.manifest.json");
    if (unlink(path) != 0 && errno != ENOENT) {
        hk_error(&ctx->diags, NULL, noloc, "cannot remove '%s': %s", path,
                 strerror(errno));
        return -1;
    }
    return 0;
}

/* The rows, the shared objects and the records, into dir. */
static int build_into(HawkContext *ctx, const HawkBuildOptions *opts,
                      BuildRecord *r, const char *dir)
{
    for (size_t k = 0; k < r->nrows; k++) {
        const HkTarget *t = r->rows[k];
        if (build_row_loadable(t) ? build_loadable_row(ctx, opts, r, t, dir)
                                  : export_row(ctx, opts, r, t, dir, NULL, NULL))
            return -1;
    }
    if (write_manifest(ctx, dir, r) != 0)
        return -1;
    return write_record(ctx, dir, "hawk.build.json", build_stamp_text(r));
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

typedef struct {
    HkArena *a;
    const char **v;
    uint32_t n, cap;
} Names;

static void add_name(void *ud, const char *name)
{
    Names *l = ud;
    if (name[0] == '.')
        return;
    l->v = hk_grow(l->a, l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = hk_strdup(l->a, name);
}

/* The files of dir, sorted, into *names; their number, or -1. */
static long list_files(HkArena *a, const char *dir, const char ***names)
{
    Names l = {a, NULL, 0, 0};
    if (build_each_entry(a, dir, add_name, &l) != 0)
        return -1;
    if (l.n > 0)  /* qsort of no array is undefined */
        qsort(l.v, l.n, sizeof *l.v, cmp_name);
    *names = l.v;
    return (long)l.n;
}

typedef struct {
    HawkContext *ctx;
    const HawkBuildOptions *opts;
    BuildRecord *r;
    BuildStage *stage;
    const char *dir;
    const HawkBuildResult *res;
    int rc;
} Staged;

static void build_in_stage(void *ud)
{
    Staged *s = ud;
    HawkContext *ctx = s->ctx;
    const char *stage = s->stage->path;
    const char **names = NULL;
    long n = 0;
    int rc = build_into(ctx, s->opts, s->r, stage);
    if (rc == 0 && (n = list_files(ctx->arena, stage, &names)) < 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot read directory '%s': %s",
                 stage, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && s->opts->cache_dir != NULL)
        rc = build_cache_store(ctx, s->opts->cache_dir, s->res->key, stage,
                               names, (size_t)n, s->opts->trust_cache);
    if (rc == 0)
        rc = build_move_files(ctx, stage, s->dir, names, (size_t)n);
    s->rc = rc;
}

/* Builds into a stage inside dir, stores the stage's files in the cache
 * (what this build wrote, whatever another process does in dir), then
 * moves them into dir; the stage goes however the build ends, memory
 * running out included. */
static int build_staged(HawkContext *ctx, const HawkBuildOptions *opts,
                        BuildRecord *r, const char *dir,
                        const HawkBuildResult *res)
{
    BuildStage stage;
    if (build_stage_make(ctx, dir, BUILD_STAGE_PREFIX, &stage) != 0)
        return -1;
    Staged s = {ctx, opts, r, &stage, dir, res, 0};
    build_stage_protect(ctx->arena, &stage, build_in_stage, &s);
    build_stage_drop(&stage);
    return s.rc;
}

/* Whether the cache may not be used: it is there, and another user
 * owns it or may write it (unless the caller trusts it), so an entry in
 * it could be anyone's code; after a diagnostic.  One hawk makes is the
 * user's alone (hk_cache_make_dirs). */
static int cache_refused(HawkContext *ctx, const HawkBuildOptions *opts)
{
    /* a cache this build makes is made the user's alone before any entry
     * goes into it (a failure is the store's to report) */
    if (access(opts->cache_dir, F_OK) != 0) {
        (void)hk_cache_make_dirs(ctx->arena, opts->cache_dir, NULL, NULL);
        return 0;
    }
    if (opts->trust_cache)
        return 0;
    const char *why = hk_cache_untrusted(ctx->arena, opts->cache_dir, 1);
    if (why == NULL)
        return 0;
    hk_error(&ctx->diags, NULL, noloc,
             "cannot use the cache '%s': it is %s, and what it holds could be "
             "another user's code unless you alone can write it (make it so, "
             "or use it as it is with -trust-cache)",
             opts->cache_dir, why);
    return 1;
}

static int build(BuildRecord *r, const HawkBuildOptions *opts)
{
    HawkContext *ctx = r->ctx;
    HawkBuildResult scratch;
    HawkBuildResult *res = opts->result != NULL ? opts->result : &scratch;
    memset(res, 0, sizeof *res);
    const char *dir = opts->out_dir != NULL ? opts->out_dir : ".";
    if (pick_rows(ctx, opts, r) != 0 || read_profile(ctx, opts, r) != 0)
        return -1;
    build_key(r, opts, &res->key, &res->terms);
    if (opts->key_only)
        return 0;
    /* Every kernel is lowered, hit or miss: its warnings are given again
     * (a hit gives what the build that filled the entry gave, under this
     * build's -w or -Werror), and a refusal stops the build before a
     * file is written.  A hit then writes its files without compiling. */
    if (lower_kernels(ctx, opts, r) != 0)
        return -1;
    if (opts->cache_dir != NULL) {
        if (cache_refused(ctx, opts))
            return -1;
        int hit = build_cache_restore(ctx, opts->cache_dir, res->key, dir,
                                      opts->trust_cache, &res->why_missed);
        if (hit != 0) {
            res->cache = HAWK_BUILD_CACHE_HIT;
            return hit > 0 ? drop_stale_manifest(ctx, dir, r) : -1;
        }
        res->cache = HAWK_BUILD_CACHE_MISS;
    }
    const char *failed;
    if (hk_make_dirs(ctx->arena, dir, &failed) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 failed, strerror(errno));
        return -1;
    }
    int rc = build_staged(ctx, opts, r, dir, res);
    res->kernels_restored = r->kernels_restored;
    res->kernels_built = r->kernels_built;
    return rc != 0 ? -1 : drop_stale_manifest(ctx, dir, r);
}

typedef struct {
    BuildRecord r;
    const HawkBuildOptions *opts;
    int status;
} BuildCall;

static void build_call(void *ud)
{
    BuildCall *c = ud;
    c->status = build(&c->r, c->opts);
}

int hawk_build(HawkContext *ctx, HawkModule *const *ms, size_t nms,
               const HawkBuildOptions *opts)
{
    BuildCall c;
    memset(&c, 0, sizeof c);
    c.r.ctx = ctx;
    c.r.ms = ms;
    c.r.nms = nms;
    c.opts = opts;
    if (hk_ctx_protect(ctx, build_call, &c) == 0)
        return c.status;
    return -1;  /* memory ran out: each stage went as it unwound */
}
