/* cwriter.c -- the CWriter: the .c text of a lowered kernel (docs/
 * EmbeddedC.md, "The C unit").  The unit is, in order: the file comment;
 * the includes it needs; the C11 size asserts; the per-sample function;
 * the entry, which checks its inputs and runs the samples of its
 * partition with one exit point.  The helpers it calls live in the
 * directory's runtime unit (cruntime.c); the unit lists them (helpers,
 * core) for the runtime and the report.
 *
 * The per-sample body is written first (cwriter_stmt.c), so that the unit
 * carries exactly the includes and parameters the body uses: an unused
 * one would be dead code (MISRA C:2012 Rule 2.2, 2.7).
 */
#include <stdlib.h>
#include <string.h>

#include "passctx.h"
#include "cwriter.h"

/* ---- setup -------------------------------------------------------------- */

/* Field names and runtime-length fields, by slot, from the members of
 * the args struct (hk_plane_members, as the host unit reads them); -1
 * after hk_cw_fail. */
static int map_fields(HkCW *w)
{
    if (hk_plane_members(w->a, w->l, &w->abi, &w->member) != 0) {
        hk_cw_fail(w, NULL, "an interface row no C member spells");
        return -1;
    }
    uint32_t n = w->f->nslots + 1u;
    w->field = hk_alloc(w->a, n * sizeof *w->field);
    w->lenfield = hk_alloc(w->a, n * sizeof *w->lenfield);
    for (uint32_t s = 0; s < w->f->nslots; s++) {
        int32_t m = w->member[s];
        if (w->f->slots[s].role == HK_ROLE_LOCAL) {  /* an array of the sample's */
            w->field[s] = hk_cw_fresh(w, hk_asprintf(w->a, "loc_%s", w->f->slots[s].name));
            continue;
        }
        if (m < 0) {
            hk_cw_fail(w, NULL, "a slot without an interface row");
            return -1;
        }
        const HkAbiField *x = &w->abi.fields[m];
        w->field[s] = x->name;
        if (x->addr == HK_ABI_FLAT_LEN)
            w->lenfield[s] = w->abi.fields[m + 1].name;
    }
    return 0;
}

/* loop_writes: for each loop, the slots a store or accum in its body
 * (nested regions included) writes. */
static void map_loop_writes(HkCW *w)
{
    HkFunc *f = w->f;
    w->loop_writes = hk_alloc(w->a, (f->nserials + 1u) * sizeof *w->loop_writes);
    for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
        if ((i->op != HK_OP_STORE && i->op != HK_OP_ACCUM) || i->slot < 0)
            continue;
        for (const HkInst *p = i->block->parent; p != NULL;
             p = p->block != NULL ? p->block->parent : NULL) {
            if (p->op != HK_OP_LOOP || p->serial >= f->nserials)
                continue;
            if (w->loop_writes[p->serial] == NULL)
                w->loop_writes[p->serial] = hk_alloc(w->a, f->nslots + 1u);
            w->loop_writes[p->serial][i->slot] = 1;
        }
    }
}

