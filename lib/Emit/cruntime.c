/* cruntime.c -- the runtime unit of an output directory: hawk_runtime.h
 * (the record of the units served, the shared types, one declaration per
 * function) and hawk_runtime.c (one definition per function).
 *
 * The functions are chelpers.c's texts with external linkage: a unit
 * calls them through the header, so a build linking several units
 * carries one copy (a static copy per unit is MISRA C:2012 Rule 5.9).
 * Functions appear in chelpers.c's fixed order and units in name order,
 * so the same set of units gives the same bytes whatever the order of
 * the exports that wrote them.
 */
#include <stdlib.h>
#include <string.h>

#include "cruntime.h"
#include "cwriter.h"

const char *hk_runtime_header_name(HkArena *a, const HkTarget *t)
{
    return hk_asprintf(a, "%s%s", HK_RUNTIME_BASE, t->artifact);
}

const char *hk_runtime_source_name(HkArena *a, const HkTarget *t)
{
    return hk_asprintf(a, "%s%s", HK_RUNTIME_BASE, t->source);
}

void hk_runtime_init(HkRuntime *rt)
{
    memset(rt, 0, sizeof *rt);
}

/* The name of runtime function id. */
static const char *rt_name(HkArena *a, uint32_t id)
{
    return id < HK_CH_COUNT ? hk_ch_name(a, id)
                            : hk_mathfn_name(id - HK_CH_COUNT);
}

/* The runtime function id of a name, UINT32_MAX for none: one hash
 * lookup in rt's table of every name, built on first use. */
static uint32_t id_of(HkArena *a, HkRuntime *rt, const char *name, size_t n)
{
    if (rt->names == NULL) {
        rt->names = hk_symtab_new(a);
        for (uint32_t id = 0; id < HK_RT_COUNT; id++) {
            const char *s = rt_name(a, id);
            hk_symtab_put(rt->names, s, strlen(s), id);
        }
    }
    return hk_symtab_get(rt->names, name, n);
}

/* The entry of kernel, inserted in name order when it is new. */
static HkRuntimeUnit *entry_of(HkArena *a, HkRuntime *rt, const char *kernel)
{
    uint32_t k = 0;
    while (k < rt->nunits && strcmp(rt->units[k].kernel, kernel) < 0)
        k++;
    if (k < rt->nunits && strcmp(rt->units[k].kernel, kernel) == 0)
        return &rt->units[k];
    rt->units = hk_grow(a, rt->units, &rt->cap, rt->nunits + 1,
                        sizeof *rt->units);
    memmove(&rt->units[k + 1], &rt->units[k],
            (rt->nunits - k) * sizeof *rt->units);
    rt->nunits++;
    rt->units[k].kernel = hk_strdup(a, kernel);
    rt->units[k].uses = hk_alloc(a, HK_RT_COUNT);
    return &rt->units[k];
}

void hk_runtime_drop(HkRuntime *rt, const char *kernel)
{
    for (uint32_t k = 0; k < rt->nunits; k++) {
        if (strcmp(rt->units[k].kernel, kernel) != 0)
            continue;
        memmove(&rt->units[k], &rt->units[k + 1],
                (rt->nunits - k - 1u) * sizeof *rt->units);
        rt->nunits--;
        return;
    }
}

static void use_names(HkArena *a, HkRuntime *rt, uint8_t *uses, const char *const *names,
                      uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        uint32_t id = id_of(a, rt, names[k], strlen(names[k]));
        if (id == UINT32_MAX)
            hk_unreachable();  /* the writer names only its own functions */
        uses[id] = 1;
    }
}

void hk_runtime_add(HkArena *a, HkRuntime *rt, const char *kernel,
                    const HkCUnit *u)
{
    HkRuntimeUnit *e = entry_of(a, rt, kernel);
    memset(e->uses, 0, HK_RT_COUNT);
    use_names(a, rt, e->uses, u->helpers, u->nhelpers);
    use_names(a, rt, e->uses, u->core, u->ncore);
    use_names(a, rt, e->uses, u->mathfns, u->nmathfns);
}

/* The union of every unit's functions, with the helpers the called math
 * functions call (after hk_runtime_mathfns). */
static void union_of(const HkRuntime *rt, uint8_t *all)
{
    memset(all, 0, HK_RT_COUNT);
    for (uint32_t k = 0; k < rt->nunits; k++)
        for (uint32_t id = 0; id < HK_RT_COUNT; id++)
            all[id] |= rt->units[k].uses[id];
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++)
        if (all[HK_CH_COUNT + m] && rt->fn[m].need != NULL)
            for (uint32_t id = 0; id < HK_CH_COUNT; id++)
                all[id] |= rt->fn[m].need[id];
}

