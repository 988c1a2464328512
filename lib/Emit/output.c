/* output.c -- files written whole: a temporary beside the target, then a
 * rename, so a reader never sees a partly written file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"

int hk_write_whole(HkArena *a, const char *path, const char *data, size_t n,
                   const char **why)
{
    char *tmp = hk_asprintf(a, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        *why = hk_asprintf(a, "cannot create '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, data + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            *why = hk_asprintf(a, "cannot write '%s': %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            return -1;
        }
        done += (size_t)w;
    }
    /* mkstemp makes the file 0600; an emitted source is an ordinary file. */
    if (fchmod(fd, 0644) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
        *why = hk_asprintf(a, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}
