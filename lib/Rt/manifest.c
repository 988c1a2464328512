/* manifest.c -- libhawk-rt's reader of hawk.manifest.json (schema
 * hawk.manifest/1, docs/EmbeddedC.md "Loading a build"): each kernel's
 * name, args layout and loadable row, checked before anything is loaded,
 * since a program writes its arguments at the offsets the manifest gives
 * (every field inside the args and of its kind's size, every number a
 * whole one in range). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fault.h"
#include "rt_impl.h"

/* A whole number in [lo, hi] at j, into *out; whether it is one. */
static int whole(const cJSON *j, double lo, double hi, long *out)
{
    if (!cJSON_IsNumber(j))
        return 0;
    double v = j->valuedouble;
    if (!(v >= lo && v <= hi) || floor(v) != v)
        return 0;
    *out = (long)v;
    return 1;
}

static char *copy_str(const char *s)
{
    size_t n = strlen(s) + 1u;
    char *p = hk_malloc(n);
    if (p != NULL)
        memcpy(p, s, n);
    return p;
}

/* A kernel is parallel when every member it writes is a per-sample
 * plane. */
static int parallel_of(const cJSON *fields)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, fields) {
        const char *dir = cJSON_GetStringValue(cJSON_GetObjectItem(f, "direction"));
        const char *addr = cJSON_GetStringValue(cJSON_GetObjectItem(f, "addressing"));
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(f, "kind"));
        int written = dir != NULL && strcmp(dir, "in") != 0;
        if (kind != NULL && strcmp(kind, "plane") == 0 && written &&
            (addr == NULL || strcmp(addr, "soa") != 0))
            return 0;
    }
    return 1;
}

/* The host row of a manifest kernel, or NULL. */
static const cJSON *host_row(const cJSON *k)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(k, "targets")) {
        const char *so = cJSON_GetStringValue(cJSON_GetObjectItem(t, "shared_object"));
        if (so != NULL)
            return t;
    }
    return NULL;
}

/* The bytes of one element of dtype d as an args member (the C type
 * hawk's header gives it), or 0 for a dtype this library does not know. */
static size_t elem_size(const char *d)
{
    static const struct {
        const char *name;
        size_t size;
    } elems[] = {{"f64", sizeof(double)}, {"i64", sizeof(int64_t)},
                 {"f32", sizeof(float)},  {"i32", sizeof(int32_t)},
                 {"u32", sizeof(uint32_t)}, {"i1", sizeof(_Bool)}};
    for (size_t k = 0; d != NULL && k < sizeof elems / sizeof elems[0]; k++)
        if (strcmp(d, elems[k].name) == 0)
            return elems[k].size;
    return 0;
}

/* The size a member of kind k must have: a plane is a pointer, a length
 * an int64_t, a value its components' elements; 0 for no kind known. */
static size_t kind_size(const char *kind, const cJSON *f, HkRtFieldKind *fk)
{
    long comps;
    kind = kind != NULL ? kind : "";
    if (strcmp(kind, "plane") == 0) {
        *fk = HK_RT_PLANE;
        return sizeof(void *);
    }
    if (strcmp(kind, "length") == 0) {
        *fk = HK_RT_LENGTH;
        return sizeof(int64_t);
    }
    if (strcmp(kind, "value") != 0 ||
        !whole(cJSON_GetObjectItem(f, "components"), 1,
               (double)HK_RT_MAX_ARGS, &comps))
        return 0;
    *fk = HK_RT_VALUE;
    return (size_t)comps *
           elem_size(cJSON_GetStringValue(cJSON_GetObjectItem(f, "dtype")));
}

/* Fills field *out from manifest field f of an args struct of size
 * bytes; why it cannot, or NULL.  The size is kept with the offset, and
 * must be the size of what a program writes there for the field's kind:
 * a field that lies inside the args but is smaller than its kind would
 * let a write run past it. */
