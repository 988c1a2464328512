/* export.c -- hawk_export: the export of a module's kernels through a row of
 * the targets table (docs/EmbeddedC.md, "The export").
 *
 * Two phases.  First every selected kernel is lowered, written (.c and .h
 * texts) and audited in memory; a refusal or an audit hit in any of them
 * stops the export before a file exists, so a module exports whole or not
 * at all.  Then, kernel by kernel, the .c and .h are written whole, the
 * toolchain checks run in the output directory, and the report is written
 * whole only after they pass.  Nothing recorded depends on the output
 * directory, the time or a temporary path, so exporting again (anywhere)
 * writes the same bytes.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hawk/emit.h"

#include "checks.h"
#include "passctx.h"
#include "cunit.h"
#include "emit.h"
#include "report.h"

static const HkLoc noloc = {0, 0, 0};

/* One kernel on its way out. */
typedef struct {
    HkFunc *kernel;           /* in the caller's module */
    HkLowered low;
    HkCUnit unit;
    HkBuiltUnit built;        /* a row built outside libhawk */
    HawkExportUnit pub;
} Job;

/* What every job of one export shares. */
typedef struct {
    HawkContext *ctx;
    HkModule *m;
    const HawkExportOptions *opts;
    const HkTarget *target;
    const char *dir;
    const char **keys, **vals;   /* the profile, target=<row id> last */
    uint32_t nopts;
} Export;

void hawk_export_options_init(HawkExportOptions *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->check = 1;
}

/* Wall-clock seconds, for the split between hawk's work and the checks. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- what to export ---------------------------------------------------------- */

/* "c": the ids of the rows the export handles, in table order. */
static const char *exported_ids(HkArena *a)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (unsigned i = 0; i < hk_ntargets; i++)
        if (hk_targets[i].toolchain == HK_TOOLCHAIN_NONE &&
            hk_targets[i].writer_kind == HK_WRITER_C)
            hk_buf_printf(&b, "%s%s", b.len ? ", " : "", hk_targets[i].id);
    return b.len ? hk_buf_cstr(&b) : "none";
}

/* The row of id (the default row for NULL).  An unknown id, or a row that
 * is built rather than exported, is an error; a row whose writer lives
 * outside libhawk is exported when the caller hands that writer in. */
static const HkTarget *pick_target(HawkContext *ctx, const char *id,
                                   const HawkExportOptions *opts)
{
    const HkTarget *t = id == NULL ? hk_target_default() : hk_target_lookup(id);
    if (t == NULL) {
        hk_error(&ctx->diags, NULL, noloc,
                 "unknown target '%s'; valid targets: %s", id, hk_target_ids());
        return NULL;
    }
    if (opts->emit_llvm && t->writer_kind != HK_WRITER_LLVM) {
        hk_error(&ctx->diags, NULL, noloc,
                 "target '%s' writes no LLVM IR (its writer is the %s)", t->id,
                 t->writer);
        return NULL;
    }
    if (t->writer_kind == HK_WRITER_LLVM) {
        if (opts->llvm_writer != NULL)
            return t;
        hk_error(&ctx->diags, NULL, noloc,
                 "target '%s' is written by the %s, which this program does "
                 "not link (hawk-llvm)", t->id, t->writer);
        return NULL;
    }
    /* The row says what it is: the export handles a row that is exported
     * (no toolchain) through the C writer, whatever its id. */
    if (t->toolchain != HK_TOOLCHAIN_NONE || t->writer_kind != HK_WRITER_C) {
        hk_error(&ctx->diags, NULL, noloc,
                 "target '%s' is not exported as C (it %s); valid targets "
                 "for the export: %s",
                 t->id, t->about, exported_ids(ctx->arena));
        return NULL;
    }
    return t;
}

/* "drag, kepler": the kernels of m in module order, or "none". */
static const char *kernel_names(HkArena *a, const HkModule *m)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->is_kernel)
            hk_buf_printf(&b, "%s%s", b.len ? ", " : "", m->funcs[i]->name);
    return b.len ? hk_buf_cstr(&b) : "none";
}

/* The jobs: the kernel named name, or every kernel in module order.
 * NULL after a diagnostic (an unknown name, a module without kernels). */
