/* main.c -- hawk-opt: read HIR, verify it, run a pipeline of passes, print
 * the module or the diagnostics.  Exit status 0 on success, 1 on error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "opt.h"

/* Writes the print<name> text the pipeline rendered since the last call. */
static void flush_pass_output(OptRun *r)
{
    size_t len;
    const char *s = hawk_pass_manager_output(r->pm, &len);
    if (len > r->out_flushed)
        fwrite(s + r->out_flushed, 1, len - r->out_flushed, stderr);
    r->out_flushed = len;
}

/* Whether -print-after-all or a -print-after= names pass. */
static int dump_after(const OptConfig *cfg, const char *pass)
{
    if (cfg->print_after_all)
        return 1;
    for (size_t i = 0; i < cfg->nprint_after; i++)
        if (strcmp(cfg->print_after[i], pass) == 0)
            return 1;
    return 0;
}

/* The pass manager's after-pass hook: analysis printouts and IR dumps. */
static void after_pass(void *user, const char *pass, const HawkModule *m)
{
    OptRun *r = user;
    flush_pass_output(r);
    const char *text = dump_after(r->cfg, pass) ? hawk_print(r->ctx, m, NULL) : NULL;
    if (text != NULL)
        fprintf(stderr, "; *** IR Dump After %s ***\n%s", pass, text);
}

/* Parses, verifies and transforms one chunk; appends its text to r->out.
 * Returns 0 on success. */
static int transform_chunk(OptRun *r, const char *text, size_t len,
                           unsigned line_base)
{
    /* a mapped file's pages are given back as the parser passes them */
    HawkModule *m = r->in.map != NULL
                        ? hawk_parse_mapped(r->ctx, r->name, text, len, line_base)
                        : hawk_parse_view(r->ctx, r->name, text, len, line_base);
    if (m == NULL || hawk_verify(r->ctx, m) != 0)
        return 1;
    r->out_flushed = 0;
    int rc = hawk_pass_manager_run(r->pm, m);
    flush_pass_output(r);
    for (size_t i = 0; i < hawk_pass_manager_size(r->pm); i++)
        r->seconds[i] += hawk_pass_manager_seconds(r->pm, i);
    if (rc != 0)
        return 1;
    if (r->cfg->analysis_report != NULL && opt_collect_reports(r, m) != 0)
        return 1;
    if (!r->cfg->disable_output) {
        size_t n;
        const char *s = hawk_print(r->ctx, m, &n);
        if (s == NULL)
            return 1;  /* out of memory, in the diagnostics */
        tool_buf_put(&r->out, s, n);
    }
    return 0;
}

/* One chunk of the input, with its diagnostics; 0 on success. */
static int handle_chunk(OptRun *r, const char *text, size_t len,
                        unsigned line_base, int first)
{
    if (!first && !r->cfg->disable_output)
        tool_buf_puts(&r->out, "// -----\n");
    size_t from = hawk_diag_count(r->ctx);
    int rc = transform_chunk(r, text, len, line_base);
    if (r->cfg->verify_diags)
        return opt_check_expected(r->ctx, from, r->name, text, len, line_base);
    tool_print_diags(OPT_TOOL, r->ctx, from);
    return rc;
}

/* "unknown pass" for a -print-after= that names none, with the nearest
 * registered pass; 1. */
static int unknown_print_after(const HawkContext *ctx, const char *want)
{
    size_t n = hawk_pass_count(ctx);
    const char **names = tool_malloc((n + 1) * sizeof *names);
    if (names == NULL)
        return tool_error(OPT_TOOL, "out of memory");
    for (size_t j = 0; j < n; j++)
        names[j] = hawk_pass_name(ctx, j);
    size_t near = hawk_nearest(want, names, n);
    tool_error(OPT_TOOL, "unknown pass '%s' in -print-after%s%s%s; see "
               "--print-passes",
               want, near < n ? " (did you mean '" : "",
               near < n ? names[near] : "", near < n ? "'?)" : "");
    free(names);
    return 1;
}

