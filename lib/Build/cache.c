/* cache.c -- the build cache: a directory of entries, one per build key
 * (key.c), each the files of one build with an index of their sha256
 * digests.  An entry is written into a temporary directory of the cache
 * and renamed into place, so no reader sees a partial one and two builds
 * racing on one key both succeed (the later rename finds the entry and
 * its copy goes); an entry whose files do not match its index is never
 * used, and the next build of its key replaces it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildint.h"
#include "context.h"
#include "digest.h"
#include "emit.h"

static const HkLoc noloc = {0, 0, 0};

void build_remove_dir(HkArena *a, const char *dir)
{
    DIR *d = opendir(dir);
    if (d != NULL) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlink(hk_path_join(a, dir, e->d_name));
        closedir(d);
    }
    rmdir(dir);
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

/* Copies src to dst whole (a temporary file and a rename), its digest
 * into *digest when not NULL; 0, or -1. */
static int copy_file(HkArena *a, const char *src, const char *dst,
                     const char **digest)
{
    const char *data, *why;
    size_t len;
    if (read_bytes(a, src, &data, &len) != 0)
        return -1;
    if (digest != NULL)
        *digest = hk_sha256_hex(a, data, len);
    return hk_write_whole(a, dst, data, len, &why);
}

/* The entry of key: <cache>/<first two hex digits>/<key>. */
static const char *entry_of(HkArena *a, const char *cache, const char *key)
{
    return hk_path_join(a, cache, hk_asprintf(a, "%.2s/%s", key, key));
}

/* The names of entry's files when every one matches its index (*names
 * NUL-separated, *n of them): 1; else 0 with *why. */
static int entry_sound(HkArena *a, const char *entry, char **names,
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
    for (char *s = lines; *s != '\0'; (*n)++) {
        char *nl = strchr(s, '\n');
        if (nl == NULL || nl - s < 66 || s[64] != ' ') {
            *why = "its index is damaged";
            return 0;
        }
        *nl = '\0';
        const char *name = s + 65, *data;
        size_t size;
        if (strchr(name, '/') != NULL ||
            read_bytes(a, hk_path_join(a, entry, name), &data, &size) != 0) {
            *why = hk_asprintf(a, "'%s' is missing", name);
            return 0;
        }
        if (strncmp(hk_sha256_hex(a, data, size), s, 64) != 0) {
            *why = hk_asprintf(a, "'%s' does not match its digest", name);
            return 0;
        }
        s = nl + 1;
    }
    if (*n == 0) {
        *why = "its index is empty";
        return 0;
    }
    *names = lines;
    return 1;
}

int build_cache_restore(HawkContext *ctx, const char *cache, const char *key,
                        const char *out, const char **why)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
    char *names;
    size_t n;
    if (!entry_sound(a, entry, &names, &n, why))
        return 0;
    const char *failed;
    if (hk_make_dirs(a, out, &failed) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 failed, strerror(errno));
        return -1;
    }
    const char *s = names;
    for (size_t k = 0; k < n; k++, s += strlen(s) + 1) {
        const char *name = s + 65;
        if (copy_file(a, hk_path_join(a, entry, name), hk_path_join(a, out, name),
                      NULL) != 0) {
            hk_error(&ctx->diags, NULL, noloc,
                     "cannot restore '%s' from the cache into '%s': %s", name,
                     out, strerror(errno));
            return -1;
        }
    }
    *why = NULL;
    return 1;
}

int build_cache_store(HawkContext *ctx, const char *cache, const char *key,
                      const char *out, const char *const *files, size_t n)
{
    HkArena *a = ctx->arena;
    const char *entry = entry_of(a, cache, key);
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
        if (copy_file(a, hk_path_join(a, out, files[k]),
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
    if (rename(tmp, entry) == 0)
        return 0;
    /* An entry is there: a sound one (another build's) stays and this copy
     * goes; a damaged one is moved aside and replaced. */
    char *names;
    size_t nn;
    if (entry_sound(a, entry, &names, &nn, &why)) {
        build_remove_dir(a, tmp);
        return 0;
    }
    const char *stale =
        hk_asprintf(a, "%s.stale-%ld", entry, (long)getpid());
    if (rename(entry, stale) == 0)
        build_remove_dir(a, stale);
    if (rename(tmp, entry) != 0)
        build_remove_dir(a, tmp);
    return 0;
}
