/* ir.c -- the op and role tables, symbol tables, and IR construction. */
#include <string.h>

#include "ir.h"

const HkOpInfo hk_ops[HK_OP_COUNT] = {
#define OP(e, m, n, r, f, l, c, ft, dom, is)                                 \
    [HK_OP_##e] = {m, n, HK_R_##r, (unsigned)(f), l, HK_C_##c, ft,          \
                   HK_DOM_##dom, (unsigned)(is)},
#define PURE HK_F_PURE
#define ELEM HK_F_ELEM
#define LIBM HK_F_LIBM
#define REGION HK_F_REGION
#define TERM HK_F_TERM
#define FOLD HK_F_FOLD
#define SIDE HK_F_SIDE
#define EXACT HK_F_EXACT
#define EXT HK_F_EXT
#define IDIV HK_IS_IDIV
#define IUB HK_IS_IUB
#include "ops.def"
#undef IDIV
#undef IUB
#undef PURE
#undef ELEM
#undef LIBM
#undef REGION
#undef TERM
#undef FOLD
#undef SIDE
#undef EXACT
#undef EXT
#undef OP
};

const HkRoleInfo hk_roles[HK_ROLE_COUNT] = {
#define ROLE(e, n, acc, lay, shp, pre)                                       \
    [HK_ROLE_##e] = {n, HK_ACC_##acc, HK_LAY_##lay, HK_SHP_##shp, pre},
#include "roles.def"
#undef ROLE
};

const char *const hk_pred_names[HK_P_COUNT] = {
    "oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule",
    "ugt", "uge", "ord", "uno", "eq",  "ne",  "slt", "sle", "sgt", "sge",
    "ult", "ule", "ugt", "uge",
};

const char *hk_libm_name(HkArena *a, HkOp op, HkElem e)
{
    const char *base = hk_ops[op].libm;
    if (e != HK_F32 || base[0] == '\0')
        return base;
    return hk_asprintf(a, "%sf", base);
}

int hk_libm_exact(const char *name)
{
    size_t n = strlen(name);
    for (int op = 0; op < (int)HK_OP_COUNT; op++) {
        const char *base = hk_ops[op].libm;
        size_t m = strlen(base);
        if ((hk_ops[op].flags & HK_F_EXACT) == 0u || m == 0 ||
            strncmp(name, base, m) != 0)
            continue;
        if (n == m || (n == m + 1u && name[m] == 'f'))
            return 1;
    }
    return 0;
}

/* The entry of component k: one literal fills every component. */
static uint32_t const_at(const HkConst *c, uint32_t k)
{
    return k < c->n ? k : 0u;
}

double hk_const_real(const HkConst *c, uint32_t k, HkElem e)
{
    if (c->f == NULL || c->n == 0)
        return 0.0;
    double v = c->f[const_at(c, k)];
    return e == HK_F32 ? (double)(float)v : v;
}

int64_t hk_const_int(const HkConst *c, uint32_t k)
{
    return c->i != NULL && c->n > 0 ? c->i[const_at(c, k)] : 0;
}

static int name_is(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(s, name, n) == 0;
}

int hk_op_lookup(const char *s, size_t n)
{
    /* A linear scan of ~100 short names per parsed instruction is cheap
     * next to the rest of parsing, and independent of kernel size. */
    for (int i = 0; i < HK_OP_COUNT; i++)
        if (name_is(s, n, hk_ops[i].mnemonic))
            return i;
    return -1;
}

int hk_role_lookup(const char *s, size_t n)
{
    for (int i = 0; i < HK_ROLE_COUNT; i++)
        if (name_is(s, n, hk_roles[i].name))
            return i;
    return -1;
}

int hk_pred_lookup(HkOp op, const char *s, size_t n)
{
    int lo = op == HK_OP_FCMP ? HK_P_OEQ : HK_P_EQ;
    int hi = op == HK_OP_FCMP ? HK_P_UNO : HK_P_UGE_I;
    for (int p = lo; p <= hi; p++)
        if (name_is(s, n, hk_pred_names[p]))
            return p;
    return -1;
}

/* ---- symbol tables ---------------------------------------------------- */

/* 16 bytes: a key is NUL-terminated, so its length need not be kept. */
typedef struct {
    const char *key;       /* NULL: an empty entry */
    uint32_t id;           /* SYM_DEAD: a deleted one (its key stays, so
                              probes go on past it) */
    uint32_t hash;         /* hash_str of key: most probes end on it */
} SymEntry;

#define SYM_DEAD UINT32_MAX

struct HkSymtab {
    HkArena *arena;
    SymEntry *e;
    uint32_t cap, used;
};

/* FNV-1a, then MurmurHash3's finaliser: FNV-1a alone leaves the low bits
 * (the ones the mask keeps) of names that differ in their last digits
 * ("%v123", "%v124") close together, and linear probing then walks runs
 * of them. */
static uint32_t hash_str(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

HkSymtab *hk_symtab_new(HkArena *a)
{
    HkSymtab *t = hk_alloc(a, sizeof *t);
    t->arena = a;
    t->cap = 32;  /* a small function's names fit, at half load */
    t->e = hk_alloc(a, t->cap * sizeof *t->e);
    return t;
}

/* Whether the NUL-terminated key is s[0, n) (s holds no NUL: strncmp
 * stops at the key's end, never reading past it). */
static int key_is(const char *key, const char *s, size_t n)
{
    return strncmp(key, s, n) == 0 && key[n] == '\0';
}

/* The entry of s (hash h), or the empty one where it would go. */
static SymEntry *sym_find(const HkSymtab *t, const char *s, size_t n,
                          uint32_t h)
{
    uint32_t mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        SymEntry *e = &t->e[i];
        if (e->key == NULL)
            return e;
        if (e->hash == h && key_is(e->key, s, n))
            return e;
    }
}

/* Whether e holds a name (not empty, not deleted). */
static int live(const SymEntry *e)
{
    return e->key != NULL && e->id != SYM_DEAD;
}

uint32_t hk_symtab_hash(const char *name, size_t n)
{
    return hash_str(name, n);
}

uint32_t hk_symtab_get(const HkSymtab *t, const char *name, size_t n)
{
    SymEntry *e = sym_find(t, name, n, hash_str(name, n));
    return live(e) ? e->id : UINT32_MAX;
}

/* Moves the table to cap entries (a power of two, more than twice the
 * names); the entries are placed by their kept hashes. */
static void sym_rehash(HkSymtab *t, uint32_t cap)
{
    SymEntry *old = t->e;
    uint32_t ocap = t->cap;
    t->cap = cap;
    t->e = hk_alloc(t->arena, t->cap * sizeof *t->e);
    t->used = 0;
    for (uint32_t i = 0; i < ocap; i++)
        if (live(&old[i])) {
            uint32_t mask = t->cap - 1, k = old[i].hash & mask;
            while (t->e[k].key != NULL)
                k = (k + 1) & mask;
            t->e[k] = old[i];
            t->used++;
        }
    hk_release(t->arena, old, ocap * sizeof *old);
}


/* The key is a copy of name. */
int hk_symtab_put(HkSymtab *t, const char *name, size_t n, uint32_t id)
{
    uint32_t h = hash_str(name, n);
    if ((t->used + 1) * 2 > t->cap)
        sym_rehash(t, t->cap * 2);
    SymEntry *e = sym_find(t, name, n, h);
    if (live(e))
        return 0;
    if (e->key == NULL)
        t->used++;
    e->key = hk_strndup(t->arena, name, n);
    e->id = id;
    e->hash = h;
    return 1;
}

void hk_symtab_del(HkSymtab *t, const char *name, size_t n)
{
    SymEntry *e = sym_find(t, name, n, hash_str(name, n));
    if (e->key != NULL)
        e->id = SYM_DEAD;
}

/* ---- modules, functions, values --------------------------------------- */

HkModule *hk_module_new(HkArena *a)
{
    HkModule *m = hk_alloc(a, sizeof *m);
    m->arena = a;
    m->fsyms = hk_symtab_new(a);
    return m;
}

HkFunc *hk_func_new(HkModule *m, const char *name, int is_kernel, HkLoc loc)
{
    HkFunc *f = hk_alloc_packed(m->arena, sizeof *f, _Alignof(HkFunc));
    f->module = m;
    f->name = hk_strdup(m->arena, name);
    f->is_kernel = is_kernel != 0;
    f->loc = loc;
    f->body.func = f;
    m->funcs = hk_grow(m->arena, m->funcs, &m->cap_funcs, m->nfuncs + 1,
                       sizeof *m->funcs);
    hk_symtab_put(m->fsyms, name, strlen(name), m->nfuncs);
    m->funcs[m->nfuncs++] = f;
    return f;
}

uint32_t hk_func_index(const HkModule *m, const char *name, size_t n)
{
    return hk_symtab_get(m->fsyms, name, n);
}

const char *hk_func_key(const void *owner, uint32_t id)
{
    const HkFunc *f = owner;
    if (id & HK_SYM_SLOT)
        return f->slots[id & ~HK_SYM_SLOT].name;
    return hk_value(f, id)->name;
}

HkNames *hk_func_syms(const HkFunc *cf)
{
    /* a cache over the names: making it changes none, so a reader of a
     * const function may ask for it */
    HkFunc *f = (HkFunc *)(uintptr_t)cf;
    if (f->syms != NULL)
        return f->syms;
    HkNames *t = hk_names_new(f->module->arena, hk_func_key, f);
    hk_names_reserve(t, f->nvalues + f->nslots);
    for (uint32_t v = 0; v < f->nvalues; v++) {
        const char *name = hk_value(f, v)->name;
        if (name != NULL)
            (void)hk_names_put(t, name, strlen(name), v);
    }
    for (uint32_t s = 0; s < f->nslots; s++)
        (void)hk_names_put(t, f->slots[s].name, strlen(f->slots[s].name),
                           HK_SYM_SLOT | s);
    f->syms = t;
    return t;
}

void hk_func_drop_syms(HkFunc *f)
{
    HkNames *t = f->syms;
    f->syms = NULL;
    if (t == NULL)
        return;
    uint64_t names = (uint64_t)f->nvalues + f->nslots;
    if ((uint64_t)hk_names_cap(t) > 8u * names + 64u) {
        for (uint32_t v = 0; v < f->nvalues; v++)
            if (hk_value(f, v)->name != NULL)
                hk_names_clear_run(t, hk_value(f, v)->name);
        for (uint32_t s = 0; s < f->nslots && hk_names_used(t) > 0; s++)
            hk_names_clear_run(t, f->slots[s].name);
    }
    /* a small table, or a name not f's left in it: cleared whole */
    if (hk_names_used(t) > 0)
        hk_names_clear(t);
}

static int name_taken(const HkFunc *f, const char *s, size_t n)
{
    return hk_names_get(hk_func_syms(f), s, n) != UINT32_MAX;
}

/* A unique name: the wanted one, else wanted.<N>, else t<N>. */
static const char *unique_name(HkFunc *f, const char *want)
{
    HkArena *a = f->module->arena;
    if (want != NULL && !name_taken(f, want, strlen(want)))
        return hk_strdup(a, want);
    for (;;) {
        const char *s = want != NULL ? hk_asprintf(a, "%s.%u", want, ++f->fresh)
                                     : hk_asprintf(a, "t%u", ++f->fresh);
        if (!name_taken(f, s, strlen(s)))
            return s;
    }
}

void hk_func_reserve_values(HkFunc *f, uint32_t n)
{
    if (f->vseg0 != NULL || n == 0)
        return;
    f->vseg0 = hk_alloc_packed(f->module->arena, (size_t)n * sizeof(HkValue),
                               _Alignof(HkValue));
    f->cap0 = n;
}

HkVal hk_value_slot(HkFunc *f)
{
    hk_func_reserve_values(f, HK_VSEG0);
    if (f->nvalues >= HK_NOVAL - 1)
        hk_die(__FILE__, __LINE__, "too many values");
    if (f->nvalues >= f->cap0) {
        uint32_t w = f->nvalues - f->cap0, x = w + HK_VSEG0;
        if ((x & (x - 1)) == 0) {  /* the first of a segment: make it */
            uint32_t s = hk_vseg_of(w);
            if (s >= HK_VSEGS)
                hk_die(__FILE__, __LINE__, "too many values");
            HkArena *a = f->module->arena;
            if (f->vsegs == NULL)
                f->vsegs = hk_alloc(a, HK_VSEGS * sizeof *f->vsegs);
            f->vsegs[s] = hk_alloc(a, (size_t)(HK_VSEG0 << s) * sizeof(HkValue));
        }
    }
    return f->nvalues++;
}

/* A new value of f named name (arena-owned, not in f->syms as another's). */
static HkVal value_named(HkFunc *f, HkType t, const char *name, HkDefKind k,
                         HkInst *def, uint32_t index, HkLoc loc)
{
    HkVal v = hk_value_slot(f);
    HkValue *val = hk_value(f, v);
    val->type = t;
    val->name = name;
    val->kind = k;
    val->def = def;
    hk_value_set_index(val, index);
    val->loc = loc;
    return v;
}

HkVal hk_value_new(HkFunc *f, HkType t, const char *name, HkDefKind k,
                   HkInst *def, uint32_t index, HkLoc loc)
{
    const char *unique = unique_name(f, name);
    HkVal v = value_named(f, t, unique, k, def, index, loc);
    /* the name is the value's own copy, and stays as long as the table */
    hk_names_put(hk_func_syms(f), unique, strlen(unique), v);
    return v;
}

HkVal hk_value_new_reserved(HkFunc *f, HkType t, const char *name,
                            HkDefKind k, HkInst *def, uint32_t index,
                            HkLoc loc, uint32_t at, uint32_t was)
{
    HkVal v = value_named(f, t, name, k, def, index, loc);
    hk_names_set_at(f->syms, at, was, name, v);
    return v;
}

int32_t hk_slot_add(HkFunc *f, const char *name, HkRole role, HkType t,
                    HkLoc loc)
{
    size_t n = strlen(name);
    if (name_taken(f, name, n))
        return -1;
    HkArena *a = f->module->arena;
    f->slots = hk_grow(a, f->slots, &f->cap_slots, f->nslots + 1,
                       sizeof *f->slots);
    int32_t s = (int32_t)f->nslots++;
    f->slots[s].name = hk_strdup(a, name);
    f->slots[s].role = role;
    f->slots[s].type = t;
    f->slots[s].loc = loc;
    hk_names_put(hk_func_syms(f), f->slots[s].name, n,
                 HK_SYM_SLOT | (uint32_t)s);
    return s;
}

/* ---- instructions ----------------------------------------------------- */

const HkInstExt hk_inst_ext_none = {.ivar = HK_NOVAL};

HkInst *hk_inst_new(HkFunc *f, HkOp op, HkLoc loc)
{
    /* packed at the record's own alignment: the names and operand lists
     * bumped between two records leave no padding to 16 */
    HkInst *i = hk_alloc_packed(f->module->arena, sizeof *i, _Alignof(HkInst));
    i->op = op;
    i->serial = f->nserials++;
    i->slot = -1;
    i->loc = loc;
    /* the shared record is const: a write to it for an op without fields
     * of its own faults at once instead of reaching every instruction */
    i->x = (HkInstExt *)&hk_inst_ext_none;
    /* (an op past ops.def is the verifier's to refuse: built, not read) */
    if (op < HK_OP_COUNT && (hk_ops[op].flags & HK_F_EXT)) {
        i->x = hk_alloc(f->module->arena, sizeof *i->x);
        i->x->ivar = HK_NOVAL;
    }
    return i;
}

void hk_inst_set_ops(HkFunc *f, HkInst *i, const HkVal *ops, uint32_t n)
{
    i->ops = n ? hk_alloc_packed(f->module->arena, n * sizeof *ops, sizeof *ops) : NULL;
    if (n)
        memcpy(i->ops, ops, n * sizeof *ops);
    i->nops = n;
}

void hk_inst_size_res(HkArena *a, HkInst *i, uint32_t n)
{
    i->nres = n;
    if (n == 1) {
        i->r.one = HK_NOVAL;
        return;
    }
    i->r.many = n ? hk_alloc_packed(a, n * sizeof *i->r.many, sizeof *i->r.many)
                  : NULL;
    for (uint32_t k = 0; k < n; k++)
        i->r.many[k] = HK_NOVAL;
}

void hk_inst_set_results(HkFunc *f, HkInst *i, const HkType *types,
                         const char *const *names, uint32_t n)
{
    hk_inst_size_res(f->module->arena, i, n);
    for (uint32_t k = 0; k < n; k++)
        hk_res(i)[k] = hk_value_new(f, types[k], names ? names[k] : NULL,
                                 HK_DEF_INST, i, k, i->loc);
    if (n == 1)
        i->type = types[0];
}

HkVal hk_inst_result(HkFunc *f, HkInst *i, HkType t, const char *name)
{
    const char *names[1] = {name};
    hk_inst_set_results(f, i, &t, names, 1);
    return hk_res(i)[0];
}

HkBlock *hk_inst_add_regions(HkFunc *f, HkInst *i, uint32_t n)
{
    i->x->regions = hk_alloc(f->module->arena, n * sizeof *i->x->regions);
    i->x->nregions = n;
    for (uint32_t k = 0; k < n; k++) {
        i->x->regions[k].parent = i;
        i->x->regions[k].func = f;
    }
    return i->x->regions;
}

void hk_block_append(HkBlock *b, HkInst *i)
{
    i->block = b;
    i->next = NULL;
    i->prev = b->last;
    if (b->last)
        b->last->next = i;
    else
        b->first = i;
    b->last = i;
}

const HkInst *hk_block_yield(const HkBlock *b)
{
    return b->last != NULL && b->last->op == HK_OP_YIELD ? b->last : NULL;
}

void hk_insert_before(HkInst *pos, HkInst *i)
{
    HkBlock *b = pos->block;
    i->block = b;
    i->next = pos;
    i->prev = pos->prev;
    if (pos->prev)
        pos->prev->next = i;
    else
        b->first = i;
    pos->prev = i;
}

void hk_inst_remove(HkInst *i)
{
    HkBlock *b = i->block;
    if (i->prev)
        i->prev->next = i->next;
    else
        b->first = i->next;
    if (i->next)
        i->next->prev = i->prev;
    else
        b->last = i->prev;
    i->prev = i->next = NULL;
    i->block = NULL;
}

void hk_replace_all_uses(HkFunc *f, HkVal from, HkVal to)
{
    for (HkInst *i = f->body.first; i; i = hk_preorder_next(i))
        for (uint32_t k = 0; k < i->nops; k++)
            if (i->ops[k] == from)
                i->ops[k] = to;
}
