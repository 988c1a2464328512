/* verifier.c -- docs/LangRef.md "Verification".
 *
 * One walk over each function checks names, dominance, region structure,
 * slot use and the type rule of every op (the Rule column of ops.def); a
 * depth-first search over the call graph then finds recursion.  Every
 * error is reported, each at the offending instruction, value or slot.
 *
 * Dominance is a per-value "visible" flag: set when a value is defined,
 * cleared when the region that defines it closes, so the whole check is
 * linear in the size of the function.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "ir.h"

typedef struct {
    uint32_t caller, callee;
    const HkInst *inst;
} CallEdge;

typedef struct {
    const HkModule *m;
    HkDiags *d;
    const HkFunc *f;
    uint32_t fidx;
    uint8_t *visible;      /* per value: defined in a region still open */
    uint8_t *defined;      /* per value: defined somewhere already */
    uint8_t *counted;      /* per slot: a dispatch counts into this mix */
    HkSymtab *names;       /* the function's names seen so far */
    CallEdge *calls;       /* call graph edges, grouped by caller */
    uint32_t ncalls, cap_calls;
} Ver;

/* ---- reporting -------------------------------------------------------- */

static void err(Ver *v, HkLoc loc, const char *fmt, ...) HK_PRINTF(3, 4);

/* An error at loc in the module's source. */
static void err(Ver *v, HkLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hk_vdiag(v->d, HAWK_ERROR, &v->m->src, loc, fmt, ap);
    va_end(ap);
}

/* The spelling of t, for a message. */
static const char *ts(Ver *v, HkType t)
{
    HkBuf b;
    hk_buf_init(&b, v->d->arena);
    hk_type_print(&b, t);
    return hk_buf_cstr(&b);
}

/* "s" unless n is 1. */
static const char *pl(uint32_t n)
{
    return n == 1 ? "" : "s";
}

static const char *mn(const HkInst *i)
{
    return hk_ops[i->op].mnemonic;
}

static HkRule rule_of(const HkInst *i)
{
    return hk_ops[i->op].rule;
}

/* The mnemonic of the first op with rule r (for "use 'gather'" hints). */
static const char *rule_mnemonic(HkRule r)
{
    for (int k = 0; k < HK_OP_COUNT; k++)
        if (hk_ops[k].rule == r)
            return hk_ops[k].mnemonic;
    return "?";
}

/* ---- values ----------------------------------------------------------- */

static const char *vn(const Ver *v, HkVal x)
{
    return v->f->values[x].name;
}

static HkType vt(const Ver *v, HkVal x)
{
    return v->f->values[x].type;
}

/* Type of operand k of i. */
static HkType ot(const Ver *v, const HkInst *i, uint32_t k)
{
    return vt(v, i->ops[k]);
}

/* The stated type of a single-result op. */
static HkType st(const Ver *v, const HkInst *i)
{
    return vt(v, i->res[0]);
}

/* A value's own type: statically shaped, with an element. */
static int check_value_type(Ver *v, HkVal x)
{
    const HkValue *val = &v->f->values[x];
    if (val->type.elem == HK_VOID || val->type.elem > HK_F64) {
        err(v, val->loc, "'%%%s' has no type", val->name);
        return 0;
    }
    if (hk_is_dyn(val->type) || (val->type.rank > 1 && val->type.dim[1] == HK_DYN)) {
        err(v, val->loc, "'%%%s' cannot have the runtime-length type '%s': only slots can",
            val->name, ts(v, val->type));
        return 0;
    }
    return 1;
}

/* Defines x at loc: once in the function, visible until its region closes;
 * typed says its type was checked already (instruction results). */
static void define(Ver *v, HkVal x, HkLoc loc, int typed)
{
    if (x >= v->f->nvalues) {
        err(v, loc, "definition of a value that does not exist");
        return;
    }
    const char *name = vn(v, x);
    if (v->defined[x] || !hk_symtab_put(v->names, name, strlen(name), x)) {
        err(v, v->f->values[x].loc.line ? v->f->values[x].loc : loc,
            "redefinition of '%%%s'", name);
        return;
    }
    v->defined[x] = v->visible[x] = 1;
    if (!typed)
        check_value_type(v, x);
}

/* Ends the visibility of x when its region closes. */
static void hide(Ver *v, HkVal x)
{
    if (x < v->f->nvalues)
        v->visible[x] = 0;
}

/* Every operand exists and is visible here; 0 if one does not exist. */
static int check_operands(Ver *v, const HkInst *i)
{
    int ok = 1;
    for (uint32_t k = 0; k < i->nops; k++) {
        HkVal x = i->ops[k];
        if (x >= v->f->nvalues) {
            err(v, i->loc, "operand %u of '%s' is not a value", k, mn(i));
            ok = 0;
        } else if (!v->visible[x]) {
            if (v->defined[x])
                err(v, i->loc, "'%%%s' is used outside the region that defines it",
                    vn(v, x));
            else
                err(v, i->loc, "use of '%%%s' before its definition", vn(v, x));
        }
    }
    return ok;
}

/* ---- operand classes and broadcasting --------------------------------- */

typedef int (*ElemOk)(HkElem e);

static int e_real(HkElem e) { return hk_is_float(e); }
static int e_int(HkElem e) { return hk_is_int(e); }
static int e_logic(HkElem e) { return hk_is_int(e) || e == HK_I1; }
static int e_num(HkElem e) { return hk_is_int(e) || hk_is_float(e); }

static int is_scalar_of(HkType t, HkElem e)
{
    return t.rank == 0 && t.elem == e;
}

/* LangRef "broadcast": equal types, or a rank-0 operand of the other's
 * element type; *out is the larger shape. */
static int broadcast(HkType a, HkType b, HkType *out)
{
    if (hk_type_eq(a, b) || (b.rank == 0 && a.elem == b.elem)) {
        *out = a;
        return 1;
    }
    if (a.rank == 0 && a.elem == b.elem) {
        *out = b;
        return 1;
    }
    return 0;
}

/* Every operand of class ok ("real", ...), all broadcast together. */
static int elementwise(Ver *v, const HkInst *i, ElemOk ok, const char *what,
                       HkType *out)
{
    for (uint32_t k = 0; k < i->nops; k++)
        if (!ok((HkElem)ot(v, i, k).elem)) {
            err(v, i->loc, "'%s' needs %s operands, but '%%%s' has type '%s'", mn(i),
                what, vn(v, i->ops[k]), ts(v, ot(v, i, k)));
            return 0;
        }
    HkType t = ot(v, i, 0);
    for (uint32_t k = 1; k < i->nops; k++)
        if (!broadcast(t, ot(v, i, k), &t)) {
            err(v, i->loc, "operands of '%s' do not broadcast: '%s' and '%s'", mn(i),
                ts(v, ot(v, i, 0)), ts(v, ot(v, i, k)));
            return 0;
        }
    *out = t;
    return 1;
}

