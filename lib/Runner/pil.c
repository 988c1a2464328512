/* pil->c -- processor in the loop: the C unit built with another compiler
 * into a static harness program, run through an executor (qemu-arm, or a
 * script that flashes a board), every launch exchanged through files.
 *
 * The harness (written here for each kernel, plain C99 with stdio) reads
 * the launch from in.bin, fills the kernel's args struct member by member
 * by name (so the target's own layout and pointer width apply), calls the
 * entry, and writes the status and every plane back to out.bin.  The
 * runner stands a proxy entry in for the unit: it serializes the launch
 * the comparisons hand it, runs the harness and copies the planes back,
 * so every comparison of compare.c (whole range, partitions, the entry's
 * refusals) runs unchanged against the target.  Both sides are little
 * endian with IEEE 754 reals; a by-value member travels as its bytes.
 *
 * in.bin:  u8 has_args; per member in ABI order: a plane as u8 present,
 *          then (present) u64 bytes and the bytes; a length as i64; a
 *          value as u64 bytes and the bytes; then i64 base, count,
 *          n_samples.
 * out.bin: i32 status; then each present plane's bytes, in ABI order. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "runnerint.h"

/* A target session: the harness of one kernel's C unit, held by the
 * caller (the runner's run of that kernel), so that two runs never share
 * one. */
struct PilSession {
    HawkContext *ctx;
    const HkAbiLayout *abi;
    const HkLaunchShape *shape;     /* the launch being compared */
    const char *dir;              /* the build directory */
    const char *files[8];         /* the files made in it */
    uint32_t nfiles;
    const char *const *argv;      /* executor words, harness, in, out */
    const char *in, *out;         /* the exchange files' paths */
    int broken;                   /* a run failed: every later call fails */
};

static const HkLoc noloc = {0, 0};

/* ---- the harness ------------------------------------------------------- */

/* The harness source for l's unit, whose header is header. */
static const char *harness_text(HkArena *a, const HkLowered *l,
                                const HkAbiLayout *abi, const char *header)
{
    const char *name = l->kernel->name;
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b,
                  "/* The processor-in-the-loop harness of %s (hawk-run). */\n"
                  "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                  "#include <string.h>\n#include \"%s\"\n\n"
                  "static FILE *in;\n"
                  "static void rd(void *p, size_t n)\n{\n"
                  "    if (fread(p, 1, n, in) != n)\n        exit(3);\n}\n\n"
                  "int main(int argc, char **argv)\n{\n"
                  "    %s_args_t a;\n    void *buf[%u];\n    uint64_t len[%u];\n"
                  "    unsigned char has, present;\n    uint64_t nb;\n"
                  "    int64_t v, base, count, n;\n"
                  "    memset(&a, 0, sizeof a);\n"
                  "    if (argc != 3 || (in = fopen(argv[1], \"rb\")) == NULL)\n"
                  "        return 2;\n"
                  "    rd(&has, 1);\n",
                  name, header, name, abi->nfields + 1u, abi->nfields + 1u);
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *f = &abi->fields[k];
        switch (f->kind) {
        case HK_ABI_PLANE:
            hk_buf_printf(&b,
                          "    buf[%u] = NULL;\n    len[%u] = 0;\n"
                          "    if (has) {\n        rd(&present, 1);\n"
                          "        if (present) {\n            rd(&nb, 8);\n"
                          "            buf[%u] = malloc(nb ? nb : 1);\n"
                          "            if (buf[%u] == NULL)\n                return 5;\n"
                          "            rd(buf[%u], nb);\n            len[%u] = nb;\n"
                          "            a.%s = buf[%u];\n        }\n    }\n",
                          k, k, k, k, k, k, f->name, k);
            break;
        case HK_ABI_LEN:
            hk_buf_printf(&b, "    if (has) {\n        rd(&v, 8);\n"
                              "        a.%s = v;\n    }\n",
                          f->name);
            break;
        case HK_ABI_VALUE:
            hk_buf_printf(&b,
                          "    if (has) {\n        rd(&nb, 8);\n"
                          "        if (nb != sizeof a.%s)\n            return 4;\n"
                          "        rd(&a.%s, sizeof a.%s);\n    }\n",
                          f->name, f->name, f->name);
            break;
        }
    }
    hk_buf_printf(&b,
                  "    rd(&base, 8);\n    rd(&count, 8);\n    rd(&n, 8);\n"
                  "    fclose(in);\n"
                  "    int32_t st = (int32_t)%s_%s(has ? &a : NULL, base, count, n);\n"
                  "    FILE *out = fopen(argv[2], \"wb\");\n"
                  "    if (out == NULL || fwrite(&st, 4, 1, out) != 1)\n"
                  "        return 6;\n",
                  name, l->profile.target->entry);
    for (uint32_t k = 0; k < abi->nfields; k++)
        if (abi->fields[k].kind == HK_ABI_PLANE)
            hk_buf_printf(&b,
                          "    if (has && buf[%u] != NULL &&\n"
                          "        fwrite(buf[%u], 1, len[%u], out) != len[%u])\n"
                          "        return 6;\n",
                          k, k, k, k);
    hk_buf_puts(&b, "    return fclose(out) == 0 ? 0 : 6;\n}\n");
    return hk_buf_cstr(&b);
}

