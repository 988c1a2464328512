/* checks.c -- the toolchain checks of emitted units: the C compiler
 * under -std=c99 and -std=c11 with every warning an error, one unit (with
 * the runtime unit) at a time, then cppcheck's MISRA C:2012 addon with
 * the three documented deviations over every unit of the output directory
 * together, so the rules that span a build (5.6 to 5.9, 8.x) are checked.
 *
 * Every tool runs in the output directory on the bare file names, so the
 * recorded commands and the tools' messages are the same bytes whatever
 * the directory.  A check passes only when the tool exits 0 AND prints
 * nothing: a warning on a tool that exits 0 anyway (a compiler without
 * -Werror behind a wrapper, an addon finding cppcheck does not count) still
 * fails.  The tool's path and `--version` line are the toolchain
 * fingerprint; nothing time-dependent (no mtime) is recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "driver.h"
#include "fault.h"
#include "hawk/driver.h"

/* The compiler's warning set (docs/EmbeddedC.md, "Checks"). */
static const char *const cc_flags[] = {
    "-pedantic", "-Wall", "-Wextra", "-Wconversion", "-Wsign-conversion",
    "-Wdouble-promotion", "-Werror", "-fsyntax-only", NULL};

/* cppcheck's flags, the deviations as --suppress (never as comments in the
 * C, so no --inline-suppr). */
static const char *const cppcheck_flags[] = {
    "--addon=misra", "--std=c99", "--language=c", "--enable=warning,style",
    "--error-exitcode=1", "-q", "--suppress=misra-c2012-8.7",
    "--suppress=misra-c2012-9.3", "--suppress=misra-c2012-2.3", NULL};

typedef struct {
    HkArena *a;
    const char *cache;        /* the check cache (checkcache.c), or NULL */
    const char *dir;
    const char *what;         /* for the diagnostics: "drag" */
    HkChecks *out;
    HkDiags *d;
    const HkSource *src;
    HkLoc loc;
} Ctx;

/* The tools run in another directory: a path resolved relative to ours
 * (a relative $HAWK_CC, "." on PATH) is made absolute first. */
