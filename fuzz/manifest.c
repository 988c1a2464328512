/* manifest.c -- the fuzz target of libhawk-rt's manifest reader: any bytes
 * read as dir/hawk.manifest.json are refused with a reason or give kernels
 * a program can trust: a name, an args size in range and every field
 * inside the args and of its kind's size (a program writes its arguments
 * there: a pointer where a plane is), and
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
        for (size_t i = 0; i < kk->nfields; i++) {
            const Field *f = &kk->fields[i];
            if (f->offset < 0 || f->size < 1 || f->size > kk->args_size ||
                (size_t)f->offset > kk->args_size - f->size ||
                hawk_rt_field_offset(kk, f->name) < 0 ||
                hawk_rt_field_size(kk, f->name) < 1)
                fuzz_defect("a field outside the args", NULL);
            if ((f->kind == HK_RT_PLANE && f->size != sizeof(void *)) ||
                (f->kind == HK_RT_LENGTH && f->size != sizeof(int64_t)))
                fuzz_defect("a field smaller or larger than its kind", NULL);
        }
        if (kk->handle != NULL || kk->entry != NULL)
            fuzz_defect("a kernel loaded by the reader", NULL);
    }
    hawk_unload(rt);
    free(text);
    return 0;
}