/* A comparison: the predicate belongs to the op, the operands broadcast,
 * the result is a mask of the broadcast shape. */
static int ty_cmp(Ver *v, const HkInst *i, ElemOk ok, const char *what, HkType *out)
{
    if ((unsigned)i->pred >= HK_P_COUNT ||
        hk_pred_lookup(i->op, hk_pred_names[i->pred], strlen(hk_pred_names[i->pred])) < 0) {
        err(v, i->loc, "'%s' does not take the predicate '%s'", mn(i),
            (unsigned)i->pred < HK_P_COUNT ? hk_pred_names[i->pred] : "?");
        return 0;
    }
    if (!elementwise(v, i, ok, what, out))
        return 0;
    *out = hk_with_elem(*out, HK_I1);
    return 1;
}

/* select c, a, b: c is i1 of rank 0 or of a's shape; a and b are equal. */
static int ty_select(Ver *v, const HkInst *i, HkType *out)
{
    HkType c = ot(v, i, 0), a = ot(v, i, 1), b = ot(v, i, 2);
    if (c.elem != HK_I1) {
        err(v, i->loc, "'select' condition '%%%s' must be i1, but has type '%s'",
            vn(v, i->ops[0]), ts(v, c));
        return 0;
    }
    if (!hk_type_eq(a, b)) {
        err(v, i->loc, "'select' operands '%%%s' and '%%%s' have different types '%s' and '%s'",
            vn(v, i->ops[1]), vn(v, i->ops[2]), ts(v, a), ts(v, b));
        return 0;
    }
    if (c.rank != 0 && !hk_same_shape(c, a)) {
        err(v, i->loc, "'select' condition '%%%s' of type '%s' does not match the shape of '%s'",
            vn(v, i->ops[0]), ts(v, c), ts(v, a));
        return 0;
    }
    *out = a;
    return 1;
}

/* ---- conversions, constants, math ------------------------------------- */

#define EB(e) (1u << (e))
#define EB_F (EB(HK_F32) | EB(HK_F64))

/* The element types conversion op converts from and to (LangRef
 * "Conversions"); this table is the one place that says so. */
static void conv_sets(HkOp op, unsigned *from, unsigned *to)
{
    switch (op) {
    case HK_OP_SITOFP: *from = EB(HK_I32) | EB(HK_I64); *to = EB_F; return;
    case HK_OP_UITOFP: *from = EB(HK_U32); *to = EB_F; return;
    case HK_OP_FPTOSI: *from = EB_F; *to = EB(HK_I32) | EB(HK_I64); return;
    case HK_OP_FPEXT: *from = EB(HK_F32); *to = EB(HK_F64); return;
    case HK_OP_FPTRUNC: *from = EB(HK_F64); *to = EB(HK_F32); return;
    case HK_OP_SEXT: *from = EB(HK_I32); *to = EB(HK_I64); return;
    case HK_OP_ZEXT:
        *from = EB(HK_I1) | EB(HK_U32);
        *to = EB(HK_I32) | EB(HK_U32) | EB(HK_I64);
        return;
    case HK_OP_TRUNC: *from = EB(HK_I64); *to = EB(HK_I32) | EB(HK_U32); return;
    default: *from = *to = 0; return;
    }
}

/* A conversion keeps the operand's shape and changes its element type. */
static int ty_conv(Ver *v, const HkInst *i, HkType *out)
{
    unsigned from, to;
    conv_sets(i->op, &from, &to);
    HkElem a = (HkElem)ot(v, i, 0).elem, r = (HkElem)st(v, i).elem;
    int ok = (from & EB(a)) && (to & EB(r));
    /* zext must widen: from u32 only i64 is wider. */
    if (i->op == HK_OP_ZEXT && hk_elem_bytes(r) <= hk_elem_bytes(a))
        ok = 0;
    if (!ok) {
        err(v, i->loc, "'%s' cannot convert '%s' to '%s'", mn(i), hk_elem_name(a),
            hk_elem_name(r));
        return 0;
    }
    *out = hk_with_elem(ot(v, i, 0), r);
    return 1;
}

/* Whether integer literal x fits element type e. */
static int int_fits(HkElem e, int64_t x)
{
    switch (e) {
    case HK_I1: return x == 0 || x == 1;
    case HK_I32: return x >= INT32_MIN && x <= INT32_MAX;
    case HK_U32: return x >= 0 && x <= (int64_t)UINT32_MAX;
    default: return 1;
    }
}

/* const: one literal, or one per component, each fitting the type. */
static int ty_const(Ver *v, const HkInst *i, HkType *out)
{
    HkType t = st(v, i);
    HkElem e = (HkElem)t.elem;
    uint32_t n = hk_components(t);
    if (i->cst.n != 1 && i->cst.n != n) {
        if (n == 1)
            err(v, i->loc, "'const' of type '%s' needs 1 literal, but has %u", ts(v, t),
                i->cst.n);
        else
            err(v, i->loc, "'const' of type '%s' needs 1 or %u literals, but has %u",
                ts(v, t), n, i->cst.n);
        return 0;
    }
    if (hk_is_float(e) ? i->cst.f == NULL : i->cst.i == NULL) {
        err(v, i->loc, "'const' of type '%s' has no literal", ts(v, t));
        return 0;
    }
    for (uint32_t k = 0; !hk_is_float(e) && k < i->cst.n; k++)
        if (!int_fits(e, i->cst.i[k])) {
            err(v, i->loc, "integer literal %" PRId64 " does not fit '%s'", i->cst.i[k],
                hk_elem_name(e));
            return 0;
        }
    *out = t;
    return 1;
}

/* A unary libm op: real in, same type out; an integer operand takes a real
 * result of its shape (converted first; LangRef "Math"). */
static int ty_math1(Ver *v, const HkInst *i, HkType *out)
{
    HkType a = ot(v, i, 0);
    HkElem r = (HkElem)st(v, i).elem;
    if (hk_is_float((HkElem)a.elem)) {
        *out = a;
        return 1;
    }
    if (!hk_is_int((HkElem)a.elem)) {
        err(v, i->loc, "'%s' needs a real or integer operand, but '%%%s' has type '%s'",
            mn(i), vn(v, i->ops[0]), ts(v, a));
        return 0;
    }
    if (!hk_is_float(r)) {
        err(v, i->loc, "'%s' of integer '%%%s' needs a real result type, not '%s'", mn(i),
            vn(v, i->ops[0]), ts(v, st(v, i)));
        return 0;
    }
    *out = hk_with_elem(a, r);
    return 1;
}

/* abs: a real or integer operand, the same type out. */
static int ty_abs(Ver *v, const HkInst *i, HkType *out)
{
    return elementwise(v, i, e_num, "real or integer", out);
}

/* clip x, lo, hi: the bounds broadcast against x; the result is x's type. */
static int ty_clip(Ver *v, const HkInst *i, HkType *out)
{
    if (!elementwise(v, i, e_num, "real or integer", out))
        return 0;
    if (hk_type_eq(*out, ot(v, i, 0)))
        return 1;
    err(v, i->loc, "'clip' bounds of type '%s' are larger than '%%%s' of type '%s'",
        ts(v, *out), vn(v, i->ops[0]), ts(v, ot(v, i, 0)));
    return 0;
}