static Job *pick_kernels(Export *x, const char *name, uint32_t *n)
{
    HkModule *m = x->m;
    HkArena *a = x->ctx->arena;
    Job *jobs = hk_alloc(a, (m->nfuncs ? m->nfuncs : 1) * sizeof *jobs);
    *n = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->is_kernel &&
            (name == NULL || strcmp(m->funcs[i]->name, name) == 0))
            jobs[(*n)++].kernel = m->funcs[i];
    if (*n > 0)
        return jobs;
    if (name != NULL)
        hk_error(&x->ctx->diags, NULL, noloc,
                 "unknown kernel '%s'; kernels in '%s': %s", name,
                 m->src.name, kernel_names(a, m));
    else
        hk_error(&x->ctx->diags, NULL, noloc, "'%s' has no kernel to export",
                 m->src.name);
    return NULL;
}

/* The profile options, with target=<row id> appended so the lowering's
 * profile names the row (a later key wins over an earlier one). */
static void profile_options(Export *x)
{
    const HawkExportOptions *o = x->opts;
    size_t n = o->nopts + 1;
    x->keys = hk_alloc(x->ctx->arena, n * sizeof *x->keys);
    x->vals = hk_alloc(x->ctx->arena, n * sizeof *x->vals);
    for (size_t i = 0; i < o->nopts; i++) {
        x->keys[i] = o->opt_keys[i];
        x->vals[i] = o->opt_vals[i];
    }
    x->keys[o->nopts] = "target";
    x->vals[o->nopts] = x->target->id;
    x->nopts = (uint32_t)n;
}

/* Reads the profile once, so a bad option is reported once rather than by
 * every kernel's lowering; 0, or -1 with the diagnostic. */
static int check_profile(Export *x)
{
    HkProfile p;
    return hk_lower_options(x->ctx, x->m, x->keys, x->vals, x->nopts, &p)
               != NULL ? 0 : -1;
}

/* ---- phase 1: lower, write the texts, audit ------------------------------ */

/* Every audit hit as a refusal at the kernel, in hk_refuse's words:
 *   '<kernel>': the C target refuses line <N> under audit.<kind>: <text> */
static int audit(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    HkAuditHits hits;
    memset(&hits, 0, sizeof hits);
    if (hk_audit_unit(a, j->pub.c_name, j->unit.c_text, j->pub.h_name,
                      j->unit.h_text, &hits) == 0)
        return 0;
    for (uint32_t k = 0; k < hits.n; k++) {
        const HkAuditHit *h = &hits.hits[k];
        const char *kind = hk_audit_names[h->kind];
        HkDiag *d = hk_error(&x->ctx->diags, &x->m->src, j->kernel->loc,
                             "'%s': the %s target refuses line %u under "
                             "audit.%s: %s",
                             j->kernel->name, x->target->display, h->line,
                             kind, h->text);
        d->rule = hk_asprintf(a, "audit.%s", kind);
        d->pos = "kernel";
    }
    return -1;
}

/* Names j's files after its kernel and the row's suffixes: the source
 * (c_name) and the artifact (h_name). */
static void name_files(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    const char *name = j->kernel->name;
    j->pub.kernel = name;
    j->pub.c_name = hk_asprintf(a, "%s%s", name, x->target->source);
    j->pub.h_name = hk_asprintf(a, "%s%s", name, x->target->artifact);
}

/* A row built by the LLVMWriter: the object, and the IR when it is
 * written or printed (c_name/c_text carry the IR, h_name the object). */
static int render_built(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    name_files(x, j);
    int want_ir = x->opts->emit_llvm || x->opts->print_only;
    if (hk_lower(x->ctx, x->m, j->kernel, x->keys, x->vals, x->nopts,
                 &j->low) != 0 ||
        x->opts->llvm_writer->write(a, &j->low, want_ir, &j->built,
                                    &x->ctx->diags) != 0)
        return -1;
    j->pub.c_text = j->built.ir;
    j->pub.hawk_seconds = now() - t0;
    return 0;
}

/* Lowers j's kernel and writes its texts; 0, or -1 after diagnostics. */
static int render(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    name_files(x, j);
    j->pub.report_name = hk_asprintf(a, "%s.embedded.json", j->kernel->name);
    if (hk_lower(x->ctx, x->m, j->kernel, x->keys, x->vals, x->nopts,
                 &j->low) != 0 ||
        hk_cwriter(a, &j->low, &j->unit, &x->ctx->diags) != 0)
        return -1;
    hk_cheader(a, &j->low, &j->unit);
    j->pub.c_text = j->unit.c_text;
    j->pub.h_text = j->unit.h_text;
    int rc = audit(x, j);
    j->pub.hawk_seconds = now() - t0;
    return rc;
}

