/* tool_mem.h -- the tools' allocations.  Each fails where fault injection
 * says so (lib/IR/fault.h), as it would when memory runs out, so that the
 * tools' own handling of a NULL is exercised by scripts/fault.sh like the
 * library's.  Each returns NULL on failure; the caller reports it. */
#ifndef HAWK_TOOL_MEM_H
#define HAWK_TOOL_MEM_H

#include <stddef.h>

void *tool_malloc(size_t n);
void *tool_calloc(size_t n, size_t size);
void *tool_realloc(void *p, size_t n);
char *tool_strdup(const char *s);

#endif
