/* export_misuse.c -- hawk-capi-export_misuse: what hawk_export_modules
 * says to a caller that asks for what it cannot do.  Public API only; each
 * CASE parses the FILEs (one module each), exports them without checks,
 * prints the diagnostics and the return status.
 *
 *   hawk-capi-export_misuse CASE DIR FILE...
 *
 *   plain     the FILEs into DIR (status 0 when all goes well)
 *   none      no module at all
 *   defaults  NULL options: the defaults, which run the checks, and this
 *             program links no checker
 *   host      the host row, whose writer (hawk-llvm) is not linked
 *   unverified  the FILEs parsed but not verified (the caller skipped
 *             hawk_verify): the export verifies what it lowers
 *
 * Exit status: the export's (0 or 1); 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "hawk/emit.h"
#include "hawk/hawk.h"

#define TOOL "hawk-capi-export_misuse"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: " TOOL " CASE DIR FILE...\n", stderr);
        return 2;
    }
    const char *mode = argv[1];
    HawkContext *ctx = hawk_context_create();
    HawkModule *ms[8];
    size_t nms = 0;
    for (int k = 3; k < argc && nms < 8; k++) {
        size_t len;
        char *text = capi_read_input(TOOL, argv[k], &len);
        if (text == NULL) {
            hawk_context_destroy(ctx);
            return 2;
        }
        ms[nms] = hawk_parse(ctx, argv[k], text, len);
        free(text);
        if (ms[nms] == NULL ||
            (strcmp(mode, "unverified") != 0 && hawk_verify(ctx, ms[nms]) != 0)) {
            capi_print_diags(TOOL, ctx);
            hawk_context_destroy(ctx);
            return 2;
        }
        nms++;
    }
    HawkExportOptions o;
    hawk_export_options_init(&o);
    o.out_dir = argv[2];
    o.check = 0;
    const HawkExportOptions *opts = &o;
    if (strcmp(mode, "none") == 0)
        nms = 0;
    else if (strcmp(mode, "defaults") == 0)
        opts = NULL;
    else if (strcmp(mode, "host") == 0)
        o.target = "host";
    else if (strcmp(mode, "plain") != 0 && strcmp(mode, "unverified") != 0) {
        fprintf(stderr, TOOL ": unknown case '%s'\n", mode);
        hawk_context_destroy(ctx);
        return 2;
    }
    int rc = hawk_export_modules(ctx, ms, nms, opts);
    capi_print_diags(TOOL, ctx);
    printf("status %d\n", rc);
    hawk_context_destroy(ctx);
    return rc != 0;
}
