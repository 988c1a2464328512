/* trust.c -- who may have written what a cache holds.  A build cache
 * hands a program shared objects to load, and the checks' cache verdicts
 * that skip a checker, so what is read from one must have been written
 * by this user (or root): every directory from the cache down to an
 * entry, and every file of the entry, owned by this user or root and
 * writable by no one else (no group or other write bit), a file never a
 * symbolic link.  hawk makes its caches that way whatever the umask
 * (hk_cache_make_dirs, hk_cache_seal).  docs/EmbeddedC.md, "Who may
 * write a cache". */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"

const char *hk_cache_untrusted(HkArena *a, const char *path, int is_dir)
{
    struct stat st;
    /* a directory is followed (the user may link the cache elsewhere:
     * the target is what is judged); a file never is */
    if ((is_dir ? stat(path, &st) : lstat(path, &st)) != 0)
        return hk_asprintf(a, "not readable (%s)", strerror(errno));
    if (is_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
        return is_dir ? "not a directory" : "not a regular file";
    if (st.st_uid != geteuid() && st.st_uid != 0)
        return hk_asprintf(a, "owned by another user (uid %lu)",
                           (unsigned long)st.st_uid);
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
        return hk_asprintf(a, "writable by other users (mode %04o)",
                           (unsigned)(st.st_mode & 07777));
    return NULL;
}

/* The directory below path named by the first name of *sub, which then
 * points past it (and its '/'). */
static const char *step_down(HkArena *a, const char *path, const char **sub)
{
    size_t n = strcspn(*sub, "/");
    const char *next = hk_path_join(a, path, hk_strndup(a, *sub, n));
    *sub += n + ((*sub)[n] == '/');
    return next;
}

const char *hk_cache_untrusted_below(HkArena *a, const char *cache,
                                     const char *sub, const char **which)
{
    *which = cache;
    const char *why = hk_cache_untrusted(a, cache, 1);
    while (why == NULL && *sub != '\0') {
        *which = step_down(a, *which, &sub);
        why = hk_cache_untrusted(a, *which, 1);
    }
    return why;
}

int hk_cache_make_dirs(HkArena *a, const char *cache, const char *sub,
                       const char **failed)
{
    int made = access(cache, F_OK) != 0;
    if (hk_make_dirs(a, sub != NULL ? hk_path_join(a, cache, sub) : cache,
                     failed) != 0)
        return -1;
    /* what hawk made is writable by this user alone, whatever the umask
     * gave it: the cache itself when it made it, its own directories in
     * it always (a later read trusts only such) */
    if (made)
        (void)chmod(cache, 0755);
    for (const char *path = cache; sub != NULL && *sub != '\0';) {
        path = step_down(a, path, &sub);
        (void)chmod(path, 0755);
    }
    return 0;
}

void hk_cache_seal(const char *path)
{
    (void)chmod(path, 0644);
}