/* ---- tensor folds and products ---------------------------------------- */

/* Operand k is a real tensor of the given rank. */
static int real_rank(Ver *v, const HkInst *i, uint32_t k, unsigned rank)
{
    HkType t = ot(v, i, k);
    if (t.rank == rank && hk_is_float((HkElem)t.elem))
        return 1;
    err(v, i->loc, "'%s' needs a real rank-%u operand, but '%%%s' has type '%s'", mn(i),
        rank, vn(v, i->ops[k]), ts(v, t));
    return 0;
}

/* Operands 0 and 1 have the same type (dot, cross). */
static int same_types(Ver *v, const HkInst *i)
{
    if (hk_type_eq(ot(v, i, 0), ot(v, i, 1)))
        return 1;
    err(v, i->loc, "'%s' operands have different types '%s' and '%s'", mn(i),
        ts(v, ot(v, i, 0)), ts(v, ot(v, i, 1)));
    return 0;
}

/* Inner extents agree: a's last with b's first (matvec, matmul). */
static int inner_agree(Ver *v, const HkInst *i)
{
    HkType a = ot(v, i, 0), b = ot(v, i, 1);
    if (a.elem == b.elem && a.dim[1] == b.dim[0])
        return 1;
    err(v, i->loc, "'%s' operands '%s' and '%s' do not agree", mn(i), ts(v, a), ts(v, b));
    return 0;
}

static int ty_dot(Ver *v, const HkInst *i, HkType *out)
{
    if (!real_rank(v, i, 0, 1) || !real_rank(v, i, 1, 1) || !same_types(v, i))
        return 0;
    *out = hk_scalar((HkElem)ot(v, i, 0).elem);
    return 1;
}

static int ty_norm(Ver *v, const HkInst *i, HkType *out)
{
    if (!real_rank(v, i, 0, 1))
        return 0;
    *out = hk_scalar((HkElem)ot(v, i, 0).elem);
    return 1;
}

static int ty_cross(Ver *v, const HkInst *i, HkType *out)
{
    if (!real_rank(v, i, 0, 1) || !real_rank(v, i, 1, 1) || !same_types(v, i))
        return 0;
    if (ot(v, i, 0).dim[0] != 3) {
        err(v, i->loc, "'cross' needs two 3-component operands, not '%s'",
            ts(v, ot(v, i, 0)));
        return 0;
    }
    *out = ot(v, i, 0);
    return 1;
}

static int ty_matvec(Ver *v, const HkInst *i, HkType *out)
{
    if (!real_rank(v, i, 0, 2) || !real_rank(v, i, 1, 1) || !inner_agree(v, i))
        return 0;
    *out = hk_vec((HkElem)ot(v, i, 0).elem, ot(v, i, 0).dim[0]);
    return 1;
}

static int ty_matmul(Ver *v, const HkInst *i, HkType *out)
{
    if (!real_rank(v, i, 0, 2) || !real_rank(v, i, 1, 2) || !inner_agree(v, i))
        return 0;
    *out = hk_mat((HkElem)ot(v, i, 0).elem, ot(v, i, 0).dim[0], ot(v, i, 1).dim[1]);
    return 1;
}

static int ty_transpose(Ver *v, const HkInst *i, HkType *out)
{
    HkType a = ot(v, i, 0);
    if (a.rank != 2) {
        err(v, i->loc, "'transpose' needs a rank-2 operand, but '%%%s' has type '%s'",
            vn(v, i->ops[0]), ts(v, a));
        return 0;
    }
    *out = hk_mat((HkElem)a.elem, a.dim[1], a.dim[0]);
    return 1;
}

/* sum, prod: a real or integer tensor folds to its element type. */
static int ty_reduce(Ver *v, const HkInst *i, HkType *out)
{
    HkType a = ot(v, i, 0);
    if (a.rank == 0 || !e_num((HkElem)a.elem)) {
        err(v, i->loc, "'%s' needs a real or integer tensor, but '%%%s' has type '%s'",
            mn(i), vn(v, i->ops[0]), ts(v, a));
        return 0;
    }
    *out = hk_scalar((HkElem)a.elem);
    return 1;
}

/* ---- building and taking apart ---------------------------------------- */

/* i's literal indices lie inside the extents of a. */
static int imms_in_range(Ver *v, const HkInst *i, HkType a)
{
    for (uint32_t k = 0; k < i->nimm; k++)
        if (i->imm[k] < 0 || i->imm[k] >= (int64_t)a.dim[k]) {
            err(v, i->loc, "index %" PRId64 " is out of range for '%s'", i->imm[k],
                ts(v, a));
            return 0;
        }
    return 1;
}

/* extract: a component of a tensor, or a row of a matrix. */
static int ty_extract(Ver *v, const HkInst *i, HkType *out)
{
    HkType a = ot(v, i, 0);
    if (a.rank == 0) {
        err(v, i->loc, "'extract' needs a rank-1 or rank-2 operand, but '%%%s' has type '%s'",
            vn(v, i->ops[0]), ts(v, a));
        return 0;
    }
    if (i->nimm == 0 || i->nimm > a.rank) {
        err(v, i->loc, "'extract' from '%s' takes %s, but has %u", ts(v, a),
            a.rank == 1 ? "1 index" : "1 or 2 indices", i->nimm);
        return 0;
    }
    if (!imms_in_range(v, i, a))
        return 0;
    *out = i->nimm == a.rank ? hk_scalar((HkElem)a.elem) : hk_vec((HkElem)a.elem, a.dim[1]);
    return 1;
}

/* insert: a copy of a tensor with one component replaced by a scalar. */
static int ty_insert(Ver *v, const HkInst *i, HkType *out)
{
    HkType a = ot(v, i, 0), s = ot(v, i, 1);
    if (a.rank == 0) {
        err(v, i->loc, "'insert' needs a rank-1 or rank-2 operand, but '%%%s' has type '%s'",
            vn(v, i->ops[0]), ts(v, a));
        return 0;
    }
    if (i->nimm != a.rank) {
        err(v, i->loc, "'insert' into '%s' takes %s, but has %u", ts(v, a),
            a.rank == 1 ? "1 index" : "2 indices", i->nimm);
        return 0;
    }
    if (!is_scalar_of(s, (HkElem)a.elem)) {
        err(v, i->loc, "'insert' into '%s' needs a scalar of type '%s', but '%%%s' has type '%s'",
            ts(v, a), hk_elem_name((HkElem)a.elem), vn(v, i->ops[1]), ts(v, s));
        return 0;
    }
    if (!imms_in_range(v, i, a))
        return 0;
    *out = a;
    return 1;
}

