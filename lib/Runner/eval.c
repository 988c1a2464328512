/* eval.c -- hawk-run -eval: one launch of a kernel over the values a user
 * gives, through the HIR interpreter, the C unit or the host unit, and
 * every slot it writes printed.  The planes are laid out as the units
 * take them (lib/Lower/abi.h): component c of sample s of a per-sample
 * plane at c * n_samples + s, a shared plane's entries in order, a
 * uniform by value in the args struct. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runnerint.h"
#if HAWK_HAVE_LLVM
#include "host.h"
#endif

/* One launch being put together. */
typedef struct {
    HawkContext *ctx;
    const HkLowered *low;
    const HkAbiLayout *abi;
    const RunnerEvalSlot **given;  /* by field: its values, or NULL */
    int64_t *samples;              /* by field: samples given (SoA) */
    int64_t *lens;                 /* by field: a shared plane's length */
    unsigned char *args;
    unsigned char **data;          /* by field: a plane's buffer */
    int64_t n;                     /* n_samples */
} Eval;

/* A field's interface row and slot. */
static const HkInterfaceRow *row_of(const Eval *e, const HkAbiField *fl)
{
    return &e->low->iface->rows[fl->row];
}

static const HkSlot *slot_of(const Eval *e, const HkAbiField *fl)
{
    return &e->low->kernel->slots[row_of(e, fl)->slot];
}

/* An error naming the kernel, without a place (the values came from the
 * command line or a file the tool reads); returns 1. */
static int fail(Eval *e, const char *fmt, ...) HK_PRINTF(2, 3);
static int fail(Eval *e, const char *fmt, ...)
{
    static const HkLoc noloc = {0, 0};
    va_list ap;
    va_start(ap, fmt);
    HkDiag *g = hk_vdiag(&e->ctx->diags, HAWK_ERROR, NULL, noloc, fmt, ap);
    va_end(ap);
    g->message = hk_asprintf(e->ctx->arena, "'%s': %s", e->low->kernel->name,
                             g->message);
    return 1;
}

/* "state (vec_in <3 x f64>)": a slot as messages name it. */
static const char *described(const Eval *e, const HkAbiField *fl)
{
    HkBuf b;
    hk_buf_init(&b, e->ctx->arena);
    const HkSlot *s = slot_of(e, fl);
    hk_buf_printf(&b, "'%s' (%s ", s->name, row_of(e, fl)->role);
    hk_type_print(&b, s->type);
    hk_buf_puts(&b, ")");
    return hk_buf_cstr(&b);
}

/* Whether field fl is a slot's own member (not a runtime length). */
static int is_slot_field(const HkAbiField *fl)
{
    return fl->kind != HK_ABI_LEN;
}

/* Whether the kernel reads field fl, so a user must give it values. */
static int is_read(const Eval *e, const HkAbiField *fl)
{
    return row_of(e, fl)->dir != HK_DIR_OUT && !fl->zeroed;
}

/* Orders slot fields by name, for the look-up of the given slots. */
typedef struct {
    const char *name;
    uint32_t field;
} NamedField;

static int by_name(const void *x, const void *y)
{
    return strcmp(((const NamedField *)x)->name, ((const NamedField *)y)->name);
}

/* Matches each given slot to its field (e->given). */
static int match_given(Eval *e, const RunnerEvalSlot *in, size_t nin)
{
    HkArena *a = e->ctx->arena;
    const HkAbiLayout *abi = e->abi;
    NamedField *byname = hk_alloc(a, (abi->nfields + 1) * sizeof *byname);
    const char **names = hk_alloc(a, (abi->nfields + 1) * sizeof *names);
    uint32_t nn = 0;
    for (uint32_t k = 0; k < abi->nfields; k++)
        if (is_slot_field(&abi->fields[k])) {
            names[nn] = slot_of(e, &abi->fields[k])->name;
            byname[nn] = (NamedField){names[nn], k};
            nn++;
        }
    qsort(byname, nn, sizeof *byname, by_name);
    for (size_t k = 0; k < nin; k++) {
        NamedField key = {in[k].slot, 0};
        const NamedField *hit = bsearch(&key, byname, nn, sizeof *byname,
                                        by_name);
        if (hit == NULL)
            return fail(e, "no slot named '%s'%s", in[k].slot,
                        hk_did_you_mean(a, in[k].slot, strlen(in[k].slot),
                                        names, nn));
        if (e->given[hit->field] != NULL)
            return fail(e, "slot '%s' is given values twice", in[k].slot);
        e->given[hit->field] = &in[k];
    }
    return 0;
}

