/* hawk_emit.h -- hawk-emit's pieces: the configuration its flags fill
 * (options.c) and the run over the inputs (main.c). */
#ifndef HAWK_EMIT_TOOL_H
#define HAWK_EMIT_TOOL_H

#include <stddef.h>

#include "hawk/emit.h"
#include "hawk/hawk.h"
#include "tool_io.h"
#include "tool_opts.h"

#define EMIT_TOOL "hawk-emit"

/* What the command line asked for. */
typedef struct {
    ToolInputs inputs;        /* the .hir files in order; "-" is stdin;
                                 none reads stdin */
    const char *target;       /* -target=; NULL: the default row */
    const char *out_dir;      /* -o; NULL: "." */
    const char *kernel;       /* -kernel=; NULL: every kernel */
    ToolPairs profile;        /* the profile flags */
    const char *passes;       /* -passes=: run over each input before the
                                 export; NULL: none */
    int no_check, print, time, help, version;
    int emit_llvm;            /* -emit-llvm: also <name>.ll (host row) */
    const char *cflags_file;  /* -cflags-file=: the flags every unit needs */
    const char *cache_dir;    /* -cache-dir=; NULL: the default */
    int no_cache;             /* -no-cache: no verdict read or recorded */
    const char *oracle;       /* -selftest-oracle=llvm|interp; NULL: llvm
                                 where LLVM is linked, else interp */
} EmitConfig;

/* Fills cfg from argv; 0, or 1 after an error message. */
int emit_parse_command_line(EmitConfig *cfg, int argc, char **argv);
void emit_print_help(void);
void emit_config_free(EmitConfig *cfg);

#endif
