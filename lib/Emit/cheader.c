/* cheader.c -- the header of an emitted C unit (<name>.h), in the contract's
 * form line for line: the TRACEABILITY, BUDGETS and INTERFACE CONTRACT
 * comment, the include guard, the runtime header's include, the args
 * struct and the entry's prototype (docs/EmbeddedC.md, "The header").
 *
 * Everything comes from the analyses the lowering took (interface rows,
 * cost, trip bound) and the profile, never from the .c text, so the header
 * states the contract the verify passes proved.  Columns are padded to
 * their widest entry with the contract's minimum widths, so drag.h is the
 * contract's text with this project's values.
 */
#include <inttypes.h>
#include <string.h>

#include "cruntime.h"
#include "report.h"

/* The label column of TRACEABILITY and BUDGETS: "kernel sha256  ". */
#define LABEL_WIDTH 15

/* ---- small text helpers -------------------------------------------------- */

/* s, then spaces up to width (at least none). */
static void put_padded(HkBuf *b, const char *s, size_t width)
{
    size_t n = strlen(s);
    hk_buf_puts(b, s);
    for (; n < width; n++)
        hk_buf_puts(b, " ");
}

/* " *   <label padded><value>\n". */
static void put_line(HkBuf *b, const char *label, const char *value)
{
    hk_buf_puts(b, " *   ");
    put_padded(b, label, LABEL_WIDTH);
    hk_buf_puts(b, value);
    hk_buf_puts(b, "\n");
}

/* The larger of a and the length of s. */
static size_t wider(size_t a, const char *s)
{
    size_t n = strlen(s);
    return n > a ? n : a;
}

/* "KEPLER" from "kepler": the include guard's spelling (a character no
 * macro name may hold becomes '_'). */