/* Checks what each given slot takes: values for a slot the kernel
 * reads, a length alone for an output of runtime length. */
static int check_given(Eval *e)
{
    for (uint32_t k = 0; k < e->abi->nfields; k++) {
        const HkAbiField *fl = &e->abi->fields[k];
        const RunnerEvalSlot *g = e->given[k];
        if (g == NULL)
            continue;
        if (g->nvalues > 0 && !is_read(e, fl))
            return fail(e, "%s is %s: it takes no values", described(e, fl),
                        fl->zeroed ? "an accumulator the caller zeroes"
                                   : "written by the kernel, not read");
        if (g->len >= 0 && (fl->addr != HK_ABI_FLAT_LEN || is_read(e, fl)))
            return fail(e, "%s takes no length: a length is given to a slot "
                        "of runtime length the kernel only writes",
                        described(e, fl));
    }
    return 0;
}

/* Every slot the kernel reads and no value was given for, in one
 * message. */
static int check_missing(Eval *e)
{
    HkBuf b;
    hk_buf_init(&b, e->ctx->arena);
    uint32_t missing = 0;
    for (uint32_t k = 0; k < e->abi->nfields; k++) {
        const HkAbiField *fl = &e->abi->fields[k];
        if (!is_slot_field(fl) || !is_read(e, fl) ||
            (e->given[k] != NULL && e->given[k]->nvalues > 0))
            continue;
        hk_buf_printf(&b, "%s%s", missing++ ? ", " : "", described(e, fl));
    }
    if (missing == 0)
        return 0;
    return fail(e, "no values were given for %s, which the kernel reads or "
                   "the caller initialises: give %s with -in=SLOT=V[,V...] "
                   "or -inputs=FILE",
                hk_buf_cstr(&b), missing == 1 ? "it" : "each");
}

/* The samples of each per-sample slot given, and n_samples: the most
 * given; a slot given one sample has it in every sample. */
static int count_samples(Eval *e)
{
    const char *most = NULL;
    e->n = 0;
    for (uint32_t k = 0; k < e->abi->nfields; k++) {
        const HkAbiField *fl = &e->abi->fields[k];
        const RunnerEvalSlot *g = e->given[k];
        if (fl->addr != HK_ABI_SOA || g == NULL || g->nvalues == 0)
            continue;
        if (g->nvalues % fl->comps != 0)
            return fail(e, "%s takes %" PRIu32 " value%s a sample; %zu %s "
                        "given, not a multiple of %" PRIu32,
                        described(e, fl), fl->comps, fl->comps == 1 ? "" : "s",
                        g->nvalues, g->nvalues == 1 ? "was" : "were",
                        fl->comps);
        e->samples[k] = (int64_t)(g->nvalues / fl->comps);
        if (e->samples[k] > e->n) {
            e->n = e->samples[k];
            most = slot_of(e, fl)->name;
        }
    }
    for (uint32_t k = 0; k < e->abi->nfields; k++)
        if (e->samples[k] > 1 && e->samples[k] != e->n)
            return fail(e, "'%s' is given %" PRId64 " samples and '%s' %"
                        PRId64 ": give every per-sample slot the same "
                        "samples, or one sample (then every sample reads it)",
                        slot_of(e, &e->abi->fields[k])->name, e->samples[k],
                        most, e->n);
    if (e->n == 0)
        e->n = 1;
    HkSampleBound b = hk_plane_sample_bound(e->abi);
    if (e->n > b.max)
        return fail(e, "%" PRId64 " samples: the entry takes at most %" PRId64,
                    e->n, b.max);
    return 0;
}

/* The runtime length of each shared plane of length '?': its values'
 * count, or the length given an output. */
static int count_lens(Eval *e)
{
    for (uint32_t k = 0; k < e->abi->nfields; k++) {
        const HkAbiField *fl = &e->abi->fields[k];
        const RunnerEvalSlot *g = e->given[k];
        if (fl->addr != HK_ABI_FLAT_LEN)
            continue;
        if (g != NULL && g->nvalues > 0) {
            if (g->nvalues % fl->comps != 0)
                return fail(e, "%s takes %" PRIu32 " values an entry; %zu "
                            "were given", described(e, fl), fl->comps,
                            g->nvalues);
            e->lens[k] = (int64_t)(g->nvalues / fl->comps);
        } else if (g != NULL && g->len > 0) {
            e->lens[k] = g->len;
        } else {
            return fail(e, "%s has a length known at run time and the kernel "
                        "only writes it: give its length with -len=%s=N",
                        described(e, fl), slot_of(e, fl)->name);
        }
    }
    return 0;
}

