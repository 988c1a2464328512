/* main.c -- hawk-emit: read HIR, verify it, export its kernels through a
 * target (hawk_export), print the diagnostics.  Exit status 0 on success,
 * 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hawk_emit.h"
#include "host.h"

typedef struct {
    const EmitConfig *cfg;
    double hawk_seconds, check_seconds;
} EmitRun;

/* hawk_export's per-kernel hook: -print's texts and -time's lines. */
static void on_unit(void *user, const HawkExportUnit *u)
{
    EmitRun *r = user;
    if (r->cfg->print) {
        /* Marked as head(1) marks several files, so each text stays whole. */
        /* a built row has no header text, and its object is no text */
        if (u->h_text != NULL)
            printf("==> %s <==\n%s", u->h_name, u->h_text);
        if (u->c_text != NULL)
            printf("==> %s <==\n%s", u->c_name, u->c_text);
    }
    if (r->cfg->time)
        fprintf(stderr, "%s: %s: hawk %.4f s, checks %.4f s\n", EMIT_TOOL,
                u->kernel, u->hawk_seconds, u->check_seconds);
    r->hawk_seconds += u->hawk_seconds;
    r->check_seconds += u->check_seconds;
}

/* Parses, verifies and exports the input; 0, or 1 after diagnostics. */
static int run(const EmitConfig *cfg, HawkContext *ctx)
{
    const char *name = cfg->input ? cfg->input : "-";
    ToolBuf in = {0};
    if (tool_read_file(EMIT_TOOL, name, &in) != 0) {
        tool_buf_free(&in);
        return 1;
    }
    HawkModule *m = hawk_parse(ctx, name, in.data, in.len);
    int rc = m == NULL || hawk_verify(ctx, m) != 0;
    EmitRun r = {cfg, 0, 0};
    if (rc == 0) {
        HawkExportOptions o;
        hawk_export_options_init(&o);
        o.target = cfg->target;
        o.out_dir = cfg->out_dir;
        o.kernel = cfg->kernel;
        o.opt_keys = cfg->profile.keys;
        o.opt_vals = cfg->profile.vals;
        o.nopts = cfg->profile.n;
        o.check = !cfg->no_check;
        o.print_only = cfg->print;
        o.on_unit = on_unit;
        o.user = &r;
        o.llvm_writer = hk_host_writer(); /* rows whose writer is LLVM's */
        o.emit_llvm = cfg->emit_llvm;
        rc = hawk_export(ctx, m, &o) != 0;
    }
    tool_print_diags(EMIT_TOOL, ctx, 0);
    if (cfg->time)
        fprintf(stderr, "%s: total: hawk %.4f s, checks %.4f s\n", EMIT_TOOL,
                r.hawk_seconds, r.check_seconds);
    tool_buf_free(&in);
    return rc;
}

int main(int argc, char **argv)
{
    EmitConfig cfg;
    if (emit_parse_command_line(&cfg, argc, argv) != 0) {
        emit_config_free(&cfg);
        return 1;
    }
    int rc = 0;
    if (cfg.help) {
        emit_print_help();
    } else if (cfg.version) {
        printf("%s (hawk) %s\n", EMIT_TOOL, hawk_version());
    } else {
        HawkContext *ctx = hawk_context_create();
        rc = ctx == NULL ? tool_error(EMIT_TOOL, "out of memory")
                         : run(&cfg, ctx);
        hawk_context_destroy(ctx);
    }
    emit_config_free(&cfg);
    return rc;
}
