/* cbuild.c -- the C unit of a kernel as a loaded shared object: written
 * into a private temporary directory, compiled with the resolved C
 * compiler (argv, never a shell), loaded with dlopen, and the directory
 * removed again.  Nothing here names the directory in normal output. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cruntime.h"
#include "runnerint.h"

/* An error about kernel's C build, appended to ctx without a location;
 * returns 1. */
static int build_error(HawkContext *ctx, const char *kernel, const char *fmt,
                       ...) HK_PRINTF(3, 4);
static int build_error(HawkContext *ctx, const char *kernel, const char *fmt,
                       ...)
{
    static const HkLoc noloc = {0, 0};
    va_list ap;
    va_start(ap, fmt);
    HkDiag *d = hk_vdiag(&ctx->diags, HAWK_ERROR, NULL, noloc, fmt, ap);
    va_end(ap);
    d->message = hk_asprintf(ctx->arena, "'%s': %s", kernel, d->message);
    return 1;
}

/* The flags every C build gets, then the unit's own (-ffp-contract=off
 * and its -fno-builtin-<f>), then the user's -cflags: the build the
 * bit-identity promise is made for (docs/EmbeddedC.md). */
static const char *const base_flags[] = {
    "-std=c99", "-O2", "-fPIC", "-shared",
};

/* The files of one build, relative to dir. */
typedef struct {
    const char *dir;          /* the mkdtemp directory */
    const char *c, *h, *so;   /* "<name>.c", "<name>.h", "<name>.so" */
    const char *rt_c, *rt_h;  /* the runtime unit's files, as the row names them */
    const char *rt_c_text, *rt_h_text;  /* rt_c_text NULL: no source */
} BuildDir;

/* Removes whatever of b's files exist, then the directory. */
static void remove_dir(HkArena *a, const BuildDir *b)
{
    const char *files[] = {b->c, b->h, b->so, b->rt_c, b->rt_h};
    for (size_t k = 0; k < 5; k++)
        (void)unlink(hk_asprintf(a, "%s/%s", b->dir, files[k]));
    (void)rmdir(b->dir);
}

/* Creates the private directory under $TMPDIR (else /tmp). */
static int make_dir(HawkContext *ctx, const char *kernel, BuildDir *b)
{
    HkArena *a = ctx->arena;
    const char *tmp = getenv("TMPDIR");
    char *dir = hk_asprintf(a, "%s/hawk-run.XXXXXX",
                            tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL)
        return build_error(ctx, kernel, "cannot create a temporary directory: %s",
                           strerror(errno));
    b->dir = dir;
    return 0;
}

/* Writes text to b's file name; 0, or -1 with *why. */
static int write_one(HkArena *a, const BuildDir *b, const char *name,
                     const char *text, const char **why)
{
    return hk_write_whole(a, hk_asprintf(a, "%s/%s", b->dir, name), text,
                          strlen(text), why);
}

/* Writes the .c and .h texts of u and the runtime unit into b. */
static int write_unit(HawkContext *ctx, const char *kernel, const BuildDir *b,
                      const HkCUnit *u)
{
    HkArena *a = ctx->arena;
    const char *why;
    if (write_one(a, b, b->c, u->c_text, &why) != 0 ||
        write_one(a, b, b->h, u->h_text, &why) != 0 ||
        write_one(a, b, b->rt_h, b->rt_h_text, &why) != 0 ||
        (b->rt_c_text != NULL &&
         write_one(a, b, b->rt_c, b->rt_c_text, &why) != 0))
        return build_error(ctx, kernel, "%s", why);
    return 0;
}

/* The runtime unit of l's unit alone (cruntime.h), into b. */
void cbuild_runtime(HkArena *a, const HkLowered *l, const HkCUnit *u,
                    UnitRuntime *out)
{
    HkRuntime rt;
    hk_runtime_init(&rt);
    out->c = hk_runtime_source_name(a, l->profile.target);
    out->h = hk_runtime_header_name(a, l->profile.target);
    hk_runtime_add(a, &rt, l->kernel->name, u);
    HkDiags d;  /* never filled: the C writer wrote them for the unit */
    hk_diags_init(&d, a);
    if (hk_runtime_mathfns(a, &rt, NULL, l, &d) != 0)
        hk_unreachable();
    hk_runtime_texts(a, &rt, out->h, out->c, &out->h_text, &out->c_text);
}

static void runtime_of(HkArena *a, const HkLowered *l, const HkCUnit *u,
                       BuildDir *b)
{
    UnitRuntime rt;
    cbuild_runtime(a, l, u, &rt);
    b->rt_c = rt.c;
    b->rt_h = rt.h;
    b->rt_c_text = rt.c_text;
    b->rt_h_text = rt.h_text;
}

size_t cbuild_words(HkArena *a, const char *text, const char **argv,
                    size_t n)
{
    for (const char *p = text; p != NULL && *p != '\0';) {
        p += strspn(p, " \t\n");
        size_t len = strcspn(p, " \t\n");
        if (len > 0)
            argv[n++] = hk_strndup(a, p, len);
        p += len;
    }
    return n;
}

/* The compiler's argv: cc, the base flags, the unit's flags, cflags split
 * at blanks, the output and the source (named relative to the build
 * directory), libm. */