/* Reads text t as one element of type el into dst; 0, or 1 when it is
 * not one. */
static int parse_elem(HkElem el, const char *t, unsigned char *dst)
{
    char *end = NULL;
    errno = 0;
    switch (el) {
    case HK_F64: {
        double v = strtod(t, &end);
        memcpy(dst, &v, sizeof v);
        break;
    }
    case HK_F32: {
        float v = strtof(t, &end);
        memcpy(dst, &v, sizeof v);
        break;
    }
    case HK_I1: {
        int one = strcmp(t, "1") == 0 || strcmp(t, "true") == 0;
        if (!one && strcmp(t, "0") != 0 && strcmp(t, "false") != 0)
            return 1;
        dst[0] = (unsigned char)one;
        return 0;
    }
    case HK_I32:
    case HK_I64: {
        long long v = strtoll(t, &end, 10);
        if (errno != 0 || (el == HK_I32 && (v < INT32_MIN || v > INT32_MAX)))
            return 1;
        if (el == HK_I32) {
            int32_t w = (int32_t)v;
            memcpy(dst, &w, sizeof w);
        } else {
            int64_t w = (int64_t)v;
            memcpy(dst, &w, sizeof w);
        }
        break;
    }
    case HK_U32: {
        if (strchr(t, '-') != NULL)
            return 1;
        unsigned long long v = strtoull(t, &end, 10);
        if (errno != 0 || v > UINT32_MAX)
            return 1;
        uint32_t w = (uint32_t)v;
        memcpy(dst, &w, sizeof w);
        break;
    }
    case HK_VOID:
        return 1;
    }
    return end == t || *end != '\0' || t[0] == ' ';
}

/* Writes the values given field k (a plane or a uniform). */
static int fill_field(Eval *e, uint32_t k)
{
    const HkAbiField *fl = &e->abi->fields[k];
    const RunnerEvalSlot *g = e->given[k];
    if (g == NULL || g->nvalues == 0)
        return 0;
    if (fl->addr == HK_ABI_BY_VALUE && g->nvalues != fl->comps)
        return fail(e, "%s takes %" PRIu32 " value%s; %zu %s given",
                    described(e, fl), fl->comps, fl->comps == 1 ? "" : "s",
                    g->nvalues, g->nvalues == 1 ? "was" : "were");
    unsigned char *base = fl->addr == HK_ABI_BY_VALUE ? e->args + fl->offset
                                                      : e->data[k];
    /* a per-sample slot given one sample has it in every sample */
    int every = fl->addr == HK_ABI_SOA && e->samples[k] == 1 && e->n > 1;
    for (size_t v = 0; v < g->nvalues; v++) {
        unsigned char elem[8];
        if (parse_elem(fl->elem, g->values[v], elem) != 0)
            return fail(e, "value %zu of %s, '%s', is not %s %s", v + 1,
                        described(e, fl), g->values[v],
                        fl->elem == HK_U32 ? "a" : "an",
                        hk_elem_name(fl->elem));
        if (fl->addr != HK_ABI_SOA) {
            memcpy(base + v * fl->elem_bytes, elem, fl->elem_bytes);
            continue;
        }
        size_t c = v % fl->comps, s = v / fl->comps;
        for (size_t t = every ? 0 : s; t < (every ? (size_t)e->n : s + 1); t++)
            memcpy(base + (c * (size_t)e->n + t) * fl->elem_bytes, elem,
                   fl->elem_bytes);
    }
    return 0;
}

/* Elements of plane field fl (a written shared plane has room for every
 * sample's own-position write, as a launch gives it). */
static size_t plane_elems(const Eval *e, const HkAbiField *fl, int64_t len)
{
    switch (fl->addr) {
    case HK_ABI_SOA:
        return (size_t)fl->comps * (size_t)e->n;
    case HK_ABI_FLAT_LEN:
        return (size_t)fl->comps *
               (size_t)(fl->written && e->n > len ? e->n : len);
    case HK_ABI_FLAT_CELLS:
        return fl->comps;
    case HK_ABI_BY_VALUE:
        break;
    }
    return 0;
}