/* build: one scalar of the element type per component of the result. */
static int ty_build(Ver *v, const HkInst *i, HkType *out)
{
    HkType t = st(v, i);
    if (t.rank == 0) {
        err(v, i->loc, "'build' needs a rank-1 or rank-2 result type, not '%s'", ts(v, t));
        return 0;
    }
    if (i->nops != hk_components(t)) {
        err(v, i->loc, "'build' of '%s' needs %u operand%s, but has %u", ts(v, t),
            hk_components(t), pl(hk_components(t)), i->nops);
        return 0;
    }
    for (uint32_t k = 0; k < i->nops; k++)
        if (!is_scalar_of(ot(v, i, k), (HkElem)t.elem)) {
            err(v, i->loc, "'build' operand '%%%s' has type '%s', but the components of '%s' are '%s'",
                vn(v, i->ops[k]), ts(v, ot(v, i, k)), ts(v, t), hk_elem_name((HkElem)t.elem));
            return 0;
        }
    *out = t;
    return 1;
}

/* ---- slots ------------------------------------------------------------ */

/* The op family that writes a slot of role r; -1 for read-only roles.
 * roles.def says whether a role is written, this says with what. */
static int writer_of(HkRole r)
{
    switch (r) {
    case HK_ROLE_MUTABLE: case HK_ROLE_OUT: case HK_ROLE_WIDE_OUT:
    case HK_ROLE_TERMINATED:
        return HK_R_STORE;
    case HK_ROLE_ACCUM_OUT: return HK_R_ACCUM;
    case HK_ROLE_FINISHED_COUNT: return HK_R_BUMP;
    case HK_ROLE_MIX: return HK_R_DISPATCH;
    case HK_ROLE_PER_SAMPLE: case HK_ROLE_VEC_IN: case HK_ROLE_MAT_IN:
    case HK_ROLE_LOOKUP: case HK_ROLE_WIDE_IN: case HK_ROLE_UNIFORM:
    case HK_ROLE_COUNT:
        break;
    }
    return -1;
}

/* The op family that reads a slot of role r: a runtime-length plane is
 * gathered from, anything else loaded; -1 for write-only roles. */
static int reader_of(HkRole r)
{
    if (!(hk_roles[r].access & HK_ACC_R))
        return -1;
    return hk_roles[r].shape == HK_SHP_DYN ? HK_R_GATHER : HK_R_LOAD;
}

/* The element type role r requires, or HK_VOID for any (LangRef "Slots"). */
static HkElem role_elem(HkRole r)
{
    switch (r) {
    case HK_ROLE_TERMINATED: return HK_I1;
    case HK_ROLE_FINISHED_COUNT: case HK_ROLE_MIX: return HK_U32;
    default: return HK_VOID;
    }
}

/* What an op does to a slot, for messages. */
static const char *slot_verb(HkRule r)
{
    switch (r) {
    case HK_R_LOAD: return "load from";
    case HK_R_GATHER: return "gather from";
    case HK_R_AT: return "read another sample of";
    case HK_R_STORE: return "store to";
    case HK_R_ACCUM: return "accumulate into";
    case HK_R_BUMP: return "bump";
    case HK_R_DISPATCH: return "count dispatch cases in";
    default: return "use";
    }
}

/* Whether r is one of the plane ops, which only a kernel's body has. */
static int is_plane_rule(HkRule r)
{
    switch (r) {
    case HK_R_LOAD: case HK_R_GATHER: case HK_R_AT: case HK_R_STORE:
    case HK_R_ACCUM: case HK_R_BUMP: case HK_R_DISPATCH:
        return 1;
    default:
        return 0;
    }
}

/* i's slot, or NULL after a diagnostic. */
static const HkSlot *slot_of(Ver *v, const HkInst *i)
{
    if (i->slot < 0 || (uint32_t)i->slot >= v->f->nslots) {
        err(v, i->loc, "'%s' needs a slot", mn(i));
        return NULL;
    }
    return &v->f->slots[i->slot];
}

/* i, of the op family want (at reads like load), may read (write) slot
 * s; reports why not. */
static int check_slot_use(Ver *v, const HkInst *i, const HkSlot *s, HkRule want,
                          int write)
{
    const HkRoleInfo *ri = &hk_roles[s->role];
    int have = write ? writer_of(s->role) : reader_of(s->role);
    if (have == (int)want)
        return 1;
    const char *verb = slot_verb(rule_of(i));
    if (have < 0)
        err(v, i->loc, "cannot %s '%%%s': role '%s' is %s", verb, s->name, ri->name,
            write ? "read-only" : "write-only");
    else
        err(v, i->loc, "cannot %s '%%%s': role '%s' is %s with '%s'", verb, s->name,
            ri->name, write ? "written" : "read", rule_mnemonic((HkRule)have));
    return 0;
}

/* A row of t: t without its first extent (a component of a rank-1 t). */
static HkType row_type(HkType t)
{
    if (t.rank == 2)
        return hk_vec((HkElem)t.elem, t.dim[1]);
    return hk_scalar((HkElem)t.elem);
}

/* Operand k is an i64 index of rank 0. */
static int check_index(Ver *v, const HkInst *i, uint32_t k)
{
    if (is_scalar_of(ot(v, i, k), HK_I64))
        return 1;
    err(v, i->loc, "index '%%%s' must be i64, but has type '%s'", vn(v, i->ops[k]),
        ts(v, ot(v, i, k)));
    return 0;
}

/* load %s : T, with T the slot's type. */
static int ty_load(Ver *v, const HkInst *i, HkType *out)
{
    const HkSlot *s = slot_of(v, i);
    if (s == NULL || !check_slot_use(v, i, s, HK_R_LOAD, 0))
        return 0;
    if (i->has_index || i->nops) {
        err(v, i->loc, "'load' from '%%%s' takes no index", s->name);
        return 0;
    }
    *out = s->type;
    return 1;
}

/* gather %s, %k : T, with T a row of the runtime-length plane;
 * at %s, %k : T, with T the slot's type (another sample's value). */
static int ty_slot_index(Ver *v, const HkInst *i, HkType *out)
{
    const HkSlot *s = slot_of(v, i);
    HkRule r = rule_of(i);
    if (s == NULL || !check_slot_use(v, i, s, r == HK_R_AT ? HK_R_LOAD : r, 0) ||
        !check_index(v, i, 0))
        return 0;
    if (r == HK_R_AT && hk_roles[s->role].layout != HK_LAY_SOA) {
        err(v, i->loc, "cannot %s '%%%s': role '%s' is not per sample", slot_verb(r),
            s->name, hk_roles[s->role].name);
        return 0;
    }
    *out = r == HK_R_AT ? s->type : row_type(s->type);
    return 1;
}

/* The value written by a store or accum has the type the slot takes. */
static void check_written(Ver *v, const HkInst *i, const HkSlot *s, HkType want)
{
    if (!hk_type_eq(ot(v, i, 0), want))
        err(v, i->loc, "'%s' value '%%%s' has type '%s', but '%%%s' takes '%s'", mn(i),
            vn(v, i->ops[0]), ts(v, ot(v, i, 0)), s->name, ts(v, want));
}

