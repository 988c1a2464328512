/* cselftest.c -- the unit's self-test (profile selftest=on): its known
 * answers (kat.c) as const tables, and <name>_selftest(), which runs the
 * entry over the inputs with the planes it writes in its own frame and
 * compares every value written with the host build's.  docs/EmbeddedC.md,
 * "The self-test". */
#include <inttypes.h>
#include <string.h>

#include "cwriter.h"

/* The C type of plane or member f's elements: a mask plane's bytes are
 * uint8_t, a by-value i1 is bool. */
static const char *elem_type(HkCW *w, const HkAbiField *f)
{
    if (f->elem == HK_I1 && f->kind == HK_ABI_PLANE)
        return "uint8_t";
    if (f->elem == HK_I1)
        w->need_bool = 1;
    return hk_cw_ctype(w, f->elem);
}

/* The literal of element k of bytes p, f's element type. */
static const char *elem_literal(HkCW *w, const HkAbiField *f,
                                const unsigned char *p, size_t k)
{
    switch (f->elem) {
    case HK_F64: {
        double x;
        memcpy(&x, p + k * sizeof x, sizeof x);
        return hk_cw_real(w, x, HK_F64);
    }
    case HK_F32: {
        float x;
        memcpy(&x, p + k * sizeof x, sizeof x);
        return hk_cw_real(w, (double)x, HK_F32);
    }
    case HK_I64: {
        int64_t x;
        memcpy(&x, p + k * sizeof x, sizeof x);
        return hk_cw_i64(w, x);
    }
    case HK_I32: {
        int32_t x;
        memcpy(&x, p + k * sizeof x, sizeof x);
        return x == INT32_MIN ? "(-INT32_MAX - INT32_C(1))"
                              : hk_asprintf(w->a, "INT32_C(%" PRId32 ")", x);
    }
    case HK_U32: {
        uint32_t x;
        memcpy(&x, p + k * sizeof x, sizeof x);
        return hk_asprintf(w->a, "UINT32_C(%" PRIu32 ")", x);
    }
    case HK_I1:
        if (f->kind == HK_ABI_PLANE)
            return hk_asprintf(w->a, "%uU", (unsigned)p[k]);
        return p[k] != 0 ? "true" : "false";
    default:
        break;
    }
    return "0";
}

/* "    static const T <what>_<field>[N] = { ... };": a table of the
 * self-test, at block scope (MISRA C:2012 Rule 8.9). */
static void table(HkBuf *b, HkCW *w, const HkAbiField *f, const char *what,
                  const unsigned char *p, size_t n)
{
    hk_buf_printf(b, "    static const %s %s_%s[%zu] = {", elem_type(w, f),
                  what, f->name, n);
    for (size_t k = 0; k < n; k++)
        hk_buf_printf(b, "%s%s%s", k % 4 == 0 ? "\n        " : " ",
                      elem_literal(w, f, p, k), k + 1 < n ? "," : "");
    hk_buf_puts(b, "\n    };\n");
}

/* Whether the unit has a written plane of reals of element e. */
static int writes_reals(const HkKat *kat, HkElem e)
{
    for (uint32_t k = 0; k < kat->nplanes; k++)
        if (kat->want[k] != NULL && kat->field[k]->elem == e)
            return 1;
    return 0;
}

/* <name>_kat_same_<elem>: the comparison of a real with its known
 * answer. */
static void same_function(HkBuf *b, HkCW *w, HkElem e)
{
    const char *t = hk_cw_ctype(w, e);
    hk_buf_printf(
        b,
        "\n/* Whether got is the known answer want: a NaN for a NaN (its sign "
        "and\n * payload are the processor's), else the same value with the "
        "same sign. */\n"
        "static bool %s_kat_same_%s(%s got, %s want)\n{\n"
        "    bool same;\n"
        "    if (isnan(want) != 0) {\n"
        "        same = (isnan(got) != 0);\n"
        "    } else {\n"
        "        same = (got == want) && ((signbit(got) != 0) == "
        "(signbit(want) != 0));\n"
        "    }\n"
        "    return same;\n}\n",
        w->f->name, hk_elem_name(e), t, t);
}

/* The comparison of element k of written plane f (local w_<field>) with
 * its known answer. */
static const char *differs(HkCW *w, const HkAbiField *f)
{
    const char *got = hk_asprintf(w->a, "w_%s[k]", f->name);
    const char *want = hk_asprintf(w->a, "want_%s[k]", f->name);
    if (hk_is_float(f->elem))
        return hk_asprintf(w->a, "!%s_kat_same_%s(%s, %s)", w->f->name,
                           hk_elem_name(f->elem), got, want);
    return hk_asprintf(w->a, "%s != %s", got, want);
}

/* Assigns member f of the local args from the known launch. */
static void set_member(HkBuf *b, HkCW *w, const HkKat *kat,
                       const HkAbiField *f)
{
    const unsigned char *at = kat->args + f->offset;
    if (f->kind == HK_ABI_LEN) {
        int64_t len;
        memcpy(&len, at, sizeof len);
        hk_buf_printf(b, "    args.%s = %s;\n", f->name, hk_cw_i64(w, len));
    } else if (f->kind == HK_ABI_VALUE && f->addr == HK_ABI_BY_VALUE &&
               f->comps > 1) {
        for (uint32_t c = 0; c < f->comps; c++)
            hk_buf_printf(b, "    args.%s[%u] = %s;\n", f->name, c,
                          elem_literal(w, f, at, c));
    } else if (f->kind == HK_ABI_VALUE) {
        hk_buf_printf(b, "    args.%s = %s;\n", f->name,
                      elem_literal(w, f, at, 0));
    }
}

