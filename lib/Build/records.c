/* records.c -- the build's records: hawk.manifest.json (what a program
 * loads: per kernel its args layout, per loadable row its entry and
 * files) and hawk.build.json (the stamp: what the build was made from).
 * docs/EmbeddedC.md, "The build door", gives both schemas.  Keys in a
 * fixed order, kernels in module order: the same build, the same bytes. */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "buildint.h"
#include "context.h"
#include "digest.h"
#include "host.h"
#include "report.h"

/* cJSON's text, copied into the arena with a final newline. */
static const char *text_of(HkArena *a, cJSON *root)
{
    char *p = cJSON_Print(root);
    const char *t = hk_asprintf(a, "%s\n", p != NULL ? p : "null");
    cJSON_free(p);
    cJSON_Delete(root);
    return t;
}

/* ---- the manifest ---------------------------------------------------------- */

/* The args struct of b: the C header's <name>_args_t, member by member. */
static cJSON *abi_json(const BuildKernel *b)
{
    cJSON *o = cJSON_CreateObject();
    const HkAbiLayout *l = &b->abi;
    hk_json_add_str(o, "struct", hk_asprintf(b->m->arena, "%s_args_t", b->f->name));
    hk_json_add_int(o, "size", (int64_t)l->size);
    hk_json_add_int(o, "align", (int64_t)l->align);
    cJSON *fields = cJSON_CreateArray();
    for (uint32_t k = 0; k < l->nfields; k++) {
        const HkAbiField *f = &l->fields[k];
        const HkInterfaceRow *row = &b->low.iface->rows[f->row];
        cJSON *m = cJSON_CreateObject();
        hk_json_add_str(m, "name", f->name);
        hk_json_add_str(m, "kind", hk_abi_kind_name(f->kind));
        hk_json_add_str(m, "role", row->role);
        hk_json_add_str(m, "direction", hk_if_dir_name(row->dir));
        hk_json_add_str(m, "dtype", hk_elem_name(f->elem));
        hk_json_add_int(m, "components", f->comps);
        hk_json_add_str(m, "addressing", hk_abi_addressing_name(f->addr));
        hk_json_add_int(m, "offset", (int64_t)f->offset);
        hk_json_add_int(m, "size", (int64_t)f->size);
        hk_json_add_int(m, "align", (int64_t)f->align);
        cJSON_AddItemToArray(fields, m);
    }
    cJSON_AddItemToObject(o, "fields", fields);
    return o;
}

/* The loadable rows of kernel b. */
static cJSON *targets_json(const BuildRecord *r, const BuildKernel *b)
{
    HkArena *a = r->ctx->arena;
    cJSON *arr = cJSON_CreateArray();
    for (size_t k = 0; k < r->nrows; k++) {
        const HkTarget *t = r->rows[k];
        if (!build_row_loadable(t))
            continue;
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "target", t->id);
        hk_json_add_str(o, "entry", hk_asprintf(a, "%s_%s", b->f->name, t->entry));
        hk_json_add_str(o, "shared_object", build_shared_name(a, t, b->f->name));
        hk_json_add_str(o, "object", hk_asprintf(a, "%s%s", b->f->name, t->artifact));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

const char *build_manifest_text(const BuildRecord *r)
{
    cJSON *root = cJSON_CreateObject();
    hk_json_add_str(root, "schema", "hawk.manifest/1");
    hk_json_add_str(root, "hawk_version", hawk_version());
    cJSON *kernels = cJSON_CreateArray();
    for (size_t k = 0; k < r->nkernels; k++) {
        const BuildKernel *b = &r->kernels[k];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "name", b->f->name);
        hk_json_add_str(o, "walk_digest", b->low.walk_digest);
        cJSON_AddItemToObject(o, "abi", abi_json(b));
        cJSON_AddItemToObject(o, "targets", targets_json(r, b));
        cJSON_AddItemToArray(kernels, o);
    }
    cJSON_AddItemToObject(root, "kernels", kernels);
    return text_of(r->ctx->arena, root);
}

/* ---- the build stamp ------------------------------------------------------- */

const char *build_input_name(const HkSource *src)
{
    if (strcmp(src->name, "-") == 0)
        return "<stdin>";
    const char *s = strrchr(src->name, '/');
    return s != NULL ? s + 1 : src->name;
}

/* The inputs, by name (without directories: where a file sits is not
 * what it holds) and content digest. */
static cJSON *inputs_json(const BuildRecord *r)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t k = 0; k < r->nms; k++) {
        const HkSource *src = &r->ms[k]->src;
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "name", build_input_name(src));
        hk_json_add_str(o, "sha256",
                hk_sha256_hex(r->ctx->arena, src->text, src->len));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The C compiler's fingerprint: the resolved executable, its version
 * line, its size and modification time (an executable replaced in place
 * is another compiler). */
static cJSON *cc_json(const HkTool *cc)
{
    if (cc == NULL)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    hk_json_add_str(o, "path", cc->path);
    hk_json_add_str(o, "version", cc->version);
    struct stat st;
    int ok = stat(cc->path, &st) == 0;
    hk_json_add_int(o, "size", ok ? (int64_t)st.st_size : -1);
    hk_json_add_int(o, "mtime", ok ? (int64_t)st.st_mtime : -1);
    return o;
}

const char *build_stamp_text(const BuildRecord *r)
{
    cJSON *root = cJSON_CreateObject();
    hk_json_add_str(root, "schema", "hawk.build/1");
    hk_json_add_str(root, "hawk_version", hawk_version());
    cJSON_AddItemToObject(root, "inputs", inputs_json(r));
    hk_json_add_str(root, "profile", r->profile);
    cJSON *targets = cJSON_CreateArray();
    for (size_t k = 0; k < r->nrows; k++)
        cJSON_AddItemToArray(targets, cJSON_CreateString(r->rows[k]->id));
    cJSON_AddItemToObject(root, "targets", targets);
    cJSON *tc = cJSON_CreateObject();
    cJSON_AddItemToObject(tc, "cc", cc_json(r->cc));
    hk_json_add_str(tc, "llvm", hk_host_llvm_version());
    cJSON_AddItemToObject(root, "toolchain", tc);
    cJSON *kernels = cJSON_CreateArray();
    for (size_t k = 0; k < r->nkernels; k++)
        cJSON_AddItemToArray(kernels, cJSON_CreateString(r->kernels[k].f->name));
    cJSON_AddItemToObject(root, "kernels", kernels);
    return text_of(r->ctx->arena, root);
}
