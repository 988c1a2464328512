/* tool_io.h -- reading an input whole, writing an output whole (or not at
 * all), a growable text buffer and printing a context's diagnostics. */
#ifndef HAWK_TOOL_IO_H
#define HAWK_TOOL_IO_H

#include <stdarg.h>
#include <stddef.h>

#include "hawk/hawk.h"

typedef struct {
    char *data;            /* malloc'd; NUL-terminated once non-empty */
    size_t len, cap;
} ToolBuf;

void tool_buf_put(ToolBuf *b, const char *s, size_t n);
void tool_buf_puts(ToolBuf *b, const char *s);
void tool_buf_printf(ToolBuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tool_buf_vprintf(ToolBuf *b, const char *fmt, va_list ap);
void tool_buf_free(ToolBuf *b);

/* Reads path ("-" is stdin) whole into *out (malloc'd, NUL-terminated).
 * Returns 0, or 1 after "tool: error: cannot open 'path': reason". */
int tool_read_file(const char *tool, const char *path, ToolBuf *out);

/* An input's text, read only: a regular file of TOOL_MAP_MIN bytes or
 * more is mapped (its pages are the page cache's: nothing is copied or
 * cleared, where reading it would first clear as many fresh pages);
 * stdin, a pipe and a small file are read into buf.  data is not
 * NUL-terminated when mapped: take it with its length. */
typedef struct {
    const char *data;
    size_t len;
    void *map;             /* the mapping, or NULL */
    ToolBuf buf;
} ToolText;

#define TOOL_MAP_MIN ((size_t)1 << 16)

/* Opens path ("-" is stdin) as *t.  Returns 0, or 1 after the same
 * errors as tool_read_file.  The file must not change while mapped. */
int tool_text_read(const char *tool, const char *path, ToolText *t);
void tool_text_free(ToolText *t);

/* Writes data to path ("-" is stdout) whole: through a temporary file in
 * the same directory renamed over path, so a failure leaves path untouched
 * and no temporary behind.  Returns 0, or 1 after an error message. */
int tool_write_file(const char *tool, const char *path, const char *data,
                    size_t len);

/* Prints diagnostics [from, count) of ctx to stderr; one without a source
 * file is prefixed with the tool's name ("hawk-opt: error: ..."). */
void tool_print_diags(const char *tool, HawkContext *ctx, size_t from);

/* A context whose messages spell profile options as the tools take them
 * ("run with -fp-domain=record"); NULL when memory ran out. */
HawkContext *tool_context_create(void);

#endif