/* store/accum operands: the value, then the index of an indexed form. */
static int write_operands(Ver *v, const HkInst *i)
{
    uint32_t want = i->has_index ? 2u : 1u;
    if (i->nops == want)
        return i->has_index ? check_index(v, i, 1) : 1;
    err(v, i->loc, "'%s' takes %u operand%s, but has %u", mn(i), want, pl(want), i->nops);
    return 0;
}

/* store %v, %s / store %v, %t[%r]: LangRef "Planes". */
static void verify_store(Ver *v, const HkInst *i)
{
    const HkSlot *s = slot_of(v, i);
    if (s == NULL || !check_slot_use(v, i, s, HK_R_STORE, 1) || !write_operands(v, i))
        return;
    HkShapeRule shape = hk_roles[s->role].shape;
    const char *role = hk_roles[s->role].name;
    if (shape == HK_SHP_ROWS && !i->has_index) {
        err(v, i->loc, "store to '%%%s' needs a row index: role '%s' is a tape", s->name, role);
        return;
    }
    if (i->has_index && shape != HK_SHP_ROWS && shape != HK_SHP_DYN) {
        err(v, i->loc, "store to '%%%s' cannot be indexed: role '%s' holds one value per sample",
            s->name, role);
        return;
    }
    check_written(v, i, s, i->has_index || hk_is_dyn(s->type) ? row_type(s->type) : s->type);
}

/* accum %v, %a (own column) / accum %v, %a[%k] (scattered, <? x ...>). */
static void verify_accum(Ver *v, const HkInst *i)
{
    const HkSlot *s = slot_of(v, i);
    if (s == NULL || !check_slot_use(v, i, s, HK_R_ACCUM, 1) || !write_operands(v, i))
        return;
    if (i->has_index && !hk_is_dyn(s->type)) {
        err(v, i->loc, "scattered 'accum' into '%%%s' needs a runtime-length plane, not '%s'",
            s->name, ts(v, s->type));
        return;
    }
    check_written(v, i, s, hk_is_dyn(s->type) ? row_type(s->type) : s->type);
}

/* bump %c: a finished_count cell. */
static void verify_bump(Ver *v, const HkInst *i)
{
    const HkSlot *s = slot_of(v, i);
    if (s != NULL)
        check_slot_use(v, i, s, HK_R_BUMP, 1);
}

/* A slot's shape and element obey its role (roles.def shape column). */
static void check_slot_shape(Ver *v, const HkSlot *s)
{
    HkType t = s->type;
    const HkRoleInfo *ri = &hk_roles[s->role];
    int dyn = hk_is_dyn(t), ok = 1;
    const char *need = "";
    switch (ri->shape) {
    case HK_SHP_ANY: ok = !dyn; need = "a static type"; break;
    case HK_SHP_SCALAR: ok = t.rank == 0; need = "a rank-0 type"; break;
    case HK_SHP_VEC: ok = t.rank == 1 && !dyn; need = "a rank-1 static type"; break;
    case HK_SHP_MAT: ok = t.rank == 2 && !dyn; need = "a rank-2 static type"; break;
    case HK_SHP_DYN: ok = dyn && t.rank == 1; need = "the runtime-length type '<? x T>'"; break;
    case HK_SHP_DYN_OR_ANY: break;
    case HK_SHP_ROWS: ok = t.rank >= 1 && !dyn; need = "a tape type '<K x T>' or '<K x N x T>'"; break;
    }
    if (t.rank == 2 && t.dim[1] == HK_DYN) {
        ok = 0;
        need = "'?' only as the first extent";
    }
    if (!ok)
        err(v, s->loc, "role '%s' needs %s, but '%%%s' has type '%s'", ri->name, need,
            s->name, ts(v, t));
    HkElem e = role_elem(s->role);
    if (e != HK_VOID && t.elem != e)
        err(v, s->loc, "role '%s' needs element type '%s', but '%%%s' has type '%s'",
            ri->name, hk_elem_name(e), s->name, ts(v, t));
}

/* Slots: names, roles, shapes, and one real element type (scalar mode). */
static void verify_slots(Ver *v)
{
    const HkFunc *f = v->f;
    HkElem mode = HK_VOID;
    int mixed = 0;
    for (uint32_t k = 0; k < f->nslots; k++) {
        const HkSlot *s = &f->slots[k];
        if (!hk_symtab_put(v->names, s->name, strlen(s->name), HK_SYM_SLOT | k))
            err(v, s->loc, "redefinition of '%%%s'", s->name);
        if ((unsigned)s->role >= HK_ROLE_COUNT) {
            err(v, s->loc, "slot '%%%s' has no role", s->name);
            continue;
        }
        check_slot_shape(v, s);
        HkElem e = (HkElem)s->type.elem;
        if (!hk_is_float(e))
            continue;
        if (mode == HK_VOID)
            mode = e;
        else if (e != mode && !mixed) {
            mixed = 1;
            err(v, s->loc, "kernel '@%s' mixes %s and %s planes", f->name,
                hk_elem_name(mode), hk_elem_name(e));
        }
    }
}

/* ---- regions ---------------------------------------------------------- */

static void verify_block(Ver *v, const HkBlock *b);

/* Region b of owner ends with a yield of the types of the values want
 * (required when need, else optional); what names it in messages. */
