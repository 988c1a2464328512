/* export.c -- hawk_export: the export of a module's kernels through a row of
 * the targets table (docs/EmbeddedC.md, "The export").
 *
 * Two phases.  First every selected kernel is lowered, written (.c and .h
 * texts) and audited in memory, and, for C rows, the output directory's
 * runtime unit is merged and audited; a refusal or an audit hit stops the
 * export before a file exists, so the modules export whole or not at all.
 * Then the runtime unit and every unit's .c and .h are written whole, the
 * compiler checks each unit, cppcheck checks them all together, and each
 * report is written whole only after its unit's checks pass.  Nothing recorded depends on the output
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
#include "cruntime.h"
#include "emit.h"
#include "report.h"

static const HkLoc noloc = {0, 0};

/* One kernel on its way out. */
typedef struct {
    HkModule *m;              /* the caller's module of kernel */
    HkFunc *kernel;
    HkLowered low;
    HkCUnit unit;
    HkKat kat;                /* the self-test's known answers */
    HkChecks checks;          /* what the report records */
    HkBuiltUnit built;        /* a row built outside libhawk */
    HawkExportUnit pub;
} Job;

/* What every job of one export shares. */
typedef struct {
    HawkContext *ctx;
    HkModule *const *ms;         /* the modules exported together */
    uint32_t nms;
    const HawkExportOptions *opts;
    const HkTarget *target;
    const char *dir;
    const char **keys, **vals;   /* the profile, target=<row id> last */
    uint32_t nopts;
    /* the runtime unit of the output directory (C rows) */
    HkRuntime rt;
    const char *rt_h_name, *rt_c_name;   /* hk_runtime_header_name, _source_name */
    const char *rt_h_text, *rt_c_text;
} Export;

/* How the export drives one kind of writer (exporters[], below). */
typedef struct {
    int (*accepts)(const HkTarget *t);  /* the rows of the kind it takes */
    int writes_ir;            /* -emit-llvm applies */
    int external;             /* the writer is handed in (llvm_writer) */
    int checks;               /* the toolchain checks apply */
    int (*render)(Export *x, Job *j);   /* phase 1, per kernel */
    int (*plan)(Export *x, Job *jobs, uint32_t n);  /* then, or NULL */
    int (*emit)(Export *x, Job *jobs, uint32_t n);  /* phase 2 */
    int (*print)(Export *x, Job *jobs, uint32_t n); /* phase 2, print_only */
} Exporter;

static const Exporter *exporter_of(const HkTarget *t);

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

/* The rows the export takes: those whose exporter accepts them. */
static int exportable(const HkTarget *t);

/* "c, host": the ids of the rows the export handles, in table order. */
static const char *exported_ids(HkArena *a)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (unsigned i = 0; i < hk_ntargets; i++)
        if (exportable(&hk_targets[i]))
            hk_buf_printf(&b, "%s%s", b.len ? ", " : "", hk_targets[i].id);
    return b.len ? hk_buf_cstr(&b) : "none";
}

/* The row of id (the default row for NULL).  An unknown id, a row the
 * export does not handle, -emit-llvm for a row that writes no IR, or a
 * row whose writer lives outside libhawk when the caller did not hand
 * that writer in, is an error. */
