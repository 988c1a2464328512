/* printer.c -- the canonical text of HIR (docs/LangRef.md "Grammar").
 *
 * The output is a fixed point of parse-then-print: one spelling per
 * construct, two spaces of indent per region level, one space around '='
 * and after ',', ' : ' before a type, and floats in their shortest
 * re-readable form.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static const char *const guard_names[] = {"default", "none", "active_set"};
static const char *const sink_names[] = {"plain", "atomic", "compensated",
                                         "banded"};

/* ---- small pieces ----------------------------------------------------- */

/* Two spaces per nesting level. */
static void put_indent(HkBuf *b, int indent)
{
    for (int k = 0; k < indent; k++)
        hk_buf_put(b, "  ", 2);
}

/* "%name" of value v (an out-of-range handle prints as "%<bad>", so a
 * broken module can still be dumped while debugging). */
static void put_val(HkBuf *b, const HkFunc *f, HkVal v)
{
    if (v >= f->nvalues) {
        hk_buf_puts(b, "%<bad>");
        return;
    }
    hk_buf_puts(b, "%");
    hk_buf_puts(b, hk_value(f, v)->name);
}

/* "%a, %b, %c" */
static void put_vals(HkBuf *b, const HkFunc *f, const HkVal *vs, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            hk_buf_puts(b, ", ");
        put_val(b, f, vs[k]);
    }
}

/* "%a, %b = " when i has results. */
static void put_results(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    if (i->nres == 0)
        return;
    put_vals(b, f, hk_res(i), i->nres);
    hk_buf_puts(b, " = ");
}

static HkType value_type(const HkFunc *f, HkVal v)
{
    return v < f->nvalues ? hk_value(f, v)->type : hk_scalar(HK_VOID);
}

/* The stated type of a single-result op: its result value's type. */
static HkType result_type(const HkFunc *f, const HkInst *i)
{
    return i->nres ? value_type(f, hk_res(i)[0]) : i->type;
}

/* " : T" */
static void put_result_type(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    hk_buf_puts(b, " : ");
    hk_type_print(b, result_type(f, i));
}

/* "T1, T2" of i's results. */
static void put_result_types(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    for (uint32_t k = 0; k < i->nres; k++) {
        if (k)
            hk_buf_puts(b, ", ");
        hk_type_print(b, value_type(f, hk_res(i)[k]));
    }
}

/* "%slot" of a plane op. */
static void put_slot(HkBuf *b, const HkFunc *f, int32_t slot)
{
    hk_buf_puts(b, "%");
    if (slot >= 0 && (uint32_t)slot < f->nslots)
        hk_buf_puts(b, f->slots[slot].name);
    else
        hk_buf_puts(b, "<bad>");
}

/* ---- literals --------------------------------------------------------- */

/* Whether s reads back to exactly v in element type e (bits, so that -0.0
 * and 0.0 differ).  For f32 both strtof and a rounded strtod must agree,
 * so the text is stable whichever way a reader rounds. */
static int reads_back(const char *s, double v, HkElem e)
{
    if (e == HK_F32) {
        float want = (float)v, a = strtof(s, NULL), c = (float)strtod(s, NULL);
        return memcmp(&a, &want, sizeof a) == 0 && memcmp(&c, &want, sizeof c) == 0;
    }
    double got = strtod(s, NULL);
    return memcmp(&got, &v, sizeof got) == 0;
}

void hk_print_float(HkBuf *b, double v, HkElem e)
{
    if (isnan(v)) {
        hk_buf_puts(b, "nan");
        return;
    }
    if (isinf(v)) {
        hk_buf_puts(b, v < 0 ? "-inf" : "inf");
        return;
    }
    if (e == HK_F32)
        v = (double)(float)v;
    /* The fewest significant digits that read back to the same value; then
     * plain decimal notation for moderate exponents (100.0, 0.001) and
     * %g's exponent form beyond them (1e+20, 3.4028235e+38). */
    char s[64];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(s, sizeof s, "%.*e", p - 1, v);
        if (reads_back(s, v, e))
            break;
    }
    int x = atoi(strchr(s, 'e') + 1);
    if (x >= -5 && x < 17) {
        int decimals = p - 1 - x;
        snprintf(s, sizeof s, "%.*f", decimals < 1 ? 1 : decimals, v);
    } else {
        snprintf(s, sizeof s, "%.*g", p, v);
    }
    hk_buf_puts(b, s);
    /* A float literal needs a '.' or an exponent to lex as one. */
    if (strpbrk(s, ".e") == NULL)
        hk_buf_puts(b, ".0");
}

