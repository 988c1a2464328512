/* arena.c -- bump allocation in chunks, freed at once; growable buffers. */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS and madvise */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "fault.h"
#include "ir.h"

typedef struct Chunk {
    struct Chunk *next;
    size_t used, size;
    size_t mapped;         /* bytes mapped for it (munmap), 0: malloc'd */
    _Alignas(16) unsigned char data[];
} Chunk;

struct HkArena {
    Chunk *head;
    size_t bumped;         /* bytes of the chunks hk_alloc has bumped in */
    Chunk *reserve;        /* kept for the report of running out */
    jmp_buf *catcher;      /* hk_arena_protect's, or NULL */
};

/* Bytes kept back: enough to report that memory ran out. */
#define RESERVE (16 * 1024)
/* A block above this many bytes gets a chunk of its own. */
#define LARGE (32 * 1024)

/* n rounded up to the arena's alignment. */
static size_t round16(size_t n)
{
    return (n + 15u) & ~(size_t)15u;
}

_Noreturn void hk_die(const char *file, int line, const char *what)
{
    fprintf(stderr, "hawk: internal error at %s:%d: %s\n", file, line, what);
    abort();
}

/* A huge page: a chunk this large is mapped on its own, aligned to it,
 * and asked to be backed by huge pages, so that a program of a million
 * instructions takes hundreds rather than a hundred thousand page
 * faults.  A large block's own chunk asks only for the huge pages its
 * block fills whole: the tail of a block of 2^24 bytes after the chunk's
 * header would otherwise take a huge page for 32 bytes.  A chunk to bump
 * in takes all it maps, and is filled, so it asks for all. */
#define HUGE_PAGE ((size_t)2 << 20)

/* A chunk of size bytes mapped at a huge page boundary, or NULL; bump: a
 * chunk to bump in. */
