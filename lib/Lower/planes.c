/* planes.c -- what the two writers (the CWriter here, the LLVMWriter in
 * lib/Host) read alike about a kernel's planes, so that both units
 * address them the same way: the member of the args struct each slot is
 * reached through (abi.c's layout of the interface rows, which also says
 * how the plane is addressed) and the index sites the index-clamp
 * analysis proved inside their plane, the only ones neither unit
 * clamps. */
#include "lower.h"

int hk_plane_members(HkArena *a, const HkLowered *l, HkAbiLayout *abi,
                     int32_t **by_slot)
{
    const HkFunc *f = l->kernel;
    if (hk_abi_layout(a, f, l->iface, abi) != 0)
        return -1;
    int32_t *m = hk_alloc(a, (f->nslots + 1u) * sizeof *m);
    for (uint32_t s = 0; s < f->nslots; s++)
        m[s] = -1;
    /* hk_abi_layout has checked every row's slot */
    for (uint32_t k = 0; k < abi->nfields; k++)
        if (abi->fields[k].kind != HK_ABI_LEN)
            m[l->iface->rows[abi->fields[k].row].slot] = (int32_t)k;
    *by_slot = m;
    return 0;
}

HkSampleBound hk_plane_sample_bound(const HkAbiLayout *abi)
{
    HkSampleBound b = {INT64_MAX, NULL};
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *m = &abi->fields[k];
        if (m->kind != HK_ABI_PLANE || m->addr != HK_ABI_SOA)
            continue;
        uint64_t stride = (uint64_t)m->comps * m->elem_bytes;
        int64_t max = stride > 1u ? (int64_t)((uint64_t)INT64_MAX / stride)
                                  : INT64_MAX;
        if (b.plane == NULL || max < b.max) {
            b.max = max;
            b.plane = m;
        }
    }
    return b;
}

