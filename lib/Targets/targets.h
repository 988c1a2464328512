/* targets.h -- the targets table: the only place a target id is spelled.
 *
 * One row per target (docs/EmbeddedC.md, "Targets"): the code that builds,
 * exports or checks a kernel reads the row and never compares an id.
 */
#ifndef HAWK_TARGETS_H
#define HAWK_TARGETS_H

#include <stdint.h>

typedef enum {
#define FEATURE(id, name, why, fix) HK_FEAT_##id,
#include "features.def"
#undef FEATURE
    HK_FEAT_COUNT
} HkFeature;

typedef struct {
    const char *name;
    const char *why;
    const char *fix;
} HkFeatureInfo;

extern const HkFeatureInfo hk_features[HK_FEAT_COUNT];

#define HK_FEAT_BIT(id) (UINT32_C(1) << HK_FEAT_##id)
#define HK_FEAT_ALL ((UINT32_C(1) << HK_FEAT_COUNT) - 1u)

typedef enum { HK_TOOLCHAIN_NONE, HK_TOOLCHAIN_CPU } HkToolchain;

/* The writer that produces a row's unit, which export dispatches on: the
 * CWriter in libhawk, the LLVMWriter in hawk-llvm (lib/Host). */
typedef enum { HK_WRITER_C, HK_WRITER_LLVM } HkWriterKind;

typedef struct HkTarget {
    const char *id;
    const char *display;     /* the name messages give it: "the C target" */
    const char *about;
    const char *writer;      /* the Writer that spells the language */
    const char *wrapper;     /* NULL: the writer produces the whole file */
    HkToolchain toolchain;   /* NONE: exported, not built */
    const char *entry;       /* the entry suffix: <name>_<entry> */
    const char *format;
    const char *artifact;    /* suffixes of the files the target writes */
    const char *source;
    uint32_t features;       /* HK_FEAT_BIT set the row builds */
    HkWriterKind writer_kind; /* the implementation of `writer` */
} HkTarget;

extern const HkTarget hk_targets[];
extern const unsigned hk_ntargets;

/* The row with this id, or NULL. */
const HkTarget *hk_target_lookup(const char *id);
/* The first row whose writer is k, or NULL. */
const HkTarget *hk_target_written_by(HkWriterKind k);
/* Whether the checks (cc, cppcheck) read row t's units: C source. */
int hk_target_checked(const HkTarget *t);
/* Whether row t's objects are built for this machine's CPU, its name and
 * features (LLVM's host CPU), so they may not run on another machine. */
int hk_target_native(const HkTarget *t);
/* The default target row (the first). */
const HkTarget *hk_target_default(void);
/* "c, host": every id, for diagnostics; a static string. */
const char *hk_target_ids(void);

#endif
