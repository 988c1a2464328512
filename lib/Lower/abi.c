/* abi.c -- the args struct layout of a kernel by the C rules (abi.h).
 *
 * The sizes and alignments are measured on the compiler that builds hawk
 * (offsetof over a two-member struct gives a member's alignment, which on
 * some ABIs differs from _Alignof of the type alone), so the layout is the
 * one any C compiler of the same ABI gives the generated header. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "abi.h"

/* A member's alignment inside a struct: where it lands after a char. */
#define MEMBER_ALIGN(T) offsetof(struct { char c; T x; }, x)

/* Sets *size and *align to those of C type T as a struct member. */
#define MEMBER(T) (*size = sizeof(T), *align = MEMBER_ALIGN(T), 0)

int hk_abi_elem(HkElem e, uint64_t *size, uint64_t *align)
{
    switch (e) {
    case HK_I1: return MEMBER(bool);
    case HK_I32: return MEMBER(int32_t);
    case HK_U32: return MEMBER(uint32_t);
    case HK_I64: return MEMBER(int64_t);
    case HK_F32: return MEMBER(float);
    case HK_F64: return MEMBER(double);
    case HK_VOID: break;
    }
    return -1;
}

/* x rounded up to a multiple of align (a power of two, or 1). */
static uint64_t round_up(uint64_t x, uint64_t align)
{
    return (x + align - 1) / align * align;
}

/* Places f after *end by the C rules; grows the struct's alignment. */
static void place(HkAbiLayout *l, HkAbiField *f, uint64_t *end)
{
    f->offset = round_up(*end, f->align);
    *end = f->offset + f->size;
    if (f->align > l->align)
        l->align = f->align;
}

/* Values per sample of a plane (the extents after a runtime first one). */
static uint32_t plane_comps(HkType t)
{
    if (!hk_is_dyn(t))
        return hk_components(t);
    return t.rank == 2 ? t.dim[1] : 1;
}

/* How slot s's plane is addressed. */
static HkAbiAddressing addressing(const HkSlot *s)
{
    if (hk_roles[s->role].layout == HK_LAY_VALUE)
        return HK_ABI_BY_VALUE;
    if (hk_is_dyn(s->type))
        return HK_ABI_FLAT_LEN;
    if (hk_roles[s->role].layout == HK_LAY_FLAT)
        return HK_ABI_FLAT_CELLS;
    return HK_ABI_SOA;
}

/* The member of interface row r (slot s): a pointer or a value. */
static int row_member(const HkInterfaceRow *r, uint32_t row, const HkSlot *s,
                      HkAbiField *f)
{
    uint64_t esize, ealign;
    if (hk_abi_elem((HkElem)s->type.elem, &esize, &ealign) != 0)
        return -1;
    f->name = r->field;
    f->row = row;
    f->role = s->role;
    f->elem = (HkElem)s->type.elem;
    f->elem_bytes = (uint32_t)esize;
    f->addr = addressing(s);
    f->written = r->dir != HK_DIR_IN;
    f->zeroed = r->init == HK_INIT_ZEROED;
    f->comps = plane_comps(s->type);
    if (f->addr == HK_ABI_BY_VALUE) {
        f->kind = HK_ABI_VALUE;
        f->size = esize * f->comps;
        f->align = ealign;
        return 0;
    }
    f->kind = HK_ABI_PLANE;
    f->size = sizeof(void *);
    f->align = MEMBER_ALIGN(void *);
    return 0;
}

/* The int64_t length member that follows plane member p. */
static void len_member(HkArena *a, const HkInterfaceRow *r, const HkAbiField *p,
                       HkAbiField *f)
{
    uint64_t size, align;
    (void)hk_abi_elem(HK_I64, &size, &align);
    f->name = r->runtime_len ? r->runtime_len
                             : hk_asprintf(a, "%s_len", r->field);
    f->kind = HK_ABI_LEN;
    f->row = p->row;
    f->role = p->role;
    f->elem = HK_I64;
    f->elem_bytes = (uint32_t)size;
    f->comps = 1;
    f->addr = HK_ABI_BY_VALUE;
    f->written = 0;
    f->size = size;
    f->align = align;
}

int hk_abi_layout(HkArena *a, const HkFunc *f, const HkInterfaceResult *iface,
                  HkAbiLayout *out)
{
    memset(out, 0, sizeof *out);
    out->fields = hk_alloc(a, (2 * (size_t)iface->nrows + 1) *
                                  sizeof *out->fields);
    out->align = 1;
    uint64_t end = 0;
    for (uint32_t k = 0; k < iface->nrows; k++) {
        const HkInterfaceRow *r = &iface->rows[k];
        if (r->slot >= f->nslots)
            return -1;
        HkAbiField *m = &out->fields[out->nfields];
        if (row_member(r, k, &f->slots[r->slot], m) != 0)
            return -1;
        place(out, m, &end);
        out->nfields++;
        if (m->addr != HK_ABI_FLAT_LEN)
            continue;
        HkAbiField *len = &out->fields[out->nfields++];
        len_member(a, r, m, len);
        place(out, len, &end);
    }
    out->size = round_up(end, out->align);
    return 0;
}

const HkAbiField *hk_abi_field(const HkAbiLayout *l, const char *name)
{
    for (uint32_t k = 0; k < l->nfields; k++)
        if (strcmp(l->fields[k].name, name) == 0)
            return &l->fields[k];
    return NULL;
}

const char *hk_abi_kind_name(HkAbiKind k)
{
    switch (k) {
    case HK_ABI_PLANE: return "plane";
    case HK_ABI_LEN: return "length";
    case HK_ABI_VALUE: return "value";
    }
    return "?";
}

const char *hk_abi_addressing_name(HkAbiAddressing a)
{
    switch (a) {
    case HK_ABI_SOA: return "soa";
    case HK_ABI_FLAT_LEN: return "flat_length";
    case HK_ABI_FLAT_CELLS: return "flat_cells";
    case HK_ABI_BY_VALUE: return "by_value";
    }
    return "?";
}