static const HkTarget *pick_target(HawkContext *ctx, const char *id,
                                   const HawkExportOptions *opts)
{
    const HkTarget *t = id == NULL ? hk_target_default() : hk_target_lookup(id);
    if (t == NULL) {
        hk_error(&ctx->diags, NULL, noloc,
                 "unknown target '%s'%s; valid targets: %s", id,
                 hk_target_near(ctx->arena, id), hk_target_ids());
        return NULL;
    }
    const Exporter *ex = exporter_of(t);
    if (opts->emit_llvm && !ex->writes_ir) {
        hk_error(&ctx->diags, NULL, noloc,
                 "target '%s' writes no LLVM IR (its writer is the %s)", t->id,
                 t->writer);
        return NULL;
    }
    if (ex->external && opts->llvm_writer == NULL) {
        hk_error(&ctx->diags, NULL, noloc,
                 "target '%s' is written by the %s, which this program does "
                 "not link (hawk-llvm)", t->id, t->writer);
        return NULL;
    }
    /* The row says what it is: the export handles it through its writer,
     * whatever its id. */
    if (!exportable(t)) {
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

/* The jobs: the kernel named name, or every kernel, in module order.
 * NULL after a diagnostic (an unknown name, modules without kernels). */
static Job *pick_kernels(Export *x, const char *name, uint32_t *n)
{
    HkArena *a = x->ctx->arena;
    uint32_t cap = 1;
    for (uint32_t k = 0; k < x->nms; k++)
        cap += x->ms[k]->nfuncs;
    Job *jobs = hk_alloc(a, cap * sizeof *jobs);
    *n = 0;
    for (uint32_t k = 0; k < x->nms; k++) {
        HkModule *m = x->ms[k];
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i]->is_kernel &&
                (name == NULL || strcmp(m->funcs[i]->name, name) == 0)) {
                jobs[*n].m = m;
                jobs[(*n)++].kernel = m->funcs[i];
            }
    }
    if (*n > 0)
        return jobs;
    HkBuf where, names;
    hk_buf_init(&where, a);
    hk_buf_init(&names, a);
    const char **all = hk_alloc(a, cap * sizeof *all);
    size_t nall = 0;
    for (uint32_t k = 0; k < x->nms; k++) {
        hk_buf_printf(&where, "%s'%s'", k ? ", " : "", x->ms[k]->src.name);
        hk_buf_printf(&names, "%s%s", k ? "; " : "", kernel_names(a, x->ms[k]));
        for (uint32_t i = 0; i < x->ms[k]->nfuncs; i++)
            if (x->ms[k]->funcs[i]->is_kernel)
                all[nall++] = x->ms[k]->funcs[i]->name;
    }
    if (name != NULL)
        hk_error(&x->ctx->diags, NULL, noloc,
                 "unknown kernel '%s'%s; kernels in %s: %s", name,
                 hk_did_you_mean(a, name, strlen(name), all, nall),
                 hk_buf_cstr(&where), hk_buf_cstr(&names));
    else
        hk_error(&x->ctx->diags, NULL, noloc, "%s %s no kernel to export",
                 hk_buf_cstr(&where), x->nms > 1 ? "have" : "has");
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
    return hk_lower_options(x->ctx, x->ms[0], x->keys, x->vals, x->nopts, &p)
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
                      j->unit.h_text, x->rt_h_name, &hits) == 0)
        return 0;
    for (uint32_t k = 0; k < hits.n; k++) {
        const HkAuditHit *h = &hits.hits[k];
        const char *kind = hk_audit_names[h->kind];
        HkDiag *d = hk_error(&x->ctx->diags, &j->m->src, j->kernel->loc,
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
    if (hk_lower(x->ctx, j->m, j->kernel, x->keys, x->vals, x->nopts,
                 &j->low) != 0 ||
        x->opts->llvm_writer->write(a, &j->low, want_ir, &j->built,
                                    &x->ctx->diags) != 0)
        return -1;
    j->pub.c_text = j->built.ir;
    j->pub.hawk_seconds = now() - t0;
    return 0;
}

/* Lowers j's kernel and writes its texts; 0, or -1 after diagnostics. */
/* The known answers of j's self-test (profile selftest=on) from the
 * oracle; 0, or -1 with a diagnostic (no oracle, a failed host build). */
static int known_answers(Export *x, Job *j)
{
    if (!j->low.profile.selftest)
        return 0;
    if (x->opts->oracle == NULL) {
        hk_error(&x->ctx->diags, &j->m->src, j->kernel->loc,
                 "'%s': selftest=on needs the host build's known answers, "
                 "and this program links no oracle (hawk_host_oracle() of "
                 "hawk-llvm, or libhawk's hawk_interp_oracle())",
                 j->kernel->name);
        return -1;
    }
    return hk_kat_draw(x->ctx->arena, &j->low, x->opts->oracle, &j->kat,
                       &x->ctx->diags);
}

static int render(Export *x, Job *j)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    name_files(x, j);
    j->pub.report_name = hk_asprintf(a, "%s.embedded.json", j->kernel->name);
    if (hk_lower(x->ctx, j->m, j->kernel, x->keys, x->vals, x->nopts,
                 &j->low) != 0)
        return -1;
    j->low.deriv = hk_deriv_figures(x->ctx, &j->low, x->keys, x->vals,
                                    x->nopts);
    if (known_answers(x, j) != 0 ||
        hk_cwriter_kat(a, &j->low, j->low.profile.selftest ? &j->kat : NULL,
                       &j->unit, &x->ctx->diags) != 0)
        return -1;
    hk_cheader(a, &j->low, &j->unit);
    j->pub.c_text = j->unit.c_text;
    j->pub.h_text = j->unit.h_text;
    j->pub.cflags = j->unit.cflags;
    j->pub.ncflags = j->unit.ncflags;
    int rc = audit(x, j);
    j->pub.hawk_seconds = now() - t0;
    return rc;
}

