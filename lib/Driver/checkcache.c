/* checkcache.c -- checks paid once.  A check's verdict is a function of
 * the texts it reads, the tool (its path and `--version` line) and its
 * argument vector, so a check that passed is recorded in the cache
 * directory under the sha256 of those and is not run again on the same
 * ones: re-exporting unchanged units runs no checker.  Only passes are
 * recorded; a failure runs again and shows the tool's output afresh.
 *
 * On a miss, cppcheck runs with a build directory of its own in the cache
 * (--cppcheck-build-dir, one per tool and set of file names, held under
 * a lock while cppcheck runs), where it keeps each file's analysis: after a
 * change to one unit it reads that unit again and still checks the rules
 * that span the directory (5.1, 5.6 to 5.9, 8.x) over every unit.
 * docs/EmbeddedC.md, "Checks paid once". */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "digest.h"
#include "driver.h"

/* The names a check's key holds, each once: a growing list and a hash
 * set of it. */
typedef struct {
    const char **names;
    uint32_t n, cap;
    HkSymtab *seen;
} Names;

static void add_name(HkArena *a, Names *l, const char *name)
{
    if (!hk_symtab_put(l->seen, name, strlen(name), l->n))
        return;
    l->names = hk_grow(a, l->names, &l->cap, l->n + 1, sizeof *l->names);
    l->names[l->n++] = name;
}

/* The local headers text names (#include "x.h"): hawk's units include
 * their own header and the runtime unit's, by bare name. */
static void add_includes(HkArena *a, const char *text, Names *l)
{
    static const char tag[] = "#include \"";
    for (const char *p = strstr(text, tag); p != NULL;
         p = strstr(p + 1, tag)) {
        if (p != text && p[-1] != '\n')
            continue;
        const char *s = p + sizeof tag - 1;
        const char *e = strchr(s, '"');
        if (e == NULL || memchr(s, '\n', (size_t)(e - s)) != NULL)
            continue;
        add_name(a, l, hk_strndup(a, s, (size_t)(e - s)));
    }
}

/* Puts in b the text of the files of dir named, then of the headers
 * they include, each once (headers: of those headers alone). */
static void put_files(HkArena *a, HkBuf *b, const char *dir,
                      const char *const *files, int headers)
{
    Names l = {NULL, 0, 0, hk_symtab_new(a)};
    for (const char *const *f = files; *f != NULL; f++)
        add_name(a, &l, *f);
    uint32_t nfiles = l.n;
    for (uint32_t k = 0; k < l.n; k++) {
        const char *text = NULL, *why = NULL;
        size_t len = 0;
        if (hk_read_whole(a, hk_path_join(a, dir, l.names[k]), &text, &len,
                          &why) != 0 ||
            text == NULL) {
            hk_buf_printf(b, "file %s absent\n", l.names[k]);
            continue;
        }
        add_includes(a, text, &l);
        if (headers && k < nfiles)
            continue;
        hk_buf_printf(b, "file %s %zu\n", l.names[k], len);
        hk_buf_put(b, text, len);
    }
}

const char *hk_check_key(HkArena *a, const char *dir, const char *tool_version,
                         const char *const *argv, const char *const *files)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "hawk-check 1\nversion %s\n",
                  tool_version != NULL ? tool_version : "");
    for (const char *const *v = argv; *v != NULL; v++)
        hk_buf_printf(&b, "arg %zu %s\n", strlen(*v), *v);
    put_files(a, &b, dir, files, 0);
    return hk_sha256_hex(a, b.data, b.len);
}

/* <cache>/checks/<key>: where a passed check is recorded. */
static const char *record_path(HkArena *a, const char *cache, const char *key)
{
    return hk_path_join(a, hk_path_join(a, cache, "checks"), key);
}

int hk_check_cached(HkArena *a, const char *cache, const char *key)
{
    if (cache == NULL || key == NULL)
        return 0;
    /* a verdict another user could have written is no verdict: the
     * check runs (trust.c) */
    const char *dir;
    return access(record_path(a, cache, key), F_OK) == 0 &&
           hk_cache_untrusted_below(a, cache, "checks", &dir) == NULL &&
           hk_cache_untrusted(a, record_path(a, cache, key), 0) == NULL;
}

void hk_check_record(HkArena *a, const char *cache, const char *key,
                     const char *command)
{
    if (cache == NULL || key == NULL)
        return;
    const char *why = NULL;
    if (hk_cache_make_dirs(a, cache, "checks", NULL) != 0)
        return;  /* a cache that cannot be written only costs time */
    const char *text = hk_asprintf(a, "passed\n%s\n", command);
    if (hk_write_whole(a, record_path(a, cache, key), text, strlen(text),
                       &why) == 0)
        hk_cache_seal(record_path(a, cache, key));
}

const char *hk_check_build_dir(HkArena *a, const char *cache,
                               const char *tool_path, const char *tool_version,
                               const char *const *files)
{
    if (cache == NULL)
        return NULL;
    /* cppcheck keys what it keeps by file name and checks each file's
     * hash, so directories of the same names may share one (a build's
     * stage and its output); other names get their own, so exports of
     * other directories do not wait on its lock */
    HkBuf id;
    hk_buf_init(&id, a);
    hk_buf_printf(&id, "%s\n%s\n", tool_path,
                  tool_version != NULL ? tool_version : "");
    for (const char *const *f = files; *f != NULL; f++)
        hk_buf_printf(&id, "%s\n", *f);
    const char *bd = hk_path_join(
        a, hk_path_join(a, cache, "checks"),
        hk_asprintf(a, "cppcheck-%.16s", hk_sha256_hex(a, id.data, id.len)));
    return hk_make_dirs(a, bd, NULL) == 0 ? bd : NULL;
}

const char *hk_check_headers(HkArena *a, const char *dir,
                             const char *const *files)
{
    HkBuf b;
    hk_buf_init(&b, a);
    put_files(a, &b, dir, files, 1);
    return hk_sha256_hex(a, b.data, b.len);
}

/* Removes the files of build directory bd (not its stamp), following no
 * link: what cppcheck kept there is flat. */
static void empty_build_dir(const char *bd)
{
    int fd = open(bd, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *d = fdopendir(fd);
    if (d == NULL) {
        close(fd);
        return;
    }
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        struct stat st;
        if (strcmp(e->d_name, "headers") == 0 ||
            fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
            continue;
        (void)unlinkat(fd, e->d_name, 0);
    }
    closedir(d);
}

void hk_check_build_dir_renew(HkArena *a, const char *bd, const char *headers)
{
    const char *stamp = hk_path_join(a, bd, "headers");
    const char *text = NULL, *why = NULL;
    size_t len = 0;
    if (hk_read_whole(a, stamp, &text, &len, &why) == 0 && text != NULL &&
        len == strlen(headers) && memcmp(text, headers, len) == 0)
        return;
    empty_build_dir(bd);
    (void)hk_write_whole(a, stamp, headers, strlen(headers), &why);
}

int hk_check_lock(HkArena *a, const char *build_dir)
{
    int fd = open(hk_asprintf(a, "%s.lock", build_dir),
                  O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLKW, &l) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

void hk_check_unlock(int fd)
{
    if (fd >= 0)
        close(fd);  /* closing releases the lock */
}
