/* output.c -- files written whole: a temporary beside the target, then a
 * rename, so a reader never sees a partly written file, and a failure
 * leaves no file and no temporary behind.  Every output of every tool goes
 * through hawk_write_file. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "fault.h"

/* Writes all of data to fd; 0, or an errno value. */
static int write_all(int fd, const char *data, size_t len)
{
    if (hk_fault(HK_FAULT_IO))
        return ENOSPC;
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The next temporary's number in this process: with the pid, a name no
 * other writer uses, so a thread needs neither mkstemp's 0600 mode nor
 * the process's umask changed and restored under it. */
static atomic_uint temp_counter;

int hawk_write_file(const char *path, const void *data, size_t len)
{
    size_t n = strlen(path);
    size_t cap = n + sizeof ".tmp.-." + 2u * 20u;
    char *tmp = hk_malloc(cap);
    if (tmp == NULL)
        return ENOMEM;
    int fd = -1;
    /* O_EXCL: a name left by a killed writer is skipped, never reused;
     * 0666 less the umask, as any new file */
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        snprintf(tmp, cap, "%s.tmp.%ld.%u", path, (long)getpid(),
                 atomic_fetch_add(&temp_counter, 1u));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return e;
    }
    int err = write_all(fd, data, len);
    if (close(fd) != 0 && err == 0)
        err = errno;
    if (err == 0 && hk_rename(tmp, path) != 0)
        err = errno;
    if (err != 0)
        unlink(tmp);
    free(tmp);
    return err;
}

int hk_write_whole(HkArena *a, const char *path, const char *data, size_t n,
                   const char **why)
{
    int err = hawk_write_file(path, data, n);
    if (err == 0)
        return 0;
    *why = hk_asprintf(a, "cannot write '%s': %s", path, strerror(err));
    return -1;
}

typedef struct {
    FILE *f;
    HkBuf b;
} ReadCall;

static void read_call(void *ud)
{
    ReadCall *rc = ud;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, rc->f)) > 0)
        hk_buf_put(&rc->b, chunk, n);
}

int hk_read_whole(HkArena *a, const char *path, const char **text,
                  size_t *len, const char **why)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        *text = NULL;
        if (errno == ENOENT)
            return 0;
        *why = hk_asprintf(a, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    ReadCall rc = {f, {0}};
    hk_buf_init(&rc.b, a);
    /* the file is closed even when memory runs out while it is read */
    int oom = hk_arena_protect(a, read_call, &rc);
    int bad = oom == 0 && ferror(f);
    fclose(f);
    if (oom != 0)
        hk_out_of_memory(a);
    if (bad) {
        *why = hk_asprintf(a, "cannot read '%s'", path);
        return -1;
    }
    *text = hk_buf_cstr(&rc.b);
    if (len != NULL)
        *len = rc.b.len;
    return 0;
}

const char *hk_path_join(HkArena *a, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return hk_asprintf(a, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
                       name);
}

int hk_make_dirs(HkArena *a, const char *dir, const char **failed)
{
    if (*dir == '\0') {  /* "" names no directory (-o "") */
        if (failed != NULL)
            *failed = dir;
        errno = ENOENT;
        return -1;
    }
    char *p = hk_strdup(a, dir);
    for (char *s = p + 1;; s++) {
        char c = *s;
        if (c != '/' && c != '\0')
            continue;
        *s = '\0';
        struct stat st;
        if (stat(p, &st) != 0 && hk_fault(HK_FAULT_IO)) {
            errno = ENOSPC;
            if (failed != NULL)
                *failed = p;
            return -1;
        }
        int err = 0;
        if (stat(p, &st) == 0)  /* a file where a directory must be? */
            err = S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
        else if (mkdir(p, 0777) != 0 && errno != EEXIST)
            err = errno;
        if (err != 0) {
            errno = err;
            if (failed != NULL)
                *failed = p;
            return -1;
        }
        *s = c;
        if (c == '\0')
            break;
    }
    return 0;
}

int hk_rename(const char *from, const char *to)
{
    if (hk_fault(HK_FAULT_IO)) {
        errno = EIO;
        return -1;
    }
    return rename(from, to);
}
