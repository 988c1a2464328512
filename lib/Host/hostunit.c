/* hostunit.c -- the LLVMWriter behind the export: a lowered kernel's
 * object, and its textual IR when asked, handed to hawk_export (which
 * writes them as <name>.host.o and <name>.ll). */
#include <llvm/Config/llvm-config.h>

#include "hostint.h"
#include "hawk/host.h"

/* The object of l's unit, and its IR when want_ir. */
static int write_unit(HkArena *a, const HkLowered *l, int want_ir,
                      HkBuiltUnit *out, HkDiags *d)
{
    out->ir = NULL;
    out->ir_len = 0;
    if (want_ir && hk_host_emit_ir(a, l, &out->ir, &out->ir_len, d) != 0)
        return -1;
    return hk_host_emit_object(a, l, &out->obj, &out->obj_len, d);
}

static const HawkUnitWriter llvm_writer = {write_unit};

const HawkUnitWriter *hk_host_writer(void)
{
    return &llvm_writer;
}

const HawkUnitWriter *hawk_host_writer(void)
{
    return hk_host_writer();
}

const char *hk_host_llvm_version(void)
{
    return LLVM_VERSION_STRING;
}
