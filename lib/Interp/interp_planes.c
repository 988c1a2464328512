/* interp_planes.c -- the ops that name slots, by LangRef's semantics
 * ("Planes", "Locals", "Index clamping"): each index is clamped where
 * LangRef clamps it, here and not by a pass, and every element read or
 * written is checked inside its plane, so that a wrong address is a
 * reported failure, never a read or a write outside the caller's
 * memory. */
#include <string.h>

#include "interpint.h"

static HkWord read_elem(HkElem e, const unsigned char *p)
{
    HkWord w;
    w.u = 0;
    switch (e) {
    case HK_F64: memcpy(&w.d, p, sizeof w.d); break;
    case HK_F32: memcpy(&w.f, p, sizeof w.f); break;
    case HK_I64: memcpy(&w.i, p, sizeof w.i); break;
    case HK_I32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        w.i = v;
        break;
    }
    case HK_U32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        w.u = v;
        break;
    }
    case HK_I1: w.u = p[0] != 0; break;
    case HK_VOID: break;
    }
    return w;
}

static void write_elem(HkElem e, unsigned char *p, HkWord w)
{
    switch (e) {
    case HK_F64: memcpy(p, &w.d, sizeof w.d); break;
    case HK_F32: memcpy(p, &w.f, sizeof w.f); break;
    case HK_I64: memcpy(p, &w.i, sizeof w.i); break;
    case HK_I32: {
        int32_t v = (int32_t)w.i;
        memcpy(p, &v, sizeof v);
        break;
    }
    case HK_U32: {
        uint32_t v = (uint32_t)w.u;
        memcpy(p, &v, sizeof v);
        break;
    }
    case HK_I1: p[0] = (unsigned char)(w.u != 0); break;
    case HK_VOID: break;
    }
}

static int64_t clamp(int64_t k, int64_t len)
{
    return k < 0 ? 0 : k > len - 1 ? len - 1 : k;
}

/* The member of i's slot in the args struct. */
static const HkAbiField *member(HkInterp *ip, const HkInst *i)
{
    int32_t k = i->slot >= 0 ? ip->by_slot[i->slot] : -1;
    if (k < 0) {
        hk_interp_fail(ip, i, "a slot without a member");
        return NULL;
    }
    return &ip->abi.fields[k];
}

static unsigned char *plane(const HkInterp *ip, const HkAbiField *m)
{
    unsigned char *p;
    memcpy(&p, ip->args + m->offset, sizeof p);
    return p;
}

/* The runtime length after plane member m. */
static int64_t plane_len(const HkInterp *ip, const HkAbiField *m)
{
    int64_t n;
    memcpy(&n, ip->args + (m + 1)->offset, sizeof n);
    return n;
}

/* The elements plane m holds: comps per sample of n_samples, its runtime
 * length, or its cells. */
static int64_t extent(const HkInterp *ip, const HkAbiField *m)
{
    switch (m->addr) {
    case HK_ABI_SOA: return (int64_t)m->comps * ip->n;
    case HK_ABI_FLAT_LEN: return plane_len(ip, m);
    default: return (int64_t)m->comps;
    }
}

/* Whether element idx lies inside plane m (else a report at i). */
static int inside(HkInterp *ip, const HkInst *i, const HkAbiField *m,
                  int64_t idx)
{
    int64_t ext = extent(ip, m);
    if (idx >= 0 && idx < ext)
        return 1;
    hk_interp_fail(ip, i, hk_asprintf(ip->a,
                                      "element %lld of plane '%s' is outside "
                                      "its %lld elements",
                                      (long long)idx, m->name,
                                      (long long)ext));
    return 0;
}

HkWord hk_interp_read(HkInterp *ip, const HkInst *i, const HkAbiField *m,
                      int64_t idx)
{
    HkWord w;
    w.u = 0;
    if (!inside(ip, i, m, idx))
        return w;
    return read_elem(m->elem, plane(ip, m) + (size_t)idx * m->elem_bytes);
}

static void write_at(HkInterp *ip, const HkInst *i, const HkAbiField *m,
                     int64_t idx, HkWord w)
{
    if (inside(ip, i, m, idx))
        write_elem(m->elem, plane(ip, m) + (size_t)idx * m->elem_bytes, w);
}

/* Element c of the current sample in a per-sample plane. */
static int64_t soa(const HkInterp *ip, uint32_t c)
{
    return (int64_t)c * ip->n + ip->sample;
}

/* The index operand of i: its last. */
static int64_t index_of(const HkInterp *ip, const HkInst *i)
{
    return hk_interp_comp(ip, i->ops[i->nops - 1], 0).i;
}

static uint32_t comps_of(const HkInterp *ip, HkVal v)
{
    return hk_components(hk_value(ip->f, v)->type);
}

/* The row of local or tape slot s that i names, clamped to its K rows
 * (a proven row is inside already: the clamp leaves it). */
