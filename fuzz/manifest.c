/* manifest.c -- the fuzz target of libhawk-rt's manifest reader: any bytes
 * read as dir/hawk.manifest.json are refused with a reason or give kernels
 * a program can trust: a name, an args size in range and every field
 * inside the args (a program writes its arguments at those offsets), and
 * nothing loaded yet.  Unloading frees every byte (the leak check). */
#include "fuzz.h"

#include "rt_impl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    HawkRtError err = HAWK_RT_OK;
    char why[256] = "";
    HawkRt *rt = hk_rt_read_manifest(text, "fuzz", &err, why, sizeof why);
    if (rt == NULL && (err == HAWK_RT_OK || why[0] == '\0'))
        fuzz_defect("a refused manifest without a status and a reason", NULL);
    for (size_t k = 0; rt != NULL && k < hawk_rt_kernel_count(rt); k++) {
        const HawkRtKernel *kk = hawk_rt_kernel(rt, k);
        if (kk->name == NULL || kk->shared_object == NULL || kk->entry_name == NULL ||
            strchr(kk->shared_object, '/') != NULL)
            fuzz_defect("a kernel without a name or a loadable row", NULL);
        if (kk->args_size < 1 || kk->args_size > HK_RT_MAX_ARGS)
            fuzz_defect("an args size out of range", NULL);
        for (size_t i = 0; i < kk->nfields; i++)
            if (kk->fields[i].offset < 0 ||
                (size_t)kk->fields[i].offset >= kk->args_size ||
                hawk_rt_field_offset(kk, kk->fields[i].name) < 0)
                fuzz_defect("a field outside the args", NULL);
        if (kk->handle != NULL || kk->entry != NULL)
            fuzz_defect("a kernel loaded by the reader", NULL);
    }
    hawk_unload(rt);
    free(text);
    return 0;
}