static Chunk *chunk_map(size_t size, int bump)
{
    if (hk_fault(HK_FAULT_ALLOC))
        return NULL;
    size_t want = sizeof(Chunk) + size;
    size_t len = (want + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    unsigned char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    unsigned char *p = (unsigned char *)at;
    size_t head = (size_t)(p - raw);
    if (head > 0)
        munmap(raw, head);
    munmap(p + len, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
    size_t huge = bump ? len : want & ~(HUGE_PAGE - 1);
    if (huge > 0)
        (void)madvise(p, huge, MADV_HUGEPAGE);
#endif
    Chunk *c = (Chunk *)(void *)p;
    c->mapped = len;
    c->size = len - sizeof(Chunk);
    return c;
}

/* A chunk of at least size zeroed bytes, or NULL: fresh memory is zero
 * already, so neither the chunk nor a block bumped in it is cleared
 * again.  bump: a chunk to bump in, not a large block's own. */
static Chunk *chunk_alloc(size_t size, int bump)
{
    Chunk *c = size >= HUGE_PAGE ? chunk_map(size, bump)
                                 : hk_calloc(1, sizeof *c + size);
    if (c != NULL) {
        c->next = NULL;
        c->used = 0;
        /* a chunk to bump in takes all it has; a large block's own chunk
         * says its block's size (own_chunk knows it so) */
        if (c->mapped == 0 || !bump)
            c->size = size;
    }
    return c;
}

static void chunk_free(Chunk *c)
{
    if (c->mapped != 0)
        munmap(c, c->mapped);
    else
        free(c);
}

_Noreturn void hk_out_of_memory(HkArena *a)
{
    if (a->catcher == NULL)
        hk_die(__FILE__, __LINE__, "out of memory");
    if (a->reserve != NULL) {
        a->reserve->next = a->head;
        a->head = a->reserve;
        a->reserve = NULL;
    }
    longjmp(*a->catcher, 1);
}

/* A chunk of size bytes for a, or hk_out_of_memory. */
static Chunk *chunk_new(HkArena *a, size_t size, int bump)
{
    Chunk *c = chunk_alloc(size, bump);
    if (c == NULL)
        hk_out_of_memory(a);
    return c;
}

HkArena *hk_arena_new(void)
{
    HkArena *a = hk_malloc(sizeof *a);
    if (a == NULL)
        return NULL;
    a->catcher = NULL;
    a->bumped = 64 * 1024;
    a->head = chunk_alloc(64 * 1024, 1);
    a->reserve = a->head != NULL ? chunk_alloc(RESERVE, 0) : NULL;
    if (a->reserve == NULL) {
        if (a->head != NULL)
            chunk_free(a->head);
        free(a);
        return NULL;
    }
    return a;
}

void hk_arena_free(HkArena *a)
{
    if (a == NULL)
        return;
    for (Chunk *c = a->head, *n; c != NULL; c = n) {
        n = c->next;
        chunk_free(c);
    }
    free(a->reserve);
    free(a);
}

int hk_arena_protect(HkArena *a, void (*fn)(void *ud), void *ud)
{
    jmp_buf here;
    jmp_buf *outer = a->catcher;
    a->catcher = &here;
    if (setjmp(here) == 0) {
        fn(ud);
        a->catcher = outer;
        return 0;
    }
    a->catcher = outer;
    return -1;
}

int hk_arena_protected(const HkArena *a)
{
    return a->catcher != NULL;
}

/* n bytes at a multiple of align (a power of two, at most 16) in a's
 * head chunk, zeroed. */
static void *bump(HkArena *a, size_t n, size_t align)
{
    Chunk *c = a->head;
    size_t at = (c->used + align - 1) & ~(align - 1);
    if (at > c->size || c->size - at < n) {
        /* A large block gets its own chunk behind the head, so the head's
         * free space is not abandoned. */
        if (n > LARGE) {
            Chunk *fresh = chunk_new(a, n, 0);
            fresh->next = c->next;
            c->next = fresh;
            fresh->used = n;
            return fresh->data;
        }
        /* Chunks grow with the arena (an eighth of what it holds, up to
         * 64 MiB), so a large program takes few of them. */
        size_t size = a->bumped / 8;
        size = size < 64 * 1024 ? 64 * 1024 : size > ((size_t)64 << 20) ? (size_t)64 << 20 : size;
        Chunk *fresh = chunk_new(a, size, 1);
        a->bumped += fresh->size;
        fresh->next = c;
        a->head = c = fresh;
        at = 0;
    }
    void *p = c->data + at;
    c->used = at + n;
    return p;
}

void *hk_alloc(HkArena *a, size_t n)
{
    return bump(a, round16(n), 16);
}

void *hk_alloc_packed(HkArena *a, size_t n, size_t align)
{
    return n > LARGE ? hk_alloc(a, n) : bump(a, n, align);
}

char *hk_strndup(HkArena *a, const char *s, size_t n)
{
    char *p = hk_alloc_packed(a, n + 1, 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *hk_strdup(HkArena *a, const char *s)
{
    return hk_strndup(a, s, strlen(s));
}

/* The length of fmt formatted with ap (ap itself is left unread), for
 * the two-step "measure, then write into room of that size". */
static size_t format_len(const char *fmt, va_list ap)
{
    va_list probe;
    va_copy(probe, ap);
    int n = vsnprintf(NULL, 0, fmt, probe);
    va_end(probe);
    if (n < 0)
        hk_die(__FILE__, __LINE__, "bad format");
    return (size_t)n;
}

char *hk_asprintf(HkArena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = format_len(fmt, ap);
    char *p = hk_alloc(a, n + 1);
    vsnprintf(p, n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* The link that points at the chunk p fills alone (a large block's own
 * chunk), or NULL when p shares its chunk or is no chunk's start. */
static Chunk **own_chunk(HkArena *a, const void *p, size_t n)
{
    n = round16(n);
    if (p == NULL || n <= LARGE)
        return NULL;
    for (Chunk **l = &a->head; *l != NULL; l = &(*l)->next)
        if ((*l)->data == p)
            return (*l)->used == n && (*l)->size == n ? l : NULL;
    return NULL;
}

void *hk_resize(HkArena *a, void *p, size_t old, size_t n)
{
    Chunk **l = own_chunk(a, p, old);
    if (l == NULL || n <= old) {
        void *q = hk_alloc(a, n);
        if (p != NULL)
            memcpy(q, p, old < n ? old : n);
        return q;
    }
    /* A large block grows where it is (realloc moves the pages of a
     * large block rather than copying them) instead of leaving its old
     * copy in the arena until the arena goes; a mapped one is copied
     * into its new mapping and unmapped. */
    size_t had = (*l)->size;
    n = round16(n);
    if ((*l)->mapped != 0 || n >= HUGE_PAGE) {
        Chunk *c = chunk_new(a, n, 0);
        memcpy(c->data, (*l)->data, had);
        c->used = n;
        c->next = (*l)->next;
        chunk_free(*l);
        *l = c;
        return c->data;
    }
    Chunk *c = hk_realloc(*l, sizeof *c + n);
    if (c == NULL)
        hk_out_of_memory(a);
    memset(c->data + had, 0, n - had);
    c->used = c->size = n;
    *l = c;
    return c->data;
}

void hk_release(HkArena *a, void *p, size_t n)
{
    Chunk **l = own_chunk(a, p, n);
    if (l != NULL && *l != a->head) {
        Chunk *c = *l;
        *l = c->next;
        chunk_free(c);
    }
}

void *hk_grow(HkArena *a, void *arr, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return arr;
    uint32_t ncap = *cap ? *cap : 4;
    while (ncap < need)
        ncap *= 2;
    /* copied, never moved: callers may still hold a pointer into the
     * old array (a slot's record while they add another); a function's
     * values, the one array that grows large, have segments instead */
    void *p = hk_alloc(a, (size_t)ncap * elem);
    if (arr != NULL)
        memcpy(p, arr, (size_t)*cap * elem);
    *cap = ncap;
    return p;
}

void hk_buf_init(HkBuf *b, HkArena *a)
{
    b->arena = a;
    b->data = NULL;
    b->len = b->cap = 0;
}

static void buf_reserve(HkBuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t ncap = b->cap ? b->cap * 2 : 256;
    while (ncap < b->len + extra + 1)
        ncap *= 2;
    char *p = hk_resize(b->arena, b->data, b->cap, ncap);
    b->data = p;
    b->cap = ncap;
}

void hk_buf_put(HkBuf *b, const char *s, size_t n)
{
    buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void hk_buf_puts(HkBuf *b, const char *s)
{
    hk_buf_put(b, s, strlen(s));
}

void hk_buf_printf(HkBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = format_len(fmt, ap);
    buf_reserve(b, n);
    vsnprintf(b->data + b->len, n + 1, fmt, ap);
    va_end(ap);
    b->len += n;
}

const char *hk_buf_cstr(HkBuf *b)
{
    buf_reserve(b, 0);
    b->data[b->len] = '\0';
    return b->data;
}
