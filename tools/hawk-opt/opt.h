/* opt.h -- hawk-opt's pieces: the configuration its flags fill, the run
 * state, and the files that implement each job. */
#ifndef HAWK_OPT_H
#define HAWK_OPT_H

#include <stddef.h>

#include "hawk/hawk.h"
#include "tool_io.h"
#include "tool_opts.h"

#define OPT_TOOL "hawk-opt"

/* What the command line asked for (options.c). */
typedef struct {
    const char *input;         /* NULL until given; "-" is stdin */
    const char *output;        /* -o; NULL is stdout */
    const char *passes;        /* -passes= */
    const char **print_after;  /* -print-after=, malloc'd */
    size_t nprint_after;
    ToolPairs globals;         /* pipeline-wide pass options */
    int verify_each;
    int print_passes, print_after_all, time_passes, split_input,
        verify_diags, disable_output, help, version;
    int verify_embedded;       /* -verify-embedded: the verify pipeline */
    const char *analysis_report; /* -analysis-report=FILE */
} OptConfig;

/* Fills cfg from argv; 0, or 1 after an error message. */
int opt_parse_command_line(OptConfig *cfg, int argc, char **argv);
void opt_print_help(void);
void opt_config_free(OptConfig *cfg);

/* One whole run over the input (main.c). */
typedef struct {
    const OptConfig *cfg;
    HawkContext *ctx;
    HawkPassManager *pm;
    const char *name;          /* the input's name in diagnostics */
    double *seconds;           /* per pipeline entry, summed over chunks */
    size_t out_flushed;        /* print<name> text already written */
    ToolText in;               /* the input, which the modules point into
                                  (hawk_parse_view): freed after ctx */
    ToolBuf out;               /* the printed module(s) */
    const char **reports;      /* -analysis-report: one per kernel, owned
                                  by ctx; the array is malloc'd */
    size_t nreports;
} OptRun;

/* Calls fn on each piece of text between lines that are exactly "// -----"
 * (trailing blanks allowed), with the number of lines before the piece;
 * returns the OR of the results (split.c). */
typedef int (*OptChunkFn)(OptRun *r, const char *text, size_t len,
                          unsigned line_base, int first);
int opt_for_each_chunk(OptRun *r, const char *text, size_t len, int split,
                       OptChunkFn fn);

/* -verify-diagnostics: checks diagnostics [from, count) against the
 * expected-* annotations of the chunk; reports mismatches; 0 when they
 * agree (expect.c). */
int opt_check_expected(HawkContext *ctx, size_t from, const char *name,
                       const char *text, size_t len, unsigned line_base);

/* -verify-embedded's pipeline: the embedded C target's verify passes,
 * feature-refusal first (analysis_report.c). */
#define OPT_VERIFY_EMBEDDED_PIPELINE                                         \
    "unused,inline,feature-refusal,trip-bound,index-clamp,fp-domain,"        \
    "int-sites,cost,interface"

/* -analysis-report: appends the report of every kernel of m to r; 0, or 1
 * with diagnostics (a refusal) (analysis_report.c). */
int opt_collect_reports(OptRun *r, HawkModule *m);
/* Writes the collected reports to the -analysis-report file whole: one
 * object for one kernel, else an array in input order; 0, or 1 after an
 * error message (analysis_report.c). */
int opt_write_reports(const OptRun *r);

/* -time-passes: the timing table to stderr (report.c). */
void opt_print_timing(const HawkPassManager *pm, const double *seconds);
/* --print-passes: one line per registered pass to stdout (report.c). */
void opt_print_passes(const HawkContext *ctx);

#endif
