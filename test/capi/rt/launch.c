/* launch.c -- a program that runs a host build through libhawk-rt alone:
 *
 *   hawk-capi-launch DIR N [T]   loads DIR (hawk_load), lists its kernels
 *   in the build's order (hawk_rt_kernel_count, hawk_rt_kernel), fills
 *   every kernel's args struct from the manifest's layout with planes of N
 *   samples, runs it on one thread and on T (hawk_launch; default 2) over
 *   two copies, and prints per kernel whether every written byte agrees;
 *   for drag it also checks the values against drag's formula computed
 *   here.  A failed load prints "hawk-capi-launch: error: load error
 *   <code>: <why>" on stderr and exits 1, after loading again without
 *   asking why (hawk_load with NULL err and why).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hawk/rt.h"

/* One member of an args struct, from the manifest. */
typedef struct {
    const char *name, *kind, *dtype, *addressing, *direction;
    long offset, comps;
    size_t elem;           /* bytes of one element of a plane */
} Member;

static size_t elem_bytes(const char *dtype, const char *kind)
{
    if (strcmp(dtype, "f64") == 0 || strcmp(dtype, "i64") == 0)
        return 8;
    if (strcmp(dtype, "i1") == 0)
        return 1;
    (void)kind;
    return 4;
}

/* Element k of a plane of dtype d: ordinary values of each type. */
static void put(unsigned char *p, const char *d, size_t k)
{
    if (strcmp(d, "f64") == 0) {
        double x = 0.5 + 0.25 * (double)(k % 7) - 0.125 * (double)(k % 3);
        memcpy(p, &x, sizeof x);
    } else if (strcmp(d, "f32") == 0) {
        float x = 0.5f + 0.25f * (float)(k % 7);
        memcpy(p, &x, sizeof x);
    } else if (strcmp(d, "i64") == 0) {
        int64_t x = (int64_t)(k % 5);
        memcpy(p, &x, sizeof x);
    } else if (strcmp(d, "i1") == 0) {
        *p = (unsigned char)(k % 2);
    } else {
        int32_t x = (int32_t)(k % 5);
        memcpy(p, &x, sizeof x);
    }
}

/* A launch: the args bytes and a plane per plane member. */
typedef struct {
    unsigned char *args;
    unsigned char **plane;
    size_t *bytes;
} Launch;

/* Fills l for n samples from the manifest's members, each written
 * through libhawk-rt's checked writes; 0, or 1 when one is refused. */
static int fill(Launch *l, const HawkRtKernel *kk, const Member *m, size_t nm,
                size_t size, long n)
{
    l->args = calloc(1, size);
    l->plane = calloc(nm + 1, sizeof *l->plane);
    l->bytes = calloc(nm + 1, sizeof *l->bytes);
    const long len = n;  /* every runtime length: n rows */
    int bad = 0;
    for (size_t k = 0; k < nm; k++) {
        if (strcmp(m[k].kind, "length") == 0) {
            int64_t v = len;
            bad |= hawk_rt_set_field(kk, l->args, m[k].name, &v, sizeof v);
        } else if (strcmp(m[k].kind, "value") == 0) {
            size_t e = elem_bytes(m[k].dtype, "value");
            unsigned char v[64 * 8];
            for (long c = 0; c < m[k].comps && c < 64; c++)
                put(v + (size_t)c * e, m[k].dtype, (size_t)c + 1);
            bad |= hawk_rt_set_field(kk, l->args, m[k].name, v,
                                     (size_t)m[k].comps * e);
        } else {
            size_t count = strcmp(m[k].addressing, "flat_cells") == 0
                               ? (size_t)m[k].comps
                               : (size_t)m[k].comps * (size_t)n;
            l->bytes[k] = count * m[k].elem;
            l->plane[k] = malloc(l->bytes[k] ? l->bytes[k] : 1);
            for (size_t e = 0; e < count; e++)
                put(l->plane[k] + e * m[k].elem, m[k].dtype, e);
            if (strcmp(m[k].addressing, "flat_cells") == 0)
                memset(l->plane[k], 0, l->bytes[k]);  /* counts start at 0 */
            bad |= hawk_rt_set_plane(kk, l->args, m[k].name, l->plane[k]);
        }
    }
    return bad != 0;
}

static void release(Launch *l, size_t nm)
{
    for (size_t k = 0; k < nm; k++)
        free(l->plane[k]);
    free(l->plane);
    free(l->bytes);
    free(l->args);
}

/* drag's formula, in the kernel's order: out = (-rho * s) * |s|. */
static int check_drag(const Launch *l, long n)
{
    const double *out = (const double *)(const void *)l->plane[0];
    const double *s = (const double *)(const void *)l->plane[1];
    double rho;
    memcpy(&rho, l->args + 16, sizeof rho);
    for (long i = 0; i < n; i++) {
        double s0 = s[i], s1 = s[n + i], s2 = s[2 * n + i];
        double m0 = s0 * s0, m1 = s1 * s1, m2 = s2 * s2;
        double a1 = m0 + m1;
        double norm = sqrt(a1 + m2);
        double k = -rho;
        for (long c = 0; c < 3; c++) {
            double sc = c == 0 ? s0 : c == 1 ? s1 : s2;
            double a = k * sc;
            double want = a * norm;
            if (memcmp(&out[c * n + i], &want, sizeof want) != 0)
                return 1;
        }
    }
    return 0;
}

/* The checked writes of drag's args: a member's own size and kind are
 * written, a byte where a pointer goes, a pointer where a double goes, a
 * double too many and a member drag lacks are refused, changing nothing. */