/* ---- phase 2: files, checks, report ------------------------------------- */

/* dir/name, without doubling a trailing '/'. */
static const char *in_dir(HkArena *a, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return hk_asprintf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
                       name);
}

/* mkdir -p dir; 0, or -1 with a diagnostic. */
static int make_dirs(HawkContext *ctx, const char *dir)
{
    char *p = hk_strdup(ctx->arena, dir);
    for (char *s = p + 1;; s++) {
        char c = *s;
        if (c != '/' && c != '\0')
            continue;
        *s = '\0';
        struct stat st;
        if (stat(p, &st) != 0 && mkdir(p, 0777) != 0 && errno != EEXIST) {
            hk_error(&ctx->diags, NULL, noloc,
                     "cannot create directory '%s': %s", p, strerror(errno));
            return -1;
        }
        *s = c;
        if (c == '\0')
            break;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        hk_error(&ctx->diags, NULL, noloc, "'%s' is not a directory", dir);
        return -1;
    }
    return 0;
}

/* Writes text to dir/name whole; 0, or -1 with a diagnostic. */
static int write_text(Export *x, const char *name, const char *text)
{
    const char *why = NULL;
    if (hk_write_whole(x->ctx->arena, in_dir(x->ctx->arena, x->dir, name),
                       text, strlen(text), &why) == 0)
        return 0;
    hk_error(&x->ctx->diags, NULL, noloc, "%s", why);
    return -1;
}

/* The object (and the IR under emit_llvm) of a built row, written whole. */
static int emit_built(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    const char *why = NULL;
    int rc = hk_write_whole(a, in_dir(a, x->dir, j->pub.h_name), j->built.obj,
                            j->built.obj_len, &why);
    if (rc == 0 && x->opts->emit_llvm)
        rc = hk_write_whole(a, in_dir(a, x->dir, j->pub.c_name), j->built.ir,
                            j->built.ir_len, &why);
    if (rc != 0)
        hk_error(&x->ctx->diags, NULL, noloc, "%s", why);
    j->pub.hawk_seconds += now() - t0;
    return rc;
}

/* Removes a report left by an earlier export: a failing check must not
 * leave a report beside the new .c and .h. */
static int remove_stale_report(Export *x, const Job *j)
{
    const char *path = in_dir(x->ctx->arena, x->dir, j->pub.report_name);
    if (unlink(path) == 0 || errno == ENOENT)
        return 0;
    hk_error(&x->ctx->diags, NULL, noloc, "cannot remove '%s': %s", path,
             strerror(errno));
    return -1;
}

/* The checks as the report records them when the export runs none. */
static void checks_not_run(HkArena *a, HkChecks *c)
{
    static const char *const names[] = {"cc -std=c99", "cc -std=c11",
                                        "cppcheck"};
    c->n = 3;
    c->failed = 0;
    c->items = hk_alloc(a, c->n * sizeof *c->items);
    for (uint32_t k = 0; k < c->n; k++) {
        c->items[k].name = names[k];
        c->items[k].status = "skipped";
        c->items[k].output = "";
        c->items[k].why_skipped = "the export ran without checks";
    }
}

/* The report's text: indented, ending in a newline. */
static const char *report_text(HkArena *a, const Job *j, const HkChecks *c)
{
    cJSON *o = hk_report_unit(&j->low, &j->unit, c);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (text == NULL)
        hk_die(__FILE__, __LINE__, "out of memory");
    const char *s = hk_asprintf(a, "%s\n", text);
    cJSON_free(text);
    return s;
}

/* Writes j's files, checks them, writes the report; 0, or -1. */
static int emit(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    if (remove_stale_report(x, j) != 0 ||
        write_text(x, j->pub.c_name, j->unit.c_text) != 0 ||
        write_text(x, j->pub.h_name, j->unit.h_text) != 0)
        return -1;
    double t1 = now();
    HkChecks checks;
    memset(&checks, 0, sizeof checks);
    if (!x->opts->check)
        checks_not_run(a, &checks);
    else if (x->opts->checker->run(a, x->dir, j->pub.c_name, j->pub.h_name,
                                   &j->low.profile, &checks, &x->ctx->diags,
                                   &x->m->src, j->kernel->loc) != 0)
        return -1;
    double t2 = now();
    j->pub.check_seconds = t2 - t1;
    j->pub.report_text = report_text(a, j, &checks);
    int rc = write_text(x, j->pub.report_name, j->pub.report_text);
    j->pub.hawk_seconds += (t1 - t0) + (now() - t2);
    return rc;
}

