/* stage.c -- the directories hawk makes to write into and then moves
 * from: a build's stage in its output directory, a restore's, a cache
 * entry's temporary directory.  A stage is named "<prefix>XXXXXX" by
 * mkdtemp (unique per call, even within one process) and holds a marker,
 * ".hawk-stage", naming its host and process, on which the process holds
 * an flock(2) while the stage lives.  The lock goes with the process
 * however it ends, so a stage whose marker can be locked is one whose
 * maker is gone.
 *
 * The sweep removes only what hawk provably made: a name of the exact
 * shape, a real directory (never a symbolic link) of this user's holding
 * a regular-file marker of this host whose lock is free and whose process
 * is gone.  A user's look-alike directory has no marker; another host's
 * stage on a shared cache is left to that host.  Every removal walks by
 * file descriptor (openat with O_NOFOLLOW, unlinkat), so no symbolic
 * link is ever followed, even one swapped in during the walk. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildint.h"
#include "context.h"
#include "emit.h"
#include "fault.h"

static const HkLoc noloc = {0, 0};

/* How deep a removal goes: an entry holds files, and a damaged one a
 * directory or two where a file was; nothing hawk makes is deeper. */
enum { REMOVE_DEPTH = 8 };

/* The marker's first line, which no file of a user's begins with by
 * chance. */
#define MARK_MAGIC "hawk stage 1\n"

static void remove_at(int parent, const char *name, int depth);

/* Removes what the directory open at fd holds (fd is closed). */
static void empty_dir(int fd, int depth)
{
    DIR *d = fdopendir(fd);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            remove_at(dirfd(d), e->d_name, depth + 1);
    if (d != NULL)
        closedir(d);
    else
        close(fd);
}

/* Removes name in the directory open at parent: a directory with what it
 * holds, anything else (a symbolic link included) by unlinking it. */
static void remove_at(int parent, const char *name, int depth)
{
    if (depth > REMOVE_DEPTH)
        return;
    int fd = openat(parent, name,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOTDIR || errno == ELOOP)
            unlinkat(parent, name, 0);
        return;
    }
    empty_dir(fd, depth);
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* This machine's name, "" when it has none. */
static void host_name(char *buf, size_t cap)
{
    buf[gethostname(buf, cap - 1) != 0 ? 0 : cap - 1] = '\0';
}

/* Whether name is "<prefix>" and six letters or digits: mkdtemp's shape. */
static int stage_shaped(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || strlen(name) != n + 6)
        return 0;
    for (const char *s = name + n; *s != '\0'; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return 0;
    return 1;
}

/* Whether the marker open at fd names this host and a process that is
 * gone, and its lock is free (then taken, held until fd closes). */
static int marker_dead(int fd)
{
    struct stat st;
    char text[512], host[256];
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    host_name(host, sizeof host);
    size_t magic = strlen(MARK_MAGIC);
    if (strncmp(text, MARK_MAGIC "host ", magic + 5) != 0)
        return 0;
    const char *h = text + magic + 5;
    const char *nl = strchr(h, '\n');
    if (nl == NULL || (size_t)(nl - h) != strlen(host) ||
        strncmp(h, host, strlen(host)) != 0 || strncmp(nl, "\npid ", 5) != 0)
        return 0;
    char *end;
    long pid = strtol(nl + 5, &end, 10);
    if (pid <= 0 || *end != '\n')
        return 0;
    if ((pid_t)pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
        return 0;
    return flock(fd, LOCK_EX | LOCK_NB) == 0;
}

/* Removes the entry name of the directory open at dfd when it is a stage
 * of prefix whose maker is gone. */
static void sweep_one(int dfd, const char *name, const char *prefix)
{
    if (!stage_shaped(name, prefix))
        return;
    int sfd = openat(dfd, name,
                     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sfd < 0)
        return;
    struct stat st;
    int mfd = -1;
    if (fstat(sfd, &st) == 0 && st.st_uid == geteuid())
        mfd = openat(sfd, BUILD_STAGE_MARK, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (mfd >= 0 && marker_dead(mfd)) {
        empty_dir(sfd, 0);  /* the marker too, its lock held to the end */
        unlinkat(dfd, name, AT_REMOVEDIR);
    } else {
        close(sfd);
    }
    if (mfd >= 0)
        close(mfd);
}

void build_sweep(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL)
        sweep_one(dirfd(d), e->d_name, prefix);
    if (d != NULL)
        closedir(d);
}

/* Writes the marker of the stage just made at s->fd and takes its lock;
 * 0, or -1 with errno. */
static int mark(BuildStage *s)
{
    char host[256], text[512];
    host_name(host, sizeof host);
    int n = snprintf(text, sizeof text, MARK_MAGIC "host %s\npid %ld\n", host,
                     (long)getpid());
    errno = ENOSPC;  /* a short write's, or an injected fault's */
    if (hk_fault(HK_FAULT_IO))
        return -1;
    s->lock = openat(s->fd, BUILD_STAGE_MARK,
                     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    return s->lock >= 0 && flock(s->lock, LOCK_EX | LOCK_NB) == 0 &&
                   write(s->lock, text, (size_t)n) == (ssize_t)n
               ? 0
               : -1;
}

/* Makes the directory of s (its path and name set) and opens it; 0, or
 * -1 with errno. */
static int make(BuildStage *s, const char *dir, char *path)
{
    errno = ENOSPC;  /* an injected fault's */
    if (hk_fault(HK_FAULT_IO) ||
        (s->dir = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
        mkdtemp(path) == NULL)
        return -1;
    s->path = path;
    s->fd = openat(s->dir, s->name,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return s->fd < 0 ? -1 : 0;
}

int build_stage_make(HawkContext *ctx, const char *dir, const char *prefix,
                     BuildStage *s)
{
    HkArena *a = ctx->arena;
    build_sweep(dir, prefix);
    char *path = hk_asprintf(a, "%s/%sXXXXXX", dir, prefix);
    s->path = NULL;
    s->name = path + strlen(dir) + 1;
    s->dir = s->fd = s->lock = -1;
    if (make(s, dir, path) != 0 || mark(s) != 0) {
        int err = errno;
        build_stage_drop(s);
        hk_error(&ctx->diags, NULL, noloc, "cannot create directory '%s': %s",
                 path, strerror(err));
        return -1;
    }
    return 0;
}

void build_stage_protect(HkArena *a, BuildStage *s, void (*fn)(void *ud),
                         void *ud)
{
    if (hk_arena_protect(a, fn, ud) != 0) {
        build_stage_drop(s);
        hk_out_of_memory(a);
    }
}

int build_stage_unmark(BuildStage *s)
{
    return unlinkat(s->fd, BUILD_STAGE_MARK, 0);
}

void build_stage_drop(BuildStage *s)
{
    if (s->path != NULL && s->dir >= 0)
        remove_at(s->dir, s->name, 0);
    build_stage_forget(s);
}

void build_stage_forget(BuildStage *s)
{
    if (s->lock >= 0)
        close(s->lock);
    if (s->fd >= 0)
        close(s->fd);
    if (s->dir >= 0)
        close(s->dir);
    s->path = NULL;
    s->dir = s->fd = s->lock = -1;
}