int hk_runtime_mathfns(HkArena *a, HkRuntime *rt, HawkContext *ctx,
                       const HkLowered *l, HkDiags *d)
{
    uint8_t all[HK_RT_COUNT];
    union_of(rt, all);
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++) {
        if (!all[HK_CH_COUNT + m] || rt->fn[m].def_text != NULL)
            continue;
        const HkLowered *fl = l != NULL ? l->mathfn[m] : NULL;
        if (fl == NULL && ctx != NULL)
            fl = hk_lower_mathfn(ctx, m);
        if (fl == NULL) {
            hk_error(d, NULL, (HkLoc){0}, "hawk's %s is not lowered (a hawk "
                     "defect; please report it)", hk_mathfn_name(m));
            return -1;
        }
        if (hk_cwriter_mathfn(a, fl, m, &rt->fn[m], d) != 0)
            return -1;
    }
    return 0;
}

/* ---- the record in the header's comment ------------------------------------ */

static const char unit_label[] = " *   unit ";
static const char more_label[] = " *     ";

/* The next line of *p (without its newline); advances *p. */
static const char *next_line(HkArena *a, const char **p)
{
    const char *s = *p, *e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    *p = e ? e + 1 : s + n;
    return hk_strndup(a, s, n);
}

/* Marks the functions named by the words of s in uses; -1 for a word that
 * names none. */
static int parse_names(HkArena *a, HkRuntime *rt, const char *s,
                       uint8_t *uses)
{
    while (*s != '\0') {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n == 0)
            break;
        uint32_t id = id_of(a, rt, s, n);
        if (id == UINT32_MAX)
            return -1;
        uses[id] = 1;
        s += n;
    }
    return 0;
}

int hk_runtime_parse(HkArena *a, const char *h_text, HkRuntime *rt)
{
    const char *p = h_text;
    const char *first = next_line(a, &p);
    if (strncmp(first, "/* " HK_RUNTIME_BASE, strlen("/* " HK_RUNTIME_BASE)) != 0)
        return -1;
    HkRuntimeUnit *cur = NULL;
    while (*p != '\0') {
        const char *line = next_line(a, &p);
        if (strcmp(line, " */") == 0)
            return 0;
        if (strncmp(line, unit_label, strlen(unit_label)) == 0) {
            const char *s = line + strlen(unit_label);
            const char *colon = strchr(s, ':');
            if (colon == NULL || colon == s)
                return -1;
            cur = entry_of(a, rt, hk_strndup(a, s, (size_t)(colon - s)));
            if (parse_names(a, rt, colon + 1, cur->uses) != 0)
                return -1;
        } else if (cur != NULL &&
                   strncmp(line, more_label, strlen(more_label)) == 0) {
            if (parse_names(a, rt, line + strlen(more_label), cur->uses) != 0)
                return -1;
        }
    }
    return -1;
}

/* " *   unit drag: hawk_f64_min hawk_i64_add", wrapped at 76 columns. */
static void unit_line(HkBuf *b, HkArena *a, const HkRuntimeUnit *u)
{
    hk_buf_printf(b, "%s%s:", unit_label, u->kernel);
    size_t col = strlen(unit_label) + strlen(u->kernel) + 1u;
    for (uint32_t id = 0; id < HK_RT_COUNT; id++) {
        if (!u->uses[id])
            continue;
        const char *name = rt_name(a, id);
        if (col + 1u + strlen(name) > 76u) {
            hk_buf_printf(b, "\n%s%s", more_label, name);
            col = strlen(more_label) + strlen(name);
            continue;
        }
        hk_buf_printf(b, " %s", name);
        col += 1u + strlen(name);
    }
    hk_buf_puts(b, "\n");
}

/* ---- the texts ------------------------------------------------------------ */

/* Function id's text with external linkage: the definition, or (decl)
 * its contract comment and prototype. */
static void extern_text(HkBuf *b, HkArena *a, uint32_t id, int decl)
{
    HkBuf t;
    hk_buf_init(&t, a);
    hk_ch_write(&t, id);
    const char *s = hk_buf_cstr(&t);
    const char *sig = strstr(s, "\nstatic ");
    if (sig == NULL)
        hk_unreachable();  /* every chelpers.c text is a static function */
    sig++;
    const char *sig_end = strchr(sig, '\n');
    hk_buf_put(b, s, (size_t)(sig - s));
    const char *after = sig + strlen("static ");
    if (decl) {
        hk_buf_put(b, after, (size_t)(sig_end - after));
        hk_buf_puts(b, ";\n");
    } else {
        hk_buf_puts(b, after);
    }
}

/* "hawk 0.1.0": the runtime's version string, and its array size. */
static const char version_text[] = "hawk " HAWK_VERSION;

static size_t version_size(void)
{
    return sizeof version_text;
}