static int setup(HkCW *w, HkArena *a, const HkLowered *l, HkDiags *d)
{
    memset(w, 0, sizeof *w);
    w->a = a;
    w->l = l;
    w->f = l->kernel;
    w->d = d;
    uint32_t nv = w->f->nvalues + 1u, ns = w->f->nserials + 1u;
    w->cname = hk_alloc(a, nv * sizeof *w->cname);
    w->canon = hk_alloc(a, nv * sizeof *w->canon);
    for (HkVal v = 0; v < nv; v++)
        w->canon[v] = v;
    w->comps = hk_alloc(a, nv * sizeof *w->comps);
    w->uses = hk_alloc(a, nv * sizeof *w->uses);
    w->dead = hk_alloc(a, nv);
    w->whole = hk_alloc(a, nv);
    w->skip = hk_alloc(a, ns);
    w->taken = hk_symtab_new(a);
    w->next_suffix = hk_symtab_new(a);
    /* The sample function's own names; values are v_<name>, never these. */
    static const char *const reserved[] = {"args", "i", "n_samples"};
    for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
        hk_symtab_put(w->taken, reserved[k], strlen(reserved[k]), 1);
    if (l->iface == NULL || l->profile.target == NULL) {
        hk_cw_fail(w, NULL, "a kernel without its interface analysis");
        return -1;
    }
    /* the writer spells the legal scalar form and decides nothing */
    if (hk_scalar_form_check(w->f, d) != 0) {
        w->failed = 1;
        return -1;
    }
    /* HIR names may hold '.', C identifiers may not. */
    if (w->f->name[strspn(w->f->name, "abcdefghijklmnopqrstuvwxyz"
                                      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] !=
        '\0') {
        hk_cw_fail(w, NULL, "the kernel's name as a C identifier (rename it "
                            "to letters, digits and '_')");
        return -1;
    }
    /* C99 6.7.2.1: a struct needs a member, and a kernel with no plane
     * could change nothing a caller sees. */
    if (w->f->nslots == 0) {
        hk_cw_fail(w, NULL, "a kernel without planes (its args struct would "
                            "be empty; give it the planes it reads and writes)");
        return -1;
    }
    if (map_fields(w) != 0)
        return -1;
    map_loop_writes(w);
    return 0;
}

/* ---- the parts of the unit ------------------------------------------------ */

/* Appends the words of list to b after prefix, wrapped at 76 columns with
 * continuation lines that start " * ". */
static void wrapped(HkBuf *b, const char *prefix, const char *const *list,
                    uint32_t n, const char *suffix)
{
    size_t col = strlen(prefix);
    hk_buf_puts(b, prefix);
    for (uint32_t k = 0; k < n; k++) {
        size_t len = strlen(list[k]) + (k + 1u == n ? strlen(suffix) : 0u);
        if (col + 1u + len > 76u) {
            hk_buf_puts(b, "\n *");
            col = 2;
        }
        hk_buf_printf(b, " %s", list[k]);
        col += 1u + strlen(list[k]);
    }
    hk_buf_printf(b, "%s\n", suffix);
}

static void file_comment(HkBuf *b, HkArena *a, const HkLowered *l,
                         const HkCUnit *u)
{
    hk_buf_printf(b, "/* %s -- generated by hawk %s; do not edit.\n",
                  hk_unit_source_name(a, l), HAWK_VERSION);
    hk_buf_printf(b, " * The kernel %s as MISRA C:2012 C: serial, re-entrant and\n"
                     " * allocation-free; %s states the interface contract.\n",
                  l->kernel->name, hk_unit_header_name(a, l));
    hk_buf_puts(b, " * Build it with -ffp-contract=off: every operation rounds on "
                   "its own,\n"
                   " * in the order the kernel states, as in the host build.\n");
    if (u->ncflags > 1u) {
        /* the libm calls a compiler may fold or rewrite (gcc and clang
         * spell the switch this way) */
        wrapped(b, " * With gcc or clang, also", u->cflags + 1, u->ncflags - 1u,
                ":");
        hk_buf_puts(b, " * every libm call is made as written, never folded "
                       "or rewritten.\n");
    }
    hk_buf_printf(b, " * walk digest  %s\n */\n", l->walk_digest ? l->walk_digest
                                                                 : "unavailable");
}

static void includes(HkBuf *b, const HkCW *w)
{
    if (w->need_math)
        hk_buf_puts(b, "#include <math.h>\n");
    hk_buf_puts(b, "#include <stdint.h>\n");
    if (w->need_bool)
        hk_buf_puts(b, "#include <stdbool.h>\n");
    hk_buf_printf(b, "#include \"%s\"\n", hk_unit_header_name(w->a, w->l));
}

/* The size asserts: C11 only, so a strict C99 build compiles them out and
 * relies on the header's <float.h> check of the same real. */
static void static_asserts(HkBuf *b, const HkCW *w)
{
    const char *name = hk_unit_source_name(w->a, w->l);
    unsigned bytes = w->l->float32 ? 4u : 8u;
    const char *t = hk_c_elem_type(w->l->float32 ? HK_F32 : HK_F64);
    hk_buf_puts(b, "\n#if defined(__STDC_VERSION__) && (__STDC_VERSION__ >= "
                   "201112L)\n");
    hk_buf_printf(b, "_Static_assert(sizeof(%s) == %uU, \"%s: "
                     "%s is not the %u-bit real of this unit\");\n",
                  t, bytes, name, t, bytes * 8u);
    hk_buf_printf(b, "_Static_assert(sizeof(hawk_int_t) == 8U, \"%s: "
                     "hawk_int_t is not 64-bit\");\n",
                  name);
    hk_buf_puts(b, "#endif\n");
}

/* "const drag_args_t* args, int64_t i, int64_t n_samples": only what the
 * body reads (MISRA C:2012 Rule 2.7). */
static const char *sample_params(HkCW *w)
{
    const char *p = hk_asprintf(w->a, "const %s_args_t* args", w->f->name);
    if (w->uses_i)
        p = hk_asprintf(w->a, "%s, int64_t i", p);
    if (w->uses_n)
        p = hk_asprintf(w->a, "%s, int64_t n_samples", p);
    return p;
}

static const char *sample_args(const HkCW *w)
{
    if (w->uses_i && w->uses_n)
        return "args, i, n_samples";
    if (w->uses_i)
        return "args, i";
    return w->uses_n ? "args, n_samples" : "args";
}

static void sample_function(HkBuf *b, HkCW *w, const char *body)
{
    hk_buf_printf(b, "\n/* One sample of %s: the kernel's body, in the order it "
                     "is written. */\n",
                  w->f->name);
    hk_buf_printf(b, "static void %s_sample(%s)\n{\n", w->f->name,
                  sample_params(w));
    hk_buf_puts(b, body);
    hk_buf_puts(b, "}\n");
}

/* "(a) ||\n<pad>(b)": conditions joined one per line. */
static void join_conditions(HkBuf *b, const char *const *c, uint32_t n,
                            const char *op, const char *pad)
{
    for (uint32_t k = 0; k < n; k++) {
        if (k > 0)
            hk_buf_printf(b, " %s\n%s", op, pad);
        hk_buf_printf(b, n > 1 ? "(%s)" : "%s", c[k]);
    }
}

/* The members the entry checks, in declaration order (the host entry
 * checks the same ones): every plane pointer, every runtime length. */
static void collect_checks(HkCW *w, const char ***ptrs, uint32_t *np,
                           const char ***lens, uint32_t *nl)
{
    const HkAbiLayout *abi = &w->abi;
    *ptrs = hk_alloc(w->a, (abi->nfields + 1u) * sizeof **ptrs);
    *lens = hk_alloc(w->a, (abi->nfields + 1u) * sizeof **lens);
    *np = *nl = 0;
    for (uint32_t k = 0; k < abi->nfields; k++) {
        const HkAbiField *m = &abi->fields[k];
        if (m->kind == HK_ABI_PLANE)
            (*ptrs)[(*np)++] = hk_asprintf(w->a, "args->%s == NULL", m->name);
        else if (m->kind == HK_ABI_LEN)
            (*lens)[(*nl)++] = hk_asprintf(w->a, "args->%s < INT64_C(1)",
                                           m->name);
    }
}

/* The sample loop of the entry, under the mask guard when there is one. */
static void sample_loop(HkBuf *b, HkCW *w)
{
    const HkInterfaceResult *ir = w->l->iface;
    hk_buf_puts(b, "        int64_t i;\n"
                   "        for (i = base; i < (base + count); ++i) {\n");
    const char *call = hk_asprintf(w->a, "%s_sample(%s);", w->f->name,
                                   sample_args(w));
    if (ir->nguard == 0) {
        hk_buf_printf(b, "            %s\n        }\n", call);
        return;
    }
    const char **masks = hk_alloc(w->a, (ir->nguard + 1u) * sizeof *masks);
    for (uint32_t k = 0; k < ir->nguard; k++)  /* a mask byte: 0 is clear */
        masks[k] = hk_asprintf(w->a, "args->%s[i] == 0U", ir->guard[k]);
    hk_buf_puts(b, "            /* The mask guard: a sample whose mask is set is "
                   "skipped entirely,\n"
                   "             * so it keeps every plane as the caller left "
                   "it. */\n"
                   "            if (");
    join_conditions(b, masks, ir->nguard, "&&", "                ");
    hk_buf_printf(b, ") {\n                %s\n            }\n        }\n", call);
}

static void entry(HkBuf *b, HkCW *w, int has_body)
{
    const char *name = w->f->name;
    const char **ptrs, **lens;
    uint32_t np, nl;
    collect_checks(w, &ptrs, &np, &lens, &nl);
    hk_buf_printf(b, "\n/* The entry: every input is checked before any plane "
                     "is touched, then the\n"
                     " * samples of [base, base + count) run in ascending order; "
                     "one exit point. */\n"
                     "hawk_status_t %s_%s(const %s_args_t* args, int64_t base, "
                     "int64_t count, int64_t n_samples)\n{\n"
                     "    hawk_status_t status;\n"
                     "    if (args == NULL) {\n"
                     "        status = HAWK_E_NULL;\n",
                  name, w->l->profile.target->entry, name);
    if (np > 0) {
        hk_buf_puts(b, "    } else if (");
        join_conditions(b, ptrs, np, "||", "               ");
        hk_buf_puts(b, ") {\n        status = HAWK_E_NULL;\n");
    }
    hk_buf_puts(b, "    } else if ((base < INT64_C(0)) || (base > n_samples) ||\n"
                   "               (count < INT64_C(0)) || (count > (n_samples - "
                   "base))) {\n"
                   "        status = HAWK_E_RANGE;\n");
    HkSampleBound sb = hk_plane_sample_bound(&w->abi);
    if (sb.max < INT64_MAX)
        hk_buf_printf(b, "    } else if (n_samples > INT64_C(%lld)) {\n"
                         "        status = HAWK_E_RANGE;\n",
                      (long long)sb.max);
    if (nl > 0) {
        hk_buf_puts(b, "    } else if (");
        join_conditions(b, lens, nl, "||", "               ");
        hk_buf_puts(b, ") {\n        status = HAWK_E_RANGE;\n");
    }
    hk_buf_puts(b, "    } else {\n");
    if (has_body)
        sample_loop(b, w);
    hk_buf_puts(b, "        status = HAWK_OK;\n    }\n    return status;\n}\n");
}

/* ---- the lists the report reads ----------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void fill_lists(HkCW *w, HkCUnit *out)
{
    out->helpers = hk_alloc(w->a, (HK_CH_COUNT + 1u) * sizeof *out->helpers);
    out->core = hk_alloc(w->a, (HK_CH_COUNT + 1u) * sizeof *out->core);
    out->nhelpers = out->ncore = 0;
    for (uint32_t id = 0; id < HK_CH_COUNT; id++) {
        if (!w->need[id])
            continue;
        if (hk_ch_is_core(id))
            out->core[out->ncore++] = hk_ch_name(w->a, id);
        else
            out->helpers[out->nhelpers++] = hk_ch_name(w->a, id);
    }
    qsort(out->helpers, out->nhelpers, sizeof *out->helpers, cmp_str);
    qsort(out->core, out->ncore, sizeof *out->core, cmp_str);
    out->libm = hk_alloc(w->a, (w->nlibm + 1u) * sizeof *out->libm);
    if (w->nlibm > 0)
        memcpy(out->libm, w->libm, w->nlibm * sizeof *w->libm);
    out->nlibm = w->nlibm;
    qsort(out->libm, out->nlibm, sizeof *out->libm, cmp_str);
    out->mathfns = hk_alloc(w->a, (HK_MATHFN_COUNT + 1u) * sizeof *out->mathfns);
    out->nmathfns = 0;
    for (uint32_t id = 0; id < HK_MATHFN_COUNT; id++)
        if (w->need_fn[id])
            out->mathfns[out->nmathfns++] = hk_mathfn_name(id);
    /* every unit: int64_t and friends, the args struct and the status
     * enum; the rest as the text spells them */
    out->impl_defined = w->impl_defined | HK_IDB_BIT(EXACT_WIDTH) |
                        HK_IDB_BIT(LAYOUT);
    for (uint32_t id = 0; id < HK_CH_COUNT; id++)
        if (w->need[id])
            out->impl_defined |= hk_ch_impl_defined(id);
    for (uint32_t v = 0; v < w->f->nvalues; v++)
        if (hk_is_float((HkElem)hk_value(w->f, v)->type.elem))
            out->impl_defined |= HK_IDB_BIT(IEEE_REALS);
    out->cflags = hk_alloc(w->a, (w->nlibm + 2u) * sizeof *out->cflags);
    out->ncflags = 0;
    out->cflags[out->ncflags++] = "-ffp-contract=off";
    for (uint32_t k = 0; k < out->nlibm; k++)
        if (!hk_libm_exact(out->libm[k]))
            out->cflags[out->ncflags++] =
                hk_asprintf(w->a, "-fno-builtin-%s", out->libm[k]);
}

