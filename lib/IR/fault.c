/* fault.c -- fault injection for the test build (fault.h).
 * HAWK_FAULT=alloc:N fails the process's N-th allocation, HAWK_FAULT=io:N
 * its N-th write, rename or directory creation, HAWK_FAULT=llvm:N the
 * N-th answer of LLVM's the host row checks, and HAWK_FAULT=count
 * prints, as the process exits, how many of each it made, so that
 * scripts/fault.sh can fail every one in turn. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"

__attribute__((weak)) void *hk_malloc(size_t n)
{
    return hk_fault(HK_FAULT_ALLOC) ? NULL : malloc(n);
}

__attribute__((weak)) void *hk_calloc(size_t n, size_t size)
{
    return hk_fault(HK_FAULT_ALLOC) ? NULL : calloc(n, size);
}

__attribute__((weak)) void *hk_realloc(void *p, size_t n)
{
    return hk_fault(HK_FAULT_ALLOC) ? NULL : realloc(p, n);
}

#ifdef HAWK_FAULT_INJECTION

static atomic_int configured;
static int failing = HK_FAULT_KINDS;
static unsigned long target;
static atomic_ulong seen[HK_FAULT_KINDS];

static void print_counts(void)
{
    fprintf(stderr, "hawk-fault: %lu allocations, %lu writes, %lu llvm answers\n",
            (unsigned long)seen[HK_FAULT_ALLOC], (unsigned long)seen[HK_FAULT_IO],
            (unsigned long)seen[HK_FAULT_LLVM]);
}

/* Reads HAWK_FAULT, once: the first event comes before any thread. */
static void configure(void)
{
    const char *s = getenv("HAWK_FAULT");
    if (s == NULL)
        return;
    if (strcmp(s, "count") == 0) {
        atexit(print_counts);
    } else if (strncmp(s, "alloc:", 6) == 0) {
        failing = HK_FAULT_ALLOC;
        target = strtoul(s + 6, NULL, 10);
    } else if (strncmp(s, "io:", 3) == 0) {
        failing = HK_FAULT_IO;
        target = strtoul(s + 3, NULL, 10);
    } else if (strncmp(s, "llvm:", 5) == 0) {
        failing = HK_FAULT_LLVM;
        target = strtoul(s + 5, NULL, 10);
    }
}

__attribute__((weak)) int hk_plant(const char *plant)
{
    const char *s = getenv("HAWK_PLANT");
    return s != NULL && strcmp(s, plant) == 0;
}

__attribute__((weak)) int hk_fault(HkFault kind)
{
    if (atomic_exchange(&configured, 1) == 0)
        configure();
    unsigned long n = atomic_fetch_add(&seen[kind], 1ul) + 1ul;
    return (int)kind == failing && n == target;
}

#endif