/* Checks that every -print-after= names a registered pass. */
static int check_print_after(const OptConfig *cfg, const HawkContext *ctx)
{
    for (size_t i = 0; i < cfg->nprint_after; i++) {
        const char *want = cfg->print_after[i];
        size_t k = 0, n = hawk_pass_count(ctx);
        while (k < n && strcmp(hawk_pass_name(ctx, k), want) != 0)
            k++;
        if (k == n && strncmp(want, "print<", 6) != 0)
            return unknown_print_after(ctx, want);
    }
    return 0;
}

/* Builds the pass manager from the configuration; 0, or 1 after errors. */
static int setup_pipeline(OptRun *r)
{
    const OptConfig *cfg = r->cfg;
    r->pm = hawk_pass_manager_create(r->ctx);
    if (r->pm == NULL) {
        tool_print_diags(OPT_TOOL, r->ctx, 0);
        return 1;
    }
    hawk_pass_manager_set_verify_each(r->pm, cfg->verify_each);
    for (size_t i = 0; i < cfg->globals.n; i++)
        hawk_pass_manager_set_option(r->pm, cfg->globals.keys[i],
                                     cfg->globals.vals[i]);
    hawk_pass_manager_set_after_pass(r->pm, after_pass, r);
    if (hawk_pass_manager_parse(r->pm, cfg->passes) != 0) {
        tool_print_diags(OPT_TOOL, r->ctx, 0);
        return 1;
    }
    if (check_print_after(cfg, r->ctx) != 0)
        return 1;
    r->seconds = tool_calloc(hawk_pass_manager_size(r->pm) + 1, sizeof *r->seconds);
    if (r->seconds == NULL)
        return tool_error(OPT_TOOL, "out of memory");
    return 0;
}

/* Reads the input, handles every chunk, writes the output. */
static int run(OptRun *r)
{
    const OptConfig *cfg = r->cfg;
    if (setup_pipeline(r) != 0 || tool_text_read(OPT_TOOL, r->name, &r->in) != 0)
        return 1;
    int rc = opt_for_each_chunk(r, r->in.data, r->in.len, cfg->split_input,
                                handle_chunk);
    if (cfg->time_passes)
        opt_print_timing(r->pm, r->seconds);
    /* Written only when every chunk passed: a report certifies them all. */
    if (cfg->analysis_report != NULL && rc == 0)
        rc = opt_write_reports(r);
    if (cfg->disable_output)
        return rc;
    /* A file is written whole or not at all; stdout shows what worked. */
    if (cfg->output != NULL && strcmp(cfg->output, "-") != 0 && rc != 0)
        return rc;
    const char *path = cfg->output ? cfg->output : "-";
    return tool_write_file(OPT_TOOL, path, r->out.data ? r->out.data : "",
                           r->out.len) != 0 || rc != 0;
}

int main(int argc, char **argv)
{
    OptConfig cfg;
    if (opt_parse_command_line(&cfg, argc, argv) != 0) {
        opt_config_free(&cfg);
        return 1;
    }
    int rc = 0;
    if (cfg.help) {
        opt_print_help();
    } else if (cfg.version) {
        printf("%s (hawk) %s\n", OPT_TOOL, hawk_version());
    } else {
        OptRun r;
        memset(&r, 0, sizeof r);
        r.cfg = &cfg;
        r.name = cfg.input ? cfg.input : "-";
        r.ctx = tool_context_create();
        if (r.ctx == NULL) {
            rc = tool_error(OPT_TOOL, "out of memory");
        } else if (cfg.print_passes) {
            opt_print_passes(r.ctx);
        } else {
            rc = run(&r);
        }
        tool_buf_free(&r.out);
        free(r.reports);
        free(r.seconds);
        hawk_context_destroy(r.ctx);
        tool_text_free(&r.in);
    }
    opt_config_free(&cfg);
    return rc;
}