/* The largest frame of a helper need marks. */
static int64_t helpers_frame(HkArena *a, const uint8_t *need)
{
    int64_t m = 0;
    for (uint32_t id = 0; id < HK_CH_COUNT; id++) {
        if (!need[id])
            continue;
        int64_t f = hk_ch_frame_bound(a, id);
        m = f > m ? f : m;
    }
    return m;
}

/* The stack bound of the unit (cstack.c): entry, per-sample function, the
 * largest runtime function it calls, a called math function with the
 * helpers it calls counted as one.  body NULL: no per-sample function.
 * -1 after a diagnostic. */
static int stack_bound(HkCW *w, HkCUnit *out, const char *body,
                       const char *entry_text)
{
    out->stack_entry = hk_c_frame_bound(4, hk_c_locals_bytes(entry_text));
    out->stack_sample =
        body != NULL ? hk_c_frame_bound(1 + w->uses_i + w->uses_n,
                                        hk_c_locals_bytes(body))
                     : 0;
    out->stack_runtime = helpers_frame(w->a, w->need);
    for (uint32_t id = 0; id < HK_MATHFN_COUNT; id++) {
        HkCFunc fn;
        if (!w->need_fn[id])
            continue;
        if (w->l->mathfn[id] == NULL) {
            hk_cw_fail(w, NULL, "a called math function the lowering left out");
            return -1;
        }
        if (hk_cwriter_mathfn(w->a, w->l->mathfn[id], id, &fn, w->d) != 0)
            return -1;
        out->stack_runtime =
            fn.stack > out->stack_runtime ? fn.stack : out->stack_runtime;
    }
    out->stack_total =
        out->stack_entry + out->stack_sample + out->stack_runtime;
    return 0;
}

