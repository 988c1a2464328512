/* report.c -- the analysis part of a kernel's JSON report: each verify
 * analysis's result under its REPORT_KEYS key, in the contract's key order.
 * Integers are written exactly (raw text, not through a double); lists
 * follow walk order; nothing depends on a pointer, a time or a hash order,
 * so the same kernel and profile give the same bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passctx.h"
#include "report.h"

const char *const hk_report_keys[HK_REPORT_NKEYS] = {
    "kernel", "generator", "hawk_version", "walk_digest", "source_digest",
    "scalar_mode", "profile", "interface", "budgets", "derivative", "indices",
    "fp_domain", "fp_equality_sites", "int_division_sites", "int_ub_sites",
    "unused", "literal_specials", "libm", "hawk_math", "helpers", "core",
    "math_functions", "core_version", "selftest",
    "deviations", "unsupported_checked", "audit", "checks",
};

/* ---- small builders ----------------------------------------------------- */

/* An exact integer: raw digits, so values above 2^53 do not round. */
static cJSON *int_item(int64_t v)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, v);
    return cJSON_CreateRaw(text);
}

/* o[key] = v, exactly. */
void hk_json_add_int(cJSON *o, const char *key, int64_t v)
{
    cJSON_AddItemToObject(o, key, int_item(v));
}

/* A string, or null for NULL. */
void hk_json_add_str(cJSON *o, const char *key, const char *s)
{
    cJSON_AddItemToObject(o, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

/* A JSON array of the n strings of v. */
static cJSON *str_list(const char *const *v, uint32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < n; k++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v[k]));
    return a;
}

/* ---- sections ----------------------------------------------------------- */

/* One object per interface row; each carries the kernel's guard. */
static cJSON *interface_json(const HkInterfaceResult *ir)
{
    cJSON *rows = cJSON_CreateArray();
    for (uint32_t k = 0; k < ir->nrows; k++) {
        const HkInterfaceRow *row = &ir->rows[k];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "field", row->field);
        hk_json_add_str(o, "role", row->role);
        hk_json_add_str(o, "direction", hk_if_dir_name(row->dir));
        hk_json_add_str(o, "dtype", row->dtype);
        hk_json_add_str(o, "shape", row->shape);
        hk_json_add_str(o, "layout", hk_if_layout_name(row->layout));
        hk_json_add_str(o, "runtime_length", row->runtime_len);
        hk_json_add_str(o, "init_by_caller", hk_if_init_name(row->init));
        cJSON_AddItemToObject(o, "guard", str_list(ir->guard, ir->nguard));
        hk_json_add_str(o, "reason", row->reason);
        cJSON_AddItemToArray(rows, o);
    }
    return rows;
}

/* The per-sample operation counts, named as the header's BUDGETS line. */
static cJSON *ops_json(const HkCostResult *c)
{
    cJSON *o = cJSON_CreateObject();
    hk_json_add_int(o, "arith32", c->arith32);
    hk_json_add_int(o, "arith64", c->arith64);
    hk_json_add_int(o, "special32", c->special32);
    hk_json_add_int(o, "special64", c->special64);
    hk_json_add_int(o, "loads", c->loads);
    hk_json_add_int(o, "gathers", c->gathers);
    hk_json_add_int(o, "chain32", c->chain32);
    hk_json_add_int(o, "chain64", c->chain64);
    hk_json_add_int(o, "chainSpecial32", c->chain_special32);
    hk_json_add_int(o, "chainSpecial64", c->chain_special64);
    hk_json_add_int(o, "stores", c->stores);
    return o;
}

/* The static bytes, as cost counts them. */
static cJSON *static_bytes_json(const HkCostResult *c)
{
    cJSON *o = cJSON_CreateObject();
    hk_json_add_int(o, "tapes", c->tapes);
    hk_json_add_int(o, "carries", c->carries);
    hk_json_add_int(o, "temporaries", c->temporaries);
    hk_json_add_int(o, "estimate", c->estimate);
    hk_json_add_int(o, "total", c->total_bytes);
    return o;
}

