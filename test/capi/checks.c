/* checks.c -- hawk-capi-checks: runs the toolchain checks
 * (lib/Driver/checks.c) on .c files already in a directory, the way the C
 * target runs them after writing its units: the compiler over the files,
 * then cppcheck over them together; prints what the report records of
 * each check.
 *
 *   hawk-capi-checks [-require-cppcheck] DIR NAME.c [OTHER.c...]
 *
 * Prints, per check in the order run, "check <name>: <status>" and its
 * command, tool, version, skip reason and output lines; then the
 * diagnostics (located at a stand-in kernel @NAME in "NAME.hir") on
 * stderr.  Exits 1 when a check failed. */
#include <stdio.h>
#include <string.h>

#include "capi_test.h"
#include "passctx.h"
#include "driver.h"

#define TOOL "hawk-capi-checks"

static void print_check(const HkCheck *k)
{
    printf("check %s: %s\n", k->name, k->status);
    if (*k->command != '\0')
        printf("  command: %s\n", k->command);
    if (k->tool_path != NULL)
        printf("  tool: %s\n", k->tool_path);
    if (k->tool_version != NULL)
        printf("  version: %s\n", k->tool_version);
    if (k->why_skipped != NULL)
        printf("  skipped: %s\n", k->why_skipped);
    /* Each output line indented, so a test can CHECK it in place. */
    for (const char *p = k->output; *p;) {
        size_t n = strcspn(p, "\n");
        printf("  | %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

int main(int argc, char **argv)
{
    int require = argc > 1 && strcmp(argv[1], "-require-cppcheck") == 0;
    if (argc < 3 + require) {
        fputs("usage: " TOOL " [-require-cppcheck] DIR NAME.c [OTHER.c...]\n",
              stderr);
        return 2;
    }
    const char *dir = argv[1 + require], *c_path = argv[2 + require];
    HawkContext *ctx = hawk_context_create();
    HkArena *a = ctx->arena;
    size_t n = strcspn(c_path, ".");
    const char *name = hk_strndup(a, c_path, n);
    const char *text = hk_asprintf(a, "kernel @%s() {\n  ret\n}\n", name);
    HkSource src = {hk_asprintf(a, "%s.hir", name), text, strlen(text), 0, 0};
    HkLoc loc = {1, 1};
    HkProfile p;
    memset(&p, 0, sizeof p);
    p.max_trips = p.max_ops = p.max_stack_bytes = HK_NONE;
    p.require_cppcheck = require;
    p.c_std = 99;
    HkChecks out;
    memset(&out, 0, sizeof out);
    const char *const *files = (const char *const *)argv + 2 + require;
    const HawkUnitChecker *ck = hk_driver_checker();
    int rc = hk_run_compile(ck, a, dir, files, name, &p, &out, &ctx->diags,
                            &src, loc);
    rc |= hk_run_cppcheck(ck, a, dir, files, name, &p, &out, &ctx->diags,
                          &src, loc);
    for (uint32_t i = 0; i < out.n; i++)
        print_check(&out.items[i]);
    printf("failed: %d\n", out.failed);
    /* The checks first, then the diagnostics, also under 2>&1. */
    fflush(stdout);
    capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    return rc == 0 ? 0 : 1;
}
