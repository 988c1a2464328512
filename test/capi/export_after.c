/* export_after.c -- a caller composes its own pipeline, then exports: the
 * C unit is lowered from the module as the caller left it, and the
 * caller's module is not changed by the export.  Public API only.
 *
 *   hawk-capi-export_after FILE PIPELINE   prints the module, then the
 *   header's "kernel sha256" line and the .c of every kernel, then
 *   "module unchanged" or "module CHANGED".
 *   hawk-capi-export_after FILE PIPELINE DIR   exports into DIR with the
 *   checks on and no checker: libhawk alone runs no tool, so it refuses.
 *   hawk-capi-export_after FILE PIPELINE -selftest   prints under
 *   selftest=on with no oracle: libhawk alone has no host build, so it
 *   refuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "hawk/emit.h"
#include "hawk/hawk.h"

static void print_c(void *user, const HawkExportUnit *u)
{
    (void)user;
    const char *sha = strstr(u->h_text, "kernel sha256");
    if (sha != NULL)
        printf("%.*s\n", (int)strcspn(sha, "\n"), sha);
    printf("==> %s <==\n%s", u->c_name, u->c_text);
}

static int fail(HawkContext *ctx)
{
    capi_print_diags("hawk-capi-export_after", ctx);
    hawk_context_destroy(ctx);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s FILE PIPELINE [DIR]\n", argv[0]);
        return 2;
    }
    size_t len = 0;
    char *text = capi_read_file(argv[1], &len);
    if (text == NULL) {
        fprintf(stderr, "cannot read '%s'\n", argv[1]);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    free(text);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return fail(ctx);
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (hawk_pass_manager_parse(pm, argv[2]) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return fail(ctx);
    /* The print is owned by ctx; keep a copy to compare after the export. */
    const char *before = hawk_print(ctx, m, NULL);
    fputs(before, stdout);
    HawkExportOptions o;
    hawk_export_options_init(&o);
    /* with DIR: write and check there, with no checker linked in */
    int selftest = argc == 4 && strcmp(argv[3], "-selftest") == 0;
    static const char *const keys[] = {"selftest"};
    static const char *const vals[] = {"on"};
    o.print_only = argc == 3 || selftest;
    o.out_dir = argc == 4 && !selftest ? argv[3] : NULL;
    if (selftest) {
        o.opt_keys = keys;
        o.opt_vals = vals;
        o.nopts = 1;
    }
    o.on_unit = print_c;
    if (hawk_export(ctx, m, &o) != 0)
        return fail(ctx);
    const char *after = hawk_print(ctx, m, NULL);
    puts(strcmp(before, after) == 0 ? "module unchanged" : "module CHANGED");
    hawk_context_destroy(ctx);
    return 0;
}
