/* cache.c -- the build cache: a directory of entries, one per build key
 * (key.c), each the files of one build with an index of their sha256
 * digests.  An entry is written from the build's stage into a temporary
 * directory of the cache and renamed into place, so no reader sees a
 * partial one, no file another process put in the output directory is
 * stored, and two builds racing on one key both succeed (the later rename
 * finds the entry and its copy goes); an entry whose files do not match
 * its index is never used, and the next build of its key replaces it.  A
 * restore writes the very bytes it checked into a stage, then moves them
 * out, as a build does.  The stages and temporary directories of builds
 * that were killed are swept when their process is gone. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
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

typedef struct {
    HkArena *a;
    const char *dir, *prefix;
    int depth;
} InDir;

/* How deep a removal goes: an entry holds files, and a damaged one a
 * directory or two where a file was; nothing hawk makes is deeper. */
enum { REMOVE_DEPTH = 8 };

static void remove_tree(HkArena *a, const char *dir, int depth);

/* unlink never follows a symbolic link; a directory refuses it (EISDIR,
 * or EPERM where POSIX allows that) and is removed with what it holds. */
static void unlink_entry(void *ud, const char *name)
{
    const InDir *in = ud;
    const char *path = hk_path_join(in->a, in->dir, name);
    if (unlink(path) != 0 && (errno == EISDIR || errno == EPERM))
        remove_tree(in->a, path, in->depth + 1);
}

static void remove_tree(HkArena *a, const char *dir, int depth)
{
    if (depth > REMOVE_DEPTH)
        return;
    InDir in = {a, dir, NULL, depth};
    build_each_entry(a, dir, unlink_entry, &in);
    rmdir(dir);
}

void build_remove_dir(HkArena *a, const char *dir)
{
    remove_tree(a, dir, 0);
}

/* Whether name is "<prefix>...-<pid>" (or "<prefix><pid>") of a process
 * that no longer exists: a live one, or another user's (EPERM), is left
 * alone. */
static int of_dead_process(const char *name, const char *prefix)
{
    if (strncmp(name, prefix, strlen(prefix)) != 0)
        return 0;
    const char *dash = strrchr(name, '-');
    const char *digits = dash != NULL ? dash + 1 : name + strlen(prefix);
    char *end;
    long pid = strtol(digits, &end, 10);
    if (*digits == '\0' || *end != '\0' || pid <= 0 || (pid_t)pid == getpid())
        return 0;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static void sweep_entry(void *ud, const char *name)
{
    const InDir *in = ud;
    if (of_dead_process(name, in->prefix))
        build_remove_dir(in->a, hk_path_join(in->a, in->dir, name));
}

void build_sweep(HkArena *a, const char *dir, const char *prefix)
{
    InDir in = {a, dir, prefix, 0};
    build_each_entry(a, dir, sweep_entry, &in);
}

const char *build_stage(HawkContext *ctx, const char *dir)
{
    HkArena *a = ctx->arena;
    build_sweep(a, dir, BUILD_STAGE_PREFIX);
    const char *stage = hk_path_join(
        a, dir, hk_asprintf(a, BUILD_STAGE_PREFIX "%ld", (long)getpid()));
    build_remove_dir(a, stage);
    if (hk_make_dirs(a, stage, NULL) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 stage, strerror(errno));
        return NULL;
    }
    return stage;
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
    return hk_write_whole(a, dst, data, len, &why);
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
 * (*files, *n of them): 1; else 0 with *why. */
static int entry_sound(HkArena *a, const char *entry, EntryFile **files,
                       size_t *n, const char **why)
{
    const char *index;
    size_t len;
    *n = 0;
    if (read_bytes(a, hk_path_join(a, entry, "index"), &index, &len) != 0) {
        *why = "no entry";
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

int build_cache_restore(HawkContext *ctx, const char *cache, const char *key,
                        const char *out, const char **why)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
    EntryFile *files;
    size_t n;
    if (!entry_sound(a, entry, &files, &n, why))
        return 0;
    const char *failed, *stage;
    if (hk_make_dirs(a, out, &failed) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 failed, strerror(errno));
        return -1;
    }
    if ((stage = build_stage(ctx, out)) == NULL)
        return -1;
    /* the bytes checked are the bytes written, all of them before any
     * file of out is replaced */
    const char **names = hk_alloc(a, n * sizeof *names);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        const char *werr;
        names[k] = files[k].name;
        if (hk_write_whole(a, hk_path_join(a, stage, files[k].name),
                           files[k].data, files[k].len, &werr) != 0) {
            hk_error(&ctx->diags, NULL, noloc,
                     "cannot restore '%s' from the cache: %s", files[k].name,
                     werr);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = build_move_files(ctx, stage, out, names, n);
    build_remove_dir(a, stage);
    if (rc != 0)
        return -1;
    *why = NULL;
    return 1;
}

int build_cache_store(HawkContext *ctx, const char *cache, const char *key,
                      const char *stage, const char *const *files, size_t n)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
    build_sweep(a, cache, "tmp-");
    const char *tmp = hk_path_join(
        a, cache, hk_asprintf(a, "tmp-%s-%ld", key, (long)getpid()));
    char *parent = hk_strdup(a, entry);
    *strrchr(parent, '/') = '\0';
    if (hk_make_dirs(a, tmp, NULL) != 0 || hk_make_dirs(a, parent, NULL) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create a cache entry in "
                 "'%s': %s", cache, strerror(errno));
        return -1;
    }
    HkBuf index;
    hk_buf_init(&index, a);
    for (size_t k = 0; k < n; k++) {
        const char *digest;
        if (copy_file(a, hk_path_join(a, stage, files[k]),
                      hk_path_join(a, tmp, files[k]), &digest) != 0) {
            hk_error(&ctx->diags, NULL, noloc,
                     "cannot copy '%s' into the cache: %s", files[k],
                     strerror(errno));
            build_remove_dir(a, tmp);
            return -1;
        }
        hk_buf_printf(&index, "%s %s\n", digest, files[k]);
    }
    const char *why;
    if (hk_write_whole(a, hk_path_join(a, tmp, "index"), index.data, index.len,
                       &why) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "%s", why);
        build_remove_dir(a, tmp);
        return -1;
    }
    if (hk_rename(tmp, entry) == 0)
        return 0;
    /* An entry is there: a sound one (another build's) stays and this copy
     * goes; a damaged one is moved aside and replaced. */
    EntryFile *there;
    size_t nn;
    if (entry_sound(a, entry, &there, &nn, &why)) {
        build_remove_dir(a, tmp);
        return 0;
    }
    const char *stale =
        hk_asprintf(a, "%s.stale-%ld", entry, (long)getpid());
    if (hk_rename(entry, stale) == 0)
        build_remove_dir(a, stale);
    if (hk_rename(tmp, entry) != 0)
        build_remove_dir(a, tmp);
    return 0;
}