static void check_yield(Ver *v, const HkInst *owner, const HkBlock *b, int need,
                        const HkVal *want, uint32_t n, const char *what)
{
    const HkInst *y = b->last;
    if (y == NULL || rule_of(y) != HK_R_YIELD) {
        if (need)
            err(v, owner->loc, "%s does not end with 'yield'", what);
        return;
    }
    if (y->nops != n) {
        err(v, y->loc, "'yield' in %s needs %u value%s, but has %u", what, n, pl(n), y->nops);
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        if (y->ops[k] < v->f->nvalues && !hk_type_eq(ot(v, y, k), vt(v, want[k])))
            err(v, y->loc, "'yield' value '%%%s' has type '%s', but %s needs '%s'",
                vn(v, y->ops[k]), ts(v, ot(v, y, k)), what, ts(v, vt(v, want[k])));
}

/* Verifies region r of owner and the yield that ends it. */
static void verify_region(Ver *v, const HkInst *owner, uint32_t r, int need,
                          const HkVal *want, uint32_t n, const char *what)
{
    verify_block(v, &owner->regions[r]);
    check_yield(v, owner, &owner->regions[r], need, want, n, what);
}

/* A condition operand is an i1 of rank 0. */
static int check_cond(Ver *v, const HkInst *i, const char *what)
{
    if (is_scalar_of(ot(v, i, 0), HK_I1))
        return 1;
    err(v, i->loc, "%s condition '%%%s' must be i1, but has type '%s'", what,
        vn(v, i->ops[0]), ts(v, ot(v, i, 0)));
    return 0;
}

/* Trip bounds: 0 <= lo <= hi, or a runtime i64 count with max >= 1. */
static void check_bounds(Ver *v, const HkInst *i)
{
    if (!i->has_count) {
        if (i->lo < 0 || i->lo > i->hi)
            err(v, i->loc, "loop bounds %" PRId64 " to %" PRId64
                " do not satisfy 0 <= lo <= hi", i->lo, i->hi);
        return;
    }
    if (i->lo < 0)
        err(v, i->loc, "loop lower bound %" PRId64 " is negative", i->lo);
    if (i->max_trip < 1)
        err(v, i->loc, "loop 'max' must be at least 1, but is %" PRId64, i->max_trip);
    if (i->nops > 0 && !is_scalar_of(ot(v, i, 0), HK_I64))
        err(v, i->loc, "loop count '%%%s' must be i64, but has type '%s'", vn(v, i->ops[0]),
            ts(v, ot(v, i, 0)));
}

/* The carried values: init, iter and result of each agree in type. */
static int check_carried(Ver *v, const HkInst *i)
{
    uint32_t first = i->has_count ? 1u : 0u;
    uint32_t ninit = i->nops >= first ? i->nops - first : 0;
    if (ninit != i->nres || (i->nres && i->iters == NULL)) {
        err(v, i->loc, "'loop' has %u result%s, but %u initial value%s", i->nres,
            pl(i->nres), ninit, pl(ninit));
        return 0;
    }
    for (uint32_t k = 0; k < i->nres; k++) {
        if (i->iters[k] >= v->f->nvalues) {
            err(v, i->loc, "loop-carried value %u does not exist", k);
            return 0;
        }
        HkType t = vt(v, i->iters[k]);
        if (!hk_type_eq(ot(v, i, first + k), t))
            err(v, i->loc, "initial value '%%%s' of '%%%s' has type '%s', but '%%%s' is '%s'",
                vn(v, i->ops[first + k]), vn(v, i->iters[k]), ts(v, ot(v, i, first + k)),
                vn(v, i->iters[k]), ts(v, t));
        if (!hk_type_eq(vt(v, i->res[k]), t))
            err(v, i->loc, "loop result '%%%s' has type '%s', but '%%%s' is '%s'",
                vn(v, i->res[k]), ts(v, vt(v, i->res[k])), vn(v, i->iters[k]), ts(v, t));
    }
    return 1;
}

/* loop: bounds, carried values, then the body with its index and carried
 * values visible only inside. */
static void verify_loop(Ver *v, const HkInst *i)
{
    check_bounds(v, i);
    int carried = check_carried(v, i);
    if (i->nregions != 1) {
        err(v, i->loc, "'loop' needs one body region, but has %u", i->nregions);
        return;
    }
    define(v, i->ivar, i->loc, 0);
    if (i->ivar < v->f->nvalues && !is_scalar_of(vt(v, i->ivar), HK_I64))
        err(v, i->loc, "loop index '%%%s' must be i64", vn(v, i->ivar));
    for (uint32_t k = 0; carried && k < i->nres; k++)
        define(v, i->iters[k], i->loc, 0);
    verify_region(v, i, 0, 1, carried ? i->iters : NULL, carried ? i->nres : 0, "the loop body");
    hide(v, i->ivar);
    for (uint32_t k = 0; carried && k < i->nres; k++)
        hide(v, i->iters[k]);
}

/* if: a rank-0 i1 condition; with results, both regions yield them. */
static void verify_if(Ver *v, const HkInst *i)
{
    check_cond(v, i, "'if'");
    if (i->nregions < 1 || i->nregions > 2) {
        err(v, i->loc, "'if' needs a then region and an optional else region");
        return;
    }
    int has_else = i->nregions == 2 && i->regions[1].first != NULL;
    if (i->nres > 0 && !has_else)
        err(v, i->loc, "'if' with results needs an 'else' region");
    verify_region(v, i, 0, i->nres > 0, i->res, i->nres, "the 'then' region of 'if'");
    if (i->nregions == 2)
        verify_region(v, i, 1, i->nres > 0 && has_else, i->res, i->nres,
                      "the 'else' region of 'if'");
}

/* dispatch: an i64 selector, a mix slot with one cell per case, and
 * every case yielding the results. */
static void verify_dispatch(Ver *v, const HkInst *i)
{
    if (!is_scalar_of(ot(v, i, 0), HK_I64))
        err(v, i->loc, "'dispatch' selector '%%%s' must be i64, but has type '%s'",
            vn(v, i->ops[0]), ts(v, ot(v, i, 0)));
    const HkSlot *s = slot_of(v, i);
    if (s != NULL && check_slot_use(v, i, s, HK_R_DISPATCH, 1)) {
        if (s->type.rank == 1 && s->type.dim[0] != i->nregions)
            err(v, i->loc, "'dispatch' has %u case%s, but mix slot '%%%s' has %u cell%s",
                i->nregions, pl(i->nregions), s->name, s->type.dim[0], pl(s->type.dim[0]));
        if (v->counted[i->slot])
            err(v, i->loc, "mix slot '%%%s' already counts another 'dispatch'", s->name);
        v->counted[i->slot] = 1;
    }
    if (i->nregions == 0)
        err(v, i->loc, "'dispatch' needs at least one case");
    for (uint32_t r = 0; r < i->nregions; r++) {
        const char *what = hk_asprintf(v->d->arena, "case %u of 'dispatch'", r);
        verify_region(v, i, r, 1, i->res, i->nres, what);
    }
}

/* ---- calls and returns ------------------------------------------------ */

/* Records the call graph edge of a call for the recursion check. */
static void add_edge(Ver *v, uint32_t callee, const HkInst *i)
{
    v->calls = hk_grow(v->d->arena, v->calls, &v->cap_calls, v->ncalls + 1,
                       sizeof *v->calls);
    CallEdge *e = &v->calls[v->ncalls++];
    e->caller = v->fidx;
    e->callee = callee;
    e->inst = i;
}

/* call @f(args): f is a func; arguments and results match its signature. */
static void verify_call(Ver *v, const HkInst *i)
{
    if (i->callee >= v->m->nfuncs) {
        err(v, i->loc, "call of a function that does not exist");
        return;
    }
    const HkFunc *g = v->m->funcs[i->callee];
    if (g->is_kernel) {
        err(v, i->loc, "cannot call '@%s': it is a kernel, not a func", g->name);
        return;
    }
    add_edge(v, i->callee, i);
    if (i->nops != g->nparams)
        err(v, i->loc, "call to '@%s' passes %u argument%s, but it takes %u", g->name,
            i->nops, pl(i->nops), g->nparams);
    for (uint32_t k = 0; k < i->nops && k < g->nparams; k++) {
        if (g->params[k] >= g->nvalues)
            continue; /* reported when g itself is verified */
        HkType want = g->values[g->params[k]].type;
        if (!hk_type_eq(ot(v, i, k), want))
            err(v, i->loc, "argument '%%%s' of call to '@%s' has type '%s', but '@%s' takes '%s'",
                vn(v, i->ops[k]), g->name, ts(v, ot(v, i, k)), g->name, ts(v, want));
    }
    if (i->nres != g->nrtypes)
        err(v, i->loc, "call to '@%s' has %u result%s, but '@%s' returns %u", g->name,
            i->nres, pl(i->nres), g->name, g->nrtypes);
    for (uint32_t k = 0; k < i->nres && k < g->nrtypes; k++)
        if (!hk_type_eq(vt(v, i->res[k]), g->rtypes[k]))
            err(v, i->loc, "result '%%%s' of call to '@%s' has type '%s', but '@%s' returns '%s'",
                vn(v, i->res[k]), g->name, ts(v, vt(v, i->res[k])), g->name,
                ts(v, g->rtypes[k]));
}

/* ret: nothing from a kernel, the result types from a func. */
static void verify_ret(Ver *v, const HkInst *i)
{
    const HkFunc *f = v->f;
    if (f->is_kernel) {
        if (i->nops)
            err(v, i->loc, "'ret' in kernel '@%s' takes no values", f->name);
        return;
    }
    if (i->nops != f->nrtypes) {
        err(v, i->loc, "'ret' in '@%s' needs %u value%s, but has %u", f->name, f->nrtypes,
            pl(f->nrtypes), i->nops);
        return;
    }
    for (uint32_t k = 0; k < i->nops; k++)
        if (!hk_type_eq(ot(v, i, k), f->rtypes[k]))
            err(v, i->loc, "'ret' value '%%%s' has type '%s', but '@%s' returns '%s'",
                vn(v, i->ops[k]), ts(v, ot(v, i, k)), f->name, ts(v, f->rtypes[k]));
}

/* Depth-first search from function root with an explicit stack (a long
 * call chain must not exhaust the C stack); a call back into a function
 * still on the path is recursion. */
static void dfs_calls(Ver *v, const uint32_t *first, uint8_t *color, uint32_t *stack,
                      uint32_t *next, uint32_t root)
{
    uint32_t depth = 0;
    stack[depth++] = root;
    color[root] = 1;
    next[root] = first[root];
    while (depth > 0) {
        uint32_t k = stack[depth - 1];
        if (next[k] == first[k + 1]) {
            color[k] = 2;
            depth--;
            continue;
        }
        const CallEdge *e = &v->calls[next[k]++];
        if (color[e->callee] == 1) {
            err(v, e->inst->loc, "recursive call to '@%s'", v->m->funcs[e->callee]->name);
        } else if (color[e->callee] == 0) {
            color[e->callee] = 1;
            next[e->callee] = first[e->callee];
            stack[depth++] = e->callee;
        }
    }
}

/* No function reaches itself through calls (LangRef "Control flow"). */
static void check_recursion(Ver *v)
{
    uint32_t n = v->m->nfuncs;
    uint32_t *first = hk_alloc(v->d->arena, (n + 1) * sizeof *first);
    uint32_t *stack = hk_alloc(v->d->arena, (n + 1) * sizeof *stack);
    uint32_t *next = hk_alloc(v->d->arena, (n + 1) * sizeof *next);
    uint8_t *color = hk_alloc(v->d->arena, n + 1);
    /* Edges were recorded function by function: group starts by counting. */
    for (uint32_t e = 0; e < v->ncalls; e++)
        first[v->calls[e].caller + 1]++;
    for (uint32_t k = 0; k < n; k++)
        first[k + 1] += first[k];
    for (uint32_t k = 0; k < n; k++)
        if (color[k] == 0)
            dfs_calls(v, first, color, stack, next, k);
}

/* ---- instructions ----------------------------------------------------- */

/* How many results an op of rule r has: 0, 1, or -1 when it varies. */
static int fixed_results(HkRule r)
{
    switch (r) {
    case HK_R_STORE: case HK_R_ACCUM: case HK_R_BUMP: case HK_R_BREAK:
    case HK_R_YIELD: case HK_R_RET: case HK_R_RAWDEV:
        return 0;
    case HK_R_LOOP: case HK_R_IF: case HK_R_DISPATCH: case HK_R_CALL:
        return -1;
    default:
        return 1;
    }
}

/* Operand and result counts agree with ops.def and the rule. */
static int check_counts(Ver *v, const HkInst *i)
{
    int nops = hk_ops[i->op].nops, nres = fixed_results(rule_of(i));
    if (nops >= 0 && i->nops != (uint32_t)nops) {
        err(v, i->loc, "'%s' takes %d operand%s, but has %u", mn(i), nops,
            pl((uint32_t)nops), i->nops);
        return 0;
    }
    if (nres >= 0 && i->nres != (uint32_t)nres) {
        err(v, i->loc, "'%s' has %d result%s, but %u %s given", mn(i), nres,
            pl((uint32_t)nres), i->nres, i->nres == 1 ? "is" : "are");
        return 0;
    }
    int ok = 1;
    for (uint32_t k = 0; k < i->nres; k++) {
        if (i->res[k] >= v->f->nvalues) {
            err(v, i->loc, "result %u of '%s' does not exist", k, mn(i));
            return 0;
        }
        ok &= check_value_type(v, i->res[k]);
    }
    if (!ok)
        return 0;
    if (nres == 1 && !hk_type_eq(i->type, st(v, i))) {
        err(v, i->loc, "'%s' has type '%s', but its result '%%%s' has type '%s'", mn(i),
            ts(v, i->type), vn(v, i->res[0]), ts(v, st(v, i)));
        return 0;
    }
    return 1;
}

/* The stated result type is the one the op computes. */
static void expect_type(Ver *v, const HkInst *i, HkType t)
{
    if (!hk_type_eq(st(v, i), t))
        err(v, i->loc, "result type '%s' does not match the op's type '%s'",
            ts(v, st(v, i)), ts(v, t));
}

/* The type rule of i (ops.def's Rule column). */
static void verify_rule(Ver *v, const HkInst *i)
{
    HkType t = hk_scalar(HK_VOID);
    int ok = 0;
    switch (rule_of(i)) {
    case HK_R_FARITH: case HK_R_FUNARY: case HK_R_MATH2:
        ok = elementwise(v, i, e_real, "real", &t); break;
    case HK_R_IARITH: case HK_R_IUNARY:
        ok = elementwise(v, i, e_int, "integer", &t); break;
    case HK_R_LOGIC: case HK_R_LOGICNOT:
        ok = elementwise(v, i, e_logic, "integer or i1", &t); break;
    case HK_R_MINMAX:
        ok = elementwise(v, i, e_num, "real or integer", &t); break;
    case HK_R_CLIP: ok = ty_clip(v, i, &t); break;
    case HK_R_FCMP: ok = ty_cmp(v, i, e_real, "real", &t); break;
    case HK_R_ICMP: ok = ty_cmp(v, i, e_logic, "integer or i1", &t); break;
    case HK_R_SELECT: ok = ty_select(v, i, &t); break;
    case HK_R_CONV: ok = ty_conv(v, i, &t); break;
    case HK_R_CONST: ok = ty_const(v, i, &t); break;
    case HK_R_MATH1: ok = ty_math1(v, i, &t); break;
    case HK_R_ABS: ok = ty_abs(v, i, &t); break;
    case HK_R_DOT: ok = ty_dot(v, i, &t); break;
    case HK_R_NORM: ok = ty_norm(v, i, &t); break;
    case HK_R_CROSS: ok = ty_cross(v, i, &t); break;
    case HK_R_MATVEC: ok = ty_matvec(v, i, &t); break;
    case HK_R_MATMUL: ok = ty_matmul(v, i, &t); break;
    case HK_R_TRANSPOSE: ok = ty_transpose(v, i, &t); break;
    case HK_R_REDUCE: ok = ty_reduce(v, i, &t); break;
    case HK_R_EXTRACT: ok = ty_extract(v, i, &t); break;
    case HK_R_INSERT: ok = ty_insert(v, i, &t); break;
    case HK_R_BUILD: ok = ty_build(v, i, &t); break;
    case HK_R_LOAD: ok = ty_load(v, i, &t); break;
    case HK_R_GATHER: case HK_R_AT: ok = ty_slot_index(v, i, &t); break;
    case HK_R_LANE: t = ot(v, i, 0); ok = 1; break;
    case HK_R_RANDOM:
        t = st(v, i);
        ok = hk_is_float((HkElem)t.elem);
        if (!ok)
            err(v, i->loc, "'random' needs a real result type, not '%s'", ts(v, t));
        break;
    case HK_R_STORE: verify_store(v, i); return;
    case HK_R_ACCUM: verify_accum(v, i); return;
    case HK_R_BUMP: verify_bump(v, i); return;
    case HK_R_LOOP: verify_loop(v, i); return;
    case HK_R_BREAK: check_cond(v, i, "'break_if'"); return;
    case HK_R_IF: verify_if(v, i); return;
    case HK_R_DISPATCH: verify_dispatch(v, i); return;
    case HK_R_YIELD: return; /* its region's owner checks it */
    case HK_R_CALL: verify_call(v, i); return;
    case HK_R_RET: verify_ret(v, i); return;
    case HK_R_RAWDEV:
        if (i->text == NULL)
            err(v, i->loc, "'raw_device' needs its text");
        return;
    }
    if (ok)
        expect_type(v, i, t);
}

/* Where i sits: yield last in a region, ret last in the body, break_if
 * directly in a loop body and once per loop. */
static void check_position(Ver *v, const HkBlock *b, const HkInst *i, uint32_t *breaks)
{
    switch (rule_of(i)) {
    case HK_R_YIELD:
        if (b->parent == NULL || i != b->last)
            err(v, i->loc, "'yield' must be the last instruction of a loop, if or case region");
        return;
    case HK_R_RET:
        if (b->parent != NULL || i != b->last)
            err(v, i->loc, "'ret' must be the last instruction of the function body");
        return;
    case HK_R_BREAK:
        if (b->parent == NULL || rule_of(b->parent) != HK_R_LOOP)
            err(v, i->loc, "'break_if' must be directly in a loop body");
        else if (++*breaks == 2)
            err(v, i->loc, "a loop body holds at most one 'break_if'");
        return;
    default:
        return;
    }
}

/* One instruction: place, operands, type rule, regions; then its results. */
static void verify_inst(Ver *v, const HkInst *i)
{
    if ((unsigned)i->op >= HK_OP_COUNT) {
        err(v, i->loc, "unknown operation");
        return;
    }
    int ok = check_operands(v, i) && check_counts(v, i);
    if (ok && !v->f->is_kernel && is_plane_rule(rule_of(i))) {
        err(v, i->loc, "'%s' cannot be used in func '@%s': funcs have no slots", mn(i),
            v->f->name);
        ok = 0;
    }
    if (ok)
        verify_rule(v, i);
    for (uint32_t k = 0; k < i->nres; k++)
        define(v, i->res[k], i->loc, 1);
}

/* The instructions of b in order; b's definitions go out of view after. */
static void verify_block(Ver *v, const HkBlock *b)
{
    uint32_t breaks = 0;
    for (const HkInst *i = b->first; i; i = i->next) {
        check_position(v, b, i, &breaks);
        verify_inst(v, i);
    }
    for (const HkInst *i = b->first; i; i = i->next)
        for (uint32_t k = 0; k < i->nres; k++)
            hide(v, i->res[k]);
}

/* ---- functions and the module ----------------------------------------- */

/* A func's signature: parameters (defined on entry) and result types. */
static void verify_signature(Ver *v)
{
    const HkFunc *f = v->f;
    if (f->nslots)
        err(v, f->loc, "func '@%s' cannot have slots", f->name);
    if (f->nrtypes == 0)
        err(v, f->loc, "func '@%s' needs a result type", f->name);
    for (uint32_t k = 0; k < f->nrtypes; k++)
        if (f->rtypes[k].elem == HK_VOID || hk_is_dyn(f->rtypes[k]))
            err(v, f->loc, "func '@%s' cannot return '%s'", f->name, ts(v, f->rtypes[k]));
    for (uint32_t k = 0; k < f->nparams; k++)
        define(v, f->params[k], f->loc, 0);
}

/* One function: its header, then its body, which ends with ret. */
static void verify_func(Ver *v, uint32_t idx)
{
    const HkFunc *f = v->m->funcs[idx];
    v->f = f;
    v->fidx = idx;
    v->visible = hk_alloc(v->d->arena, (size_t)f->nvalues + 1);
    v->defined = hk_alloc(v->d->arena, (size_t)f->nvalues + 1);
    v->names = hk_symtab_new(v->d->arena);
    v->counted = hk_alloc(v->d->arena, (size_t)f->nslots + 1);
    if (f->is_kernel) {
        if (f->nparams || f->nrtypes)
            err(v, f->loc, "kernel '@%s' cannot have parameters or results", f->name);
        verify_slots(v);
    } else {
        verify_signature(v);
    }
    verify_block(v, &f->body);
    if (f->body.last == NULL || rule_of(f->body.last) != HK_R_RET)
        err(v, f->loc, "body of '@%s' does not end with 'ret'", f->name);
}

uint32_t hk_verify_module(const HkModule *m, HkDiags *d)
{
    uint32_t before = d->errors;
    Ver v;
    memset(&v, 0, sizeof v);
    v.m = m;
    v.d = d;
    HkSymtab *fnames = hk_symtab_new(d->arena);
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        const HkFunc *f = m->funcs[k];
        if (!hk_symtab_put(fnames, f->name, strlen(f->name), k))
            err(&v, f->loc, "redefinition of '@%s'", f->name);
        verify_func(&v, k);
    }
    check_recursion(&v);
    return d->errors - before;
}
