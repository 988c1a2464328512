/* hostplanes.c -- plane addressing, as the C unit spells it (LangRef
 * "Planes", docs/EmbeddedC.md):
 *
 *   per-sample plane, component c of sample i   p[(c * n_samples) + i]
 *   tape row r of <K x N x T>, component c      p[(((r * N) + c) * n_samples) + i]
 *   runtime-length plane at index k             p[k]
 *   uniform                                     the member itself
 *   finished_count, mix cell k                  p[0], p[k]
 *
 * Every index arrives legal (scalar-form): a clamp_index legalize wrote,
 * lowered here as hawk_clamp_index, or a tape row the index-clamp analysis
 * proved.  A bool plane is bytes: a load reads "not zero", a store
 * writes 0 or 1.
 *
 * A shared cell (a scattered accumulate's cell, finished_count, a mix
 * cell) is read, added to and written back by one sample after another,
 * and two samples may hit the same cell.  Its load and store are volatile
 * so that no pass reorders them across samples: LLVM 14's loop access
 * analysis takes a read-modify-write through one pointer, alone in its
 * alias set, for a same-iteration update and vectorizes it into a
 * gather, an add and a scatter, which loses every update but one of the
 * lanes that hit one cell.  Volatile accesses are never vectorized,
 * interleaved, merged or reordered among themselves, so the cells are
 * updated in sample order, as the C unit updates them. */
#include "hostint.h"

/* Slot's pointer or value member; *k its index. */
static const HkAbiField *member(HkHostGen *g, int32_t slot, uint32_t *k)
{
    int32_t f = g->slot_field[slot];
    if (f < 0) {
        hk_host_fail(g, NULL, hk_asprintf(g->a, "slot %%%s has no member",
                                          g->f->slots[slot].name));
        f = 0;
    }
    *k = (uint32_t)f;
    return &g->abi.fields[f];
}

/* The plane's pointer and element type in memory. */
static LLVMValueRef plane(HkHostGen *g, int32_t slot, LLVMTypeRef *et)
{
    uint32_t k;
    const HkAbiField *m = member(g, slot, &k);
    *et = hk_host_mem_elem(g, m->elem);
    return g->field[k];
}

/* The runtime length after the plane's pointer. */
static LLVMValueRef plane_len(HkHostGen *g, int32_t slot)
{
    uint32_t k;
    (void)member(g, slot, &k);
    return g->field[k + 1];
}

/* The address of element idx of plane p. */
static LLVMValueRef at(HkHostGen *g, LLVMTypeRef et, LLVMValueRef p,
                       LLVMValueRef idx)
{
    return LLVMBuildGEP2(g->b, et, p, &idx, 1, "");
}

/* (c * n_samples) + i. */
static LLVMValueRef soa_index(HkHostGen *g, uint64_t c)
{
    if (c == 0)
        return g->sample;
    LLVMValueRef off =
        LLVMBuildMul(g->b, hk_host_i64(g, (int64_t)c), g->n_samples, "");
    return LLVMBuildAdd(g->b, off, g->sample, "");
}

/* Reads element idx of a plane of element e (a bool as "not zero"). */
static LLVMValueRef read(HkHostGen *g, HkElem e, LLVMTypeRef et,
                         LLVMValueRef p, LLVMValueRef idx)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, et, at(g, et, p, idx), "");
    if (e == HK_I1)
        v = LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(et, 0, 0), "");
    return v;
}

/* Writes v to element idx (a bool as 0 or 1). */
static void write(HkHostGen *g, HkElem e, LLVMTypeRef et, LLVMValueRef p,
                  LLVMValueRef idx, LLVMValueRef v)
{
    if (e == HK_I1)
        v = LLVMBuildZExt(g->b, v, et, "");
    LLVMBuildStore(g->b, v, at(g, et, p, idx));
}

/* The element type of slot's plane. */
static HkElem slot_elem(HkHostGen *g, int32_t slot)
{
    return (HkElem)g->f->slots[slot].type.elem;
}