/* One object per loop, by loop number. */
static cJSON *loops_json(const HkTripResult *t)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t n = 0; n < t->nloops; n++) {
        const HkLoopInfo *li = &t->loops[n];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_int(o, "loop", li->number);
        hk_json_add_str(o, "pos", li->pos);
        hk_json_add_int(o, "trip", li->trip);
        cJSON_AddItemToObject(o, "runtime_count",
                              cJSON_CreateBool(li->runtime_count != 0));
        hk_json_add_str(o, "break", hk_break_name(li->brk));
        if (li->parent >= 0)
            hk_json_add_int(o, "parent", li->parent);
        else
            cJSON_AddItemToObject(o, "parent", cJSON_CreateNull());
        hk_json_add_int(o, "worst", li->worst);
        /* what the count's range proves, printed or not (-w) */
        if (li->warning != NULL)
            hk_json_add_str(o, "warning", li->warning);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* budgets: trips from trip-bound, the rest from cost. */
static cJSON *budgets_json(const HkTripResult *t, const HkCostResult *c)
{
    cJSON *o = cJSON_CreateObject();
    hk_json_add_int(o, "max_trips", t->max_trips);
    cJSON_AddItemToObject(o, "ops", ops_json(c));
    hk_json_add_int(o, "fp64_ops", c->fp64_ops);
    hk_json_add_int(o, "soft_float_ops", c->soft_float_ops);
    cJSON_AddItemToObject(o, "static_bytes", static_bytes_json(c));
    cJSON_AddItemToObject(o, "loops", loops_json(t));
    return o;
}

/* One object per index site, in walk order. */
static cJSON *indices_json(const HkIndexResult *ix)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < ix->nsites; k++) {
        const HkIndexSite *s = &ix->sites[k];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "pos", s->pos);
        hk_json_add_str(o, "slot", s->slot);
        hk_json_add_str(o, "status", s->status == HK_IDX_PROVEN ? "proven" : "clamped");
        hk_json_add_str(o, "reason", s->reason);
        /* the warning the analysis proved, printed or not (-w) */
        if (s->outside != NULL)
            hk_json_add_str(o, "warning", s->outside);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* One object per domain-sensitive site, in walk order. */
static cJSON *domain_json(const HkDomainResult *d)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < d->nsites; k++) {
        const HkDomainSite *s = &d->sites[k];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "pos", s->pos);
        hk_json_add_str(o, "op", s->op);
        hk_json_add_str(o, "needs", s->needs);
        /* a violated site is refused: no report holds one */
        hk_json_add_str(o, "verdict", s->verdict == HK_DOM_SAFE ? "safe" : "unknown");
        hk_json_add_str(o, "reason", s->reason);
        if (s->wrong != NULL)
            hk_json_add_str(o, "warning", s->wrong);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* One object per NAN / INFINITY literal, in walk order. */
static cJSON *specials_json(const HkDomainResult *d)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < d->nspecials; k++) {
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "pos", d->specials[k].pos);
        hk_json_add_str(o, "literal", d->specials[k].literal);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* ---- the report ----------------------------------------------------------- */

/* The verify analyses of f into l's fields, feature-refusal first as in
 * -verify-embedded; 0, or -1 when one failed or refused. */
static int get_analyses(HawkPassRun *r, HkFunc *f, HkLowered *l)
{
    return (l->features = hk_analysis_get(r, f, HK_PASS_FEATURE_REFUSAL)) &&
                   (l->trips = hk_analysis_get(r, f, HK_PASS_TRIP_BOUND)) &&
                   (l->index = hk_analysis_get(r, f, HK_PASS_INDEX_CLAMP)) &&
                   (l->domain = hk_analysis_get(r, f, HK_PASS_FP_DOMAIN)) &&
                   (l->ints = hk_analysis_get(r, f, HK_PASS_INT_SITES)) &&
                   (l->cost = hk_analysis_get(r, f, HK_PASS_COST)) &&
                   (l->iface = hk_analysis_get(r, f, HK_PASS_INTERFACE))
               ? 0
               : -1;
}

