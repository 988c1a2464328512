/* tool_mem.c -- the tools' allocations, failing under fault injection. */
#include "tool_mem.h"

#include <string.h>

#include "fault.h"

void *tool_malloc(size_t n)
{
    return hk_malloc(n);
}

void *tool_calloc(size_t n, size_t size)
{
    return hk_calloc(n, size);
}

void *tool_realloc(void *p, size_t n)
{
    return hk_realloc(p, n);
}

char *tool_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = tool_malloc(n);
    if (p != NULL)
        memcpy(p, s, n);
    return p;
}
