/* launch.c -- hawk_launch on 1 and 2 threads against the serial C unit:
 *
 *   launch BUILD-DIR CUNITS-DIR N ROUNDS KERNEL=ENTRY...
 *
 * For each kernel: the host build of BUILD-DIR through libhawk-rt
 * (hawk_load, hawk_launch with 1 and 2 threads) and the C unit
 * CUNITS-DIR/<kernel>.so (the emitted .c built -O2 -ffp-contract=off, its
 * entry ENTRY called over [0, N) on the calling thread), each over N
 * samples of ordinary values, ROUNDS launches, the best time of each;
 * prints ns/sample and the ratios, and whether the three wrote the same
 * bytes.  Kernels whose members are per-sample planes and uniforms. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "hawk/rt.h"

typedef int32_t (*Entry)(const void *, int64_t, int64_t, int64_t);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The args struct of kernel kj (manifest) over n samples: every f64 SoA
 * plane filled with ordinary values, every f64 uniform 0.75; planes[] the
 * written ones, for the comparison.  0, or -1 for a layout it does not
 * fill. */
static int fill(const cJSON *kj, const HawkRtKernel *k, long n,
                unsigned char *args, double **out, size_t *nout,
                size_t *out_len)
{
    const cJSON *f;
    *nout = 0;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(cJSON_GetObjectItem(kj, "abi"), "fields")) {
        const char *kind = cJSON_GetObjectItem(f, "kind")->valuestring;
        const char *dtype = cJSON_GetObjectItem(f, "dtype")->valuestring;
        const char *dir = cJSON_GetObjectItem(f, "direction")->valuestring;
        const char *addr = cJSON_GetObjectItem(f, "addressing")->valuestring;
        long comps = (long)cJSON_GetObjectItem(f, "components")->valuedouble;
        long off = hawk_rt_field_offset(k, cJSON_GetObjectItem(f, "name")->valuestring);
        if (strcmp(dtype, "f64") != 0)
            return -1;
        if (strcmp(kind, "value") == 0) {
            for (long c = 0; c < comps; c++) {
                double v = 0.75 + 0.125 * (double)c;
                memcpy(args + off + c * 8, &v, 8);
            }
            continue;
        }
        if (strcmp(kind, "plane") != 0 || strcmp(addr, "soa") != 0)
            return -1;
        size_t len = (size_t)(comps * n);
        double *p = malloc(len * sizeof *p);
        for (size_t e = 0; e < len; e++)
            p[e] = 0.5 + 0.001 * (double)(e % 1000);
        memcpy(args + off, &p, sizeof p);
        if (strcmp(dir, "in") != 0) {
            out[*nout] = p;
            out_len[(*nout)++] = len;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s BUILD-DIR CUNITS-DIR N ROUNDS KERNEL=ENTRY...\n", argv[0]);
        return 2;
    }
    long n = atol(argv[3]), rounds = atol(argv[4]);
    HawkRtError err;
    char why[512];
    HawkRt *rt = hawk_load(argv[1], &err, why, sizeof why);
    if (rt == NULL) {
        fprintf(stderr, "launch: %s\n", why);
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/hawk.manifest.json", argv[1]);
    FILE *fp = fopen(path, "rb");
    static char text[1 << 20];
    size_t got = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp)
        fclose(fp);
    text[got] = '\0';
    cJSON *man = cJSON_Parse(text);
    printf("%-16s %10s %10s %10s %8s %8s %s\n", "kernel", "C ns/smp",
           "rt 1 thr", "rt 2 thr", "1thr/C", "2thr/C", "bytes");
    for (int a = 5; a < argc; a++) {
        char *entry = strchr(argv[a], '=');
        if (entry == NULL) {
            fprintf(stderr, "launch: '%s' is not KERNEL=ENTRY\n", argv[a]);
            return 2;
        }
        *entry++ = '\0';
        const HawkRtKernel *k = hawk_rt_find(rt, argv[a]);
        const cJSON *kj = NULL, *it;
        cJSON_ArrayForEach(it, cJSON_GetObjectItem(man, "kernels"))
            if (strcmp(cJSON_GetObjectItem(it, "name")->valuestring, argv[a]) == 0)
                kj = it;
        snprintf(path, sizeof path, "%s/%s.so", argv[2], argv[a]);
        void *h = dlopen(path, RTLD_NOW);
        void *sym = h ? dlsym(h, entry) : NULL;
        if (k == NULL || kj == NULL || sym == NULL) {
            fprintf(stderr, "launch: no kernel '%s'\n", argv[a]);
            return 1;
        }
        Entry c_entry;
        memcpy(&c_entry, &sym, sizeof sym);
        double best[3] = {1e30, 1e30, 1e30};
        double *outs[3][16];
        size_t nout[3], lens[3][16];
        unsigned char *args[3];
        for (int v = 0; v < 3; v++) {
            args[v] = calloc(1, hawk_rt_args_size(k));
            if (fill(kj, k, n, args[v], outs[v], &nout[v], lens[v]) != 0) {
                fprintf(stderr, "launch: '%s' has members this bench does not fill\n", argv[a]);
                return 1;
            }
        }
        for (long r = 0; r < rounds; r++) {
            double t0 = now();
            c_entry(args[0], 0, n, n);
            double t1 = now();
            hawk_launch(k, args[1], n, 1);
            double t2 = now();
            hawk_launch(k, args[2], n, 2);
            double t3 = now();
            double t[3] = {t1 - t0, t2 - t1, t3 - t2};
            for (int v = 0; v < 3; v++)
                best[v] = t[v] < best[v] ? t[v] : best[v];
        }
        int same = 1;
        for (size_t o = 0; o < nout[0]; o++)
            same &= memcmp(outs[0][o], outs[1][o], lens[0][o] * 8) == 0 &&
                    memcmp(outs[0][o], outs[2][o], lens[0][o] * 8) == 0;
        printf("%-16s %10.2f %10.2f %10.2f %8.2f %8.2f %s\n", argv[a],
               1e9 * best[0] / (double)n, 1e9 * best[1] / (double)n,
               1e9 * best[2] / (double)n, best[1] / best[0], best[2] / best[0],
               same ? "same" : "DIFFER");
    }
    return 0;
}