/* Allocates the args struct and every plane (zeroed: a slot the kernel
 * only writes starts at 0), then writes the values and lengths. */
static int fill(Eval *e)
{
    HkArena *a = e->ctx->arena;
    e->args = hk_alloc(a, (size_t)e->abi->size);
    for (uint32_t k = 0; k < e->abi->nfields; k++) {
        const HkAbiField *fl = &e->abi->fields[k];
        if (fl->kind == HK_ABI_PLANE) {
            size_t n = plane_elems(e, fl, e->lens[k]);
            e->data[k] = hk_alloc(a, (n ? n : 1) * fl->elem_bytes);
            void *p = e->data[k];
            memcpy(e->args + fl->offset, &p, sizeof p);
        } else if (fl->kind == HK_ABI_LEN) {
            /* the length member follows its plane */
            memcpy(e->args + fl->offset, &e->lens[k - 1], sizeof(int64_t));
        }
        if (fill_field(e, k) != 0)
            return 1;
    }
    return 0;
}

/* Runs the launch through via; 0, or 1 with a diagnostic. */
static int launch(Eval *e, const RunnerOptions *o, int via)
{
    HawkContext *ctx = e->ctx;
    uint32_t errors = ctx->diags.errors;
    int32_t status = 0;
    if (via == RUNNER_VIA_INTERP) {
        HkInterp *ip = hk_interp_new(ctx->arena, ctx, e->low, &ctx->diags);
        if (ip == NULL)
            return 1;
        status = hk_interp_entry(ip, e->args, 0, e->n, e->n);
    } else if (via == RUNNER_VIA_C) {
        CUnitLib lib;
        memset(&lib, 0, sizeof lib);
        if (cbuild_load(ctx, e->low, o->cflags, &lib) != 0)
            return 1;
        status = lib.entry(e->args, 0, e->n, e->n);
        cbuild_unload(&lib);
    } else {
#if HAWK_HAVE_LLVM
        HkHostJit *jit = NULL;
        HkHostEntry entry = NULL;
        if (hk_host_jit(e->low, &jit, &entry, &ctx->diags) != 0) {
            hk_host_jit_free(jit);
            return 1;
        }
        status = entry(e->args, 0, e->n, e->n);
        hk_host_jit_free(jit);
#else
        return fail(e, "the host unit is built through LLVM, and this "
                       "hawk-run is built without it (HAWK_LLVM=OFF)");
#endif
    }
    if (ctx->diags.errors != errors)
        return 1;
    if (status != 0)
        return fail(e, "the entry returned %" PRId32 " (%s)", status,
                    status == 2 ? "a count or a length out of range"
                                : "a plane or the args struct missing");
    return 0;
}

/* ---- printing ---------------------------------------------------------- */

/* Element at p of type el, shortest text that reads back as the same
 * value ("nan", "inf", "-inf" for the others; JSON quotes them). */
static const char *elem_text(HkArena *a, HkElem el, const unsigned char *p,
                             int json)
{
    if (el == HK_I1)
        return p[0] ? "true" : "false";
    if (el == HK_I32 || el == HK_I64 || el == HK_U32) {
        int64_t v = 0;
        if (el == HK_I64) {
            memcpy(&v, p, sizeof v);
        } else if (el == HK_I32) {
            int32_t w;
            memcpy(&w, p, sizeof w);
            v = w;
        } else {
            uint32_t w;
            memcpy(&w, p, sizeof w);
            v = w;
        }
        return hk_asprintf(a, "%" PRId64, v);
    }
    double v;
    if (el == HK_F32) {
        float w;
        memcpy(&w, p, sizeof w);
        v = w;
    } else {
        memcpy(&v, p, sizeof v);
    }
    if (isnan(v) || isinf(v)) {
        const char *t = isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
        return json ? hk_asprintf(a, "\"%s\"", t) : t;
    }
    char buf[40];
    for (int prec = el == HK_F32 ? 6 : 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (el == HK_F32 ? strtof(buf, NULL) == (float)v
                         : strtod(buf, NULL) == v)
            break;
    }
    return hk_strdup(a, buf);
}