static int check_writes(const HawkRtKernel *k, unsigned char *args)
{
    size_t size = hawk_rt_args_size(k);
    unsigned char *before = malloc(size);
    memcpy(before, args, size);
    unsigned char byte = 1;
    double rho[2] = {2.0, 3.0};
    int wrong = hawk_rt_field_size(k, "uni_rho") != sizeof(double) ||
                hawk_rt_field_size(k, "mut_out") != sizeof(void *) ||
                hawk_rt_field_size(k, "none") != 0 ||
                hawk_rt_set_field(k, args, "mut_out", &byte, 1) != -1 ||
                hawk_rt_set_plane(k, args, "uni_rho", rho) != -1 ||
                hawk_rt_set_field(k, args, "uni_rho", rho, sizeof rho) != -1 ||
                hawk_rt_set_field(k, args, "none", rho, sizeof rho[0]) != -1 ||
                hawk_rt_set_plane(k, args, "none", rho) != -1 ||
                memcmp(before, args, size) != 0;
    wrong |= hawk_rt_set_field(k, args, "uni_rho", rho, sizeof rho[0]) != 0 ||
             memcmp(args + hawk_rt_field_offset(k, "uni_rho"), rho,
                    sizeof rho[0]) != 0;
    memcpy(args, before, size);
    free(before);
    return wrong;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s DIR N [T]\n", argv[0]);
        return 2;
    }
    long n = atol(argv[2]);
    unsigned threads = argc == 4 ? (unsigned)atoi(argv[3]) : 2u;
    HawkRtError err;
    char why[512];
    HawkRt *rt = hawk_load(argv[1], &err, why, sizeof why);
    if (rt == NULL) {
        fprintf(stderr, "hawk-capi-launch: error: load error %d: %s\n",
                (int)err, why);
        HawkRt *again = hawk_load(argv[1], NULL, NULL, 0);
        if (again == NULL)
            fprintf(stderr, "hawk-capi-launch: again without asking why: "
                            "refused\n");
        hawk_unload(again);
        return 1;
    }
    printf("kernels:");
    for (size_t k = 0; k < hawk_rt_kernel_count(rt); k++)
        printf(" %s", hawk_rt_kernel_name(hawk_rt_kernel(rt, k)));
    printf("%s\n", hawk_rt_kernel(rt, hawk_rt_kernel_count(rt)) == NULL
                       ? "" : " (and one past the end!)");
    /* the layout's types: from the manifest, as a caller without the
     * headers would read them */
    char path[4096];
    snprintf(path, sizeof path, "%s/hawk.manifest.json", argv[1]);
    FILE *f = fopen(path, "rb");
    static char text[1 << 20];
    size_t got = f != NULL ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f != NULL)
        fclose(f);
    text[got] = '\0';
    cJSON *man = cJSON_Parse(text);
    int bad = 0;
    const cJSON *kj;
    cJSON_ArrayForEach(kj, cJSON_GetObjectItem(man, "kernels")) {
        const char *name = cJSON_GetObjectItem(kj, "name")->valuestring;
        const HawkRtKernel *k = hawk_rt_find(rt, name);
        const cJSON *fields = cJSON_GetObjectItem(cJSON_GetObjectItem(kj, "abi"), "fields");
        size_t nm = (size_t)cJSON_GetArraySize(fields), i = 0;
        Member *m = calloc(nm + 1, sizeof *m);
        const cJSON *fj;
        cJSON_ArrayForEach(fj, fields) {
            m[i].name = cJSON_GetObjectItem(fj, "name")->valuestring;
            m[i].kind = cJSON_GetObjectItem(fj, "kind")->valuestring;
            m[i].dtype = cJSON_GetObjectItem(fj, "dtype")->valuestring;
            m[i].addressing = cJSON_GetObjectItem(fj, "addressing")->valuestring;
            m[i].direction = cJSON_GetObjectItem(fj, "direction")->valuestring;
            m[i].offset = hawk_rt_field_offset(k, m[i].name);
            m[i].comps = (long)cJSON_GetObjectItem(fj, "components")->valuedouble;
            m[i].elem = elem_bytes(m[i].dtype, m[i].kind);
            i++;
        }
        Launch one, two;
        if (fill(&one, k, m, nm, hawk_rt_args_size(k), n) |
            fill(&two, k, m, nm, hawk_rt_args_size(k), n)) {
            printf("%s: a checked write was REFUSED\n", name);
            bad = 1;
        }
        int32_t s1 = hawk_launch(k, one.args, n, 1);
        int32_t s2 = hawk_launch(k, two.args, n, threads);
        int same = s1 == s2;
        for (size_t p = 0; p < nm; p++)
            if (one.plane[p] != NULL &&
                memcmp(one.plane[p], two.plane[p], one.bytes[p]) != 0)
                same = 0;
        printf("%s: status %d, %s, 1 and %u threads %s\n", name, (int)s1,
               hawk_rt_parallel(k) ? "parallel" : "one partition", threads,
               same ? "agree" : "DIFFER");
        bad |= !same;
        if (strcmp(name, "drag") == 0) {
            int off = check_drag(&one, n);
            printf("drag: %s\n", off ? "DIFFERS from its formula"
                                     : "every value is its formula's");
            bad |= off;
            off = check_writes(k, one.args);
            printf("drag: checked writes %s\n",
                   off ? "MISSED a wrong write"
                       : "refuse a wrong size, a value as a plane and no member");
            bad |= off;
        }
        release(&one, nm);
        release(&two, nm);
        free(m);
    }
    cJSON_Delete(man);
    hawk_unload(rt);
    return bad;
}
