/* split.c -- -split-input-file: cutting the input at "// -----" lines. */
#include <string.h>

#include "opt.h"

/* Whether line[0..n) is "// -----" followed only by blanks. */
static int is_separator(const char *line, size_t n)
{
    static const char sep[] = "// -----";
    size_t k = sizeof sep - 1;
    if (n < k || memcmp(line, sep, k) != 0)
        return 0;
    for (; k < n; k++)
        if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
            return 0;
    return 1;
}

int opt_for_each_chunk(OptRun *r, const char *text, size_t len, int split,
                       OptChunkFn fn)
{
    if (!split)
        return fn(r, text, len, 0, 1);
    int rc = 0, first = 1;
    size_t start = 0;          /* where the current chunk begins */
    unsigned start_line = 0;   /* lines before it */
    unsigned line = 0;         /* lines before pos */
    for (size_t pos = 0; pos < len; line++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t next = nl ? end + 1 : len;
        if (is_separator(text + pos, end - pos)) {
            rc |= fn(r, text + start, pos - start, start_line, first);
            first = 0;
            start = next;
            start_line = line + 1;
        }
        pos = next;
    }
    rc |= fn(r, text + start, len - start, start_line, first);
    return rc;
}