/* ---- the export ----------------------------------------------------------- */

/* <kernel>_<entry>: the entry symbol as row t spells it. */
static const char *entry_of(HkArena *a, const HkTarget *t, const char *kernel)
{
    return hk_asprintf(a, "%s_%s", kernel, t->entry);
}

const char *hawk_export_entry(HawkContext *ctx, const char *target,
                              const char *kernel)
{
    const HkTarget *t =
        target == NULL ? hk_target_default() : hk_target_lookup(target);
    if (t == NULL || kernel == NULL)
        return NULL;
    return entry_of(ctx->arena, t, kernel);
}

/* MISRA C:2012 Rule 5.1 (C99: 31 significant initial characters): the
 * entries of the kernels exported together, the external identifiers a
 * build links side by side, must differ in their first 31 characters.
 * One hash lookup per kernel. */
static int distinct_entries(Export *x, const Job *jobs, uint32_t n)
{
    HkArena *a = x->ctx->arena;
    HkSymtab *seen = hk_symtab_new(a);
    int failed = 0;
    for (uint32_t k = 0; k < n; k++) {
        const HkFunc *f = jobs[k].kernel;
        const char *e = entry_of(a, x->target, f->name);
        size_t len = strlen(e) < 31 ? strlen(e) : 31;
        uint32_t other = hk_symtab_get(seen, e, len);
        if (other == UINT32_MAX) {
            hk_symtab_put(seen, e, len, k);
            continue;
        }
        const HkFunc *g = jobs[other].kernel;
        hk_error(&x->ctx->diags, &x->m->src, f->loc,
                 "'%s': its entry '%s' and the entry '%s' of kernel '%s' "
                 "agree in their first 31 characters, which is all a C99 "
                 "linker must tell apart (MISRA C:2012 Rule 5.1); rename one "
                 "of the kernels",
                 f->name, e, entry_of(a, x->target, g->name), g->name);
        failed = 1;
    }
    return failed ? -1 : 0;
}

int hawk_export(HawkContext *ctx, HawkModule *m, const HawkExportOptions *opts)
{
    HawkExportOptions defaults;
    if (opts == NULL) {
        hawk_export_options_init(&defaults);
        opts = &defaults;
    }
    const char *dir = opts->out_dir;
    Export x = {ctx, m, opts, NULL, dir != NULL && *dir ? dir : ".",
                NULL, NULL, 0};
    uint32_t n = 0;
    Job *jobs;
    if ((x.target = pick_target(ctx, opts->target, opts)) == NULL ||
        (jobs = pick_kernels(&x, opts->kernel, &n)) == NULL)
        return -1;
    profile_options(&x);
    if (check_profile(&x) != 0 || distinct_entries(&x, jobs, n) != 0)
        return -1;
    if (opts->check && !opts->print_only && opts->checker == NULL &&
        x.target->writer_kind == HK_WRITER_C) {
        hk_error(&ctx->diags, NULL, noloc,
                 "the checks are asked for, but this program links no "
                 "checker (hawk-driver); pass HawkExportOptions.checker or "
                 "turn check off");
        return -1;
    }
    int failed = 0;
    for (uint32_t k = 0; k < n; k++)
        failed |= (x.target->writer_kind == HK_WRITER_C
                       ? render(&x, &jobs[k])
                       : render_built(&x, &jobs[k])) != 0;
    if (failed)
        return -1;
    if (!opts->print_only && make_dirs(ctx, x.dir) != 0)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        if (!opts->print_only &&
            (x.target->writer_kind == HK_WRITER_C ? emit(&x, &jobs[k])
                                                  : emit_built(&x, &jobs[k])) !=
                0) {
            failed = 1;
            continue;
        }
        if (opts->on_unit != NULL)
            opts->on_unit(opts->user, &jobs[k].pub);
    }
    return failed ? -1 : 0;
}