/* Component k of constant c as a literal of element type e. */
static void put_literal(HkBuf *b, const HkConst *c, uint32_t k, HkElem e)
{
    if (hk_is_float(e)) {
        hk_print_float(b, c->f ? c->f[k] : 0.0, e);
        return;
    }
    int64_t x = c->i ? c->i[k] : 0;
    if (e == HK_I1)
        hk_buf_puts(b, x ? "true" : "false");
    else
        hk_buf_printf(b, "%" PRId64, x);
}

/* Whether components j and k print the same (every NaN prints "nan"). */
static int same_literal(const HkConst *c, uint32_t j, uint32_t k, HkElem e)
{
    if (!hk_is_float(e))
        return c->i == NULL || c->i[j] == c->i[k];
    if (c->f == NULL)
        return 1;
    double x = c->f[j], y = c->f[k];
    if (e == HK_F32) {
        x = (double)(float)x;
        y = (double)(float)y;
    }
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    return memcmp(&x, &y, sizeof x) == 0;
}

/* "1.5" or "[1.0, 2.0]"; a list of equal components prints as one. */
/* "[l0, l1, ...]": every literal of c. */
static void put_list(HkBuf *b, const HkConst *c, HkElem e)
{
    hk_buf_puts(b, "[");
    for (uint32_t k = 0; k < c->n; k++) {
        if (k)
            hk_buf_puts(b, ", ");
        put_literal(b, c, k, e);
    }
    hk_buf_puts(b, "]");
}

static void put_const(HkBuf *b, const HkConst *c, HkElem e)
{
    uint32_t k = 1;
    while (k < c->n && same_literal(c, 0, k, e))
        k++;
    if (c->n <= 1 || k == c->n) {
        put_literal(b, c, 0, e);
        return;
    }
    put_list(b, c, e);
}

/* A double-quoted string on one line: '"', '\\', newline and tab escaped
 * (LangRef "Lexical structure"). */
static void put_string(HkBuf *b, const char *s)
{
    hk_buf_puts(b, "\"");
    /* LangRef: a string escapes only '"' and '\\'; the lexer keeps every
     * other byte as written, so printing it raw reads back the same. */
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '"' || *p == '\\')
            hk_buf_printf(b, "\\%c", *p);
        else
            hk_buf_put(b, p, 1);
    }
    hk_buf_puts(b, "\"");
}

/* ---- instructions ----------------------------------------------------- */

static void put_block(HkBuf *b, const HkFunc *f, const HkBlock *blk, int indent)
{
    for (const HkInst *i = blk->first; i; i = i->next)
        hk_print_inst(b, f, i, indent);
}

/* "%r = mnemonic %a, %b : T" (and "random : f64" with no operands). */
static void put_generic(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    put_results(b, f, i);
    hk_buf_puts(b, hk_ops[i->op].mnemonic);
    if (i->nops) {
        hk_buf_puts(b, " ");
        put_vals(b, f, i->ops, i->nops);
    }
    put_result_type(b, f, i);
}

/* "yield %a, %b", "ret", "break_if %c": operands and no type. */
static void put_bare(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    hk_buf_puts(b, hk_ops[i->op].mnemonic);
    if (i->nops) {
        hk_buf_puts(b, " ");
        put_vals(b, f, i->ops, i->nops);
    }
}

/* "%c = fcmp olt %a, %b : i1" */
static void put_cmp(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    put_results(b, f, i);
    hk_buf_printf(b, "%s %s ", hk_ops[i->op].mnemonic,
                  (unsigned)i->pred < HK_P_COUNT ? hk_pred_names[i->pred] : "?");
    put_vals(b, f, i->ops, i->nops);
    put_result_type(b, f, i);
}

