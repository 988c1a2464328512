/* run.h -- hawk-run's command line; the runner itself is lib/Runner. */
#ifndef HAWK_RUN_H
#define HAWK_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "runner.h"
#include "tool_opts.h"

#define RUN_TOOL "hawk-run"

/* The values -eval gives a kernel (eval_inputs.c): a slot each, in the
 * order first named; from_file marks those -inputs gave. */
typedef struct {
    RunnerEvalSlot *slots;
    unsigned char *from_file;
    size_t n, cap;
} EvalInputs;

/* -in=SLOT=V,V,...: appends the values to SLOT's; -len=SLOT=N; -inputs=
 * FILE: a JSON object of slots.  0, or 1 after an error message. */
int eval_add_in(EvalInputs *in, const char *word);
int eval_add_len(EvalInputs *in, const char *word);
int eval_read_json(EvalInputs *in, const char *path);
void eval_inputs_free(EvalInputs *in);

/* What the command line asked for (options.c). */
typedef struct {
    ToolInputs inputs;        /* the .hir files in order; "-" is stdin;
                                 none reads stdin */
    const char *kernel;       /* -kernel=NAME, or NULL for every kernel */
    const char *cflags;       /* -cflags='...': extra words for the C build */
    int64_t samples;          /* -samples=N: samples compared per kernel */
    int64_t rounds;           /* -rounds=R: launches with fresh uniforms */
    uint64_t seed;            /* -seed=S */
    int exact_nan;            /* -exact-nan: NaN sign and payload count */
    int print_layout;         /* -print-layout: the args layout only */
    int check_derivatives;    /* -check-derivatives: jvp against central
                                 differences instead of the comparison */
    const char *math;         /* -math=hawk|libm, or NULL */
    const char *build_dir;    /* -build=DIR, or NULL */
    int oracle;               /* -oracle=all|llvm|interp
                                 (RUNNER_ORACLE_*) */
    const char *cc;           /* -cc=PROGRAM: processor in the loop */
    const char *exec;         /* -exec=PROGRAM: what runs the harness */
    int eval;                 /* -eval (or -in, -inputs): run one kernel
                                 on the values given, print its outputs */
    EvalInputs eval_in;       /* -in, -len, -inputs */
    int via;                  /* -via=interp|c|llvm (RUNNER_VIA_*) */
    int format;               /* -format=table|json (RUNNER_FORMAT_*) */
    int via_set, format_set;  /* given: an error without -eval */
    int help, version;
} RunConfig;

/* Fills cfg from argv; 0, or 1 after an error message. */
int run_parse_command_line(RunConfig *cfg, int argc, char **argv);
void run_print_help(void);

#endif
