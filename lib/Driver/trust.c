/* trust.c -- who may have written what a cache holds.  A build cache
 * hands a program shared objects to load, and the checks' cache
 * verdicts that skip a checker, so what is read from one must have been
 * written by this user (or root): every directory from the cache down to
 * an entry, and every file of the entry, owned by this user or root and
 * writable by no one else (no group or other write bit), a file never
 * a symbolic link.  hawk makes its caches that way whatever the umask
 * (hk_cache_make_dirs, hk_cache_seal).  docs/EmbeddedC.md, "Who may
 * write a cache". */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "emit.h"

/* Why st, of a file or directory of a cache, may not be trusted, or
 * NULL. */
static const char *untrusted_stat(HkArena *a, const struct stat *st)
{
    if (st->st_uid != geteuid() && st->st_uid != 0)
        return hk_asprintf(a, "owned by another user (uid %lu)",
                           (unsigned long)st->st_uid);
    if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return hk_asprintf(a, "writable by other users (mode %04o)",
                           (unsigned)(st->st_mode & 07777));
    return NULL;
}

const char *hk_cache_untrusted(HkArena *a, const char *path, int is_dir)
{
    struct stat st;
    /* a directory is followed (the user may link the cache elsewhere:
     * the target is what is judged); a file never is */
    if ((is_dir ? stat(path, &st) : lstat(path, &st)) != 0)
        return hk_asprintf(a, "not readable (%s)", strerror(errno));
    if (is_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        return is_dir ? "not a directory" : "not a regular file";
    return untrusted_stat(a, &st);
}

const char *hk_cache_untrusted_below(HkArena *a, const char *cache,
                                     const char *sub, const char **which)
{
    const char *path = cache;
    *which = cache;
    const char *why = hk_cache_untrusted(a, cache, 1);
    for (const char *s = sub; why == NULL && *s != '\0';) {
        const char *slash = strchr(s, '/');
        size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
        path = hk_path_join(a, path, hk_strndup(a, s, n));
        *which = path;
        why = hk_cache_untrusted(a, path, 1);
        s += n + (slash != NULL);
    }
    return why;
}

int hk_cache_make_dirs(HkArena *a, const char *dir, const char **failed)
{
    /* the directories made here are made writable by this user alone,
     * whatever the umask gives: a later read trusts only such */
    char *p = hk_strdup(a, dir);
    size_t n = strlen(p);
    int err = 0;
    for (size_t i = 1; i <= n && err == 0; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0755) == 0)
            err = chmod(p, 0755) != 0 ? errno : 0;
        else if (errno != EEXIST)
            err = errno;
        if (err != 0 && failed != NULL)
            *failed = hk_strdup(a, p);
        p[i] = c;
    }
    if (err == 0)
        return hk_make_dirs(a, dir, failed);  /* a file in the way, faults */
    errno = err;
    return -1;
}

void hk_cache_seal(const char *path)
{
    (void)chmod(path, 0644);
}
