/* report.c -- the tables hawk-opt prints: --print-passes, -time-passes. */
#include <stdio.h>
#include <string.h>

#include "opt.h"

void opt_print_passes(const HawkContext *ctx)
{
    size_t n = hawk_pass_count(ctx), width = 0;
    for (size_t i = 0; i < n; i++) {
        size_t w = strlen(hawk_pass_name(ctx, i));
        width = w > width ? w : width;
    }
    for (size_t i = 0; i < n; i++) {
        const char *kind = hawk_pass_kind(ctx, i) == HAWK_PASS_TRANSFORM
                               ? "transform"
                               : "analysis";
        printf("  %-*s  %-9s  %s\n", (int)width, hawk_pass_name(ctx, i), kind,
               hawk_pass_summary(ctx, i));
        const char *opts = hawk_pass_options(ctx, i);
        if (*opts != '\0')
            printf("  %-*s  %-9s  options: %s\n", (int)width, "", "", opts);
    }
}

void opt_print_timing(const HawkPassManager *pm, const double *seconds)
{
    size_t n = hawk_pass_manager_size(pm);
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += seconds[i];
    fprintf(stderr,
            "===-------- hawk-opt pass execution timing report --------===\n"
            "  Total Execution Time: %.6f seconds\n\n"
            "   -----Wall Time-----  --- Name ---\n",
            total);
    for (size_t i = 0; i < n; i++) {
        double pct = total > 0.0 ? 100.0 * seconds[i] / total : 0.0;
        /* microseconds: a pass over one kernel takes a few of them */
        fprintf(stderr, "  %10.6f (%5.1f%%)  %s\n", seconds[i], pct,
                hawk_pass_manager_pass_name(pm, i));
    }
    fprintf(stderr, "  %10.6f (%5.1f%%)  Total\n", total, 100.0);
}