/* "%m2 = insert %m, %s, 0, 1 : <2 x 2 x f64>" and extract alike. */
static void put_indexed(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    put_results(b, f, i);
    hk_buf_printf(b, "%s ", hk_ops[i->op].mnemonic);
    put_vals(b, f, i->ops, i->nops);
    for (uint32_t k = 0; k < i->x->nimm && k < 2; k++)
        hk_buf_printf(b, ", %" PRId64, i->x->imm[k]);
    put_result_type(b, f, i);
}

/* "%s = load %state : T", "load %s[%k] : T" */
static void put_load(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    put_results(b, f, i);
    hk_buf_puts(b, "load ");
    put_slot(b, f, i->slot);
    if (i->has_index && i->nops) {
        hk_buf_puts(b, "[");
        put_val(b, f, i->ops[i->nops - 1]);
        hk_buf_puts(b, "]");
    }
    put_result_type(b, f, i);
}

/* "%g = gather %tbl, %k : f64" and "%v = at %s, %k : T" */
static void put_slot_index(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    put_results(b, f, i);
    hk_buf_printf(b, "%s ", hk_ops[i->op].mnemonic);
    put_slot(b, f, i->slot);
    for (uint32_t k = 0; k < i->nops; k++) {
        hk_buf_puts(b, ", ");
        put_val(b, f, i->ops[k]);
    }
    put_result_type(b, f, i);
}

/* "store %v, %out", "accum %v, %a[%k]" */
static void put_write(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    hk_buf_printf(b, "%s ", hk_ops[i->op].mnemonic);
    if (i->nops)
        put_val(b, f, i->ops[0]);
    hk_buf_puts(b, ", ");
    put_slot(b, f, i->slot);
    if (i->has_index && i->nops > 1) {
        hk_buf_puts(b, "[");
        put_val(b, f, i->ops[i->nops - 1]);
        hk_buf_puts(b, "]");
    }
}

/* "%r = call @f(%a) : f64", "%p, %q = call @g(%a) : (f64, f64)" */
static void put_call(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    const HkModule *m = f->module;
    put_results(b, f, i);
    hk_buf_puts(b, "call @");
    hk_buf_puts(b, m && i->x->callee < m->nfuncs ? m->funcs[i->x->callee]->name : "<bad>");
    hk_buf_puts(b, "(");
    put_vals(b, f, i->ops, i->nops);
    hk_buf_puts(b, ")");
    if (i->nres == 1) {
        put_result_type(b, f, i);
    } else if (i->nres > 1) {
        hk_buf_puts(b, " : (");
        put_result_types(b, f, i);
        hk_buf_puts(b, ")");
    }
}

/* "%x = loop %i = 0 to 8 iter(%xa = %x0) {" ... "}" */
static void put_loop(HkBuf *b, const HkFunc *f, const HkInst *i, int indent)
{
    put_results(b, f, i);
    hk_buf_puts(b, "loop ");
    put_val(b, f, i->x->ivar);
    hk_buf_printf(b, " = %" PRId64 " to ", i->x->lo);
    uint32_t first = 0;
    if (i->x->has_count && i->nops) {
        put_val(b, f, i->ops[0]);
        hk_buf_printf(b, " max %" PRId64, i->x->max_trip);
        first = 1;
    } else {
        hk_buf_printf(b, "%" PRId64, i->x->hi);
    }
    if (i->nres) {
        hk_buf_puts(b, " iter(");
        for (uint32_t k = 0; k < i->nres; k++) {
            if (k)
                hk_buf_puts(b, ", ");
            put_val(b, f, i->x->iters ? i->x->iters[k] : HK_NOVAL);
            hk_buf_puts(b, " = ");
            put_val(b, f, first + k < i->nops ? i->ops[first + k] : HK_NOVAL);
        }
        hk_buf_puts(b, ")");
    }
    hk_buf_puts(b, " {\n");
    if (i->x->nregions)
        put_block(b, f, &i->x->regions[0], indent + 1);
    put_indent(b, indent);
    hk_buf_puts(b, "}");
}

/* " -> T1, T2" when the op has results. */
static void put_arrow(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    if (i->nres == 0)
        return;
    hk_buf_puts(b, " -> ");
    put_result_types(b, f, i);
}

/* "%a = if %c -> f64 {" ... "} else {" ... "}"; a result-less if with an
 * empty else prints no else. */
