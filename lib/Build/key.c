/* key.c -- the key of a build: the sha256 of its terms, one line each,
 * in a fixed order: hawk's version and the digest of its sources; each
 * input's name and content digest; the profile; the targets; whether the checks run; the
 * toolchain's fingerprints (the C compiler and, when the checks run,
 * cppcheck: resolved path, version line, size and modification time of
 * the executable); the LLVM the host row is built with, and the CPU name
 * and features it builds for when the build has that row.  A build whose
 * terms are equal writes the same bytes, so its files can come from the
 * cache. */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "buildint.h"
#include "context.h"
#include "digest.h"
#include "host.h"

/* "<label> <path> | <version> | size <n> | mtime <t>", or "<label> none
 * (<why>)". */
void build_tool_line(HkBuf *b, const char *label, int found,
                     const HkTool *t, const char *why)
{
    if (!found) {
        hk_buf_printf(b, "%s none (%s)\n", label, why);
        return;
    }
    struct stat st;
    int ok = stat(t->path, &st) == 0;
    hk_buf_printf(b, "%s %s | %s | size %" PRId64 " | mtime %" PRId64 "\n",
                  label, t->path, t->version != NULL ? t->version : "",
                  ok ? (int64_t)st.st_size : INT64_C(-1),
                  ok ? (int64_t)st.st_mtime : INT64_C(-1));
}

/* Whether the build has a row whose units the checks read. */
static int checks_run(const BuildRecord *r, const HawkBuildOptions *o)
{
    if (!o->check)
        return 0;
    for (size_t k = 0; k < r->nrows; k++)
        if (hk_target_checked(r->rows[k]))
            return 1;
    return 0;
}

/* Whether the build has a row built for this machine's CPU. */
static int native_row(const BuildRecord *r)
{
    for (size_t k = 0; k < r->nrows; k++)
        if (hk_target_native(r->rows[k]))
            return 1;
    return 0;
}

void build_key(BuildRecord *r, const HawkBuildOptions *o, const char **key,
               const char **terms)
{
    HkArena *a = r->ctx->arena;
    HkBuf b;
    hk_buf_init(&b, a);
    /* the version alone stays put while what hawk writes changes */
    hk_buf_printf(&b, "hawk %s sources %s\nbuilt %s\n", hawk_version(),
                  hawk_source_digest(), hawk_build_config());
    for (size_t k = 0; k < r->nms; k++) {
        const HkSource *src = &r->ms[k]->src;
        hk_buf_printf(&b, "input %s %s\n", build_input_name(src),
                      hk_sha256_hex(a, src->text, src->len));
    }
    hk_buf_printf(&b, "profile %s\n", r->profile != NULL ? r->profile : "");
    hk_buf_puts(&b, "targets");
    for (size_t k = 0; k < r->nrows; k++)
        hk_buf_printf(&b, " %s", r->rows[k]->id);
    hk_buf_printf(&b, "\nchecks %s\n", checks_run(r, o) ? "on" : "off");
    r->cc_why = "";
    r->cc_found = hk_resolve_cc(a, &r->cc_tool, &r->cc_why) == 0;
    build_tool_line(&b, "cc", r->cc_found, &r->cc_tool, r->cc_why);
    if (checks_run(r, o)) {
        HkTool t;
        const char *why = "";
        int found = hk_resolve_cppcheck(a, &t, &why) == 0;
        build_tool_line(&b, "cppcheck", found, &t, why);
    }
    hk_buf_printf(&b, "llvm %s\n", hk_host_llvm_version());
    /* a shared cache must not hand one machine another's instructions */
    if (native_row(r))
        hk_buf_printf(&b, "cpu %s\n", hk_host_cpu(a));
    *terms = hk_buf_cstr(&b);
    *key = hk_sha256_hex(a, b.data, b.len);
}