/* The index operand of i (legal: clamped or proven). */
static LLVMValueRef flat_index(HkHostGen *g, HkInst *i)
{
    return hk_host_comp(g, i->ops[i->nops - 1], 0);
}

/* clamp_index (LangRef "Index clamping"): the index, or the sample's own
 * position, held to [0, len - 1] of a runtime-length plane or to a tape's
 * rows. */
void hk_host_clamp_index_op(HkHostGen *g, HkInst *i)
{
    const HkSlot *s = &g->f->slots[i->slot];
    LLVMValueRef k = i->nops == 1 ? hk_host_comp(g, i->ops[0], 0) : g->sample;
    LLVMValueRef len = hk_is_dyn(s->type)
                           ? plane_len(g, i->slot)
                           : hk_host_i64(g, (int64_t)s->type.dim[0]);
    hk_host_bind1(g, hk_res(i)[0], hk_host_clamp_index(g, k, len));
}

/* In a math function: argument s is the parameter of its place among
 * the uniform slots. */
static void load_argument(HkHostGen *g, HkInst *i)
{
    unsigned k = 0;
    for (int32_t s = 0; s < i->slot; s++)
        k += g->f->slots[s].role == HK_ROLE_UNIFORM;
    hk_host_bind1(g, hk_res(i)[0], LLVMGetParam(g->fn, k));
}

void hk_host_load(HkHostGen *g, HkInst *i)
{
    if (g->fnmode) {
        load_argument(g, i);
        return;
    }
    if (g->local[i->slot] != NULL) {  /* legalize held the row inside */
        LLVMTypeRef et = hk_host_mem_elem(g, slot_elem(g, i->slot));
        hk_host_bind1(g, hk_res(i)[0], read(g, slot_elem(g, i->slot), et,
                                         g->local[i->slot], flat_index(g, i)));
        return;
    }
    uint32_t k;
    const HkAbiField *m = member(g, i->slot, &k);
    uint32_t n = hk_components(hk_host_type(g, hk_res(i)[0]));
    HkElem e = slot_elem(g, i->slot);
    LLVMValueRef *c = hk_alloc(g->a, (n + 1u) * sizeof *c);
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, i->slot, &et);
    for (uint32_t j = 0; j < n; j++) {
        if (m->kind == HK_ABI_VALUE) {
            c[j] = m->comps > 1 ? LLVMBuildExtractValue(g->b, p, j, "") : p;
            if (e == HK_I1)
                c[j] = LLVMBuildICmp(g->b, LLVMIntNE, c[j],
                                     LLVMConstInt(et, 0, 0), "");
        } else {
            c[j] = read(g, e, et, p, soa_index(g, j));
        }
    }
    g->vals[hk_res(i)[0]] = c;
}

void hk_host_gather(HkHostGen *g, HkInst *i)
{
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, i->slot, &et);
    hk_host_bind1(g, hk_res(i)[0], read(g, slot_elem(g, i->slot), et, p,
                                     flat_index(g, i)));
}

/* Stores the components of i's value to the sample's own column: SoA
 * component c at (c * n_samples) + i, a tape row after its row offset. */
static void store_own(HkHostGen *g, HkInst *i, LLVMValueRef row)
{
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, i->slot, &et);
    HkElem e = slot_elem(g, i->slot);
    uint32_t n = hk_components(hk_host_type(g, i->ops[0]));
    for (uint32_t c = 0; c < n; c++) {
        LLVMValueRef idx;
        if (row == NULL) {
            idx = soa_index(g, c);
        } else {
            /* (((r * N) + c) * n_samples) + i */
            LLVMValueRef rc = LLVMBuildAdd(
                g->b, LLVMBuildMul(g->b, row, hk_host_i64(g, n), ""),
                hk_host_i64(g, c), "");
            idx = LLVMBuildAdd(
                g->b, LLVMBuildMul(g->b, rc, g->n_samples, ""), g->sample,
                "");
        }
        write(g, e, et, p, idx, hk_host_comp(g, i->ops[0], c));
    }
}