static void put_if(HkBuf *b, const HkFunc *f, const HkInst *i, int indent)
{
    put_results(b, f, i);
    hk_buf_puts(b, "if ");
    put_vals(b, f, i->ops, i->nops);
    put_arrow(b, f, i);
    hk_buf_puts(b, " {\n");
    if (i->x->nregions)
        put_block(b, f, &i->x->regions[0], indent + 1);
    put_indent(b, indent);
    int has_else = i->x->nregions > 1 && (i->nres > 0 || i->x->regions[1].first != NULL);
    if (has_else) {
        hk_buf_puts(b, "} else {\n");
        put_block(b, f, &i->x->regions[1], indent + 1);
        put_indent(b, indent);
    }
    hk_buf_puts(b, "}");
}

/* "%y = dispatch %k mix %m -> f64 {" then one "case { ... }" per region. */
static void put_dispatch(HkBuf *b, const HkFunc *f, const HkInst *i, int indent)
{
    put_results(b, f, i);
    hk_buf_puts(b, "dispatch ");
    put_vals(b, f, i->ops, i->nops);
    hk_buf_puts(b, " mix ");
    put_slot(b, f, i->slot);
    put_arrow(b, f, i);
    hk_buf_puts(b, " {\n");
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        put_indent(b, indent + 1);
        hk_buf_puts(b, "case {\n");
        put_block(b, f, &i->x->regions[r], indent + 2);
        put_indent(b, indent + 1);
        hk_buf_puts(b, "}\n");
    }
    put_indent(b, indent);
    hk_buf_puts(b, "}");
}

/* "%c = table %k, [1.0, 2.0, 4.0] : f64": every entry written, equal
 * ones too (a table's size is its list's). */
static void put_table(HkBuf *b, const HkFunc *f, const HkInst *i)
{
    HkElem e = (HkElem)result_type(f, i).elem;
    put_results(b, f, i);
    hk_buf_puts(b, "table ");
    put_vals(b, f, i->ops, i->nops);
    hk_buf_puts(b, ", ");
    put_list(b, &i->x->cst, e);
    put_result_type(b, f, i);
}

/* The text of i without indent or newline; regions at indent + 1. */
static void put_inst(HkBuf *b, const HkFunc *f, const HkInst *i, int indent)
{
    switch (hk_ops[i->op].rule) {
    case HK_R_FCMP: case HK_R_ICMP: put_cmp(b, f, i); return;
    case HK_R_CONST:
        put_results(b, f, i);
        hk_buf_puts(b, "const ");
        put_const(b, &i->x->cst, (HkElem)result_type(f, i).elem);
        put_result_type(b, f, i);
        return;
    case HK_R_EXTRACT: case HK_R_INSERT: put_indexed(b, f, i); return;
    case HK_R_TABLE: put_table(b, f, i); return;
    case HK_R_LOAD: put_load(b, f, i); return;
    case HK_R_GATHER: case HK_R_AT: case HK_R_CLAMPIDX:
        put_slot_index(b, f, i);
        return;
    case HK_R_STORE: case HK_R_ACCUM: put_write(b, f, i); return;
    case HK_R_BUMP:
        hk_buf_puts(b, "bump ");
        put_slot(b, f, i->slot);
        return;
    case HK_R_LOOP: put_loop(b, f, i, indent); return;
    case HK_R_IF: put_if(b, f, i, indent); return;
    case HK_R_DISPATCH: put_dispatch(b, f, i, indent); return;
    case HK_R_CALL: put_call(b, f, i); return;
    case HK_R_RAWDEV:
        hk_buf_puts(b, "raw_device ");
        put_string(b, i->x->text);
        return;
    case HK_R_BREAK: case HK_R_YIELD: case HK_R_RET: put_bare(b, f, i); return;
    default: put_generic(b, f, i); return;
    }
}

void hk_print_inst(HkBuf *b, const HkFunc *f, const HkInst *i, int indent)
{
    put_indent(b, indent);
    put_inst(b, f, i, indent);
    hk_buf_puts(b, "\n");
}

/* ---- functions and modules -------------------------------------------- */

