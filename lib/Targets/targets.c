/* targets.c -- the targets table and the refusable features: the only place
 * a target id is spelled.  Everything else reads a row. */
#include <stddef.h>
#include <string.h>

#include "targets.h"

const HkFeatureInfo hk_features[HK_FEAT_COUNT] = {
#define FEATURE(id, name, why, fix) [HK_FEAT_##id] = {name, why, fix},
#include "features.def"
#undef FEATURE
};

/* TARGET(id, display, about, writer, wrapper, toolchain, entry, format,
 *        artifact, source, features, writer_kind): one row per target.
 * display is the name a message gives the row ("the C target refuses
 * ...").  ORDER: the first row is the default target; hk_target_ids lists
 * them in this order. */
#define TARGETS(X)                                                           \
    X("c", "C", "exports freestanding MISRA C:2012 for embedded builds",     \
      "CWriter", NULL, HK_TOOLCHAIN_NONE, "c", "c-source", ".h", ".c",       \
      0 /* builds none of features.def */, HK_WRITER_C)                     \
    X("host", "host", "builds the reference unit through the LLVM C API",    \
      "LLVMWriter", NULL, HK_TOOLCHAIN_CPU, "host", "elf-object",            \
      ".host.o", ".ll", 0 /* builds none of features.def */, HK_WRITER_LLVM)

#define ROW(id, display, about, writer, wrapper, tc, entry, format,         \
            artifact, source, features, kind)                                \
    {id, display, about, writer, wrapper, tc, entry, format, artifact,       \
     source, features, kind},
const HkTarget hk_targets[] = {TARGETS(ROW)};
#undef ROW

const unsigned hk_ntargets = sizeof hk_targets / sizeof hk_targets[0];

/* A linear search: the table has a handful of rows. */
const HkTarget *hk_target_lookup(const char *id)
{
    for (unsigned i = 0; id != NULL && i < hk_ntargets; i++)
        if (strcmp(hk_targets[i].id, id) == 0)
            return &hk_targets[i];
    return NULL;
}

/* The table is short: a linear search. */
const HkTarget *hk_target_written_by(HkWriterKind k)
{
    for (unsigned i = 0; i < hk_ntargets; i++)
        if (hk_targets[i].writer_kind == k)
            return &hk_targets[i];
    return NULL;
}

int hk_target_checked(const HkTarget *t)
{
    return t->writer_kind == HK_WRITER_C;
}

int hk_target_native(const HkTarget *t)
{
    return t->toolchain == HK_TOOLCHAIN_CPU;
}

/* The first row. */
const HkTarget *hk_target_default(void)
{
    return &hk_targets[0];
}

/* ", c, host" spelled at compile time (no lazy buffer, so no race); the
 * leading separator is skipped. */
#define JOIN(id, ...) ", " id
static const char joined_ids[] = TARGETS(JOIN);
#undef JOIN

/* Every id, ", "-joined. */
const char *hk_target_ids(void)
{
    return joined_ids + 2;
}