/* The status literal of s. */
static const char *status_name(int32_t s)
{
    switch (s) {
    case 0: return "HAWK_OK";
    case 1: return "HAWK_E_NULL";
    case 2: return "HAWK_E_RANGE";
    default: break;
    }
    return "HAWK_E_SELFTEST";
}

/* The body of <name>_selftest(): locals, copies, the call, the
 * comparisons. */
static void selftest_body(HkBuf *b, HkCW *w, const HkKat *kat)
{
    const char *name = w->f->name;
    for (uint32_t k = 0; k < kat->nplanes; k++) {
        table(b, w, kat->field[k], "in", kat->in[k], kat->nelem[k]);
        if (kat->want[k] != NULL)
            table(b, w, kat->field[k], "want", kat->want[k], kat->nelem[k]);
    }
    for (uint32_t k = 0; k < kat->nplanes; k++)
        if (kat->want[k] != NULL)
            hk_buf_printf(b, "    %s w_%s[%zu];\n", elem_type(w, kat->field[k]),
                          kat->field[k]->name, kat->nelem[k]);
    hk_buf_printf(b, "    %s_args_t args;\n    hawk_status_t status;\n"
                     "    bool same = true;\n    int64_t k;\n",
                  name);
    for (uint32_t k = 0; k < kat->nplanes; k++) {
        const HkAbiField *f = kat->field[k];
        if (kat->want[k] == NULL) {
            hk_buf_printf(b, "    args.%s = in_%s;\n", f->name, f->name);
            continue;
        }
        hk_buf_printf(b, "    for (k = INT64_C(0); k < INT64_C(%zu); ++k) {\n"
                         "        w_%s[k] = in_%s[k];\n    }\n"
                         "    args.%s = w_%s;\n",
                      kat->nelem[k], f->name, f->name, f->name, f->name);
    }
    for (uint32_t k = 0; k < kat->abi.nfields; k++)
        set_member(b, w, kat, &kat->abi.fields[k]);
    const char *n = hk_cw_i64(w, kat->n);
    hk_buf_printf(b, "    status = %s_%s(&args, INT64_C(0), %s, %s);\n"
                     "    if (status != %s) {\n        same = false;\n    }\n",
                  name, w->l->profile.target->entry, n, n,
                  status_name(kat->status));
    for (uint32_t k = 0; k < kat->nplanes; k++) {
        if (kat->want[k] == NULL)
            continue;
        hk_buf_printf(b, "    for (k = INT64_C(0); k < INT64_C(%zu); ++k) {\n"
                         "        if (%s) {\n            same = false;\n"
                         "        }\n    }\n",
                      kat->nelem[k], differs(w, kat->field[k]));
    }
    hk_buf_puts(b, "    if (same) {\n        status = HAWK_OK;\n    } else {\n"
                   "        status = HAWK_E_SELFTEST;\n    }\n"
                   "    return status;\n");
}

void hk_cw_selftest(HkBuf *b, HkCW *w, const HkKat *kat, HkCUnit *out)
{
    const char *name = w->f->name;
    w->need_bool = 1;
    out->selftest_samples = kat->n;
    out->selftest_source = kat->source;
    out->selftest_values = 0;
    for (uint32_t k = 0; k < kat->nplanes; k++)
        if (kat->want[k] != NULL)
            out->selftest_values += (int64_t)kat->nelem[k];
    /* the comparison functions are called while the self-test's frame is
     * live, never beside the entry's: their frames count once, in full */
    int64_t same_frames = 0;
    static const HkElem reals[] = {HK_F32, HK_F64};
    for (size_t k = 0; k < sizeof reals / sizeof reals[0]; k++)
        if (writes_reals(kat, reals[k])) {
            w->need_math = 1;
            HkBuf fn;
            hk_buf_init(&fn, w->a);
            same_function(&fn, w, reals[k]);
            const char *text = hk_buf_cstr(&fn);
            int64_t f = hk_c_frame_bound(2, hk_c_locals_bytes(text));
            same_frames = f > same_frames ? f : same_frames;
            hk_buf_puts(b, text);
        }
    hk_buf_printf(b, "\n/* The self-test: %s_%s over %" PRId64 " samples hawk "
                     "drew (the generator of\n * hawk-run, seeded by the "
                     "kernel's name; in_*), the planes it writes in this\n"
                     " * frame (w_*).  HAWK_OK when it returns the %s's "
                     "status and every\n * value it writes is the "
                     "%s's (want_*), HAWK_E_SELFTEST otherwise.\n"
                     " * Re-entrant, allocation-free. */\n"
                     "hawk_status_t %s_selftest(void)\n{\n",
                  name, w->l->profile.target->entry, kat->n, kat->source,
                  kat->source, name);
    HkBuf body;
    hk_buf_init(&body, w->a);
    selftest_body(&body, w, kat);
    const char *text = hk_buf_cstr(&body);
    /* its locals as the stack model counts them (the planes it writes,
     * 8 bytes an element), the args struct (a type the model does not
     * read), and the comparison function below it */
    out->selftest_frame = hk_c_frame_bound(0, hk_c_locals_bytes(text)) +
                          (int64_t)kat->abi.size + same_frames;
    hk_buf_puts(b, text);
    hk_buf_puts(b, "}\n");
}