/* unused's warnings, in walk order. */
static cJSON *unused_json(const HkUnusedResult *u)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < u->nsites; k++)
        cJSON_AddItemToArray(a, cJSON_CreateString(u->sites[k].warning));
    return a;
}

/* The report object of l's kernel under its profile, from the analyses l
 * holds; keys added in REPORT_KEYS order. */
static cJSON *analysis_json(const HkLowered *l)
{
    const HkFunc *f = l->kernel;
    /* the one text from the arena, made before the tree exists */
    const char *profile = hk_profile_repr(f->module->arena, &l->profile);
    cJSON *o = cJSON_CreateObject();
    hk_json_add_str(o, "kernel", f->name);
    hk_json_add_str(o, "generator", "hawk.embedded/1");
    hk_json_add_str(o, "hawk_version", hawk_version());
    hk_json_add_str(o, "scalar_mode", l->float32 ? "float32" : "float64");
    hk_json_add_str(o, "profile", profile);
    cJSON_AddItemToObject(o, "interface", interface_json(l->iface));
    cJSON_AddItemToObject(o, "budgets", budgets_json(l->trips, l->cost));
    cJSON_AddItemToObject(o, "indices", indices_json(l->index));
    cJSON_AddItemToObject(o, "fp_domain", domain_json(l->domain));
    cJSON_AddItemToObject(o, "fp_equality_sites",
                          str_list(l->domain->equality, l->domain->nequality));
    cJSON_AddItemToObject(o, "int_division_sites",
                          str_list(l->ints->division, l->ints->ndivision));
    cJSON_AddItemToObject(o, "int_ub_sites", str_list(l->ints->ub, l->ints->nub));
    /* the kernel as written: an export takes it before inline */
    if (l->unused != NULL)
        cJSON_AddItemToObject(o, "unused", unused_json(l->unused));
    cJSON_AddItemToObject(o, "literal_specials", specials_json(l->domain));
    cJSON_AddItemToObject(o, "libm", str_list(l->cost->libm, l->cost->nlibm));
    cJSON_AddItemToObject(o, "hawk_math", str_list(l->cost->own, l->cost->nown));
    cJSON_AddItemToObject(o, "unsupported_checked",
                          str_list(l->features->checked, l->features->nchecked));
    return o;
}

/* The report object, keys added in REPORT_KEYS order: the analyses as
 * the lowering would take them, without the emitted unit's keys. */
cJSON *hk_report_analysis(HawkPassRun *r, HkFunc *f, const HkProfile *p)
{
    HkLowered l;
    memset(&l, 0, sizeof l);
    l.kernel = f;
    l.profile = *p;
    l.float32 = hk_kernel_float32(f);
    if (!f->is_kernel || get_analyses(r, f, &l) != 0)
        return NULL;
    return analysis_json(&l);
}

/* The rank of key in hk_report_keys, HK_REPORT_NKEYS when it is none. */
static int key_rank(const char *key)
{
    for (int k = 0; k < HK_REPORT_NKEYS; k++)
        if (key != NULL && strcmp(hk_report_keys[k], key) == 0)
            return k;
    return HK_REPORT_NKEYS;
}

/* Stable reorder of the top-level keys by hk_report_keys. */
void hk_report_sort(cJSON *report)
{
    /* Move the items rank by rank into a holder, then hand the holder's
     * list back: stable, and the key table is of fixed size. */
    cJSON *holder = cJSON_CreateArray();
    if (holder == NULL)
        return;
    for (int rank = 0; rank <= HK_REPORT_NKEYS; rank++)
        for (cJSON *it = report->child, *next; it != NULL; it = next) {
            next = it->next;
            if (key_rank(it->string) == rank)
                cJSON_AddItemToArray(holder,
                                     cJSON_DetachItemViaPointer(report, it));
        }
    report->child = holder->child;
    holder->child = NULL;
    cJSON_Delete(holder);
}