static int64_t row_of(const HkInterp *ip, const HkInst *i)
{
    return clamp(index_of(ip, i), (int64_t)ip->f->slots[i->slot].type.dim[0]);
}

void hk_interp_load(HkInterp *ip, const HkInst *i)
{
    HkWord *out = hk_interp_dest(ip, hk_res(i)[0]);
    if (ip->locals[i->slot] != NULL) {
        out[0] = ip->locals[i->slot][row_of(ip, i)];
        return;
    }
    const HkAbiField *m = member(ip, i);
    if (m == NULL)
        return;
    uint32_t n = comps_of(ip, hk_res(i)[0]);
    for (uint32_t c = 0; c < n; c++)
        out[c] = m->kind == HK_ABI_VALUE
                     ? read_elem(m->elem, ip->args + m->offset +
                                              (size_t)c * m->elem_bytes)
                     : hk_interp_read(ip, i, m, soa(ip, c));
}

/* gather %s, %k: element clamp(k, 0, len - 1). */
void hk_interp_gather(HkInterp *ip, const HkInst *i)
{
    const HkAbiField *m = member(ip, i);
    if (m == NULL)
        return;
    int64_t k = clamp(index_of(ip, i), plane_len(ip, m));
    hk_interp_dest(ip, hk_res(i)[0])[0] = hk_interp_read(ip, i, m, k);
}

void hk_interp_clamp_index(HkInterp *ip, const HkInst *i)
{
    const HkSlot *s = &ip->f->slots[i->slot];
    int64_t k = i->nops == 1 ? hk_interp_comp(ip, i->ops[0], 0).i : ip->sample;
    int64_t len = (int64_t)s->type.dim[0];
    if (hk_is_dyn(s->type)) {
        const HkAbiField *m = member(ip, i);
        if (m == NULL)
            return;
        len = plane_len(ip, m);
    }
    hk_interp_dest(ip, hk_res(i)[0])[0].i = clamp(k, len);
}

/* The position a write into runtime-length plane m takes: its index
 * operand's, or the sample's own, clamped to [0, len - 1]. */
static int64_t flat_pos(const HkInterp *ip, const HkInst *i,
                        const HkAbiField *m)
{
    return clamp(i->has_index ? index_of(ip, i) : ip->sample,
                 plane_len(ip, m));
}

void hk_interp_store(HkInterp *ip, const HkInst *i)
{
    HkVal v = i->ops[0];
    if (ip->locals[i->slot] != NULL) {
        ip->locals[i->slot][row_of(ip, i)] = hk_interp_comp(ip, v, 0);
        return;
    }
    const HkAbiField *m = member(ip, i);
    if (m == NULL)
        return;
    uint32_t n = comps_of(ip, v);
    if (ip->f->slots[i->slot].role == HK_ROLE_OUT) {  /* a tape's row */
        int64_t row = row_of(ip, i);
        for (uint32_t c = 0; c < n; c++)
            write_at(ip, i, m, (row * (int64_t)n + c) * ip->n + ip->sample,
                     hk_interp_comp(ip, v, c));
        return;
    }
    if (m->addr == HK_ABI_FLAT_LEN) {
        write_at(ip, i, m, flat_pos(ip, i, m), hk_interp_comp(ip, v, 0));
        return;
    }
    for (uint32_t c = 0; c < n; c++)
        write_at(ip, i, m, soa(ip, c), hk_interp_comp(ip, v, c));
}

/* An own-column accumulate stores (LangRef: the plain and atomic sinks),
 * into a runtime-length plane at the sample's clamped position; a
 * scattered one adds into cell clamp(k, 0, len - 1), wrapping on
 * integers. */
void hk_interp_accum(HkInterp *ip, const HkInst *i)
{
    if (!i->has_index) {
        hk_interp_store(ip, i);
        return;
    }
    const HkAbiField *m = member(ip, i);
    if (m == NULL)
        return;
    if (comps_of(ip, i->ops[0]) != 1) {
        hk_interp_fail(ip, i, "a scattered accumulate of a tensor "
                              "(scattered_tensor_accum)");
        return;
    }
    int64_t k = flat_pos(ip, i, m);
    HkWord old = hk_interp_read(ip, i, m, k);
    HkWord v = hk_interp_comp(ip, i->ops[0], 0);
    HkOp op = hk_is_float(m->elem) ? HK_OP_FADD : HK_OP_ADD;
    int ok = 1;
    write_at(ip, i, m, k,
             hk_interp_op(op, (HkPred)0, m->elem, m->elem, old, v, v, &ok));
}

void hk_interp_bump(HkInterp *ip, const HkInst *i, int64_t k)
{
    const HkAbiField *m = member(ip, i);
    if (m == NULL)
        return;
    HkWord old = hk_interp_read(ip, i, m, k);
    write_at(ip, i, m, k, hk_interp_norm(HK_U32, old.u + 1u));
}