/* Each local of the kernel, an array of the sample's with every row 0
 * (LangRef "Locals"), the initialiser whole (MISRA C:2012 Rule 9.3); on
 * one line, which the stack bound (cstack.c) counts by its extent. */
static void declare_locals(HkCW *w)
{
    /* one no instruction names is not declared (an unused object) */
    uint8_t *named = hk_alloc(w->a, w->f->nslots + 1u);
    for (const HkInst *i = w->f->body.first; i != NULL; i = hk_preorder_next(i))
        if (i->slot >= 0 && (uint32_t)i->slot < w->f->nslots)
            named[i->slot] = 1;
    for (uint32_t s = 0; s < w->f->nslots; s++) {
        const HkSlot *sl = &w->f->slots[s];
        if (sl->role != HK_ROLE_LOCAL || !named[s])
            continue;
        HkElem e = (HkElem)sl->type.elem;
        const char *zero = hk_is_float(e) ? hk_cw_real(w, 0.0, e)
                           : e == HK_I64  ? hk_cw_i64(w, 0)
                           : e == HK_U32  ? "0U"
                                          : "0";
        HkBuf init;
        hk_buf_init(&init, w->a);
        for (uint32_t k = 0; k < sl->type.dim[0]; k++)
            hk_buf_printf(&init, "%s%s", k ? ", " : "", zero);
        hk_cw_line(w, "%s %s[%u] = {%s};", hk_cw_ctype(w, e), w->field[s],
                   sl->type.dim[0], hk_buf_cstr(&init));
    }
}