static const char **compile_argv(HkArena *a, const char *cc,
                                 const HkCUnit *u, const char *cflags,
                                 const BuildDir *b)
{
    size_t nwords = cflags ? strlen(cflags) / 2 + 1 : 0;
    size_t nbase = sizeof base_flags / sizeof base_flags[0];
    const char **argv =
        hk_alloc(a, (nbase + u->ncflags + nwords + 7) * sizeof *argv);
    size_t n = 0;
    argv[n++] = cc;
    for (size_t k = 0; k < nbase; k++)
        argv[n++] = base_flags[k];
    for (uint32_t k = 0; k < u->ncflags; k++)
        argv[n++] = u->cflags[k];
    n = cbuild_words(a, cflags, argv, n);
    argv[n++] = "-o";
    argv[n++] = b->so;
    argv[n++] = b->c;
    if (b->rt_c_text != NULL)
        argv[n++] = b->rt_c;
    argv[n++] = "-lm";
    argv[n] = NULL;
    return argv;
}

/* Compiles b's .c into b's .so with the resolved C compiler. */
static int compile(HawkContext *ctx, const char *kernel, const HkCUnit *u,
                   const char *cflags, const BuildDir *b,
                   const char **command)
{
    HkArena *a = ctx->arena;
    HkTool cc;
    const char *why;
    if (hk_resolve_cc(a, &cc, &why) != 0)
        return build_error(ctx, kernel, "%s", why);
    const char **argv = compile_argv(a, cc.path, u, cflags, b);
    *command = hk_command_text(a, argv);
    HkRunResult r = hk_run_in(a, b->dir, argv);
    if (!r.started)
        return build_error(ctx, kernel, "cannot run the C compiler: %s: %s",
                           *command, r.errno_text);
    if (!r.exited || r.status != 0) {
        int n = (int)r.output_len;
        while (n > 0 && (r.output[n - 1] == '\n' || r.output[n - 1] == ' '))
            n--;
        /* what it printed on the lines after the command, if anything */
        return build_error(ctx, kernel, "the C compiler failed (%s %d): %s%s%.*s",
                           r.exited ? "exit status" : "signal", r.status,
                           *command, n > 0 ? "\n" : "", n, r.output);
    }
    return 0;
}

/* The class of a refused dlopen (the cc-backend notes): the environment's
 * (the library is missing, or a signing policy refused it) or a defect of
 * the library hawk built.  Whether the file is present decides a missing
 * library, since a missing dependency and a signing refusal both read like
 * a missing file. */
static const char *load_refusal_class(const char *path, const char *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return "environment: the library is missing";
    if (strstr(err, "code signature") != NULL ||
        strstr(err, "not valid for use in process") != NULL)
        return "environment: a code-signing policy refused the library";
    return "load defect: the library the C compiler built does not load";
}

/* Loads b's .so and finds <name>_<entry>, the row's entry. */
static int load(HawkContext *ctx, const char *kernel, const char *entry,
                const BuildDir *b, const char *command, CUnitLib *out)
{
    HkArena *a = ctx->arena;
    const char *path = hk_asprintf(a, "%s/%s", b->dir, b->so);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *err = dlerror();
        err = err != NULL ? hk_strdup(a, err) : "unknown error";
        return build_error(ctx, kernel,
                           "dlopen refused the C unit (%s): %s; built with: %s",
                           load_refusal_class(path, err), err, command);
    }
    const char *sym = hk_asprintf(a, "%s_%s", kernel, entry);
    void *fn = dlsym(h, sym);
    if (fn == NULL) {
        dlclose(h);
        return build_error(ctx, kernel, "the C unit has no '%s'; built with: %s",
                           sym, command);
    }
    out->handle = h;
    /* POSIX guarantees a dlsym'd function pointer converts back. */
    memcpy(&out->entry, &fn, sizeof fn);
    return 0;
}

int cbuild_load(HawkContext *ctx, const HkLowered *l, const char *cflags,
                CUnitLib *out)
{
    HkArena *a = ctx->arena;
    const char *kernel = l->kernel->name;
    memset(out, 0, sizeof *out);
    HkCUnit u;
    memset(&u, 0, sizeof u);
    if (hk_cwriter(a, l, &u, &ctx->diags) != 0)
        return 1;
    hk_cheader(a, l, &u);
    BuildDir b = {NULL, hk_unit_source_name(a, l), hk_unit_header_name(a, l),
                  hk_asprintf(a, "%s.so", kernel), NULL, NULL, NULL, NULL};
    runtime_of(a, l, &u, &b);
    if (make_dir(ctx, kernel, &b) != 0)
        return 1;
    const char *command = "";
    int rc = write_unit(ctx, kernel, &b, &u) ||
             compile(ctx, kernel, &u, cflags, &b, &command) ||
             load(ctx, kernel, l->profile.target->entry, &b, command, out);
    /* a loaded object stays mapped after its file is gone */
    remove_dir(a, &b);
    return rc;
}

void cbuild_unload(CUnitLib *u)
{
    if (u->handle != NULL)
        dlclose(u->handle);
    u->handle = NULL;
    u->entry = NULL;
}