/* Whether slot s is a runtime-length plane. */
static int is_flat_len(HkHostGen *g, int32_t s)
{
    uint32_t k;
    return member(g, s, &k)->addr == HK_ABI_FLAT_LEN;
}

/* A store (or own-column accumulate): a tape row, a runtime-length plane
 * at its index, or the sample's own column of a per-sample plane. */
void hk_host_store(HkHostGen *g, HkInst *i)
{
    if (g->fnmode) {  /* the result: the return, its end (hk_lower_mathfn) */
        LLVMBuildRet(g->b, hk_host_comp(g, i->ops[0], 0));
        return;
    }
    if (g->local[i->slot] != NULL) {
        write(g, slot_elem(g, i->slot), hk_host_mem_elem(g, slot_elem(g, i->slot)),
              g->local[i->slot], flat_index(g, i), hk_host_comp(g, i->ops[0], 0));
        return;
    }
    if (g->f->slots[i->slot].role == HK_ROLE_OUT) {
        store_own(g, i, hk_host_comp(g, i->ops[i->nops - 1], 0));
        return;
    }
    if (is_flat_len(g, i->slot)) {
        /* legalize indexed every write here (scalar-form) */
        LLVMTypeRef et;
        LLVMValueRef p = plane(g, i->slot, &et);
        if (!i->has_index) {
            hk_host_fail(g, i, "a write into a runtime-length plane without an index");
            return;
        }
        write(g, slot_elem(g, i->slot), et, p, flat_index(g, i),
              hk_host_comp(g, i->ops[0], 0));
        return;
    }
    store_own(g, i, NULL);
}

/* *ptr, read in sample order (a shared cell, see the top). */
static LLVMValueRef load_cell(HkHostGen *g, LLVMTypeRef et, LLVMValueRef ptr)
{
    LLVMValueRef v = LLVMBuildLoad2(g->b, et, ptr, "");
    LLVMSetVolatile(v, 1);
    return v;
}

/* *ptr = v, written in sample order (a shared cell, see the top). */
static void store_cell(HkHostGen *g, LLVMValueRef v, LLVMValueRef ptr)
{
    LLVMSetVolatile(LLVMBuildStore(g->b, v, ptr), 1);
}

/* An own-column accumulate stores (the plain and atomic sinks); a
 * scattered one adds into the clamped cell, wrapping on integers. */
void hk_host_accum(HkHostGen *g, HkInst *i)
{
    if (!i->has_index) {
        hk_host_store(g, i);
        return;
    }
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, i->slot, &et);
    HkElem e = slot_elem(g, i->slot);
    LLVMValueRef ptr = at(g, et, p, flat_index(g, i));
    LLVMValueRef old = load_cell(g, et, ptr);
    LLVMValueRef v = hk_host_comp(g, i->ops[0], 0);
    LLVMValueRef sum;
    if (hk_is_float(e))
        sum = LLVMBuildFAdd(g->b, old, v, "");
    else if (hk_is_int(e))
        sum = LLVMBuildAdd(g->b, old, v, ""); /* wrapping */
    else {
        hk_host_fail(g, i, "a scattered accumulate of a mask");
        return;
    }
    store_cell(g, sum, ptr);
}

/* p[k] += 1, wrapping (a uint32_t cell). */
static void bump_cell(HkHostGen *g, int32_t slot, LLVMValueRef k)
{
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, slot, &et);
    LLVMValueRef ptr = at(g, et, p, k);
    LLVMValueRef old = load_cell(g, et, ptr);
    store_cell(g, LLVMBuildAdd(g->b, old, LLVMConstInt(et, 1, 0), ""), ptr);
}

void hk_host_bump(HkHostGen *g, HkInst *i)
{
    bump_cell(g, i->slot, hk_host_i64(g, 0));
}

void hk_host_mix_bump(HkHostGen *g, int32_t slot, LLVMValueRef k)
{
    bump_cell(g, slot, k);
}

LLVMValueRef hk_host_mask(HkHostGen *g, int32_t slot)
{
    LLVMTypeRef et;
    LLVMValueRef p = plane(g, slot, &et);
    return read(g, HK_I1, et, p, g->sample);
}