/* ---- phase 2: files, checks, report ------------------------------------- */

/* Whether dir can be the output directory: it is one, or does not exist
 * yet.  Asked before anything reads it (the runtime unit already there),
 * so that "-o FILE" is named for what it is. */
static int usable_dir(HawkContext *ctx, const char *dir)
{
    struct stat st;
    int err = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (err == 0 || err == ENOENT)
        return 0;
    hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s", dir,
             strerror(err));
    return -1;
}

/* mkdir -p dir; 0, or -1 with a diagnostic. */
static int make_dirs(HawkContext *ctx, const char *dir)
{
    const char *failed;
    if (hk_make_dirs(ctx->arena, dir, &failed) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 failed, strerror(errno));
        return -1;
    }
    return 0;
}

/* Writes text to dir/name whole; 0, or -1 with a diagnostic. */
static int write_text(Export *x, const char *name, const char *text)
{
    const char *why = NULL;
    if (hk_write_whole(x->ctx->arena, hk_path_join(x->ctx->arena, x->dir, name),
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
    int rc = hk_write_whole(a, hk_path_join(a, x->dir, j->pub.h_name), j->built.obj,
                            j->built.obj_len, &why);
    if (rc == 0 && x->opts->emit_llvm)
        rc = hk_write_whole(a, hk_path_join(a, x->dir, j->pub.c_name), j->built.ir,
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
    const char *path = hk_path_join(x->ctx->arena, x->dir, j->pub.report_name);
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
    return hk_json_print(a, hk_report_unit(&j->low, &j->unit, c), "\n");
}

/* Hands the runtime unit to on_runtime. */
static void runtime_done(Export *x)
{
    if (x->opts->on_runtime == NULL)
        return;
    HawkExportUnit u;
    memset(&u, 0, sizeof u);
    u.c_name = x->rt_c_name;
    u.h_name = x->rt_h_name;
    u.c_text = x->rt_c_text;
    u.h_text = x->rt_h_text;
    x->opts->on_runtime(x->opts->user, &u);
}

/* Writes the runtime's header and source whole. */
static int emit_runtime(Export *x)
{
    return write_text(x, x->rt_h_name, x->rt_h_text) != 0 ||
                   write_text(x, x->rt_c_name, x->rt_c_text) != 0
               ? -1
               : 0;
}

/* Writes j's .c and .h (after removing its stale report); 0, or -1. */
static int emit_files(Export *x, Job *j)
{
    double t0 = now();
    int rc = remove_stale_report(x, j) != 0 ||
             write_text(x, j->pub.c_name, j->unit.c_text) != 0 ||
             write_text(x, j->pub.h_name, j->unit.h_text) != 0
                 ? -1
                 : 0;
    j->pub.hawk_seconds += now() - t0;
    return rc;
}

/* The compiler checks of j's unit, with the runtime unit's source. */
static int compile_unit(Export *x, Job *j)
{
    double t0 = now();
    const char *files[] = {j->pub.c_name, x->rt_c_name, NULL};
    int rc = x->opts->checker->compile(x->opts->checker, x->ctx->arena,
                                       x->dir, files,
                                       j->kernel->name, &j->low.profile,
                                       &j->checks, &x->ctx->diags, &j->m->src,
                                       j->kernel->loc);
    j->pub.check_seconds += now() - t0;
    return rc;
}

/* cppcheck over every unit of the directory and the runtime unit
 * together, once; each job's report records the run, and each job is
 * charged an equal share of its time. */
static int analyse_units(Export *x, Job *jobs, uint32_t n)
{
    HkArena *a = x->ctx->arena;
    double t0 = now();
    const char **files = hk_alloc(a, (x->rt.nunits + 2u) * sizeof *files);
    uint32_t nf = 0;
    for (uint32_t k = 0; k < x->rt.nunits; k++)
        files[nf++] = hk_asprintf(a, "%s%s", x->rt.units[k].kernel,
                                  x->target->source);
    files[nf++] = x->rt_c_name;
    files[nf] = NULL;
    HkBuf what;
    hk_buf_init(&what, a);
    for (uint32_t k = 0; k < n; k++)
        hk_buf_printf(&what, "%s%s", k ? "', '" : "", jobs[k].kernel->name);
    HkChecks run;
    memset(&run, 0, sizeof run);
    int rc = x->opts->checker->analyse(x->opts->checker, a, x->dir, files,
                                       hk_buf_cstr(&what),
                                       &jobs[0].low.profile, &run,
                                       &x->ctx->diags, &jobs[0].m->src,
                                       jobs[0].kernel->loc);
    double share = (now() - t0) / (double)n;
    for (uint32_t k = 0; k < n; k++) {
        HkChecks *c = &jobs[k].checks;
        HkCheck *items = hk_alloc(a, (c->n + run.n + 1u) * sizeof *items);
        if (c->n > 0)
            memcpy(items, c->items, c->n * sizeof *items);
        if (run.n > 0)
            memcpy(items + c->n, run.items, run.n * sizeof *items);
        c->items = items;
        c->n += run.n;
        c->failed |= run.failed;
        jobs[k].pub.check_seconds += share;
    }
    return rc;
}

/* Writes j's report; 0, or -1. */
static int emit_report(Export *x, Job *j)
{
    double t0 = now();
    j->pub.report_text = report_text(x->ctx->arena, j, &j->checks);
    int rc = write_text(x, j->pub.report_name, j->pub.report_text);
    j->pub.hawk_seconds += now() - t0;
    return rc;
}

/* Phase 2 for C rows: the runtime unit, every unit's files, the checks
 * (the compiler per unit, then cppcheck over the directory), the
 * reports of the units whose checks passed; 0, or -1. */
static int emit_c(Export *x, Job *jobs, uint32_t n)
{
    if (emit_runtime(x) != 0)
        return -1;
    int failed = 0;
    for (uint32_t k = 0; k < n; k++)
        if (emit_files(x, &jobs[k]) != 0)
            return -1;
    if (!x->opts->check) {
        for (uint32_t k = 0; k < n; k++)
            checks_not_run(x->ctx->arena, &jobs[k].checks);
    } else {
        for (uint32_t k = 0; k < n; k++)
            failed |= compile_unit(x, &jobs[k]) != 0;
        failed |= analyse_units(x, jobs, n) != 0;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (jobs[k].checks.failed || emit_report(x, &jobs[k]) != 0) {
            failed = 1;
            continue;
        }
        if (x->opts->on_unit != NULL)
            x->opts->on_unit(x->opts->user, &jobs[k].pub);
    }
    runtime_done(x);
    return failed ? -1 : 0;
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
    if (t == NULL || kernel == NULL || ctx->oom)
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
        failed = 1;
        if (strcmp(f->name, g->name) == 0)
            hk_error(&x->ctx->diags, &jobs[k].m->src, f->loc,
                     "'%s': a kernel of this name is also in '%s'; their "
                     "units would be the same files",
                     f->name, jobs[other].m->src.name);
        else
            hk_error(&x->ctx->diags, &jobs[k].m->src, f->loc,
                     "'%s': its entry '%s' and the entry '%s' of kernel '%s' "
                     "agree in their first 31 characters, which is all a C99 "
                     "linker must tell apart (MISRA C:2012 Rule 5.1); rename "
                     "one of the kernels",
                     f->name, e, entry_of(a, x->target, g->name), g->name);
        hk_note(&x->ctx->diags, &jobs[other].m->src, g->loc,
                "the other kernel, '%s'", g->name);
    }
    return failed ? -1 : 0;
}

/* ---- the runtime unit ------------------------------------------------------ */

/* MISRA C:2012 Rule 5.1 across exports: an entry of this export against
 * the entries of the units an earlier export left in the directory (the
 * kernels of this export among themselves: distinct_entries). */
static int distinct_from_recorded(Export *x, const Job *jobs, uint32_t n)
{
    HkArena *a = x->ctx->arena;
    HkSymtab *seen = hk_symtab_new(a);
    for (uint32_t k = 0; k < x->rt.nunits; k++) {
        const char *e = entry_of(a, x->target, x->rt.units[k].kernel);
        hk_symtab_put(seen, e, strlen(e) < 31 ? strlen(e) : 31, k);
    }
    int failed = 0;
    for (uint32_t k = 0; k < n; k++) {
        const HkFunc *f = jobs[k].kernel;
        const char *e = entry_of(a, x->target, f->name);
        uint32_t other = hk_symtab_get(seen, e, strlen(e) < 31 ? strlen(e) : 31);
        if (other == UINT32_MAX)
            continue;
        const char *g = x->rt.units[other].kernel;
        hk_error(&x->ctx->diags, &jobs[k].m->src, f->loc,
                 "'%s': its entry '%s' and the entry '%s' of kernel '%s', "
                 "already exported to '%s', agree in their first 31 "
                 "characters, which is all a C99 linker must tell apart "
                 "(MISRA C:2012 Rule 5.1); rename one of the kernels",
                 f->name, e, entry_of(a, x->target, g), g, x->dir);
        failed = 1;
    }
    return failed ? -1 : 0;
}

/* The record of the directory's runtime, read back from its header
 * without the units whose source is gone and the units this export
 * rewrites; 0, or -1 with a diagnostic. */
static int read_runtime(Export *x, const Job *jobs, uint32_t n)
{
    HkArena *a = x->ctx->arena;
    const char *path = hk_path_join(a, x->dir, x->rt_h_name), *text, *why = NULL;
    if (hk_read_whole(a, path, &text, NULL, &why) != 0) {
        hk_error(&x->ctx->diags, NULL, noloc, "%s", why);
        return -1;
    }
    if (text != NULL && hk_runtime_parse(a, text, &x->rt) != 0) {
        hk_error(&x->ctx->diags, NULL, noloc,
                 "'%s' is not a runtime header hawk wrote, and the export "
                 "would overwrite it; export into another directory or "
                 "remove it", path);
        return -1;
    }
    HkSymtab *now = hk_symtab_new(a);  /* the kernels this export rewrites */
    for (uint32_t k = 0; k < n; k++)
        hk_symtab_put(now, jobs[k].kernel->name, strlen(jobs[k].kernel->name),
                      k);
    for (uint32_t k = x->rt.nunits; k-- > 0;) {
        const char *name = x->rt.units[k].kernel;
        struct stat st;
        if (hk_symtab_get(now, name, strlen(name)) != UINT32_MAX ||
            stat(hk_path_join(a, x->dir, hk_asprintf(a, "%s%s", name,
                                               x->target->source)),
                 &st) != 0)
            hk_runtime_drop(&x->rt, name);
    }
    return 0;
}

/* The runtime unit of the output directory: the units an earlier export
 * left there and this export's, of either width, its texts written and
 * audited in memory.  0, or -1 with a diagnostic: a foreign header in the
 * way, entries that clash, an audit hit. */
static int plan_runtime(Export *x, Job *jobs, uint32_t n)
{
    HkArena *a = x->ctx->arena;
    hk_runtime_init(&x->rt);
    /* -print writes nothing: its runtime serves the printed units alone */
    if (!x->opts->print_only &&
        (read_runtime(x, jobs, n) != 0 ||
         distinct_from_recorded(x, jobs, n) != 0))
        return -1;
    for (uint32_t k = 0; k < n; k++)
        hk_runtime_add(a, &x->rt, jobs[k].kernel->name, &jobs[k].unit);
    if (hk_runtime_mathfns(a, &x->rt, x->ctx, NULL, &x->ctx->diags) != 0)
        return -1;
    hk_runtime_texts(a, &x->rt, x->rt_h_name, x->rt_c_name, &x->rt_h_text,
                     &x->rt_c_text);
    HkAuditHits hits;
    memset(&hits, 0, sizeof hits);
    if (hk_audit_unit(a, x->rt_c_name, x->rt_c_text,
                      x->rt_h_name, x->rt_h_text, NULL, &hits) == 0)
        return 0;
    for (uint32_t k = 0; k < hits.n; k++)
        hk_error(&x->ctx->diags, NULL, noloc,
                 "the runtime unit '%s' fails audit.%s at line %u: %s "
                 "(a hawk defect; please report it)",
                 hits.hits[k].file, hk_audit_names[hits.hits[k].kind],
                 hits.hits[k].line, hits.hits[k].text);
    return -1;
}

/* ---- the writers ---------------------------------------------------------- */

/* The C writer's phase 2 under print_only: nothing is written, the units
 * and the runtime unit go to the callbacks. */
static int print_c(Export *x, Job *jobs, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (x->opts->on_unit != NULL)
            x->opts->on_unit(x->opts->user, &jobs[k].pub);
    runtime_done(x);
    return 0;
}

/* A built row's phase 2: each object (and IR), then the callback. */
static int emit_all_built(Export *x, Job *jobs, uint32_t n)
{
    int failed = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (!x->opts->print_only && emit_built(x, &jobs[k]) != 0) {
            failed = 1;
            continue;
        }
        if (x->opts->on_unit != NULL)
            x->opts->on_unit(x->opts->user, &jobs[k].pub);
    }
    return failed ? -1 : 0;
}

static int accepts_unbuilt(const HkTarget *t)
{
    return t->toolchain == HK_TOOLCHAIN_NONE;
}

static int accepts_any(const HkTarget *t)
{
    (void)t;
    return 1;
}

/* How the export drives each kind of writer (targets.h's HkWriterKind,
 * the one place the kinds are told apart): which rows it takes, what it
 * needs, and the export's two phases. */
static const Exporter exporters[] = {
    [HK_WRITER_C] = {
        .accepts = accepts_unbuilt, .writes_ir = 0, .external = 0,
        .checks = 1, .render = render, .plan = plan_runtime,
        .emit = emit_c, .print = print_c,
    },
    [HK_WRITER_LLVM] = {
        .accepts = accepts_any, .writes_ir = 1, .external = 1,
        .checks = 0, .render = render_built, .plan = NULL,
        .emit = emit_all_built, .print = emit_all_built,
    },
};

static const Exporter *exporter_of(const HkTarget *t)
{
    return &exporters[t->writer_kind];
}

static int exportable(const HkTarget *t)
{
    return exporter_of(t)->accepts(t);
}

int hawk_export(HawkContext *ctx, HawkModule *m, const HawkExportOptions *opts)
{
    return hawk_export_modules(ctx, &m, 1, opts);
}

/* The jobs keep answers 1 for, moved to the front; their number. */
static uint32_t keep_jobs(Job *jobs, uint32_t n, HkExportKeep keep, void *ud)
{
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n; k++)
        if (keep(ud, k, jobs[k].kernel))
            jobs[kept++] = jobs[k];
    return kept;
}

