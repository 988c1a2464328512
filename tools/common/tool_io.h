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

/* Writes data to path ("-" is stdout) whole: through a temporary file in
 * the same directory renamed over path, so a failure leaves path untouched
 * and no temporary behind.  Returns 0, or 1 after an error message. */
int tool_write_file(const char *tool, const char *path, const char *data,
                    size_t len);

/* Prints diagnostics [from, count) of ctx to stderr; one without a source
 * file is prefixed with the tool's name ("hawk-opt: error: ..."). */
void tool_print_diags(const char *tool, HawkContext *ctx, size_t from);

#endif