/* Element c (of comps) of sample s, or entry c, of written field fl. */
static const unsigned char *elem_at(const Eval *e, uint32_t k, size_t c,
                                    int64_t s)
{
    const HkAbiField *fl = &e->abi->fields[k];
    size_t at = fl->addr == HK_ABI_SOA ? c * (size_t)e->n + (size_t)s : c;
    return e->data[k] + at * fl->elem_bytes;
}

/* The written fields in the kernel's slot order. */
static uint32_t outputs(const Eval *e, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < e->abi->nfields; k++)
        if (e->abi->fields[k].kind == HK_ABI_PLANE && e->abi->fields[k].written)
            out[n++] = k;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && row_of(e, &e->abi->fields[out[j]])->slot <
                                          row_of(e, &e->abi->fields[out[j - 1]])->slot;
             j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* Elements a shared plane shows: its length's entries, or its cells. */
static size_t shown_elems(const Eval *e, uint32_t k)
{
    const HkAbiField *fl = &e->abi->fields[k];
    return fl->addr == HK_ABI_FLAT_LEN ? (size_t)e->lens[k] * fl->comps
                                       : fl->comps;
}

/* Appends component c's column name of slot type t: "out[1]", "m[0][2]". */
static void column_name(HkBuf *b, const char *name, HkType t, uint32_t c)
{
    hk_buf_puts(b, name);
    if (t.rank == 1)
        hk_buf_printf(b, "[%" PRIu32 "]", c);
    else if (t.rank == 2)
        hk_buf_printf(b, "[%" PRIu32 "][%" PRIu32 "]", c / t.dim[1],
                      c % t.dim[1]);
}

/* JSON: the elements [c0, c0 + count) of a value of type t's shape from
 * dimension d on, nested as its rank. */
static void json_value(const Eval *e, HkBuf *b, uint32_t k, HkType t,
                       uint32_t d, size_t c0, size_t count, int64_t s)
{
    HkArena *a = e->ctx->arena;
    HkElem el = e->abi->fields[k].elem;
    if (d >= t.rank || count == 1) {
        if (d < t.rank)
            hk_buf_puts(b, "[");
        hk_buf_puts(b, elem_text(a, el, elem_at(e, k, c0, s), 1));
        if (d < t.rank)
            hk_buf_puts(b, "]");
        return;
    }
    size_t inner = d + 1 < t.rank ? t.dim[d + 1] : 1;
    hk_buf_puts(b, "[");
    for (size_t j = 0; j * inner < count; j++) {
        if (j > 0)
            hk_buf_puts(b, ", ");
        json_value(e, b, k, t, d + 1, c0 + j * inner, inner, s);
    }
    hk_buf_puts(b, "]");
}

static const char *via_name(int via)
{
    return via == RUNNER_VIA_INTERP ? "interp" : via == RUNNER_VIA_C ? "c"
                                                                     : "llvm";
}

static void print_json(const Eval *e, int via, FILE *out)
{
    uint32_t *outs = hk_alloc(e->ctx->arena, (e->abi->nfields + 1) * sizeof *outs);
    uint32_t nout = outputs(e, outs);
    HkBuf b;
    hk_buf_init(&b, e->ctx->arena);
    hk_buf_printf(&b, "{\"kernel\": \"%s\", \"via\": \"%s\", \"samples\": %"
                      PRId64 ", \"outputs\": {",
                  e->low->kernel->name, via_name(via), e->n);
    for (uint32_t j = 0; j < nout; j++) {
        uint32_t k = outs[j];
        const HkAbiField *fl = &e->abi->fields[k];
        const HkSlot *sl = slot_of(e, fl);
        hk_buf_printf(&b, "%s\n  \"%s\": ", j ? "," : "", sl->name);
        if (fl->addr == HK_ABI_SOA) {
            hk_buf_puts(&b, "[");
            for (int64_t s = 0; s < e->n; s++) {
                hk_buf_puts(&b, s ? ", " : "");
                json_value(e, &b, k, sl->type, 0, 0, fl->comps, s);
            }
            hk_buf_puts(&b, "]");
        } else {
            size_t n = shown_elems(e, k);
            HkType t = sl->type;
            if (fl->addr == HK_ABI_FLAT_LEN)
                t.dim[0] = (uint32_t)e->lens[k];
            if (t.rank == 0 && n == 1)
                hk_buf_puts(&b, elem_text(e->ctx->arena, fl->elem,
                                          elem_at(e, k, 0, 0), 1));
            else
                json_value(e, &b, k, t.rank ? t : hk_vec(fl->elem, (uint32_t)n),
                           0, 0, n, 0);
        }
    }
    hk_buf_puts(&b, nout ? "\n}}\n" : "}}\n");
    fputs(hk_buf_cstr(&b), out);
}