static const char *header_text(HkArena *a, const HkRuntime *rt,
                               const char *h_name, const char *c_name,
                               const uint8_t *all)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "/* %s -- generated by hawk %s; do not edit.\n",
                  h_name, HAWK_VERSION);
    hk_buf_printf(&b, " * What the hawk units of this directory share, defined "
                      "once so that a build\n"
                      " * linking them has one definition of each: the types "
                      "and status codes,\n"
                      " * and the functions the units call, defined in %s\n"
                      " * (always written: link it with the units).\n",
                  c_name);
    unsigned idb = HK_IDB_BIT(EXACT_WIDTH) | HK_IDB_BIT(LAYOUT);
    for (uint32_t id = 0; id < HK_CH_COUNT; id++)
        if (all[id])
            idb |= hk_ch_impl_defined(id) |
                   (hk_ch_is_core(id) ? HK_IDB_BIT(IEEE_REALS) : 0u);
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++)
        if (all[HK_CH_COUNT + m])
            idb |= rt->fn[m].impl_defined;
    hk_idb_line(&b, " * ", idb);
    hk_buf_puts(&b, " * UNITS, each with the runtime functions it calls:\n");
    for (uint32_t k = 0; k < rt->nunits; k++)
        unit_line(&b, a, &rt->units[k]);
    hk_buf_puts(&b, " */\n");
    hk_buf_printf(&b,
        "#ifndef HAWK_RUNTIME_H\n"
        "#define HAWK_RUNTIME_H\n"
        "#include <stdint.h>\n"
        "typedef double  hawk_f64_t;\n"
        "typedef float   hawk_f32_t;\n"
        "typedef int64_t hawk_int_t;\n"
        "typedef enum { HAWK_OK = 0, HAWK_E_NULL = 1, HAWK_E_RANGE = 2,\n"
        "               HAWK_E_SELFTEST = 3 } "
        "hawk_status_t;\n"
        "\n/* The hawk that wrote this runtime, readable in a linked image. */\n"
        "extern const char hawk_runtime_version[%zu];\n",
        version_size());
    for (uint32_t id = 0; id < HK_CH_COUNT; id++) {
        if (!all[id])
            continue;
        hk_buf_puts(&b, "\n");
        extern_text(&b, a, id, 1);
    }
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++)
        if (all[HK_CH_COUNT + m])
            hk_buf_printf(&b, "\n%s", rt->fn[m].decl_text);
    hk_buf_puts(&b, "\n#endif\n");
    return hk_buf_cstr(&b);
}

static const char *source_text(HkArena *a, const HkRuntime *rt,
                               const char *h_name, const char *c_name,
                               const uint8_t *all)
{
    HkBuf b;
    hk_buf_init(&b, a);
    int math = 0, need_bool = 0, any_fn = 0;
    for (uint32_t id = 0; id < HK_CH_COUNT; id++)
        math |= all[id] && hk_ch_uses_math(id);
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++) {
        math |= all[HK_CH_COUNT + m] && rt->fn[m].need_math;
        need_bool |= all[HK_CH_COUNT + m] && rt->fn[m].need_bool;
        any_fn |= all[HK_CH_COUNT + m];
    }
    hk_buf_printf(&b, "/* %s -- generated by hawk %s; do not edit.\n"
                      " * What %s declares: its version string and the "
                      "functions,\n"
                      " * each giving LangRef's defined result where C leaves "
                      "the operation\n"
                      " * undefined or implementation-defined%s\n */\n",
                  c_name, HAWK_VERSION, h_name,
                  any_fn ? ";\n * then hawk's own math functions, IEEE 754 "
                           "basic operations in a\n * fixed order."
                         : ".");
    if (math)
        hk_buf_puts(&b, "#include <math.h>\n");
    hk_buf_puts(&b, "#include <stdint.h>\n");
    if (need_bool)
        hk_buf_puts(&b, "#include <stdbool.h>\n");
    hk_buf_printf(&b, "#include \"%s\"\n", h_name);
    /* always one definition, so the source is a translation unit ISO C
     * accepts even when no unit calls a function, and a build knows its
     * files without reading the kernels */
    hk_buf_printf(&b, "\nconst char hawk_runtime_version[%zu] = \"%s\";\n",
                  version_size(), version_text);
    for (uint32_t id = 0; id < HK_CH_COUNT; id++) {
        if (!all[id])
            continue;
        hk_buf_puts(&b, "\n");
        extern_text(&b, a, id, 0);
    }
    for (uint32_t m = 0; m < HK_MATHFN_COUNT; m++)
        if (all[HK_CH_COUNT + m])
            hk_buf_printf(&b, "\n%s", rt->fn[m].def_text);
    return hk_buf_cstr(&b);
}

void hk_runtime_texts(HkArena *a, const HkRuntime *rt, const char *h_name,
                      const char *c_name, const char **h_text,
                      const char **c_text)
{
    uint8_t all[HK_RT_COUNT];
    union_of(rt, all);
    *h_text = header_text(a, rt, h_name, c_name, all);
    *c_text = source_text(a, rt, h_name, c_name, all);
}
