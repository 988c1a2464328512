/* abi.h -- the layout of a kernel's C args struct (`<name>_args_t`), as the
 * C compiler of this machine lays it out, computed from the interface rows.
 *
 * The header writer declares one member per interface row, in row order: a
 * pointer per plane, an `int64_t <field>_len` after a runtime-length plane,
 * and a by-value member per uniform (an array member for a rank >= 1
 * uniform).  C places each member at the next offset that is a multiple of
 * its alignment and rounds the struct's size up to its largest alignment;
 * this file applies those rules with the sizes and alignments of the
 * compiler that builds hawk, so a caller that never sees the header (the
 * runner, a JIT) can fill an args struct byte for byte.
 */
#ifndef HAWK_ABI_H
#define HAWK_ABI_H

#include "embedded.h"

typedef enum {
    HK_ABI_PLANE,      /* a pointer to a plane */
    HK_ABI_LEN,        /* the int64_t runtime length after a plane */
    HK_ABI_VALUE,      /* a uniform passed by value */
} HkAbiKind;

/* How a plane is addressed (LangRef "Planes", docs/EmbeddedC.md). */
typedef enum {
    HK_ABI_SOA,        /* comps values per sample, pitch n_samples */
    HK_ABI_FLAT_LEN,   /* one shared array of the runtime length */
    HK_ABI_FLAT_CELLS, /* comps shared cells (mix, finished_count) */
    HK_ABI_BY_VALUE,   /* not a plane: the member holds the value */
} HkAbiAddressing;

typedef struct {
    const char *name;       /* C member name: "vin_state", "lut_t_len" */
    HkAbiKind kind;
    uint32_t row;           /* index of the interface row it comes from */
    HkRole role;            /* the slot's role */
    HkElem elem;            /* element type: the pointee of a plane, the
                               member's type of a value, HK_I64 for a len */
    uint32_t elem_bytes;    /* bytes of one element in memory (i1: bool) */
    uint32_t comps;         /* values per sample (SOA), cells (FLAT_CELLS),
                               components of a value; 1 otherwise */
    HkAbiAddressing addr;
    int written;            /* the row's direction is out or inout */
    int zeroed;             /* the caller zeroes it ("yes (zeroed)") */
    uint64_t offset, size, align;
} HkAbiField;

typedef struct {
    uint32_t nfields;
    HkAbiField *fields;     /* in declaration order */
    uint64_t size, align;   /* of the whole struct */
} HkAbiLayout;

/* Computes the args struct of kernel f (whose slots the rows index) from
 * its interface rows into out (arena storage).  Returns 0, or -1 when a
 * row names an element type or shape no C member spells (never for a
 * kernel the interface analysis accepted). */
int hk_abi_layout(HkArena *a, const HkFunc *f, const HkInterfaceResult *iface,
                  HkAbiLayout *out);

/* How the manifest and hawk-run -print-layout spell a member's kind
 * ("plane", "length", "value") and addressing ("soa", "flat_length",
 * "flat_cells", "by_value"). */
const char *hk_abi_kind_name(HkAbiKind k);
const char *hk_abi_addressing_name(HkAbiAddressing a);

/* The member named name, or NULL. */
const HkAbiField *hk_abi_field(const HkAbiLayout *l, const char *name);

/* Size and alignment of a C object of element type e as a struct member on
 * this machine (i1 is C's bool).  Returns 0, or -1 for HK_VOID. */
int hk_abi_elem(HkElem e, uint64_t *size, uint64_t *align);

#endif
