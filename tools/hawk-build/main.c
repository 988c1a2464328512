/* main.c -- hawk-build: the build door from the command line.  Reads and
 * verifies every HIR input, then builds all their kernels for each target
 * (hawk_build): the C units, the host objects and shared objects, the
 * build stamp and the manifest.  An input that does not parse or verify
 * stops the build before anything is written.  Exit status 0 on success,
 * 1 on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "hawk/build.h"
#include "hawk/driver.h"
#include "tool_io.h"
#include "tool_opts.h"

#define BUILD_TOOL "hawk-build"

/* What the command line asked for. */
typedef struct {
    ToolInputs inputs;        /* the .hir files in order; "-" is stdin */
    const char *out_dir;      /* -o; NULL: "." */
    const char *targets;      /* -targets=; NULL: every row */
    ToolPairs profile;
    const char *cache_dir;    /* -cache-dir=; NULL: the default */
    int no_check, no_cache, trust_cache, print_key, verbose, help, version;
} BuildConfig;

TOOL_VALUE_FN(set_out_dir, BuildConfig, out_dir, BUILD_TOOL, "a directory")
TOOL_VALUE_FN(set_targets, BuildConfig, targets, BUILD_TOOL,
              "a comma-separated list of target ids")
TOOL_VALUE_FN(set_cache_dir, BuildConfig, cache_dir, BUILD_TOOL,
              "a directory")
TOOL_FLAG_FN(set_no_check, BuildConfig, no_check)
TOOL_FLAG_FN(set_no_cache, BuildConfig, no_cache)
TOOL_FLAG_FN(set_trust_cache, BuildConfig, trust_cache)
TOOL_FLAG_FN(set_print_key, BuildConfig, print_key)
TOOL_FLAG_FN(set_verbose, BuildConfig, verbose)
TOOL_FLAG_FN(set_help, BuildConfig, help)
TOOL_FLAG_FN(set_version, BuildConfig, version)

static int set_profile(void *st, const ToolOpt *row, const char *v)
{
    return tool_pairs_add(BUILD_TOOL, &((BuildConfig *)st)->profile,
                          row->name, v);
}

static const ToolOpt build_table[] = {
    {"o", TOOL_VALUE, set_out_dir, "DIR",
     "write the build into DIR, created when missing (default .)"},
    {"targets", TOOL_VALUE, set_targets, "ID,ID...",
     "the rows of the targets table to build, each once (default: every row)"},
    {"no-check", TOOL_FLAG, set_no_check, NULL,
     "do not run the C units' compiler and cppcheck checks"},
    {"cache-dir", TOOL_VALUE, set_cache_dir, "DIR",
     "the build cache (default $HAWK_CACHE_DIR, else $XDG_CACHE_HOME/hawk, else ~/.cache/hawk)"},
    {"no-cache", TOOL_FLAG, set_no_cache, NULL,
     "build without reading or writing the cache"},
    {"trust-cache", TOOL_FLAG, set_trust_cache, NULL,
     "use a cache, and entries of it, that another user owns or may write"},
    {"print-key", TOOL_FLAG, set_print_key, NULL,
     "print the build's key and the terms it digests; build nothing"},
    {"v", TOOL_FLAG, set_verbose, NULL,
     "say whether the build came from the cache, and why it missed"},
    TOOL_PROFILE_OPTS(set_profile),
    TOOL_COMMON_OPTS(set_help, set_version),
};

static int set_input(void *st, const char *arg)
{
    return tool_inputs_add(BUILD_TOOL, &((BuildConfig *)st)->inputs, arg);
}

static const ToolSpec build_spec = {
    BUILD_TOOL,
    "build every kernel of the inputs for several targets into one "
    "directory, with a build stamp and a manifest",
    "[options] input.hir...", build_table,
    sizeof build_table / sizeof build_table[0], set_input,
};

/* The ids of a comma-separated list, in place: ids points into text. */
static size_t split_ids(char *text, const char **ids, size_t cap)
{
    size_t n = 0;
    for (char *s = strtok(text, ","); s != NULL && n < cap;
         s = strtok(NULL, ","))
        ids[n++] = s;
    return n;
}