/* The statements of w's kernel into body (after setup); -1 after
 * hk_cw_fail. */
static int write_body(HkCW *w, HkBuf *body)
{
    hk_cw_liveness(w);
    hk_buf_init(body, w->a);
    w->out = body;
    w->indent = 1;
    declare_locals(w);
    hk_cw_block(w, &w->l->kernel->body);
    return w->failed ? -1 : 0;
}

int hk_cwriter(HkArena *a, const HkLowered *l, HkCUnit *out, HkDiags *d)
{
    return hk_cwriter_kat(a, l, NULL, out, d);
}

int hk_cwriter_kat(HkArena *a, const HkLowered *l, const HkKat *kat,
                   HkCUnit *out, HkDiags *d)
{
    HkCW w;
    if (setup(&w, a, l, d) != 0)
        return -1;
    HkBuf body;
    if (write_body(&w, &body) != 0)
        return -1;
    int has_body = body.len > 0;
    const char *body_text = hk_buf_cstr(&body);
    HkBuf unit;
    hk_buf_init(&unit, a);
    /* The entry is written first into its own buffer: its mask guard may
     * be what needs <stdbool.h>. */
    HkBuf tail;
    hk_buf_init(&tail, a);
    if (has_body)
        sample_function(&tail, &w, body_text);
    HkBuf ent;
    hk_buf_init(&ent, a);
    entry(&ent, &w, has_body);
    hk_buf_put(&tail, ent.data, ent.len);
    out->selftest_samples = out->selftest_values = out->selftest_frame = 0;
    if (kat != NULL)
        hk_cw_selftest(&tail, &w, kat, out);
    fill_lists(&w, out);
    if (stack_bound(&w, out, has_body ? body_text : NULL,
                    hk_buf_cstr(&ent)) != 0)
        return -1;
    file_comment(&unit, a, l, out);
    includes(&unit, &w);
    static_asserts(&unit, &w);
    hk_buf_put(&unit, tail.data, tail.len);
    out->c_text = hk_buf_cstr(&unit);
    return 0;
}

