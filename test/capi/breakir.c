/* breakir.c -- hawk-capi-breakir: checks -verify-each from the C API with
 * a user transform that breaks the IR on purpose.  It reaches into the
 * private IR (lib/IR/ir.h), which only a test may do: break-verify unlinks
 * the first instruction of every kernel, so its result is used undefined.
 *
 *   hawk-capi-breakir FILE PIPELINE [-verify-each=0]
 *
 * Prints the module and exits 0, or prints the diagnostics and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/IR/ir.h"

#define TOOL "hawk-capi-breakir"

static int break_verify(HawkPassRun *run, HawkFunction *fn)
{
    (void)run;
    if (fn->is_kernel && fn->body.first != NULL)
        hk_inst_remove(fn->body.first);
    return 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    *len = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    return buf;
}

static void print_diags(HawkContext *ctx)
{
    for (size_t i = 0; i < hawk_diag_count(ctx); i++) {
        const char *s = hawk_diag_render(ctx, i);
        if (hawk_diag_line(ctx, i) == 0 && strncmp(s, "error: ", 7) == 0)
            fputs(TOOL ": ", stderr);
        fputs(s, stderr);
    }
}

static int run(HawkContext *ctx, int argc, char **argv, const char *text,
               size_t len)
{
    if (hawk_register_pass(ctx, "break-verify", "unlink the first instruction",
                           HAWK_PASS_TRANSFORM, break_verify, NULL) != 0)
        return 1;
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return 1;
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (argc > 3 && strcmp(argv[3], "-verify-each=0") == 0)
        hawk_pass_manager_set_verify_each(pm, 0);
    if (hawk_pass_manager_parse(pm, argv[2]) != 0 ||
        hawk_pass_manager_run(pm, m) != 0)
        return 1;
    fputs(hawk_print(ctx, m, NULL), stdout);
    return 0;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    char *text = argc >= 3 ? read_file(argv[1], &len) : NULL;
    if (text == NULL) {
        fputs("usage: " TOOL " FILE PIPELINE [-verify-each=0]\n", stderr);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    int rc = run(ctx, argc, argv, text, len);
    print_diags(ctx);
    hawk_context_destroy(ctx);
    free(text);
    return rc;
}