static const char *read_field(const cJSON *f, long size, Field *out)
{
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(f, "name"));
    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(f, "kind"));
    long off, n;
    if (name == NULL)
        return "a field without a name";
    if (!whole(cJSON_GetObjectItem(f, "offset"), 0, (double)size, &off) ||
        !whole(cJSON_GetObjectItem(f, "size"), 1, (double)size, &n) || off > size - n)
        return "a field whose offset and size do not lie inside the args";
    size_t want = kind_size(kind, f, &out->kind);
    if (want == 0)
        return "a field of no kind this library writes (plane, length or "
               "value of a known dtype)";
    if ((size_t)n != want)
        return "a field whose size is not that of its kind";
    out->name = copy_str(name);
    out->offset = off;
    out->size = (size_t)n;
    return out->name == NULL ? "out of memory" : NULL;
}

/* Fills kernel out from manifest object k; why it cannot, or NULL. */
static const char *read_kernel(const cJSON *k, HawkRtKernel *out)
{
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(k, "name"));
    const cJSON *abi = cJSON_GetObjectItem(k, "abi");
    const cJSON *fields = cJSON_GetObjectItem(abi, "fields");
    const cJSON *row = host_row(k);
    const char *so = row ? cJSON_GetStringValue(cJSON_GetObjectItem(row, "shared_object")) : NULL;
    const char *entry = row ? cJSON_GetStringValue(cJSON_GetObjectItem(row, "entry")) : NULL;
    long size;
    if (name == NULL || !cJSON_IsArray(fields) || so == NULL || entry == NULL ||
        strchr(so, '/') != NULL)
        return "a kernel without a name, an args layout or a loadable row";
    if (!whole(cJSON_GetObjectItem(abi, "size"), 1, (double)HK_RT_MAX_ARGS, &size))
        return "a kernel whose args size is not a whole number of bytes in range";
    const char *wd = cJSON_GetStringValue(cJSON_GetObjectItem(k, "walk_digest"));
    out->name = copy_str(name);
    out->walk_digest = copy_str(wd != NULL ? wd : "");
    out->shared_object = copy_str(so);
    out->entry_name = copy_str(entry);
    out->args_size = (size_t)size;
    out->parallel = parallel_of(fields);
    out->fields = hk_calloc((size_t)cJSON_GetArraySize(fields) + 1u, sizeof *out->fields);
    if (out->name == NULL || out->walk_digest == NULL || out->shared_object == NULL ||
        out->entry_name == NULL || out->fields == NULL)
        return "out of memory";
    const cJSON *f;
    cJSON_ArrayForEach(f, fields) {
        const char *why = read_field(f, size, &out->fields[out->nfields]);
        if (out->fields[out->nfields].name != NULL)
            out->nfields++;
        if (why != NULL)
            return why;
    }
    return NULL;
}

HawkRt *hk_rt_read_manifest(const char *text, const char *dir, HawkRtError *err,
                            char *why, size_t why_len)
{
    cJSON *m = cJSON_Parse(text);
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItem(m, "schema"));
    const cJSON *kernels = cJSON_GetObjectItem(m, "kernels");
    if (schema == NULL || strcmp(schema, "hawk.manifest/1") != 0 ||
        !cJSON_IsArray(kernels)) {
        cJSON_Delete(m);
        return hk_rt_fail(err, HAWK_RT_E_MANIFEST, why, why_len,
                          "'%s/hawk.manifest.json' is not a hawk.manifest/1 "
                          "manifest", dir);
    }
    HawkRt *rt = hk_calloc(1, sizeof *rt);
    size_t n = (size_t)cJSON_GetArraySize(kernels);
    if (rt != NULL)
        rt->kernels = hk_calloc(n + 1u, sizeof *rt->kernels);
    if (rt == NULL || rt->kernels == NULL) {
        free(rt);
        cJSON_Delete(m);
        return hk_rt_fail(err, HAWK_RT_E_NOMEM, why, why_len, "out of memory");
    }
    const cJSON *k;
    cJSON_ArrayForEach(k, kernels) {
        const char *bad = read_kernel(k, &rt->kernels[rt->nkernels++]);
        if (bad != NULL) {
            int oom = strcmp(bad, "out of memory") == 0;
            cJSON_Delete(m);
            hawk_unload(rt);
            if (oom)
                return hk_rt_fail(err, HAWK_RT_E_NOMEM, why, why_len, "out of memory");
            return hk_rt_fail(err, HAWK_RT_E_MANIFEST, why, why_len,
                              "'%s/hawk.manifest.json': %s", dir, bad);
        }
    }
    cJSON_Delete(m);
    return rt;
}
