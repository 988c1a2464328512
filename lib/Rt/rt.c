/* rt.c -- libhawk-rt: a host build loaded through its manifest
 * (hawk.manifest.json, schema hawk.manifest/1) and launched over threads.
 * No LLVM, no libhawk: the manifest read by manifest.c (cJSON), the
 * dynamic loader, and POSIX threads. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fault.h"
#include "rt_impl.h"

/* Sets *err and why; returns NULL. */
HawkRt *hk_rt_fail(HawkRtError *err, HawkRtError e, char *why, size_t n,
                   const char *fmt, ...)
{
    *err = e;
    if (why != NULL && n > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

/* The whole file at path, NUL-terminated and malloc'd, or NULL (with
 * *nomem set when memory ran out, rather than the file being unreadable). */
static char *slurp(const char *path, int *nomem)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *p = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
            (p = hk_malloc((size_t)n + 1u)) == NULL)
            *nomem = 1;
        if (p != NULL) {
            if (fread(p, 1, (size_t)n, f) == (size_t)n) {
                p[n] = '\0';
            } else {
                free(p);
                p = NULL;
            }
        }
    }
    fclose(f);
    return p;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = hk_malloc(n);
    if (p != NULL)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A build without a manifest: a C-only build (its stamp says so), or no
 * build at all. */
static HawkRt *no_manifest(const char *dir, HawkRtError *err, char *why,
                           size_t n)
{
    char *stamp = join(dir, "hawk.build.json");
    if (stamp == NULL)
        return hk_rt_fail(err, HAWK_RT_E_NOMEM, why, n, "out of memory");
    int built = exists(stamp);
    free(stamp);
    if (built)
        return hk_rt_fail(err, HAWK_RT_E_SOURCE_ONLY, why, n,
                    "'%s' holds a build of the c target alone: source for "
                    "an embedded build, which no program loads (build the "
                    "host target too: hawk-build -targets=c,host)",
                    dir);
    return hk_rt_fail(err, HAWK_RT_E_MISSING, why, n,
                "'%s' holds no build (no hawk.manifest.json)", dir);
}

/* Loads kernel k's shared object from dir and finds its entry. */
static int load_kernel(const char *dir, HawkRtKernel *k, HawkRtError *err,
                       char *why, size_t n)
{
    char *path = join(dir, k->shared_object);
    if (path == NULL) {
        hk_rt_fail(err, HAWK_RT_E_NOMEM, why, n, "out of memory");
        return -1;
    }
    if (!exists(path)) {
        hk_rt_fail(err, HAWK_RT_E_MISSING, why, n,
                   "'%s': the shared object of kernel '%s' is missing",
                   k->shared_object, k->name);
        free(path);
        return -1;
    }
    k->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    free(path);
    if (k->handle == NULL) {
        hk_rt_fail(err, HAWK_RT_E_LOAD, why, n, "'%s': the loader refused it: %s",
                   k->shared_object, dlerror());
        return -1;
    }
    void *sym = dlsym(k->handle, k->entry_name);
    if (sym == NULL) {
        hk_rt_fail(err, HAWK_RT_E_LOAD, why, n, "'%s' has no entry '%s'",
                   k->shared_object, k->entry_name);
        return -1;
    }
    memcpy(&k->entry, &sym, sizeof sym);
    return 0;
}

HawkRt *hawk_load(const char *dir, HawkRtError *err, char *why,
                  size_t why_len)
{
    HawkRtError scratch;
    if (err == NULL)
        err = &scratch;
    *err = HAWK_RT_OK;
    char *path = join(dir, "hawk.manifest.json");
    int nomem = path == NULL;
    char *text = path != NULL ? slurp(path, &nomem) : NULL;
    free(path);
    if (nomem)
        return hk_rt_fail(err, HAWK_RT_E_NOMEM, why, why_len, "out of memory");
    if (text == NULL)
        return no_manifest(dir, err, why, why_len);
    HawkRt *rt = hk_rt_read_manifest(text, dir, err, why, why_len);
    free(text);
    for (size_t k = 0; rt != NULL && k < rt->nkernels; k++)
        if (load_kernel(dir, &rt->kernels[k], err, why, why_len) != 0) {
            hawk_unload(rt);
            return NULL;
        }
    return rt;
}

