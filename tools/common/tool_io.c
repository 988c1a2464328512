/* tool_io.c -- whole-file input and output and diagnostics for the tools. */
#include "tool_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool_mem.h"
#include "tool_opts.h"

/* Room in b for n more bytes and the terminator. */
static void reserve(ToolBuf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *p = tool_realloc(b->data, cap);
    if (p == NULL) {
        fputs("hawk: error: out of memory\n", stderr);
        exit(1);
    }
    b->data = p;
    b->cap = cap;
}

void tool_buf_put(ToolBuf *b, const char *s, size_t n)
{
    reserve(b, n);
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tool_buf_puts(ToolBuf *b, const char *s)
{
    tool_buf_put(b, s, strlen(s));
}

void tool_buf_vprintf(ToolBuf *b, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void tool_buf_printf(ToolBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void tool_buf_free(ToolBuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int tool_read_file(const char *tool, const char *path, ToolBuf *out)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (f == NULL)
        return tool_error(tool, "cannot open '%s': %s", path, strerror(errno));
    char chunk[65536];
    size_t n;
    tool_buf_put(out, "", 0);  /* an empty file is an empty string */
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        tool_buf_put(out, chunk, n);
    int err = ferror(f) ? errno : 0;
    if (!is_stdin)
        fclose(f);
    if (err != 0)
        return tool_error(tool, "cannot read '%s': %s",
                          is_stdin ? "<stdin>" : path, strerror(err));
    return 0;
}

int tool_text_read(const char *tool, const char *path, ToolText *t)
{
    memset(t, 0, sizeof *t);
    if (strcmp(path, "-") != 0) {
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            return tool_error(tool, "cannot open '%s': %s", path, strerror(errno));
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            (uintmax_t)st.st_size >= TOOL_MAP_MIN && (uintmax_t)st.st_size <= SIZE_MAX) {
            void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (m != MAP_FAILED) {
                close(fd);
                t->map = m;
                t->data = m;
                t->len = (size_t)st.st_size;
                return 0;
            }
        }
        close(fd);  /* not mappable: read as a stream below */
    }
    if (tool_read_file(tool, path, &t->buf) != 0)
        return 1;
    t->data = t->buf.data;
    t->len = t->buf.len;
    return 0;
}

void tool_text_free(ToolText *t)
{
    if (t->map != NULL)
        munmap(t->map, t->len);
    tool_buf_free(&t->buf);
    memset(t, 0, sizeof *t);
}

int tool_write_file(const char *tool, const char *path, const char *data,
                    size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (len > 0 && fwrite(data, 1, len, stdout) != len)
            return tool_error(tool, "cannot write to stdout: %s",
                              strerror(errno));
        return fflush(stdout) != 0;
    }
    int err = hawk_write_file(path, data, len);
    if (err != 0)
        return tool_error(tool, "cannot write '%s': %s", path, strerror(err));
    return 0;
}

/* Whether a rendered diagnostic starts with its severity: it has no file. */
static int has_no_file(const char *s)
{
    return strncmp(s, "error: ", 7) == 0 || strncmp(s, "warning: ", 9) == 0 ||
           strncmp(s, "note: ", 6) == 0;
}

void tool_print_diags(const char *tool, HawkContext *ctx, size_t from)
{
    for (size_t i = from; i < hawk_diag_count(ctx); i++) {
        const char *s = hawk_diag_render(ctx, i);
        if (has_no_file(s))
            fprintf(stderr, "%s: ", tool);
        tool_put_diag(s, stderr);
    }
}

static HawkWarnings warnings = HAWK_WARNINGS_ON;

int tool_set_warnings(void *state, const ToolOpt *row, const char *value)
{
    (void)state;
    (void)value;
    warnings = strcmp(row->name, "w") == 0 ? HAWK_WARNINGS_OFF
                                           : HAWK_WARNINGS_AS_ERRORS;
    return 0;
}

HawkContext *tool_context_create(void)
{
    HawkContext *ctx = hawk_context_create();
    hawk_set_option_style(ctx, HAWK_OPTION_FLAG);
    hawk_set_warnings(ctx, warnings);
    return ctx;
}
