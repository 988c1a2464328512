/* cache.c -- the build cache: a directory of entries, one per build key
 * (key.c), each the files of one build with an index of their sha256
 * digests.  An entry is written from the build's stage into a temporary
 * directory of the cache and renamed into place, so no reader sees a
 * partial one, no file another process put in the output directory is
 * stored, and two builds racing on one key both succeed (the later rename
 * finds the entry and its copy goes); an entry whose files do not match
 * its index is never used, and the next build of its key replaces it.  A
 * restore writes the very bytes it checked into a stage, then moves them
 * out, as a build does.  The stages and temporary directories (stage.c)
 * of builds that were killed are swept when their process is gone. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildint.h"
#include "context.h"
#include "digest.h"
#include "emit.h"

static const HkLoc noloc = {0, 0};

typedef struct {
    DIR *d;
    void (*each)(void *ud, const char *name);
    void *ud;
} Walk;

static void walk_call(void *ud)
{
    Walk *w = ud;
    struct dirent *e;
    while ((e = readdir(w->d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            w->each(w->ud, e->d_name);
}

int build_each_entry(HkArena *a, const char *dir,
                     void (*each)(void *ud, const char *name), void *ud)
{
    Walk w = {opendir(dir), each, ud};
    if (w.d == NULL)
        return -1;
    int oom = hk_arena_protect(a, walk_call, &w);
    closedir(w.d);
    if (oom != 0)
        hk_out_of_memory(a);
    return 0;
}

int build_move_files(HawkContext *ctx, const char *stage, const char *dir,
                     const char *const *names, size_t n)
{
    HkArena *a = ctx->arena;
    for (size_t k = 0; k < n; k++)
        if (hk_rename(hk_path_join(a, stage, names[k]),
                   hk_path_join(a, dir, names[k])) != 0) {
            hk_error(&ctx->diags, NULL, noloc, "cannot write '%s': %s",
                     hk_path_join(a, dir, names[k]), strerror(errno));
            return -1;
        }
    return 0;
}

/* The bytes of the file at path into the arena; 0, or -1 when it is
 * missing or cannot be read. */
static int read_bytes(HkArena *a, const char *path, const char **data,
                      size_t *len)
{
    const char *why;
    return hk_read_whole(a, path, data, len, &why) == 0 && *data != NULL
               ? 0
               : -1;
}

/* Copies src to dst whole (a temporary file and a rename), the digest
 * of the bytes copied into *digest (the entry's index records it); 0, or
 * -1. */
static int copy_file(HkArena *a, const char *src, const char *dst,
                     const char **digest)
{
    const char *data, *why;
    size_t len;
    if (read_bytes(a, src, &data, &len) != 0)
        return -1;
    *digest = hk_sha256_hex(a, data, len);
    if (hk_write_whole(a, dst, data, len, &why) != 0)
        return -1;
    hk_cache_seal(dst);
    return 0;
}

/* The entry of key: <cache>/<first two hex digits>/<key>. */
static const char *entry_of(HkArena *a, const char *cache, const char *key)
{
    return hk_path_join(a, cache, hk_asprintf(a, "%.2s/%s", key, key));
}

/* One file of an entry: its name and the bytes whose digest was checked. */
typedef struct {
    const char *name, *data;
    size_t len;
} EntryFile;

/* The files of entry, with their bytes, when every one matches its index
 * (*files, *n of them) and, unless trust, was written by this user or
 * root and is writable by no other (trust.c): 1; else 0 with *why. */
static int entry_sound(HkArena *a, const char *entry, EntryFile **files,
                       size_t *n, int trust, const char **why)
{
    const char *index;
    size_t len;
    *n = 0;
    if (read_bytes(a, hk_path_join(a, entry, "index"), &index, &len) != 0) {
        *why = "no entry";
        return 0;
    }
    const char *distrust =
        trust ? NULL
              : hk_cache_untrusted(a, hk_path_join(a, entry, "index"), 0);
    if (distrust != NULL) {
        *why = hk_asprintf(a, "its index is %s", distrust);
        return 0;
    }
    char *lines = hk_strdup(a, index);
    uint32_t cap = 0;
    EntryFile *v = NULL;
    for (char *s = lines; *s != '\0'; (*n)++) {
        char *nl = strchr(s, '\n');
        if (nl == NULL || nl - s < 66 || s[64] != ' ') {
            *why = "its index is damaged";
            return 0;
        }
        *nl = '\0';
        if (*n >= UINT32_MAX - 1u) {
            *why = "its index is damaged";
            return 0;
        }
        v = hk_grow(a, v, &cap, (uint32_t)*n + 1u, sizeof *v);
        EntryFile *f = &v[*n];
        f->name = s + 65;
        if (strchr(f->name, '/') != NULL ||
            read_bytes(a, hk_path_join(a, entry, f->name), &f->data,
                       &f->len) != 0) {
            *why = hk_asprintf(a, "'%s' is missing", f->name);
            return 0;
        }
        const char *distrust =
            trust ? NULL
                  : hk_cache_untrusted(a, hk_path_join(a, entry, f->name), 0);
        if (distrust != NULL) {
            *why = hk_asprintf(a, "'%s' is %s", f->name, distrust);
            return 0;
        }
        if (strncmp(hk_sha256_hex(a, f->data, f->len), s, 64) != 0) {
            *why = hk_asprintf(a, "'%s' does not match its digest", f->name);
            return 0;
        }
        s = nl + 1;
    }
    if (*n == 0) {
        *why = "its index is empty";
        return 0;
    }
    *files = v;
    return 1;
}