void hawk_unload(HawkRt *rt)
{
    if (rt == NULL)
        return;
    for (size_t k = 0; k < rt->nkernels; k++) {
        HawkRtKernel *kk = &rt->kernels[k];
        for (size_t i = 0; i < kk->nfields; i++)
            free(kk->fields[i].name);
        free(kk->fields);
        free(kk->name);
        free(kk->walk_digest);
        free(kk->shared_object);
        free(kk->entry_name);
        if (kk->handle != NULL)
            dlclose(kk->handle);
    }
    free(rt->kernels);
    free(rt);
}

size_t hawk_rt_kernel_count(const HawkRt *rt)
{
    return rt->nkernels;
}

const HawkRtKernel *hawk_rt_kernel(const HawkRt *rt, size_t i)
{
    return i < rt->nkernels ? &rt->kernels[i] : NULL;
}

const HawkRtKernel *hawk_rt_find(const HawkRt *rt, const char *name)
{
    for (size_t k = 0; k < rt->nkernels; k++)
        if (strcmp(rt->kernels[k].name, name) == 0)
            return &rt->kernels[k];
    return NULL;
}

const char *hawk_rt_kernel_name(const HawkRtKernel *k)
{
    return k->name;
}

const char *hawk_rt_walk_digest(const HawkRtKernel *k)
{
    return k->walk_digest;
}

HawkRtEntry hawk_rt_entry(const HawkRtKernel *k)
{
    return k->entry;
}

size_t hawk_rt_args_size(const HawkRtKernel *k)
{
    return k->args_size;
}

static const Field *field_of(const HawkRtKernel *k, const char *field)
{
    for (size_t i = 0; i < k->nfields; i++)
        if (strcmp(k->fields[i].name, field) == 0)
            return &k->fields[i];
    return NULL;
}

long hawk_rt_field_offset(const HawkRtKernel *k, const char *field)
{
    const Field *f = field_of(k, field);
    return f != NULL ? f->offset : -1;
}

size_t hawk_rt_field_size(const HawkRtKernel *k, const char *field)
{
    const Field *f = field_of(k, field);
    return f != NULL ? f->size : 0;
}

/* Writes size bytes of value into member f of args, when f is that
 * size; 0, or -1 writing nothing. */
static int put_field(const Field *f, void *args, const void *value,
                     size_t size)
{
    if (f == NULL || f->size != size)
        return -1;
    memcpy((unsigned char *)args + f->offset, value, size);
    return 0;
}

int hawk_rt_set_field(const HawkRtKernel *k, void *args, const char *field,
                      const void *value, size_t size)
{
    return put_field(field_of(k, field), args, value, size);
}

int hawk_rt_set_plane(const HawkRtKernel *k, void *args, const char *field,
                      const void *plane)
{
    const Field *f = field_of(k, field);
    if (f == NULL || f->kind != HK_RT_PLANE)
        return -1;
    return put_field(f, args, &plane, sizeof plane);
}

int hawk_rt_parallel(const HawkRtKernel *k)
{
    return k->parallel;
}

/* One partition of a launch, run by a thread. */
typedef struct {
    const HawkRtKernel *k;
    const void *args;
    int64_t base, count, n;
    int32_t status;
} Part;

static void *run_part(void *p)
{
    Part *part = p;
    part->status = part->k->entry(part->args, part->base, part->count,
                                  part->n);
    return NULL;
}

int32_t hawk_launch(const HawkRtKernel *k, const void *args, int64_t n_samples,
                    unsigned threads)
{
    if (threads <= 1 || !k->parallel || n_samples < 2)
        return k->entry(args, 0, n_samples, n_samples);
    if ((int64_t)threads > n_samples)
        threads = (unsigned)n_samples;
    /* without memory for the threads' records, one thread runs it all */
    Part *parts = hk_calloc(threads, sizeof *parts);
    pthread_t *tids = hk_calloc(threads, sizeof *tids);
    int32_t status = -1;
    unsigned started = 0;
    if (parts != NULL && tids != NULL) {
        int64_t base = 0;
        for (unsigned t = 0; t < threads; t++) {
            int64_t count = n_samples / threads + ((int64_t)t < n_samples % threads);
            parts[t] = (Part){k, args, base, count, n_samples, 0};
            base += count;
        }
        for (; started < threads; started++)
            if (pthread_create(&tids[started], NULL, run_part, &parts[started]) != 0)
                break;
        /* a partition no thread took runs here */
        for (unsigned t = started; t < threads; t++)
            run_part(&parts[t]);
        for (unsigned t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
        status = 0;
        for (unsigned t = 0; t < threads && status == 0; t++)
            status = parts[t].status;
    } else {
        status = k->entry(args, 0, n_samples, n_samples);
    }
    free(parts);
    free(tids);
    return status;
}