/* ", " before every attribute but the first, which opens the list. */
static void put_attr_sep(HkBuf *b, unsigned *n)
{
    hk_buf_puts(b, (*n)++ ? ", " : " attributes {");
}

/* " attributes {guard = none, segmented}" for the non-default ones, in the
 * fixed order guard, sink, segmented, fused_lanes, two_path. */
static void put_attributes(HkBuf *b, const HkFunc *f)
{
    unsigned n = 0;
    if (f->guard != HK_GUARD_DEFAULT && (unsigned)f->guard < 3) {
        put_attr_sep(b, &n);
        hk_buf_printf(b, "guard = %s", guard_names[f->guard]);
    }
    if (f->sink != HK_SINK_PLAIN && (unsigned)f->sink < 4) {
        put_attr_sep(b, &n);
        hk_buf_printf(b, "sink = %s", sink_names[f->sink]);
    }
    const char *flags[3] = {"segmented", "fused_lanes", "two_path"};
    int on[3] = {f->segmented, f->fused_lanes, f->two_path};
    for (unsigned k = 0; k < 3; k++)
        if (on[k]) {
            put_attr_sep(b, &n);
            hk_buf_puts(b, flags[k]);
        }
    if (n)
        hk_buf_puts(b, "}");
}

/* "kernel @k(%s: role T, ...)" with its attributes. */
static void put_kernel_head(HkBuf *b, const HkFunc *f)
{
    hk_buf_printf(b, "kernel @%s(", f->name);
    for (uint32_t k = 0, n = 0; k < f->nslots; k++) {
        const HkSlot *s = &f->slots[k];
        if (s->role == HK_ROLE_LOCAL)
            continue;
        if (n++)
            hk_buf_puts(b, ", ");
        hk_buf_printf(b, "%%%s: %s ", s->name,
                      (unsigned)s->role < HK_ROLE_COUNT ? hk_roles[s->role].name : "?");
        hk_type_print(b, s->type);
    }
    hk_buf_puts(b, ")");
    put_attributes(b, f);
}

/* "func @f(%a: T, ...) -> T" or "-> (T1, T2)", with its derivative rules
 * (" attributes {jvp = @g, vjp = @h}"). */
static void put_func_head(HkBuf *b, const HkFunc *f)
{
    hk_buf_printf(b, "func @%s(", f->name);
    for (uint32_t k = 0; k < f->nparams; k++) {
        if (k)
            hk_buf_puts(b, ", ");
        put_val(b, f, f->params[k]);
        hk_buf_puts(b, ": ");
        hk_type_print(b, value_type(f, f->params[k]));
    }
    hk_buf_puts(b, ") -> ");
    if (f->nrtypes != 1)
        hk_buf_puts(b, "(");
    for (uint32_t k = 0; k < f->nrtypes; k++) {
        if (k)
            hk_buf_puts(b, ", ");
        hk_type_print(b, f->rtypes[k]);
    }
    if (f->nrtypes != 1)
        hk_buf_puts(b, ")");
    unsigned n = 0;
    if (f->rule_jvp != NULL) {
        put_attr_sep(b, &n);
        hk_buf_printf(b, "jvp = @%s", f->rule_jvp);
    }
    if (f->rule_vjp != NULL) {
        put_attr_sep(b, &n);
        hk_buf_printf(b, "vjp = @%s", f->rule_vjp);
    }
    if (n)
        hk_buf_puts(b, "}");
}

void hk_print_func(HkBuf *b, const HkFunc *f)
{
    if (f->is_kernel)
        put_kernel_head(b, f);
    else
        put_func_head(b, f);
    hk_buf_puts(b, " {\n");
    for (uint32_t k = 0; f->is_kernel && k < f->nslots; k++)
        if (f->slots[k].role == HK_ROLE_LOCAL) {
            hk_buf_printf(b, "  local %%%s : ", f->slots[k].name);
            hk_type_print(b, f->slots[k].type);
            hk_buf_puts(b, "\n");
        }
    put_block(b, f, &f->body, 1);
    hk_buf_puts(b, "}\n");
}

void hk_print_module(HkBuf *b, const HkModule *m)
{
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        if (k)
            hk_buf_puts(b, "\n");
        hk_print_func(b, m->funcs[k]);
    }
}
