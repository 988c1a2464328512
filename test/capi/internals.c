/* internals.c -- hawk-capi-internals: pass-manager behaviour that only a
 * pass reaching into the private IR (lib/IR/ir.h, lib/Passes/passes.h) can
 * show, which only a test may do:
 *   break-verify  a transform that unlinks the first instruction of every
 *                 kernel, so its result is used undefined (-verify-each);
 *   read-int      an analysis that prints hk_option_int(run, "n", 7).
 *
 *   hawk-capi-internals FILE PIPELINE [-verify-each=0] [-global=KEY=VALUE]
 *
 * Prints the module to stdout and the print<name> text to stderr, and exits
 * 0; or prints the diagnostics and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "ir.h"
#include "passes.h"

#define TOOL "hawk-capi-internals"

/* break-verify: unlinks the first instruction of a kernel. */
static int break_verify(HawkPassRun *run, HawkFunction *fn)
{
    (void)run;
    if (fn->is_kernel && fn->body.first != NULL)
        hk_inst_remove(fn->body.first);
    return 0;
}

/* read-int: prints option n as hk_option_int reads it (default 7). */
static int read_int(HawkPassRun *run, HawkFunction *fn)
{
    int64_t n;
    if (hk_option_int(run, "n", 7, &n) != 0)
        return 1;
    printf("read-int @%s: %lld\n", fn->name, (long long)n);
    return 0;
}

/* The flags after FILE and PIPELINE; 0, or 1 if one is unknown. */
static int apply_flags(HawkPassManager *pm, int argc, char **argv)
{
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "-verify-each=0") == 0) {
            hawk_pass_manager_set_verify_each(pm, 0);
        } else if (!capi_global_option(pm, argv[i])) {
            fprintf(stderr, TOOL ": error: unknown option '%s'\n", argv[i]);
            return 1;
        }
    }
    return 0;
}

/* Registers the two passes, parses, verifies, runs and prints; 0 on
 * success. */
static int run(HawkContext *ctx, int argc, char **argv, const char *text,
               size_t len)
{
    if (hawk_register_pass(ctx, "break-verify", "unlink the first instruction",
                           HAWK_PASS_TRANSFORM, break_verify, NULL) != 0 ||
        hawk_register_pass(ctx, "read-int", "print option n",
                           HAWK_PASS_ANALYSIS, read_int, NULL) != 0)
        return 1;
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    if (m == NULL || hawk_verify(ctx, m) != 0)
        return 1;
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (apply_flags(pm, argc, argv) != 0 ||
        hawk_pass_manager_parse(pm, argv[2]) != 0)
        return 1;
    int rc = hawk_pass_manager_run(pm, m);
    fputs(hawk_pass_manager_output(pm, NULL), stderr);
    if (rc != 0)
        return 1;
    fputs(hawk_print(ctx, m, NULL), stdout);
    return 0;
}

int main(int argc, char **argv)
{
    size_t len = 0;
    char *text = argc >= 3 ? capi_read_file(argv[1], &len) : NULL;
    if (text == NULL) {
        fputs("usage: " TOOL " FILE PIPELINE [-verify-each=0] "
              "[-global=KEY=VALUE]\n", stderr);
        return 1;
    }
    HawkContext *ctx = hawk_context_create();
    int rc = run(ctx, argc, argv, text, len);
    capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    free(text);
    return rc;
}