/* ---- a called math function ------------------------------------------------ */

/* "hawk_f64_t x, hawk_f64_t y": the arguments, the kernel's uniform
 * slots in order; their number into *n. */
static const char *fn_params(HkCW *w, uint32_t *n)
{
    const char *p = "";
    *n = 0;
    for (uint32_t s = 0; s < w->f->nslots; s++) {
        const HkSlot *slot = &w->f->slots[s];
        if (slot->role != HK_ROLE_UNIFORM)
            continue;
        p = hk_asprintf(w->a, "%s%s%s %s", p, *p ? ", " : "",
                        hk_cw_ctype(w, (HkElem)slot->type.elem), slot->name);
        (*n)++;
    }
    return p;
}

int hk_cwriter_mathfn(HkArena *a, const HkLowered *l, uint32_t id,
                      HkCFunc *out, HkDiags *d)
{
    HkCW w;
    if (setup(&w, a, l, d) != 0)
        return -1;
    w.fnprefix = hk_asprintf(a, "%s.", hk_mathfn_name(id));
    HkBuf body;
    if (write_body(&w, &body) != 0)
        return -1;
    HkElem e = hk_mathfn_elem(id);
    const char *rt = hk_cw_ctype(&w, e);
    uint32_t nparams;
    const char *params = fn_params(&w, &nparams);
    const char *comment = hk_asprintf(
        a,
        "/* %s on %s, hawk's own (lib/Math/math.hir): IEEE 754 basic\n"
        " * operations in a fixed order, so every conforming compiler and "
        "target\n"
        " * computes the same bits; the units' %s ops call it. */\n",
        hk_ops[hk_mathfn_op(id)].mnemonic, e == HK_F32 ? "float" : "double",
        hk_ops[hk_mathfn_op(id)].mnemonic);
    const char *sig =
        hk_asprintf(a, "%s %s(%s)", rt, hk_mathfn_name(id), params);
    out->decl_text = hk_asprintf(a, "%s%s;\n", comment, sig);
    out->def_text =
        hk_asprintf(a, "%s%s\n{\n%s}\n", comment, sig, hk_buf_cstr(&body));
    out->need = hk_alloc(a, HK_CH_COUNT);
    memcpy(out->need, w.need, HK_CH_COUNT);
    /* the helpers' own behaviours join the runtime's with the helpers */
    out->impl_defined = w.impl_defined | HK_IDB_BIT(IEEE_REALS);
    out->need_math = w.need_math;
    out->need_bool = w.need_bool;
    out->stack = hk_c_frame_bound((int64_t)nparams,
                                  hk_c_locals_bytes(hk_buf_cstr(&body))) +
                 helpers_frame(a, w.need);
    return 0;
}