static const char *upper(HkArena *a, const char *s)
{
    char *u = hk_strdup(a, s);
    for (char *p = u; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
        else if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return u;
}

/* ---- what each interface row declares ------------------------------------ */

/* The slot a row describes. */
static const HkSlot *row_slot(const HkLowered *l, const HkInterfaceRow *row)
{
    return &l->kernel->slots[row->slot];
}

/* Whether the row is passed by value (a uniform), not as a plane. */
static int is_value(const HkInterfaceRow *row)
{
    return row->layout == HK_IFL_VALUE;
}

/* The member's type: a pointer for a plane (const when the kernel only
 * reads it), the element for a by-value uniform. */
static const char *member_type(HkArena *a, const HkLowered *l,
                               const HkInterfaceRow *row)
{
    /* hawk_f64_t or hawk_f32_t for a real: the verifier makes every real
     * slot agree with the scalar mode */
    HkElem e = (HkElem)row_slot(l, row)->type.elem;
    const char *t = hk_c_elem_type(e);
    if (is_value(row))
        return t;
    /* a mask plane is bytes, so that any byte of caller memory is a
     * defined read (0 false, any other true); a bool object holding a byte
     * other than 0 or 1 is undefined behaviour in C */
    if (e == HK_I1)
        t = "uint8_t";
    return row->dir == HK_DIR_IN ? hk_asprintf(a, "const %s*", t)
                                       : hk_asprintf(a, "%s*", t);
}

/* "uni_rho;" or, for a rank >= 1 uniform, "uni_q[9];" (row-major). */
static const char *member_decl(HkArena *a, const HkLowered *l,
                               const HkInterfaceRow *row)
{
    HkType t = row_slot(l, row)->type;
    if (is_value(row) && t.rank > 0)
        return hk_asprintf(a, "%s[%u];", row->field, hk_components(t));
    return hk_asprintf(a, "%s;", row->field);
}

/* The contract's shape word: Scalar, Vector[3], Matrix[3,3], Table. */
static const char *shape_word(HkArena *a, HkType t)
{
    if (hk_is_dyn(t))
        return "Table";
    if (t.rank == 0)
        return "Scalar";
    if (t.rank == 1)
        return hk_asprintf(a, "Vector[%u]", t.dim[0]);
    return hk_asprintf(a, "Matrix[%u,%u]", t.dim[0], t.dim[1]);
}

/* How the plane is addressed, the comment's last words. */
static const char *layout_words(HkArena *a, const HkLowered *l,
                                const HkInterfaceRow *row)
{
    if (row->layout == HK_IFL_SOA)
        return "SoA, pitch n_samples";
    if (row->layout == HK_IFL_PARTIALS)
        return "partials, pitch n_samples";
    if (is_value(row))
        return "by value";
    if (row->runtime_len != NULL)
        return hk_asprintf(a, "flat, length %s", row->runtime_len);
    uint32_t n = hk_components(row_slot(l, row)->type);
    return hk_asprintf(a, "flat, %u cell%s", n, n == 1 ? "" : "s");
}

/* ---- TRACEABILITY and BUDGETS -------------------------------------------- */

/* The TRACEABILITY lines: what the unit is and where it came from. */
static void traceability(HkBuf *b, HkArena *a, const HkLowered *l)
{
    hk_buf_puts(b, " * TRACEABILITY:\n");
    put_line(b, "kernel", l->kernel->name);
    put_line(b, "hawk version", hawk_version());
    put_line(b, "walk digest", l->walk_digest);
    put_line(b, "kernel sha256", l->source_digest);
    put_line(b, "scalar mode", l->float32 ? "float32" : "float64");
    put_line(b, "target",
             hk_asprintf(a, "%s, MISRA C:2012+AMD, C%d dialect, serial",
                         l->profile.target->id,
                         l->profile.c_std == 11 ? 11 : 99));
    put_line(b, "profile", hk_profile_repr(a, &l->profile));
    put_line(b, "core version", HK_CORE_VERSION);
}

/* "a, b, c" of n strings, or "none". */
static const char *joined(HkArena *a, const char *const *v, uint32_t n)
{
    if (n == 0)
        return "none";
    HkBuf b;
    hk_buf_init(&b, a);
    for (uint32_t k = 0; k < n; k++)
        hk_buf_printf(&b, "%s%s", k ? ", " : "", v[k]);
    return hk_buf_cstr(&b);
}


/* The BUDGETS line of the operations the profile's fpu runs in software:
 * "none (fpu dp)", or "13 ops (fpu sp: float64 in software)". */
static const char *soft_float_text(HkArena *a, const HkLowered *l,
                                   const HkCostResult *c)
{
    switch (l->profile.fpu) {
    case HK_FPU_SP:
        return hk_asprintf(a, "%" PRId64 " ops (fpu sp: float64 in software)",
                           c->soft_float_ops);
    case HK_FPU_NONE:
        return hk_asprintf(a, "%" PRId64 " ops (fpu none: every real in "
                              "software)", c->soft_float_ops);
    default: return "none (fpu dp)";
    }
}

/* "asin, sin (hawk's own, the same bits on every IEEE 754 target:
 * hawk_sin_f64 in the runtime unit, the rest in this unit)", or "none". */
static const char *hawk_math_text(HkArena *a, const HkCostResult *c,
                                  const HkCUnit *u)
{
    if (c->nown == 0)
        return "none";
    const char *where =
        u->nmathfns == 0
            ? "in this unit"
            : hk_asprintf(a, "%s in the runtime unit%s",
                          joined(a, u->mathfns, u->nmathfns),
                          u->nmathfns < c->nown ? ", the rest in this unit"
                                                : "");
    return hk_asprintf(a, "%s (hawk's own, the same bits on every IEEE 754 "
                          "target: %s)",
                       joined(a, c->own, c->nown), where);
}

/* A figure of a derivative kernel, "n/a" when it is missing. */
static const char *figure(HkArena *a, int64_t v)
{
    return v < 0 ? "n/a" : hk_asprintf(a, "%" PRId64, v);
}

/* " (2.14x the primal)", or "" when a figure is missing. */
static const char *times(HkArena *a, int64_t v, int64_t primal)
{
    const char *r = hk_ratio_text(a, v, primal);
    return r == NULL ? "" : hk_asprintf(a, " (%sx)", r);
}

/* A derivative kernel's lines: what it differentiates, and the ops and
 * tape bytes of the primal and of both modes (the report's derivative). */
static void derivative_lines(HkBuf *b, HkArena *a, const HkDerivFigures *d)
{
    const HkDerivOrigin *o = d->origin;
    put_line(b, "derivative",
             hk_asprintf(a, "%s of %s, wrt %s, of %s", o->mode, o->primal,
                         joined(a, o->wrt, o->nwrt), joined(a, o->of, o->nof)));
    put_line(b, "derivative ops",
             hk_asprintf(a, "primal %s, jvp %s%s, vjp %s%s",
                         figure(a, d->ops[HK_DF_PRIMAL]),
                         figure(a, d->ops[HK_DF_JVP]),
                         times(a, d->ops[HK_DF_JVP], d->ops[HK_DF_PRIMAL]),
                         figure(a, d->ops[HK_DF_VJP]),
                         times(a, d->ops[HK_DF_VJP], d->ops[HK_DF_PRIMAL])));
    put_line(b, "tape bytes",
             hk_asprintf(a, "primal %s, jvp %s, vjp %s",
                         figure(a, d->tapes[HK_DF_PRIMAL]),
                         figure(a, d->tapes[HK_DF_JVP]),
                         figure(a, d->tapes[HK_DF_VJP])));
}

/* The BUDGETS lines, from the trip-bound and cost analyses. */
static void budgets(HkBuf *b, HkArena *a, const HkLowered *l,
                    const HkCUnit *u)
{
    const HkCostResult *c = l->cost;
    hk_buf_puts(b, " * BUDGETS (per sample, worst case):\n");
    put_line(b, "loop trips", hk_asprintf(a, "%" PRId64, l->trips->max_trips));
    put_line(b, "ops",
             hk_asprintf(a,
                         "arith32 %" PRId64 ", arith64 %" PRId64
                         ", special32 %" PRId64 ", special64 %" PRId64
                         ", loads %" PRId64 ", gathers %" PRId64
                         ", chain32 %" PRId64 ", chain64 %" PRId64
                         ", chainSpecial32 %" PRId64
                         ", chainSpecial64 %" PRId64 ", stores %" PRId64,
                         c->arith32, c->arith64, c->special32, c->special64,
                         c->loads, c->gathers, c->chain32, c->chain64,
                         c->chain_special32, c->chain_special64, c->stores));
    put_line(b, "fp64 ops", hk_asprintf(a, "%" PRId64, c->fp64_ops));
    put_line(b, "soft float", soft_float_text(a, l, c));
    put_line(b, "static bytes",
             hk_asprintf(a,
                         "tapes %" PRId64 ", carries %" PRId64
                         ", temporaries %" PRId64 ", total %" PRId64,
                         c->tapes, c->carries, c->temporaries, c->total_bytes));
    put_line(b, "stack bound",
             hk_asprintf(a,
                         "entry %" PRId64 ", sample %" PRId64
                         ", runtime %" PRId64 ", total %" PRId64
                         " (not libm, the caller, interrupts)",
                         u->stack_entry, u->stack_sample, u->stack_runtime,
                         u->stack_total));
    put_line(b, "libm", joined(a, c->libm, c->nlibm));
    put_line(b, "hawk math", hawk_math_text(a, c, u));
    if (l->deriv != NULL)
        derivative_lines(b, a, l->deriv);
}

/* ---- INTERFACE CONTRACT ---------------------------------------------------- */

/* The table's columns: field, role, dir, dtype, shape, then init-by-caller
 * unpadded.  Each is padded to its widest entry plus one (at least the
 * contract's width) and followed by one space. */
enum { C_FIELD, C_ROLE, C_DIR, C_DTYPE, C_SHAPE, NCOLS };

/* One table line: the five padded cells, then init-by-caller. */
static void table_row(HkBuf *b, const size_t *w, const char *const *cells,
                      const char *init)
{
    hk_buf_puts(b, " *   ");
    for (int c = 0; c < NCOLS; c++) {
        put_padded(b, cells[c], w[c]);
        hk_buf_puts(b, " ");
    }
    hk_buf_printf(b, "%s\n", init);
}

/* The heading and one line per interface row. */
static void interface_table(HkBuf *b, const HkInterfaceResult *ir)
{
    static const size_t seed_min[NCOLS] = {0, 8, 4, 5, 6};
    static const char *const head[NCOLS] = {"field", "role", "dir", "dtype",
                                            "shape"};
    size_t w[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        w[c] = wider(seed_min[c], head[c]);
    for (uint32_t k = 0; k < ir->nrows; k++) {
        const HkInterfaceRow *r = &ir->rows[k];
        const char *cells[NCOLS] = {r->field, r->role, hk_if_dir_name(r->dir),
                                    r->dtype, r->shape};
        for (int c = 0; c < NCOLS; c++)
            if (strlen(cells[c]) + 1 > w[c])
                w[c] = strlen(cells[c]) + 1;
    }
    table_row(b, w, head, "init-by-caller");
    for (uint32_t k = 0; k < ir->nrows; k++) {
        const HkInterfaceRow *r = &ir->rows[k];
        const char *cells[NCOLS] = {r->field, r->role, hk_if_dir_name(r->dir),
                                    r->dtype, r->shape};
        table_row(b, w, cells, hk_if_init_name(r->init));
    }
}

/* A guarded kernel: one line per mutable or wide_out field naming the
 * masks, since a masked sample leaves the caller's value in place. */
static void guard_lines(HkBuf *b, HkArena *a, const HkLowered *l)
{
    const HkInterfaceResult *ir = l->iface;
    if (ir->nguard == 0)
        return;
    const char *masks = joined(a, ir->guard, ir->nguard);
    for (uint32_t k = 0; k < ir->nrows; k++) {
        const HkInterfaceRow *r = &ir->rows[k];
        HkRole role = row_slot(l, r)->role;
        if (role != HK_ROLE_MUTABLE && role != HK_ROLE_WIDE_OUT)
            continue;
        hk_buf_printf(b,
                      " *   %s: masked samples keep the prior value (guard: "
                      "%s); the caller initialises it.\n",
                      r->field, masks);
    }
}

/* Whether some row has a runtime length. */
static int has_runtime_len(const HkInterfaceResult *ir)
{
    for (uint32_t k = 0; k < ir->nrows; k++)
        if (ir->rows[k].runtime_len != NULL)
            return 1;
    return 0;
}

/* The largest n_samples the entry takes (hk_plane_sample_bound), when a
 * plane bounds it. */
static void sample_bound(HkBuf *b, HkArena *a, const HkLowered *l)
{
    HkAbiLayout abi;
    if (hk_abi_layout(a, l->kernel, l->iface, &abi) != 0)
        return;
    HkSampleBound sb = hk_plane_sample_bound(&abi);
    if (sb.max == INT64_MAX)
        return;
    hk_buf_printf(b,
        " *   n_samples above %lld is HAWK_E_RANGE too: the end of %s, %u * n_samples\n"
        " *   elements of %u bytes, would be past the largest int64_t byte offset.\n",
        (long long)sb.max, sb.plane->name, sb.plane->comps, sb.plane->elem_bytes);
}

const char *hk_idb_text(HkIdb k)
{
    static const char *const text[HK_IDB_COUNT] = {
#define X(e, t) t,
        HK_IDB_KINDS(X)
#undef X
    };
    return (unsigned)k < HK_IDB_COUNT ? text[k] : "";
}

void hk_idb_line(HkBuf *b, const char *prefix, unsigned bits)
{
    hk_buf_printf(b, "%sRelies on implementation-defined behaviour (Directive 1.1; see docs/EmbeddedC.md):",
                  prefix);
    const char *sep = " ";
    for (int k = 0; k < (int)HK_IDB_COUNT; k++)
        if (bits & (1u << k)) {
            hk_buf_printf(b, "%s%s", sep, hk_idb_text((HkIdb)k));
            sep = ", ";
        }
    hk_buf_puts(b, ".\n");
}

/* The implementation-defined behaviours the unit relies on, one line
 * (MISRA C:2012 Directive 1.1). */
static void impl_defined(HkBuf *b, const HkCUnit *u)
{
    hk_idb_line(b, " *   ", u->impl_defined);
}

/* Contraction, the build flag every bit depends on.  The unit holds one
 * real operation per statement, so C99's own rule (a compiler may fuse within
 * one expression) fuses nothing; what fuses across statements is a
 * compiler's switch, so the switch is what the header names.  No
 * #pragma STDC FP_CONTRACT: the audit refuses every pragma, and the two
 * compilers that fuse here ignore it (gcc always, clang under
 * -ffp-contract=fast). */
static void contraction(HkBuf *b)
{
    hk_buf_puts(b,
        " *   Contraction: build with -ffp-contract=off. One real operation per statement, so a compiler\n"
        " *   that fuses only within an expression (C99 6.5p8) fuses nothing; gcc's GNU dialects\n"
        " *   (-std=gnu99) and -ffp-contract=fast fuse across statements and change the bits.\n");
}

/* The contract's last line and the SELF-TEST paragraph of a unit that
 * carries one, ending the comment. */
static void selftest_lines(HkBuf *b, const HkLowered *l, const HkCUnit *u)
{
    const char *name = l->kernel->name;
    hk_buf_printf(b,
        " *   Re-entrant, allocation-free.\n"
        " * SELF-TEST: %s_selftest() runs %s_%s over %" PRId64 " samples hawk drew and compares\n"
        " *   the %" PRId64 " values it writes with the %s's, recorded in the unit: HAWK_OK,\n"
        " *   or HAWK_E_SELFTEST (a NaN matches any NaN; a zero its sign). It catches contraction,\n"
        " *   other flags, another libm or a miscompiling toolchain on the target. Its frame (the\n"
        " *   planes it writes, the args struct, its locals) and the comparison it calls take at most\n"
        " *   %" PRId64 " bytes; its stack bound is that, plus the entry's total above. */\n",
        name, name, l->profile.target->entry, u->selftest_samples,
        u->selftest_values, u->selftest_source, u->selftest_frame);
}

/* The INTERFACE CONTRACT: the fixed paragraph, the table, the guard
 * lines, the entry paragraph; it closes the comment. */
static void interface_contract(HkBuf *b, HkArena *a, const HkLowered *l,
                               const HkCUnit *u)
{
    const HkInterfaceResult *ir = l->iface;
    hk_buf_puts(b,
        " * INTERFACE CONTRACT: planes are SoA; rank-1 extent N stores component c of sample i at\n"
        " *   base[(c * n_samples) + i]; rank-2 (R,C) at base[(((r*C)+c) * n_samples) + i]; rank-0 at\n"
        " *   base[i]. The pitch is ALWAYS n_samples, also for a partition [base, base+count).\n"
        " *   A runtime-length plane carries its length in the int64_t field after its pointer.\n");
    interface_table(b, ir);
    guard_lines(b, a, l);
    hk_buf_printf(b,
        " *   %s_%s() validates args and every pointer, 0 <= base <= n_samples and\n"
        " *   0 <= count <= n_samples - base, returning HAWK_E_NULL / HAWK_E_RANGE untouched otherwise.\n",
        l->kernel->name, l->profile.target->entry);
    sample_bound(b, a, l);
    impl_defined(b, u);
    contraction(b);
    if (has_runtime_len(ir))
        hk_buf_puts(b, " *   Every runtime length must be at least 1 (HAWK_E_RANGE otherwise).\n");
    if (u->selftest_samples == 0)
        hk_buf_puts(b, " *   Re-entrant, allocation-free. */\n");
    else
        selftest_lines(b, l, u);
}

/* ---- the declarations ------------------------------------------------------ */

/* Whether a member is a bool (an i1 uniform by value; a mask plane is
 * bytes): the header then needs <stdbool.h> to compile alone. */
static int needs_bool(const HkLowered *l)
{
    for (uint32_t k = 0; k < l->iface->nrows; k++)
        if (row_slot(l, &l->iface->rows[k])->type.elem == HK_I1 &&
            is_value(&l->iface->rows[k]))
            return 1;
    return 0;
}

/* The shared types come from the directory's runtime header
 * (cruntime.c), which names each real by its width, so units of both
 * widths share it.  What the header still checks is the compiler: a unit
 * computes in IEEE 754 binary64 or binary32, and a target whose double
 * is 32 bits (avr-gcc's default) stops here, under C99 as under C11.
 * The outer test keeps the check out of an analysis that reads no
 * <float.h> (cppcheck): every hosted and freestanding C99 compiler has
 * both macros (5.2.4.2.2). */
static void types_block(HkBuf *b, HkArena *a, const HkLowered *l)
{
    int f32 = l->float32;
    hk_buf_printf(b,
        "#include \"%s\"\n"
        "#if defined(FLT_RADIX) && defined(%s_MANT_DIG)\n"
        "#if (FLT_RADIX != 2) || (%s_MANT_DIG != %d)\n"
        "#error \"%s: float%d unit; %s is not IEEE 754 binary%d here\"\n"
        "#endif\n"
        "#endif\n",
        hk_runtime_header_name(a, l->profile.target), f32 ? "FLT" : "DBL",
        f32 ? "FLT" : "DBL", f32 ? 24 : 53, hk_unit_header_name(a, l),
        f32 ? 32 : 64, f32 ? "float" : "double", f32 ? 32 : 64);
}

/* One struct member: type and name padded to their columns, then the
 * comment's role, dir and shape word padded to theirs. */
typedef struct {
    const char *type, *decl, *role, *dir, *shape, *layout;
} Member;

/* One member line; a _len member's comment has its words only. */
static void put_member(HkBuf *b, const Member *m, const size_t *w)
{
    hk_buf_puts(b, "    ");
    put_padded(b, m->type, w[0]);
    hk_buf_puts(b, " ");
    put_padded(b, m->decl, w[1]);
    hk_buf_puts(b, " /* ");
    if (m->role == NULL) {
        hk_buf_printf(b, "%s */\n", m->layout);
        return;
    }
    put_padded(b, m->role, w[2]);
    hk_buf_puts(b, " ");
    put_padded(b, m->dir, w[3]);
    hk_buf_puts(b, " ");
    put_padded(b, m->shape, w[4]);
    hk_buf_printf(b, " %s */\n", m->layout);
}

/* The members in row order, a runtime length after its plane. */
static Member *members(HkArena *a, const HkLowered *l, uint32_t *n)
{
    const HkInterfaceResult *ir = l->iface;
    Member *m = hk_alloc(a, (2 * (size_t)ir->nrows + 1) * sizeof *m);
    *n = 0;
    for (uint32_t k = 0; k < ir->nrows; k++) {
        const HkInterfaceRow *r = &ir->rows[k];
        m[(*n)++] = (Member){member_type(a, l, r), member_decl(a, l, r),
                             r->role, hk_if_dir_name(r->dir),
                             shape_word(a, row_slot(l, r)->type),
                             layout_words(a, l, r)};
        if (r->runtime_len != NULL)
            m[(*n)++] = (Member){
                "int64_t", hk_asprintf(a, "%s;", r->runtime_len), NULL,
                NULL, NULL,
                hk_asprintf(a, "the length of %s, at least 1", r->field)};
    }
    return m;
}

/* <name>_args_t: one member per interface row, in row order. */
static void args_struct(HkBuf *b, HkArena *a, const HkLowered *l)
{
    uint32_t n;
    Member *m = members(a, l, &n);
    /* type: widest; name: widest + 1 (so two spaces after the widest name
     * with its ';'); role, dir, shape: at least the contract's widths. */
    size_t w[5] = {0, 0, 7, 4, 9};
    for (uint32_t k = 0; k < n; k++) {
        w[0] = wider(w[0], m[k].type);
        w[1] = wider(w[1], m[k].decl);
        if (m[k].role == NULL)
            continue;
        w[2] = wider(w[2], m[k].role);
        w[3] = wider(w[3], m[k].dir);
        w[4] = wider(w[4], m[k].shape);
    }
    w[1]++;
    hk_buf_puts(b, "typedef struct {\n");
    for (uint32_t k = 0; k < n; k++)
        put_member(b, &m[k], w);
    hk_buf_printf(b, "} %s_args_t;\n", l->kernel->name);
}

/* The whole header, in the contract's order (cunit.h). */
void hk_cheader(HkArena *a, const HkLowered *l, HkCUnit *u)
{
    const char *name = l->kernel->name;
    const char *guard = hk_asprintf(a, "HAWK_%s_H", upper(a, name));
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "/* %s -- generated by hawk %s; do not edit.\n",
                  hk_unit_header_name(a, l), hawk_version());
    traceability(&b, a, l);
    budgets(&b, a, l, u);
    interface_contract(&b, a, l, u);
    hk_buf_printf(&b, "#ifndef %s\n#define %s\n", guard, guard);
    hk_buf_puts(&b, "#include <float.h>\n#include <stdint.h>\n#include <stddef.h>\n");
    if (needs_bool(l))
        hk_buf_puts(&b, "#include <stdbool.h>\n");
    types_block(&b, a, l);
    args_struct(&b, a, l);
    hk_buf_printf(&b,
                  "hawk_status_t %s_%s(const %s_args_t* args, int64_t base, "
                  "int64_t count, int64_t n_samples);\n",
                  name, l->profile.target->entry, name);
    if (u->selftest_samples > 0)
        hk_buf_printf(&b, "hawk_status_t %s_selftest(void);\n", name);
    hk_buf_puts(&b, "#endif\n");
    u->h_text = hk_buf_cstr(&b);
}