/* ---- the keys of the emitted unit ------------------------------------------ */

/* The deviations, applied as cppcheck --suppress flags (checks.c) and
 * recorded here; the contract's table.  ORDER DEVIATIONS: docs/EmbeddedC.md. */
static const struct {
    const char *rule, *category, *reason;
} deviation_table[] = {
    {"misra-c2012-8.7", "advisory",
     "cppcheck analyses the units of the output directory, not the "
     "firmware; the entry function and its args struct are the unit's API, "
     "referenced from the consumer's unit, which the check cannot see, and "
     "a runtime function one unit calls is still defined once, in the "
     "runtime unit every unit shares"},
    {"misra-c2012-9.3", "required",
     "a checker false positive: the addon reads a function-call initialiser "
     "of a struct with an array member as a partial brace initialiser. The "
     "emitted C has no brace initialiser, and the text audit (audit.init) "
     "refuses any = { in the .c, so the suppression cannot hide a real one"},
    {"misra-c2012-2.3", "advisory",
     "hawk_runtime.h declares the shared types once for every unit of the "
     "directory; a directory whose units read no integer still declares "
     "hawk_int_t, and the C11 size assert that uses it is compiled out "
     "under the C99 the checker analyses"},
};

#define NOTE_FLOAT_EQUALITY                                                   \
    "the kernel's own == and != on reals are kept: they mirror the host "    \
    "build bit for bit"
#define NOTE_CPP_UB                                                           \
    "an i64 add, sub, mul, neg or div, which infix C or C++ arithmetic "     \
    "leaves undefined on signed overflow, a zero divisor and INT64_MIN / "   \
    "-1; the unit computes it through hawk_i64_* with defined results "      \
    "(wrap, 0, INT64_MIN), the host build's, so code written by hand with "  \
    "infix arithmetic agrees with the unit only where it is defined"

/* {rule, category, reason}, and the sites of a note. */
static cJSON *deviation(const char *rule, const char *category,
                        const char *reason, const char *const *sites,
                        uint32_t nsites)
{
    cJSON *o = cJSON_CreateObject();
    hk_json_add_str(o, "rule", rule);
    hk_json_add_str(o, "category", category);
    hk_json_add_str(o, "reason", reason);
    if (sites != NULL)
        cJSON_AddItemToObject(o, "sites", str_list(sites, nsites));
    return o;
}

/* The contract's three rows, then the notes that have sites. */
static cJSON *deviations_json(const HkLowered *l)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t k = 0; k < sizeof deviation_table / sizeof deviation_table[0];
         k++)
        cJSON_AddItemToArray(a, deviation(deviation_table[k].rule,
                                          deviation_table[k].category,
                                          deviation_table[k].reason, NULL, 0));
    if (l->domain->nequality > 0)
        cJSON_AddItemToArray(a, deviation("float-equality", "note",
                                          NOTE_FLOAT_EQUALITY,
                                          l->domain->equality,
                                          l->domain->nequality));
    if (l->ints->nub > 0)
        cJSON_AddItemToArray(a, deviation("defined_where_cpp_is_ub", "note",
                                          NOTE_CPP_UB, l->ints->ub,
                                          l->ints->nub));
    return a;
}

/* One object per check, in the order run; every key always present. */
static cJSON *checks_json(const HkChecks *c)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; k < c->n; k++) {
        const HkCheck *x = &c->items[k];
        cJSON *o = cJSON_CreateObject();
        hk_json_add_str(o, "name", x->name);
        hk_json_add_str(o, "status", x->status);
        hk_json_add_str(o, "command", x->command != NULL && *x->command ? x->command : NULL);
        hk_json_add_str(o, "tool_path", x->tool_path);
        hk_json_add_str(o, "tool_version", x->tool_version);
        hk_json_add_str(o, "output", x->output != NULL ? x->output : "");
        hk_json_add_str(o, "why_skipped", x->why_skipped);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The unit's self-test (profile selftest=on), or null. */
static cJSON *selftest_json(const HkCUnit *u)
{
    if (u->selftest_samples == 0)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    hk_json_add_int(o, "samples", u->selftest_samples);
    hk_json_add_int(o, "values", u->selftest_values);
    hk_json_add_int(o, "frame_bytes", u->selftest_frame);
    hk_json_add_str(o, "oracle", u->selftest_source);
    return o;
}

/* An integer figure, null when it is missing (-1). */
static void add_figure(cJSON *o, const char *key, int64_t v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, key);
    else
        hk_json_add_int(o, key, v);
}