/* The table: a row per sample, a column per component of each
 * per-sample output; then each shared output on a line. */
static void print_table(const Eval *e, int via, FILE *out)
{
    HkArena *a = e->ctx->arena;
    uint32_t *outs = hk_alloc(a, (e->abi->nfields + 1) * sizeof *outs);
    uint32_t nout = outputs(e, outs);
    static const char *const via_text[] = {INTERP_NAME, "the C unit",
                                           "the host unit"};
    fprintf(out, "%s: %" PRId64 " sample%s through %s\n",
            e->low->kernel->name, e->n, e->n == 1 ? "" : "s", via_text[via]);
    /* columns: the sample, then each component; cells by row */
    size_t ncols = 1;
    for (uint32_t j = 0; j < nout; j++)
        if (e->abi->fields[outs[j]].addr == HK_ABI_SOA)
            ncols += e->abi->fields[outs[j]].comps;
    size_t nrows = (size_t)e->n + 1;
    const char **cell = hk_alloc(a, ncols * nrows * sizeof *cell);
    size_t *width = hk_alloc(a, ncols * sizeof *width);
    cell[0] = "sample";
    for (size_t r = 1; r < nrows; r++)
        cell[r * ncols] = hk_asprintf(a, "%zu", r - 1);
    size_t col = 1;
    for (uint32_t j = 0; j < nout; j++) {
        const HkAbiField *fl = &e->abi->fields[outs[j]];
        if (fl->addr != HK_ABI_SOA)
            continue;
        for (uint32_t c = 0; c < fl->comps; c++, col++) {
            HkBuf b;
            hk_buf_init(&b, a);
            column_name(&b, slot_of(e, fl)->name, slot_of(e, fl)->type, c);
            cell[col] = hk_buf_cstr(&b);
            for (size_t r = 1; r < nrows; r++)
                cell[r * ncols + col] = elem_text(
                    a, fl->elem, elem_at(e, outs[j], c, (int64_t)r - 1), 0);
        }
    }
    for (size_t i = 0; i < ncols * nrows; i++)
        if (strlen(cell[i]) > width[i % ncols])
            width[i % ncols] = strlen(cell[i]);
    for (size_t r = 0; ncols > 1 && r < nrows; r++) {
        for (size_t c = 0; c + 1 < ncols; c++)
            fprintf(out, "%-*s  ", (int)width[c], cell[r * ncols + c]);
        fprintf(out, "%s\n", cell[r * ncols + ncols - 1]);
    }
    for (uint32_t j = 0; j < nout; j++) {
        const HkAbiField *fl = &e->abi->fields[outs[j]];
        if (fl->addr == HK_ABI_SOA)
            continue;
        fprintf(out, "%s:", slot_of(e, fl)->name);
        for (size_t c = 0; c < shown_elems(e, outs[j]); c++)
            fprintf(out, " %s", elem_text(a, fl->elem, elem_at(e, outs[j], c, 0), 0));
        fputc('\n', out);
    }
}

int runner_eval(HawkContext *ctx, HkModule *m, HkFunc *f,
                const RunnerOptions *o, const RunnerEvalSlot *in, size_t nin,
                int via, int format)
{
    HkLowered low;
    HkAbiLayout abi;
    if (runner_lower_layout(ctx, m, f, o->math, &low, &abi) != 0)
        return 1;
    HkArena *a = ctx->arena;
    size_t nf = abi.nfields + 1;
    Eval e = {ctx, &low, &abi, hk_alloc(a, nf * sizeof *e.given),
              hk_alloc(a, nf * sizeof *e.samples),
              hk_alloc(a, nf * sizeof *e.lens), NULL,
              hk_alloc(a, nf * sizeof *e.data), 0};
    if (match_given(&e, in, nin) != 0 || check_given(&e) != 0 ||
        check_missing(&e) != 0 || count_samples(&e) != 0 ||
        count_lens(&e) != 0 || fill(&e) != 0 || launch(&e, o, via) != 0)
        return 1;
    if (format == RUNNER_FORMAT_JSON)
        print_json(&e, via, o->out);
    else
        print_table(&e, via, o->out);
    fflush(o->out);
    return 0;
}
