/* hostargs.c -- the args struct of the host unit: the C header's
 * <name>_args_t as an LLVM struct, one member per abi.c member in order,
 * and a check that LLVM lays it out where the C compiler does. */
#include <inttypes.h>

#include "hostint.h"

/* The LLVM type of member m: a pointer to its element in memory, the
 * int64_t length, or the by-value element (an array for rank >= 1). */
static LLVMTypeRef member_type(HkHostGen *g, const HkAbiField *m)
{
    LLVMTypeRef e = hk_host_mem_elem(g, m->elem);
    switch (m->kind) {
    case HK_ABI_PLANE:
        return LLVMPointerType(e, 0);
    case HK_ABI_LEN:
        return LLVMInt64TypeInContext(g->ctx);
    case HK_ABI_VALUE:
        break;
    }
    return m->comps > 1 ? LLVMArrayType(e, m->comps) : e;
}

/* LLVM's offsets and size of the struct against the C rules: a mismatch
 * would make the unit read the wrong bytes of the caller's struct, so it
 * is a diagnostic, never a silent wrong answer. */
static int check_layout(HkHostGen *g)
{
    for (uint32_t k = 0; k < g->abi.nfields; k++) {
        uint64_t off = LLVMOffsetOfElement(g->td, g->args_ty, k);
        if (off == g->abi.fields[k].offset && !hk_host_fault())
            continue;
        hk_host_error(g->d, g->l,
                      hk_asprintf(g->a,
                                  "host args struct: member '%s' at offset "
                                  "%" PRIu64 " in LLVM's layout, %" PRIu64
                                  " in C's",
                                  g->abi.fields[k].name, off,
                                  g->abi.fields[k].offset));
        return -1;
    }
    uint64_t size = LLVMABISizeOfType(g->td, g->args_ty);
    if (size == g->abi.size && !hk_host_fault())
        return 0;
    hk_host_error(g->d, g->l,
                  hk_asprintf(g->a,
                              "host args struct: %" PRIu64 " bytes in LLVM's "
                              "layout, %" PRIu64 " in C's",
                              size, g->abi.size));
    return -1;
}

int hk_host_args_type(HkHostGen *g)
{
    if (hk_plane_members(g->a, g->l, &g->abi, &g->slot_field) != 0) {
        hk_host_error(g->d, g->l, "host args struct: an interface row no C "
                                  "member spells");
        return -1;
    }
    uint32_t n = g->abi.nfields;
    LLVMTypeRef *types = hk_alloc(g->a, (n + 1u) * sizeof *types);
    for (uint32_t k = 0; k < n; k++)
        types[k] = member_type(g, &g->abi.fields[k]);
    g->args_ty = LLVMStructCreateNamed(
        g->ctx, hk_asprintf(g->a, "%s_args_t", g->f->name));
    LLVMStructSetBody(g->args_ty, types, n, 0);
    return check_layout(g);
}

LLVMTypeRef hk_host_member_type(HkHostGen *g, uint32_t k)
{
    return member_type(g, &g->abi.fields[k]);
}

void hk_host_args_load(HkHostGen *g)
{
    g->field = hk_alloc(g->a, (g->abi.nfields + 1u) * sizeof *g->field);
    for (uint32_t k = 0; k < g->abi.nfields; k++) {
        const HkAbiField *m = &g->abi.fields[k];
        LLVMValueRef p =
            LLVMBuildStructGEP2(g->b, g->args_ty, g->args, k, "");
        g->field[k] = LLVMBuildLoad2(g->b, member_type(g, m), p, m->name);
    }
}