typedef struct {
    HawkContext *ctx;
    BuildStage *stage;
    const EntryFile *files;
    size_t n;
    const char *out;
    int rc;
} Restore;

/* The bytes checked are the bytes written, all of them into the stage
 * before any file of out is replaced. */
static void restore_staged(void *ud)
{
    Restore *r = ud;
    HkArena *a = r->ctx->arena;
    const char **names = hk_alloc(a, r->n * sizeof *names);
    for (size_t k = 0; k < r->n && r->rc == 0; k++) {
        const char *werr;
        names[k] = r->files[k].name;
        if (hk_write_whole(a, hk_path_join(a, r->stage->path, names[k]),
                           r->files[k].data, r->files[k].len, &werr) != 0) {
            hk_error(&r->ctx->diags, NULL, noloc,
                     "cannot restore '%s' from the cache: %s", names[k],
                     werr);
            r->rc = -1;
        }
    }
    if (r->rc == 0)
        r->rc = build_move_files(r->ctx, r->stage->path, r->out, names, r->n);
}

int build_cache_restore(HawkContext *ctx, const char *cache, const char *key,
                        const char *out, int trust, const char **why)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
    EntryFile *files;
    size_t n;
    const char *dir;
    if (!trust && access(entry, F_OK) == 0) {
        const char *distrust = hk_cache_untrusted_below(
            a, cache, hk_asprintf(a, "%.2s/%s", key, key), &dir);
        if (distrust != NULL) {
            *why = hk_asprintf(a, "'%s' is %s", dir, distrust);
            return 0;
        }
    }
    if (!entry_sound(a, entry, &files, &n, trust, why))
        return 0;
    const char *failed;
    if (hk_make_dirs(a, out, &failed) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 failed, strerror(errno));
        return -1;
    }
    BuildStage stage;
    if (build_stage_make(ctx, out, BUILD_STAGE_PREFIX, &stage) != 0)
        return -1;
    Restore r = {ctx, &stage, files, n, out, 0};
    build_stage_protect(a, &stage, restore_staged, &r);
    build_stage_drop(&stage);
    if (r.rc != 0)
        return -1;
    *why = NULL;
    return 1;
}

typedef struct {
    HawkContext *ctx;
    BuildStage *tmp;
    const char *cache, *entry, *stage;
    const char *const *files;
    size_t n;
    int trust, rc;
} Store;

/* Copies the files into the temporary entry with their index, then
 * renames it into place. */
static void store_staged(void *ud)
{
    Store *s = ud;
    HawkContext *ctx = s->ctx;
    HkArena *a = ctx->arena;
    HkBuf index;
    hk_buf_init(&index, a);
    for (size_t k = 0; k < s->n; k++) {
        const char *digest;
        if (copy_file(a, hk_path_join(a, s->stage, s->files[k]),
                      hk_path_join(a, s->tmp->path, s->files[k]),
                      &digest) != 0) {
            hk_error(&ctx->diags, NULL, noloc,
                     "cannot copy '%s' into the cache: %s", s->files[k],
                     strerror(errno));
            s->rc = -1;
            return;
        }
        hk_buf_printf(&index, "%s %s\n", digest, s->files[k]);
    }
    const char *why;
    const char *index_path = hk_path_join(a, s->tmp->path, "index");
    if (hk_write_whole(a, index_path, index.data, index.len, &why) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "%s", why);
        s->rc = -1;
        return;
    }
    hk_cache_seal(index_path);
    /* the entry holds no marker: a sweep never takes it for a stage */
    if (build_stage_unmark(s->tmp) == 0 &&
        hk_rename(s->tmp->path, s->entry) == 0) {
        build_stage_forget(s->tmp);
        return;
    }
    /* An entry is there: a sound one (another build's) stays and this copy
     * goes; a damaged one, or (unless trusted) one another user wrote or
     * may write, is moved into a stage of its own, removed with it, and
     * replaced. */
    EntryFile *there;
    size_t nn;
    if (entry_sound(a, s->entry, &there, &nn, s->trust, &why))
        return;
    BuildStage old;
    if (build_stage_make(ctx, s->cache, BUILD_TMP_PREFIX, &old) != 0) {
        s->rc = -1;
        return;
    }
    if (hk_rename(s->entry, hk_path_join(a, old.path, "entry")) == 0 &&
        hk_rename(s->tmp->path, s->entry) == 0)
        build_stage_forget(s->tmp);
    build_stage_drop(&old);
}

int build_cache_store(HawkContext *ctx, const char *cache, const char *key,
                      const char *stage, const char *const *files, size_t n,
                      int trust)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
    if (hk_cache_make_dirs(a, cache, hk_asprintf(a, "%.2s", key), NULL) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create a cache entry in "
                 "'%s': %s", cache, strerror(errno));
        return -1;
    }
    BuildStage tmp;
    if (build_stage_make(ctx, cache, BUILD_TMP_PREFIX, &tmp) != 0)
        return -1;
    Store s = {ctx, &tmp, cache, entry, stage, files, n, trust, 0};
    build_stage_protect(a, &tmp, store_staged, &s);
    build_stage_drop(&tmp);
    return s.rc;
}