static int export_modules(HawkContext *ctx, HawkModule *const *ms, size_t nms,
                          const HawkExportOptions *opts, HkExportKeep keep,
                          void *ud)
{
    HawkExportOptions defaults;
    if (opts == NULL) {
        hawk_export_options_init(&defaults);
        opts = &defaults;
    }
    const char *dir = opts->out_dir;
    Export x;
    memset(&x, 0, sizeof x);
    x.ctx = ctx;
    x.ms = ms;
    x.nms = (uint32_t)nms;
    x.opts = opts;
    if (nms == 0 || nms > UINT32_MAX / 2) {
        hk_error(&ctx->diags, NULL, noloc, "no module to export");
        return -1;
    }
    x.dir = dir != NULL && *dir ? dir : ".";
    uint32_t n = 0;
    Job *jobs;
    if ((x.target = pick_target(ctx, opts->target, opts)) == NULL ||
        (jobs = pick_kernels(&x, opts->kernel, &n)) == NULL)
        return -1;
    profile_options(&x);
    if (check_profile(&x) != 0 || distinct_entries(&x, jobs, n) != 0)
        return -1;
    const Exporter *ex = exporter_of(x.target);
    if (keep != NULL && ex->plan == NULL && (n = keep_jobs(jobs, n, keep, ud)) == 0)
        return 0;
    if (opts->check && !opts->print_only && opts->checker == NULL &&
        ex->checks) {
        hk_error(&ctx->diags, NULL, noloc,
                 "the checks are asked for, but this program links no "
                 "checker (hawk-driver); pass HawkExportOptions.checker or "
                 "turn check off");
        return -1;
    }
    if (!opts->print_only && usable_dir(ctx, x.dir) != 0)
        return -1;
    x.rt_h_name = hk_runtime_header_name(ctx->arena, x.target);
    x.rt_c_name = hk_runtime_source_name(ctx->arena, x.target);
    int failed = 0;
    for (uint32_t k = 0; k < n; k++)
        failed |= ex->render(&x, &jobs[k]) != 0;
    if (failed || (ex->plan != NULL && ex->plan(&x, jobs, n) != 0))
        return -1;
    if (opts->print_only)
        return ex->print(&x, jobs, n);
    if (make_dirs(ctx, x.dir) != 0)
        return -1;
    return ex->emit(&x, jobs, n);
}

typedef struct {
    HawkContext *ctx;
    HawkModule *const *ms;
    size_t nms;
    const HawkExportOptions *opts;
    HkExportKeep keep;
    void *ud;
    int status;
} ExportCall;

static void export_call(void *ud)
{
    ExportCall *c = ud;
    c->status = export_modules(c->ctx, c->ms, c->nms, c->opts, c->keep, c->ud);
}

int hawk_export_modules(HawkContext *ctx, HawkModule *const *ms, size_t nms,
                        const HawkExportOptions *opts)
{
    return hk_export_modules_keeping(ctx, ms, nms, opts, NULL, NULL);
}

int hk_export_modules_keeping(HawkContext *ctx, HawkModule *const *ms,
                              size_t nms, const HawkExportOptions *opts,
                              HkExportKeep keep, void *ud)
{
    ExportCall c = {ctx, ms, nms, opts, keep, ud, 0};
    return hk_ctx_protect(ctx, export_call, &c) == 0 ? c.status : -1;
}
