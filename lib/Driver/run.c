/* run.c -- external programs: started with an argument vector, never a
 * shell, their output captured for the report. */
/* posix_spawn_file_actions_addchdir_np (glibc >= 2.29) is a GNU extension:
 * the checks run the tools in the output directory so their commands and
 * messages name files without a directory. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver.h"

extern char **environ;

const char *hk_which(HkArena *a, const char *name)
{
    struct stat st;
    if (strchr(name, '/') != NULL)
        return stat(name, &st) == 0 && S_ISREG(st.st_mode) &&
                       access(name, X_OK) == 0
                   ? hk_strdup(a, name)
                   : NULL;
    const char *path = getenv("PATH");
    if (path == NULL || *name == '\0')
        return NULL;
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *cand = n ? hk_asprintf(a, "%.*s/%s", (int)n, p, name)
                             : hk_asprintf(a, "./%s", name);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
            access(cand, X_OK) == 0)
            return cand;
        if (end == NULL)
            return NULL;
        p = end + 1;
    }
}

typedef struct {
    int fd;
    HkBuf b;
} Drain;

static void drain_call(void *ud)
{
    Drain *dr = ud;
    char chunk[4096];
    for (;;) {
        ssize_t n = read(dr->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        hk_buf_put(&dr->b, chunk, (size_t)n);
    }
}

/* Reads fd to EOF into an arena buffer, then closes it and reaps pid.
 * When memory runs out while reading, the pipe is closed and the child
 * reaped all the same before the failure goes on to the caller's
 * catcher. */
static int drain_and_wait(HkArena *a, int fd, pid_t pid, HkRunResult *r)
{
    Drain dr = {fd, {0}};
    hk_buf_init(&dr.b, a);
    int oom = hk_arena_protect(a, drain_call, &dr);
    close(fd);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (oom != 0)
        hk_out_of_memory(a);
    r->output = hk_buf_cstr(&dr.b);
    r->output_len = dr.b.len;
    return st;
}

static int spawn_with_pipe(const char *dir, const char *const *argv,
                           int out_fd, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    /* The tool must not run anywhere else: a failure here is the spawn's. */
    int rc = dir != NULL ? posix_spawn_file_actions_addchdir_np(&fa, dir) : 0;
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&fa);
        return rc;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
    posix_spawn_file_actions_addclose(&fa, out_fd);
    /* posix_spawnp takes char *const[]: the strings are not modified. */
    rc = posix_spawnp(pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

HkRunResult hk_run(HkArena *a, const char *const *argv)
{
    return hk_run_in(a, NULL, argv);
}

HkRunResult hk_run_in(HkArena *a, const char *dir, const char *const *argv)
{
    HkRunResult r;
    memset(&r, 0, sizeof r);
    r.output = "";
    int fds[2];
    if (pipe(fds) != 0) {
        r.errno_text = hk_strdup(a, strerror(errno));
        return r;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    pid_t pid;
    int rc = spawn_with_pipe(dir, argv, fds[1], &pid);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        r.errno_text = hk_strdup(a, strerror(rc));
        return r;
    }
    r.started = 1;
    int st = drain_and_wait(a, fds[0], pid, &r);
    if (WIFEXITED(st)) {
        r.exited = 1;
        r.status = WEXITSTATUS(st);
        /* posix_spawnp reports exec failure as exit 127 on glibc. */
        if (r.status == 127 && r.output_len == 0 && hk_which(a, argv[0]) == NULL) {
            r.started = 0;
            r.errno_text = "No such file or directory";
        }
    } else if (WIFSIGNALED(st)) {
        r.status = WTERMSIG(st);
    }
    return r;
}

const char *hk_run_output_trimmed(HkArena *a, const char *output)
{
    size_t n = strlen(output);
    while (n > 0 && (output[n - 1] == '\n' || output[n - 1] == '\r'))
        n--;
    return hk_strndup(a, output, n);
}

static int needs_quotes(const char *w)
{
    if (*w == '\0')
        return 1;
    for (const char *p = w; *p; p++)
        if (strchr(" \t\n'\"\\$`*?[]{}()<>|&;#~!", *p) != NULL)
            return 1;
    return 0;
}

const char *hk_command_text(HkArena *a, const char *const *argv)
{
    HkBuf b;
    hk_buf_init(&b, a);
    for (size_t i = 0; argv[i] != NULL; i++) {
        if (i)
            hk_buf_puts(&b, " ");
        if (!needs_quotes(argv[i])) {
            hk_buf_puts(&b, argv[i]);
            continue;
        }
        hk_buf_puts(&b, "'");
        for (const char *p = argv[i]; *p; p++)
            hk_buf_puts(&b, *p == '\'' ? "'\\''" : (char[2]){*p, 0});
        hk_buf_puts(&b, "'");
    }
    return hk_buf_cstr(&b);
}