const char *hk_ratio_format(char *buf, int64_t a, int64_t b)
{
    if (a < 0 || b <= 0)
        return NULL;
    /* rounded half up in integers, not through printf's double; figures
     * too large for that (saturated counts) lose their low bits first */
    while (b > INT64_MAX / 200) {
        a /= 2;
        b /= 2;
    }
    int64_t hundredths = (a / b) * 100 + ((a % b) * 200 / b + 1) / 2;
    snprintf(buf, HK_RATIO_CHARS, "%" PRId64 ".%02" PRId64, hundredths / 100,
             hundredths % 100);
    return buf;
}

const char *hk_ratio_text(HkArena *arena, int64_t a, int64_t b)
{
    char buf[HK_RATIO_CHARS];
    const char *t = hk_ratio_format(buf, a, b);
    return t != NULL ? hk_strdup(arena, t) : NULL;
}

/* o[key] = a / b to two decimals, or null (hk_ratio_format): no arena,
 * since the tree is being built. */
static void add_ratio(cJSON *o, const char *key, int64_t a, int64_t b)
{
    char buf[HK_RATIO_CHARS];
    const char *text = hk_ratio_format(buf, a, b);
    if (text == NULL)
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddItemToObject(o, key, cJSON_CreateRaw(text));
}

/* The derivative figures of a kernel a derivative pass made. */
static cJSON *derivative_json(const HkDerivFigures *d)
{
    static const char *const rows[HK_DF_COUNT] = {"primal", "jvp", "vjp"};
    cJSON *o = cJSON_CreateObject();
    hk_json_add_str(o, "mode", d->origin->mode);
    hk_json_add_str(o, "primal", d->origin->primal);
    cJSON_AddItemToObject(o, "wrt", str_list(d->origin->wrt, d->origin->nwrt));
    cJSON_AddItemToObject(o, "of", str_list(d->origin->of, d->origin->nof));
    cJSON *ops = cJSON_CreateObject(), *ratio = cJSON_CreateObject();
    cJSON *tapes = cJSON_CreateObject(), *bytes = cJSON_CreateObject();
    for (int r = 0; r < HK_DF_COUNT; r++) {
        add_figure(ops, rows[r], d->ops[r]);
        add_figure(tapes, rows[r], d->tapes[r]);
        add_figure(bytes, rows[r], d->bytes[r]);
        if (r != HK_DF_PRIMAL)
            add_ratio(ratio, rows[r], d->ops[r], d->ops[HK_DF_PRIMAL]);
    }
    cJSON_AddItemToObject(o, "ops", ops);
    cJSON_AddItemToObject(o, "ops_ratio", ratio);
    cJSON_AddItemToObject(o, "tape_bytes", tapes);
    cJSON_AddItemToObject(o, "static_bytes", bytes);
    return o;
}

