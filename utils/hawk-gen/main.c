/* hawk-gen -- random HIR kernels for differential testing, deterministic
 * by seed: `hawk-gen -seed=S -count=N` prints one module holding the
 * kernels of seeds S ... S+N-1 (kernel @g<seed>, its funcs
 * @g<seed>_f<k>), each the same text as `hawk-gen -seed=<seed>` prints
 * alone, so a kernel that fails in a batch is reproduced by its seed.
 * docs/CommandGuide.md, "hawk-gen". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define TOOL "hawk-gen"

static int usage(FILE *out)
{
    fprintf(out,
            "OVERVIEW: random HIR kernels for differential testing\n\n"
            "USAGE: hawk-gen [options]\n\n"
            "OPTIONS:\n"
            "  -seed=S        the first kernel's seed (default 1)\n"
            "  -count=N       kernels of seeds S ... S+N-1 in one module "
            "(default 1)\n"
            "  -width=32|64   the kernels' scalar mode (default: each seed "
            "chooses)\n"
            "  -size=N        about N instructions per kernel (default 24)\n"
            "  -help          print this help and exit\n");
    return out == stdout ? 0 : 1;
}

/* A non-negative integer option value, or -1 after an error. */
static long long number(const char *opt, const char *v, long long max)
{
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno != 0 || n < 0 || n > max) {
        fprintf(stderr, "%s: error: option '%s' expects an integer from 0 to "
                        "%lld, got '%s'\n",
                TOOL, opt, max, v);
        return -1;
    }
    return n;
}

int main(int argc, char **argv)
{
    GenOptions o = {1, 0, 24};
    long long count = 1;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (a[0] == '-' && a[1] == '-')
            a++;
        const char *eq = strchr(a, '=');
        const char *v = eq != NULL ? eq + 1 : "";
        size_t len = eq != NULL ? (size_t)(eq - a) : strlen(a);
        long long n = 0;
        if (len == 5 && strncmp(a, "-seed", 5) == 0) {
            if ((n = number("-seed", v, 1000000000000LL)) < 0)
                return 1;
            o.seed = (uint64_t)n;
        } else if (len == 6 && strncmp(a, "-count", 6) == 0) {
            if ((count = number("-count", v, 100000)) < 0)
                return 1;
        } else if (len == 6 && strncmp(a, "-width", 6) == 0) {
            if (strcmp(v, "32") != 0 && strcmp(v, "64") != 0) {
                fprintf(stderr, "%s: error: option '-width' expects 32 or "
                                "64, got '%s'\n",
                        TOOL, v);
                return 1;
            }
            o.width = atoi(v);
        } else if (len == 5 && strncmp(a, "-size", 5) == 0) {
            if ((n = number("-size", v, 10000)) < 0)
                return 1;
            o.size = (int)n;
        } else if (strcmp(a, "-help") == 0 || strcmp(a, "-h") == 0) {
            return usage(stdout);
        } else {
            fprintf(stderr, "%s: error: unknown option '%s'; see -help\n",
                    TOOL, argv[k]);
            return 1;
        }
    }
    Text out = {0};
    tool_buf_printf(&out, "; hawk-gen -seed=%llu -count=%lld%s%s -size=%d\n",
                (unsigned long long)o.seed, count,
                o.width ? " -width=" : "",
                o.width == 32 ? "32" : o.width == 64 ? "64" : "", o.size);
    uint64_t first = o.seed;
    for (long long k = 0; k < count; k++) {
        o.seed = first + (uint64_t)k;
        tool_buf_printf(&out, "\n");
        gen_module(&o, &out);
    }
    int rc = fwrite(out.data, 1, out.len, stdout) == out.len ? 0 : 1;
    tool_buf_free(&out);
    if (rc != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "%s: error: cannot write the output\n", TOOL);
        return 1;
    }
    return 0;
}
