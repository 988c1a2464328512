/* types.c -- HIR types: element kinds, shapes, spelling. */
#include "ir.h"

HkType hk_scalar(HkElem e)
{
    HkType t = {(uint8_t)e, 0, {0, 0}};
    return t;
}

HkType hk_vec(HkElem e, uint32_t n)
{
    HkType t = {(uint8_t)e, 1, {n, 0}};
    return t;
}

HkType hk_mat(HkElem e, uint32_t r, uint32_t c)
{
    HkType t = {(uint8_t)e, 2, {r, c}};
    return t;
}

HkType hk_with_elem(HkType t, HkElem e)
{
    t.elem = (uint8_t)e;
    return t;
}

int hk_same_shape(HkType a, HkType b)
{
    if (a.rank != b.rank)
        return 0;
    for (unsigned i = 0; i < a.rank; i++)
        if (a.dim[i] != b.dim[i])
            return 0;
    return 1;
}

int hk_type_eq(HkType a, HkType b)
{
    return a.elem == b.elem && hk_same_shape(a, b);
}

int hk_is_float(HkElem e)
{
    return e == HK_F32 || e == HK_F64;
}

int hk_is_int(HkElem e)
{
    return e == HK_I32 || e == HK_U32 || e == HK_I64;
}

int hk_is_dyn(HkType t)
{
    return t.rank > 0 && t.dim[0] == HK_DYN;
}

uint32_t hk_components(HkType t)
{
    uint32_t n = 1;
    for (unsigned i = 0; i < t.rank; i++)
        if (t.dim[i] != HK_DYN)
            n *= t.dim[i];
    return n;
}

const char *hk_elem_name(HkElem e)
{
    switch (e) {
    case HK_VOID: return "void";
    case HK_I1: return "i1";
    case HK_I32: return "i32";
    case HK_U32: return "u32";
    case HK_I64: return "i64";
    case HK_F32: return "f32";
    case HK_F64: return "f64";
    }
    hk_unreachable();
}

uint32_t hk_elem_bytes(HkElem e)
{
    switch (e) {
    case HK_VOID: return 0;
    case HK_I1: return 1;
    case HK_I32: case HK_U32: case HK_F32: return 4;
    case HK_I64: case HK_F64: return 8;
    }
    hk_unreachable();
}

void hk_type_print(HkBuf *b, HkType t)
{
    if (t.rank == 0) {
        hk_buf_puts(b, hk_elem_name((HkElem)t.elem));
        return;
    }
    hk_buf_puts(b, "<");
    for (unsigned i = 0; i < t.rank; i++) {
        if (t.dim[i] == HK_DYN)
            hk_buf_puts(b, "? x ");
        else
            hk_buf_printf(b, "%u x ", t.dim[i]);
    }
    hk_buf_printf(b, "%s>", hk_elem_name((HkElem)t.elem));
}

uint32_t hk_flat_index(HkType t, const int64_t *imm, uint32_t nimm)
{
    uint32_t k = nimm > 0 ? (uint32_t)imm[0] : 0u;
    if (t.rank == 2) {
        k *= t.dim[1];
        if (nimm == 2)
            k += (uint32_t)imm[1];
    }
    return k;
}