/* Writes text to dir/name; 0, or 1 with a diagnostic. */
static int put_file(HawkContext *ctx, const char *dir, const char *name,
                    const char *text)
{
    const char *why;
    if (hk_write_whole(ctx->arena, hk_asprintf(ctx->arena, "%s/%s", dir, name),
                       text, strlen(text), &why) == 0)
        return 0;
    hk_error(&ctx->diags, NULL, noloc, "processor in the loop: %s", why);
    return 1;
}

int pil_build(HawkContext *ctx, const HkLowered *l, const HkAbiLayout *abi,
              const char *cc, const char *exec, const char *cflags,
              PilSession **out)
{
    HkArena *a = ctx->arena;
    PilSession *pil = hk_alloc(a, sizeof *pil);
    *out = pil;
    const char *kernel = l->kernel->name;
    HkCUnit u;
    memset(&u, 0, sizeof u);
    if (hk_cwriter(a, l, &u, &ctx->diags) != 0)
        return 1;
    hk_cheader(a, l, &u);
    UnitRuntime rt;
    cbuild_runtime(a, l, &u, &rt);
    const char *tmp = getenv("TMPDIR");
    char *dir = hk_asprintf(a, "%s/hawk-pil.XXXXXX",
                            tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        hk_error(&ctx->diags, NULL, noloc,
                 "'%s': cannot create a temporary directory: %s", kernel,
                 strerror(errno));
        return 1;
    }
    pil->ctx = ctx;
    pil->dir = dir;
    const char *c = hk_unit_source_name(a, l), *h = hk_unit_header_name(a, l);
    const char *made[] = {c, h, rt.h, rt.c, "harness.c", "harness", "in.bin",
                          "out.bin"};
    for (size_t k = 0; k < 8; k++)
        pil->files[pil->nfiles++] = made[k];
    if (put_file(ctx, dir, c, u.c_text) || put_file(ctx, dir, h, u.h_text) ||
        put_file(ctx, dir, rt.h, rt.h_text) ||
        (rt.c_text != NULL && put_file(ctx, dir, rt.c, rt.c_text)) ||
        put_file(ctx, dir, "harness.c", harness_text(a, l, abi, h)))
        return 1;
    /* cc, the flags the unit is verified under, the unit's own, the
     * user's, then a static program (an executor runs it alone) */
    size_t nwords = cflags != NULL ? strlen(cflags) / 2 + 1 : 0;
    const char **argv = hk_alloc(a, (u.ncflags + nwords + 16u) * sizeof *argv);
    size_t n = 0;
    argv[n++] = cc;
    static const char *const base_flags[] = {"-std=c99", "-O2", "-static"};
    for (size_t k = 0; k < 3; k++)
        argv[n++] = base_flags[k];
    for (uint32_t k = 0; k < u.ncflags; k++)
        argv[n++] = u.cflags[k];
    n = cbuild_words(a, cflags, argv, n);
    argv[n++] = "-o";
    argv[n++] = "harness";
    argv[n++] = "harness.c";
    argv[n++] = c;
    if (rt.c_text != NULL)
        argv[n++] = rt.c;
    argv[n++] = "-lm";
    argv[n] = NULL;
    const char *command = hk_command_text(a, argv);
    HkRunResult r = hk_run_in(a, dir, argv);
    if (!r.started || !r.exited || r.status != 0) {
        hk_error(&ctx->diags, NULL, noloc,
                 "'%s': the harness did not build: %s\n%.*s", kernel, command,
                 (int)r.output_len, r.output != NULL ? r.output : "");
        return 1;
    }
    const char **run = hk_alloc(a, 6 * sizeof *run);
    size_t m = 0;
    if (exec != NULL)
        run[m++] = exec;
    run[m++] = hk_asprintf(a, "%s/harness", dir);
    pil->in = run[m++] = hk_asprintf(a, "%s/in.bin", dir);
    pil->out = run[m++] = hk_asprintf(a, "%s/out.bin", dir);
    run[m] = NULL;
    pil->ctx = ctx;
    pil->abi = abi;
    pil->argv = run;
    pil->broken = 0;
    return 0;
}

