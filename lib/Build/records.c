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

/* The text of the tree fill makes, with a final newline, in the arena:
 * the fills below allocate in the arena, so each node is added to its
 * parent before it is filled (report.h, hk_json_fill). */
static const char *text_of(HkArena *a, void (*fill)(cJSON *root, const void *ud),
                           const void *ud)
{
    cJSON *root = cJSON_CreateObject();
    if (root == NULL)
        hk_out_of_memory(a);
    hk_json_fill(a, root, fill, ud);
    return hk_json_print(a, root, "\n");
}

/* ---- the manifest ---------------------------------------------------------- */

/* The args struct of b: the C header's <name>_args_t, member by member. */
static void abi_json(cJSON *o, const BuildKernel *b)
{
    const HkAbiLayout *l = &b->abi;
    hk_json_add_str(o, "struct", hk_asprintf(b->m->arena, "%s_args_t", b->f->name));
    hk_json_add_int(o, "size", (int64_t)l->size);
    hk_json_add_int(o, "align", (int64_t)l->align);
    cJSON *fields = cJSON_AddArrayToObject(o, "fields");
    for (uint32_t k = 0; k < l->nfields; k++) {
        const HkAbiField *f = &l->fields[k];
        const HkInterfaceRow *row = &b->low.iface->rows[f->row];
        cJSON *m = cJSON_CreateObject();
        cJSON_AddItemToArray(fields, m);
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
    }
}

/* The loadable rows of kernel b. */
static void targets_json(cJSON *arr, const BuildRecord *r,
                         const BuildKernel *b)
{
    HkArena *a = r->ctx->arena;
    for (size_t k = 0; k < r->nrows; k++) {
        const HkTarget *t = r->rows[k];
        if (!build_row_loadable(t))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        hk_json_add_str(o, "target", t->id);
        hk_json_add_str(o, "entry", hk_asprintf(a, "%s_%s", b->f->name, t->entry));
        hk_json_add_str(o, "shared_object", build_shared_name(a, t, b->f->name));
        hk_json_add_str(o, "object", hk_asprintf(a, "%s%s", b->f->name, t->artifact));
    }
}

static void manifest_json(cJSON *root, const void *ud)
{
    const BuildRecord *r = ud;
    hk_json_add_str(root, "schema", "hawk.manifest/1");
    hk_json_add_str(root, "hawk_version", hawk_version());
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (size_t k = 0; k < r->nkernels; k++) {
        const BuildKernel *b = &r->kernels[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(kernels, o);
        hk_json_add_str(o, "name", b->f->name);
        hk_json_add_str(o, "walk_digest", b->low.walk_digest);
        abi_json(cJSON_AddObjectToObject(o, "abi"), b);
        targets_json(cJSON_AddArrayToObject(o, "targets"), r, b);
    }
}

const char *build_manifest_text(const BuildRecord *r)
{
    return text_of(r->ctx->arena, manifest_json, r);
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
static void inputs_json(cJSON *arr, const BuildRecord *r)
{
    for (size_t k = 0; k < r->nms; k++) {
        const HkSource *src = &r->ms[k]->src;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        hk_json_add_str(o, "name", build_input_name(src));
        hk_json_add_str(o, "sha256",
                hk_sha256_hex(r->ctx->arena, src->text, src->len));
    }
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

static void stamp_json(cJSON *root, const void *ud)
{
    const BuildRecord *r = ud;
    hk_json_add_str(root, "schema", "hawk.build/1");
    hk_json_add_str(root, "hawk_version", hawk_version());
    inputs_json(cJSON_AddArrayToObject(root, "inputs"), r);
    hk_json_add_str(root, "profile", r->profile);
    cJSON *targets = cJSON_AddArrayToObject(root, "targets");
    for (size_t k = 0; k < r->nrows; k++)
        cJSON_AddItemToArray(targets, cJSON_CreateString(r->rows[k]->id));
    cJSON *tc = cJSON_AddObjectToObject(root, "toolchain");
    cJSON_AddItemToObject(tc, "cc", cc_json(r->cc));
    hk_json_add_str(tc, "llvm", hk_host_llvm_version());
    cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
    for (size_t k = 0; k < r->nkernels; k++)
        cJSON_AddItemToArray(kernels, cJSON_CreateString(r->kernels[k].f->name));
}

const char *build_stamp_text(const BuildRecord *r)
{
    return text_of(r->ctx->arena, stamp_json, r);
}