static const char *absolute(HkArena *a, const char *path)
{
    if (path[0] == '/')
        return path;
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return path;
    return hk_asprintf(a, "%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
}

/* A new check at the end of out (which grows by one). */
static HkCheck *new_check(Ctx *c, const char *name)
{
    HkCheck *items = hk_alloc(c->a, (c->out->n + 1u) * sizeof *items);
    if (c->out->n > 0)
        memcpy(items, c->out->items, c->out->n * sizeof *items);
    c->out->items = items;
    HkCheck *k = &c->out->items[c->out->n++];
    memset(k, 0, sizeof *k);
    k->name = name;
    k->command = "";
    k->output = "";
    return k;
}

static void fail(Ctx *c, HkCheck *k, const char *what)
{
    k->status = "failed";
    c->out->failed = 1;
    const char *out = hk_run_output_trimmed(c->a, k->output);
    hk_error(c->d, c->src, c->loc, "'%s': check '%s' failed: %s%s%s", c->what,
             k->name, what, *out ? "\n" : "", out);
}

/* Runs run_argv for check k, recorded as argv (the same check without
 * what only saves time), and judges it: started, exit 0, silent.  A
 * verdict the cache holds for the same texts, tool and argv is taken
 * instead of running; a pass is recorded there. */
static void run_one(Ctx *c, HkCheck *k, const char *const *argv,
                    const char *const *run_argv, const char *const *files)
{
    k->command = hk_command_text(c->a, argv);
    const char *key =
        c->cache != NULL
            ? hk_check_key(c->a, c->dir, k->tool_version, argv, files)
            : NULL;
    if (hk_check_cached(c->a, c->cache, key)) {
        k->status = "passed";
        return;
    }
    HkRunResult r = hk_run_in(c->a, c->dir, run_argv);
    k->output = r.output;
    if (!r.started) {
        k->output = hk_asprintf(c->a, "cannot start %s: %s", argv[0],
                                r.errno_text ? r.errno_text : "unknown error");
        fail(c, k, k->command);
    } else if (!r.exited) {
        /* on a line of its own after what the tool printed */
        int open_line = r.output_len > 0 && r.output[r.output_len - 1] != '\n';
        k->output = hk_asprintf(c->a, "%s%skilled by signal %d", r.output,
                                open_line ? "\n" : "", r.status);
        fail(c, k, k->command);
    } else if (r.status != 0 || r.output_len != 0) {
        /* A nonzero exit with no output still fails, and says so. */
        if (r.output_len == 0)
            k->output = hk_asprintf(c->a, "exit status %d", r.status);
        fail(c, k, k->command);
    } else {
        k->status = "passed";
        hk_check_record(c->a, c->cache, key, k->command);
    }
}

typedef struct {
    Ctx *c;
    HkCheck *k;
    const char *const *argv, *const *run_argv, *const *files;
} RunOne;

static void run_one_call(void *ud)
{
    RunOne *ro = ud;
    run_one(ro->c, ro->k, ro->argv, ro->run_argv, ro->files);
}

/* argv = tool, flags..., extra (may be NULL), files...; in the arena. */
static const char **make_argv(Ctx *c, const char *tool, const char *const *flags,
                              const char *extra, const char *const *files)
{
    size_t n = 1;
    for (const char *const *f = flags; *f; f++)
        n++;
    for (const char *const *f = files; *f; f++)
        n++;
    const char **argv = hk_alloc(c->a, (n + 2) * sizeof *argv);
    size_t i = 0;
    argv[i++] = tool;
    if (extra != NULL)
        argv[i++] = extra;
    for (const char *const *f = flags; *f; f++)
        argv[i++] = *f;
    for (const char *const *f = files; *f; f++)
        argv[i++] = *f;
    argv[i] = NULL;
    return argv;
}

static void check_cc(Ctx *c, const char *const *files)
{
    HkTool cc;
    const char *why = NULL;
    int ok = hk_resolve_cc(c->a, &cc, &why) == 0;
    if (!ok) {
        /* No compiler is a failure, never a skip: the unit was not
         * compiled, so nothing is certified.  One diagnostic for both. */
        c->out->failed = 1;
        hk_error(c->d, c->src, c->loc, "'%s': the checks have no C compiler: %s",
                 c->what, why);
    }
    static const char *const stds[] = {"-std=c99", "-std=c11"};
    for (int s = 0; s < 2; s++) {
        HkCheck *k = new_check(c, hk_asprintf(c->a, "cc %s", stds[s]));
        if (!ok) {
            k->status = "failed";
            k->output = why;
            continue;
        }
        k->tool_path = absolute(c->a, cc.path);
        k->tool_version = cc.version;
        const char **argv = make_argv(c, k->tool_path, cc_flags, stds[s], files);
        run_one(c, k, argv, argv, files);
    }
}

static void check_cppcheck(Ctx *c, const HkProfile *p, const char *const *files)
{
    HkCheck *k = new_check(c, "cppcheck");
    HkTool tool;
    const char *why = NULL;
    if (hk_resolve_cppcheck(c->a, &tool, &why) != 0) {
        /* An explicit $HAWK_CPPCHECK that does not resolve is a mistake
         * to report, as for $HAWK_CC, not an absent cppcheck to skip. */
        const char *env = getenv("HAWK_CPPCHECK");
        if (p->require_cppcheck || (env != NULL && *env != '\0')) {
            k->status = "failed";
            k->output = why;
            c->out->failed = 1;
            if (p->require_cppcheck)
                hk_error(c->d, c->src, c->loc,
                         "'%s': cppcheck is required (require_cppcheck) but %s",
                         c->what, why);
            else
                hk_error(c->d, c->src, c->loc, "'%s': check 'cppcheck' failed: %s",
                         c->what, why);
            return;
        }
        k->status = "skipped";
        k->why_skipped = why;
        return;
    }
    k->tool_path = absolute(c->a, tool.path);
    k->tool_version = tool.version;
    const char **argv = make_argv(c, k->tool_path, cppcheck_flags, NULL, files);
    /* cppcheck keeps each file's analysis in a build directory of the
     * cache, so a miss re-reads only the files that changed */
    const char *bd = hk_check_build_dir(c->a, c->cache, k->tool_path,
                                        k->tool_version, files);
    if (bd == NULL) {
        run_one(c, k, argv, argv, files);
        return;
    }
    bd = absolute(c->a, bd);  /* cppcheck runs in the unit's directory */
    const char **run_argv = make_argv(
        c, k->tool_path, cppcheck_flags,
        hk_asprintf(c->a, "--cppcheck-build-dir=%s", bd), files);
    /* the lock is let go even when memory runs out in the run */
    RunOne ro = {c, k, argv, run_argv, files};
    int lock = hk_check_lock(c->a, bd);
    hk_check_build_dir_renew(c->a, bd, hk_check_headers(c->a, c->dir, files));
    int oom = hk_arena_protect(c->a, run_one_call, &ro);
    hk_check_unlock(lock);
    if (oom != 0)
        hk_out_of_memory(c->a);
}

int hk_run_compile(const HawkUnitChecker *self, HkArena *a, const char *dir,
                   const char *const *files, const char *what,
                   const HkProfile *p, HkChecks *out, HkDiags *d,
                   const HkSource *src, HkLoc loc)
{
    (void)p;
    Ctx c = {a, self->cache_dir, dir, what, out, d, src, loc};
    int failed = out->failed;
    out->failed = 0;
    check_cc(&c, files);
    int rc = out->failed ? -1 : 0;
    out->failed |= failed;
    return rc;
}

int hk_run_cppcheck(const HawkUnitChecker *self, HkArena *a, const char *dir,
                    const char *const *files, const char *what,
                    const HkProfile *p, HkChecks *out, HkDiags *d,
                    const HkSource *src, HkLoc loc)
{
    Ctx c = {a, self->cache_dir, dir, what, out, d, src, loc};
    int failed = out->failed;
    out->failed = 0;
    check_cppcheck(&c, p, files);
    int rc = out->failed ? -1 : 0;
    out->failed |= failed;
    return rc;
}

const HawkUnitChecker *hk_driver_checker(void)
{
    static const HawkUnitChecker checker = {hk_run_compile, hk_run_cppcheck,
                                            NULL};
    return &checker;
}

const HawkUnitChecker *hk_driver_checker_cached(HkArena *a,
                                                const char *cache_dir)
{
    if (cache_dir == NULL || *cache_dir == '\0')
        return hk_driver_checker();
    HawkUnitChecker *k = hk_alloc(a, sizeof *k);
    k->compile = hk_run_compile;
    k->analyse = hk_run_cppcheck;
    k->cache_dir = hk_strdup(a, cache_dir);
    return k;
}

const HawkUnitChecker *hawk_driver_checker(void)
{
    return hk_driver_checker();
}

const HawkUnitChecker *hawk_driver_checker_cached(HawkContext *ctx,
                                                  const char *cache_dir)
{
    return ctx != NULL ? hk_driver_checker_cached(ctx->arena, cache_dir)
                       : NULL;
}

char *hawk_default_cache_dir(void)
{
    const char *v = getenv("HAWK_CACHE_DIR");
    if (v != NULL && *v != '\0') {
        char *p = hk_malloc(strlen(v) + 1);
        if (p != NULL)
            strcpy(p, v);
        return p;
    }
    const char *base = getenv("XDG_CACHE_HOME"), *tail = "/hawk";
    if (base == NULL || *base != '/') {
        base = getenv("HOME");
        tail = "/.cache/hawk";
    }
    if (base == NULL || *base == '\0')
        return NULL;
    size_t n = strlen(base) + strlen(tail) + 1;
    char *p = hk_malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s%s", base, tail);
    return p;
}
