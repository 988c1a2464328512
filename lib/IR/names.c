/* names.c -- a function's name table: name -> value or slot, 8 bytes an
 * entry.
 *
 * A function of a million values has a million names; the generic table
 * (HkSymtab) keeps a pointer to each key, 16 bytes an entry.  Here an
 * entry holds only the id and the name's hash, and the name itself is
 * read from what the id names (the owner's key function: a value's or a
 * slot's name, or while the parser reads a body, a name it reserved), so
 * the table of a body read whole is half as large.  Open addressing,
 * linear probing, at most two thirds full; the capacity is any number
 * (a hash is scaled to it, not masked), so a table reserved for n names
 * holds 1.5 n entries, not the next power of two above 2 n. */
#include <string.h>

#include "ir.h"

/* An entry: id + 1 (0: empty; DEAD: deleted, probes go on past it), and
 * the name's hash, which settles most probes without reading the name. */
typedef struct {
    uint32_t id1;
    uint32_t hash;
} NameEntry;

#define DEAD UINT32_MAX

struct HkNames {
    HkArena *arena;
    NameEntry *e;
    uint32_t cap, used;    /* used: entries not empty (dead ones too) */
    HkNameKey key;
    const void *owner;
};

HkNames *hk_names_new(HkArena *a, HkNameKey key, const void *owner)
{
    HkNames *t = hk_alloc(a, sizeof *t);
    t->arena = a;
    t->cap = 16;
    t->e = hk_alloc(a, t->cap * sizeof *t->e);
    t->key = key;
    t->owner = owner;
    return t;
}

void hk_names_rekey(HkNames *t, HkNameKey key, const void *owner)
{
    t->key = key;
    t->owner = owner;
}

/* The entry where a name of hash h is first looked for: h scaled to
 * [0, cap) (the hash's high bits are as mixed as its low ones). */
static uint32_t home(const HkNames *t, uint32_t h)
{
    return (uint32_t)(((uint64_t)h * t->cap) >> 32);
}

/* The entry after i, wrapping. */
static uint32_t after(const HkNames *t, uint32_t i)
{
    return i + 1u == t->cap ? 0 : i + 1u;
}

/* Whether n names fit in cap entries: at most two thirds full. */
static int fits(uint64_t n, uint32_t cap)
{
    return n * 3u <= (uint64_t)cap * 2u;
}

/* Whether entry e is name s[0, n) (hash h). */
static int is_name(const HkNames *t, const NameEntry *e, const char *s,
                   size_t n, uint32_t h)
{
    if (e->hash != h || e->id1 == DEAD)
        return 0;
    const char *k = t->key(t->owner, e->id1 - 1u);
    return strncmp(k, s, n) == 0 && k[n] == '\0';
}

/* The entry of s (hash h), or the empty one where it would go. */
static NameEntry *find(const HkNames *t, const char *s, size_t n, uint32_t h)
{
    for (uint32_t i = home(t, h);; i = after(t, i)) {
        NameEntry *e = &t->e[i];
        if (e->id1 == 0 || is_name(t, e, s, n, h))
            return e;
    }
}

uint32_t hk_names_get(const HkNames *t, const char *s, size_t n)
{
    const NameEntry *e = find(t, s, n, hk_symtab_hash(s, n));
    return e->id1 != 0 ? e->id1 - 1u : UINT32_MAX;
}

void hk_names_prefetch(const HkNames *t, uint32_t h)
{
#if defined(__GNUC__)
    __builtin_prefetch(&t->e[home(t, h)], 1);
#else
    (void)t;
    (void)h;
#endif
}

/* Moves the table to cap entries (enough for its names), each placed by
 * its kept hash; dead entries are left behind. */
static void rehash(HkNames *t, uint32_t cap)
{
    NameEntry *old = t->e;
    uint32_t ocap = t->cap;
    t->cap = cap;
    t->e = hk_alloc(t->arena, cap * sizeof *t->e);
    t->used = 0;
    for (uint32_t i = 0; i < ocap; i++)
        if (old[i].id1 != 0 && old[i].id1 != DEAD) {
            uint32_t k = home(t, old[i].hash);
            while (t->e[k].id1 != 0)
                k = after(t, k);
            t->e[k] = old[i];
            t->used++;
        }
    hk_release(t->arena, old, ocap * sizeof *old);
}

void hk_names_reserve(HkNames *t, uint32_t n)
{
    uint64_t want = (uint64_t)t->used + n;
    if (fits(want, t->cap))
        return;
    /* two thirds full, and a sixteenth more: a count a little short
     * (a hint) does not double the table */
    uint64_t cap = want + want / 2u + want / 16u + 16u;
    rehash(t, cap > (1u << 30) ? 1u << 30 : (uint32_t)cap);
}

int hk_names_put_at(HkNames *t, const char *s, size_t n, uint32_t id,
                     uint32_t h, uint32_t *at)
{
    if (!fits((uint64_t)t->used + 1u, t->cap))
        rehash(t, t->cap * 2);
    NameEntry *e = find(t, s, n, h);
    if (e->id1 != 0)
        return 0;
    t->used++;
    e->id1 = id + 1u;
    e->hash = h;
    if (at != NULL)
        *at = (uint32_t)(e - t->e);
    return 1;
}

int hk_names_put(HkNames *t, const char *s, size_t n, uint32_t id)
{
    return hk_names_put_at(t, s, n, id, hk_symtab_hash(s, n), NULL);
}

void hk_names_set_at(HkNames *t, uint32_t at, uint32_t was, const char *s,
                     uint32_t id)
{
    /* the same id at the same place is the same entry, unless the table
     * has grown since */
    if (at < t->cap && t->e[at].id1 == was + 1u) {
        t->e[at].id1 = id + 1u;
        return;
    }
    size_t n = strlen(s);
    NameEntry *e = find(t, s, n, hk_symtab_hash(s, n));
    if (e->id1 == 0) {
        (void)hk_names_put(t, s, n, id);
        return;
    }
    e->id1 = id + 1u;
}

void hk_names_del(HkNames *t, const char *s, size_t n)
{
    NameEntry *e = find(t, s, n, hk_symtab_hash(s, n));
    if (e->id1 != 0)
        e->id1 = DEAD;
}

uint32_t hk_names_cap(const HkNames *t)
{
    return t->cap;
}

uint32_t hk_names_used(const HkNames *t)
{
    return t->used;
}

void hk_names_clear_run(HkNames *t, const char *s)
{
    for (uint32_t i = home(t, hk_symtab_hash(s, strlen(s))); t->e[i].id1 != 0;
         i = after(t, i)) {
        t->e[i].id1 = 0;
        t->e[i].hash = 0;
        t->used--;
    }
}

void hk_names_clear(HkNames *t)
{
    memset(t->e, 0, t->cap * sizeof *t->e);
    t->used = 0;
}