/* -print-key's and -v's lines. */
static void report(const BuildConfig *cfg, const HawkBuildResult *res)
{
    if (cfg->print_key) {
        printf("%s\n%s", res->key, res->terms);
        return;
    }
    if (!cfg->verbose)
        return;
    if (res->cache == HAWK_BUILD_CACHE_HIT)
        fprintf(stderr, "%s: cache hit %s\n", BUILD_TOOL, res->key);
    else if (res->cache == HAWK_BUILD_CACHE_MISS)
        fprintf(stderr, "%s: cache miss %s (%s): built and stored; loadable "
                "objects: %zu from the cache, %zu built\n",
                BUILD_TOOL, res->key, res->why_missed, res->kernels_restored,
                res->kernels_built);
    else
        fprintf(stderr, "%s: no cache: built %s\n", BUILD_TOOL, res->key);
}

/* Parses and verifies every input in ctx; 0, or 1 after diagnostics. */
static int read_inputs(const BuildConfig *cfg, HawkContext *ctx,
                       HawkModule **ms, ToolBuf *bufs)
{
    int rc = 0;
    size_t printed = 0;
    for (size_t k = 0; k < cfg->inputs.n; k++) {
        const char *name = cfg->inputs.names[k];
        if (tool_read_file(BUILD_TOOL, name, &bufs[k]) != 0) {
            rc = 1;
            continue;
        }
        ms[k] = hawk_parse(ctx, name, bufs[k].data, bufs[k].len);
        if (ms[k] == NULL || hawk_verify(ctx, ms[k]) != 0)
            rc = 1;
        tool_print_diags(BUILD_TOOL, ctx, printed);
        printed = hawk_diag_count(ctx);
    }
    return rc;
}

static int run(const BuildConfig *cfg)
{
    size_t n = cfg->inputs.n;
    if (n == 0)
        return tool_error(BUILD_TOOL, "no input: name the .hir files to "
                                      "build");
    HawkContext *ctx = tool_context_create();
    HawkModule **ms = tool_calloc(n, sizeof *ms);
    ToolBuf *bufs = tool_calloc(n, sizeof *bufs);
    char *targets = cfg->targets != NULL ? tool_strdup(cfg->targets) : NULL;
    char *cache = cfg->no_cache ? NULL
                  : cfg->cache_dir != NULL ? tool_strdup(cfg->cache_dir)
                                           : hawk_default_cache_dir();
    const char **ids = tool_calloc(cfg->targets != NULL ? strlen(cfg->targets) + 1 : 1,
                              sizeof *ids);
    int rc;
    if (ctx == NULL || ms == NULL || bufs == NULL || ids == NULL ||
        (cfg->targets != NULL && targets == NULL) ||
        (cfg->cache_dir != NULL && !cfg->no_cache && cache == NULL)) {
        rc = tool_error(BUILD_TOOL, "out of memory");
    } else if ((rc = read_inputs(cfg, ctx, ms, bufs)) == 0) {
        HawkBuildOptions o;
        hawk_build_options_init(&o);
        o.out_dir = cfg->out_dir;
        if (targets != NULL) {
            o.targets = ids;
            o.ntargets = split_ids(targets, ids, strlen(cfg->targets) + 1);
        }
        o.opt_keys = cfg->profile.keys;
        o.opt_vals = cfg->profile.vals;
        o.nopts = cfg->profile.n;
        o.check = !cfg->no_check;
        o.cache_dir = cache;
        o.trust_cache = cfg->trust_cache;
        o.key_only = cfg->print_key;
        HawkBuildResult res;
        o.result = &res;
        size_t from = hawk_diag_count(ctx);
        rc = hawk_build(ctx, ms, n, &o) != 0;
        tool_print_diags(BUILD_TOOL, ctx, from);
        if (rc == 0)
            report(cfg, &res);
    }
    for (size_t k = 0; bufs != NULL && k < n; k++)
        tool_buf_free(&bufs[k]);
    free(bufs);
    free(ms);
    free(ids);
    free(targets);
    free(cache);
    hawk_context_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    BuildConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    int rc = tool_parse_args(&build_spec, argc, argv, &cfg) != 0;
    if (rc == 0 && cfg.help)
        tool_print_help(&build_spec, stdout);
    else if (rc == 0 && cfg.version)
        printf("%s (hawk) %s\n", BUILD_TOOL, hawk_version());
    else if (rc == 0)
        rc = run(&cfg);
    tool_pairs_free(&cfg.profile);
    tool_inputs_free(&cfg.inputs);
    return rc;
}