cJSON *hk_report_unit(const HkLowered *l, const HkCUnit *u,
                      const HkChecks *checks)
{
    cJSON *o = analysis_json(l);
    hk_json_add_str(o, "walk_digest", l->walk_digest);
    hk_json_add_str(o, "source_digest", l->source_digest);
    cJSON_AddItemToObject(o, "helpers", str_list(u->helpers, u->nhelpers));
    cJSON_AddItemToObject(o, "core", str_list(u->core, u->ncore));
    cJSON_AddItemToObject(o, "math_functions",
                          str_list(u->mathfns, u->nmathfns));
    cJSON *stack = cJSON_CreateObject();
    hk_json_add_int(stack, "entry", u->stack_entry);
    hk_json_add_int(stack, "sample", u->stack_sample);
    hk_json_add_int(stack, "runtime", u->stack_runtime);
    hk_json_add_int(stack, "total", u->stack_total);
    hk_json_add_int(stack, "frame_overhead", HK_FRAME_OVERHEAD);
    /* the unit's bound, with the budgets the analyses computed */
    cJSON_AddItemToObject(cJSON_GetObjectItem(o, "budgets"), "stack_bound",
                          stack);
    if (l->deriv != NULL)
        cJSON_AddItemToObject(
            o, "derivative",
            derivative_json(l->deriv));
    hk_json_add_str(o, "core_version", HK_CORE_VERSION);
    cJSON_AddItemToObject(o, "selftest", selftest_json(u));
    cJSON_AddItemToObject(o, "deviations", deviations_json(l));
    cJSON *audit = cJSON_CreateObject();
    cJSON_AddItemToObject(audit, "hits", cJSON_CreateArray());
    cJSON_AddItemToObject(o, "audit", audit);
    cJSON_AddItemToObject(o, "checks", checks_json(checks));
    hk_report_sort(o);
    return o;
}

/* ---- the C API -------------------------------------------------------------- */

/* ---- trees and the arena --------------------------------------------------- */

typedef struct {
    cJSON *root;
    void (*fill)(cJSON *root, const void *ud);
    const void *ud;
} FillCall;

static void fill_call(void *ud)
{
    FillCall *c = ud;
    c->fill(c->root, c->ud);
}

void hk_json_fill(HkArena *a, cJSON *root,
                  void (*fill)(cJSON *root, const void *ud), const void *ud)
{
    FillCall c = {root, fill, ud};
    if (hk_arena_protect(a, fill_call, &c) != 0) {
        cJSON_Delete(root);
        hk_out_of_memory(a);
    }
}

typedef struct {
    HkArena *a;
    const char *text, *suffix, *out;
} CopyCall;

static void copy_call(void *ud)
{
    CopyCall *c = ud;
    c->out = hk_asprintf(c->a, "%s%s", c->text, c->suffix);
}

const char *hk_json_print(HkArena *a, cJSON *root, const char *suffix)
{
    char *text = root != NULL ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL) /* cJSON's own allocation failed */
        hk_out_of_memory(a);
    CopyCall c = {a, text, suffix, NULL};
    int failed = hk_arena_protect(a, copy_call, &c) != 0;
    cJSON_free(text);
    if (failed)
        hk_out_of_memory(a);
    return c.out;
}

/* ---- the C API -------------------------------------------------------------- */

typedef struct {
    HawkPassManager *pm;
    HawkFunction *fn;
    const char *text;
} ReportCall;

static void report_call(void *ud)
{
    ReportCall *c = ud;
    /* A run of no pass in particular: it reads pm's pipeline-wide options
     * (the profile) and computes the analyses the last run left invalid. */
    HawkPassRun run;
    HkProfile p;
    if (hk_profile_of(&run, c->pm, c->fn->module, &p) != 0)
        return;
    cJSON *o = hk_report_analysis(&run, c->fn, &p);
    if (o != NULL)
        c->text = hk_json_print(c->pm->ctx->arena, o, "");
}

/* The report of fn as indented JSON text in the context's arena. */
const char *hawk_kernel_report(HawkPassManager *pm, HawkFunction *fn,
                               size_t *len)
{
    HawkContext *ctx = pm->ctx;
    if (!fn->is_kernel) {
        hk_error(&ctx->diags, &fn->module->src, fn->loc,
                 "'%s' is a func: only a kernel has a report", fn->name);
        return NULL;
    }
    ReportCall c = {pm, fn, NULL};
    if (hk_ctx_protect(ctx, report_call, &c) != 0 || c.text == NULL)
        return NULL;
    if (len != NULL)
        *len = strlen(c.text);
    return c.text;
}
