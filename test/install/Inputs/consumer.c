/* consumer.c -- a program built against an installed hawk: parses a HIR
 * file, verifies it and exports its kernels as C into a directory (the
 * toolchain checks through hawk-driver's checker when asked; built with
 * HAWK_NO_DRIVER against the shared libhawk alone, without them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HAWK_NO_DRIVER
#include "hawk/driver.h"
#endif
#include "hawk/emit.h"
#include "hawk/hawk.h"

static void on_unit(void *user, const HawkExportUnit *u)
{
    (void)user;
    printf("exported %s: %s %s\n", u->kernel, u->c_name, u->h_name);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fputs("usage: consumer FILE.hir OUTDIR [check]\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL)
        return 2;
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    HawkContext *ctx = hawk_context_create();
    HawkModule *m = hawk_parse(ctx, argv[1], text, len);
    int rc = m == NULL || hawk_verify(ctx, m) != 0;
    if (rc == 0) {
        HawkExportOptions o;
        hawk_export_options_init(&o);
        o.out_dir = argv[2];
        o.check = argc == 4 && strcmp(argv[3], "check") == 0;
#ifndef HAWK_NO_DRIVER
        o.checker = hawk_driver_checker();
#endif
        o.on_unit = on_unit;
        rc = hawk_export(ctx, m, &o) != 0;
    }
    for (size_t i = 0; i < hawk_diag_count(ctx); i++)
        fputs(hawk_diag_render(ctx, i), stderr);
    hawk_context_destroy(ctx);
    return rc;
}