void pil_set_shape(PilSession *pil, const HkLaunchShape *s)
{
    pil->shape = s;
}

/* ---- the proxy entry ---------------------------------------------------- */

/* The plane of s whose member is field f, or NULL. */
static const HkPlaneShape *plane_of(const HkLaunchShape *s, const HkAbiField *f)
{
    for (uint32_t k = 0; k < s->nplanes; k++)
        if (s->planes[k].field == f)
            return &s->planes[k];
    return NULL;
}

/* A failure of the target session: reported once, then every call fails. */
static int32_t broken(PilSession *pil, const char *what,
                      const HkRunResult *r)
{
    if (!pil->broken)
        hk_error(&pil->ctx->diags, NULL, noloc,
                 "processor in the loop: %s: %s\n%.*s", what,
                 hk_command_text(pil->ctx->arena, pil->argv),
                 r != NULL ? (int)r->output_len : 0,
                 r != NULL && r->output != NULL ? r->output : "");
    pil->broken = 1;
    return -1000;
}

static int put(FILE *f, const void *p, size_t n)
{
    return fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* Writes the launch args (NULL: none) over [base, base + count) to in.bin. */
static int write_launch(const PilSession *pil, const unsigned char *args,
                        int64_t base, int64_t count, int64_t n)
{
    FILE *f = fopen(pil->in, "wb");
    if (f == NULL)
        return -1;
    unsigned char has = args != NULL;
    int rc = put(f, &has, 1);
    for (uint32_t k = 0; has && rc == 0 && k < pil->abi->nfields; k++) {
        const HkAbiField *fl = &pil->abi->fields[k];
        const unsigned char *at = args + fl->offset;
        if (fl->kind == HK_ABI_PLANE) {
            const unsigned char *p;
            memcpy(&p, at, sizeof p);
            const HkPlaneShape *ps = plane_of(pil->shape, fl);
            unsigned char present = p != NULL && ps != NULL;
            rc |= put(f, &present, 1);
            if (present) {
                uint64_t nb = ps->bytes;
                rc |= put(f, &nb, 8) | put(f, p, ps->bytes);
            }
        } else if (fl->kind == HK_ABI_LEN) {
            rc |= put(f, at, 8);
        } else {
            uint64_t nb = fl->size;
            rc |= put(f, &nb, 8) | put(f, at, fl->size);
        }
    }
    rc |= put(f, &base, 8) | put(f, &count, 8) | put(f, &n, 8);
    return fclose(f) != 0 ? -1 : rc;
}

/* Reads out.bin: the status, and each plane back into args' planes. */
static int read_result(const PilSession *pil, const unsigned char *args,
                       int32_t *status)
{
    FILE *f = fopen(pil->out, "rb");
    if (f == NULL)
        return -1;
    int rc = fread(status, 4, 1, f) == 1 ? 0 : -1;
    for (uint32_t k = 0; args != NULL && rc == 0 && k < pil->abi->nfields; k++) {
        const HkAbiField *fl = &pil->abi->fields[k];
        if (fl->kind != HK_ABI_PLANE)
            continue;
        unsigned char *p;
        memcpy(&p, args + fl->offset, sizeof p);
        const HkPlaneShape *ps = plane_of(pil->shape, fl);
        if (p != NULL && ps != NULL &&
            fread(p, 1, ps->bytes, f) != ps->bytes)
            rc = -1;
    }
    fclose(f);
    return rc;
}

int32_t pil_entry(PilSession *pil, const void *args, int64_t base,
                  int64_t count, int64_t n)
{
    if (pil->broken)
        return -1000;
    if (write_launch(pil, args, base, count, n) != 0)
        return broken(pil, "cannot write the launch", NULL);
    HkRunResult r = hk_run_in(pil->ctx->arena, pil->dir, pil->argv);
    if (!r.started || !r.exited || r.status != 0)
        return broken(pil, "the harness failed", &r);
    int32_t status;
    if (read_result(pil, args, &status) != 0)
        return broken(pil, "the harness wrote no result", &r);
    return status;
}

void pil_unload(PilSession *pil)
{
    if (pil == NULL)
        return;
    if (pil->dir != NULL) {
        for (uint32_t k = 0; k < pil->nfiles; k++)
            (void)unlink(hk_asprintf(pil->ctx->arena, "%s/%s", pil->dir,
                                     pil->files[k]));
        (void)rmdir(pil->dir);
    }
    memset(pil, 0, sizeof *pil);
}
