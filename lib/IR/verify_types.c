/* verify_types.c -- the type rules of docs/LangRef.md "Verification":
 * for each op, the operand types its rule (ops.def's Rule column) accepts
 * and the result type it computes, which must be the stated one; for each
 * slot, the shape and element its role takes (roles.def) and which ops may
 * read or write it.  verifier.c calls in once the op is known and its
 * operand and result handles exist (verify.h).
 */
#include <inttypes.h>
#include <string.h>

#include "verify.h"

/* ---- operand classes and broadcasting --------------------------------- */

typedef int (*ElemOk)(HkElem e);

static int e_real(HkElem e) { return hk_is_float(e); }
static int e_int(HkElem e) { return hk_is_int(e); }
static int e_logic(HkElem e) { return hk_is_int(e) || e == HK_I1; }
static int e_num(HkElem e) { return hk_is_int(e) || hk_is_float(e); }

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
    case HK_OP_BITCAST:  /* same width, real to integer or back (below) */
        *from = *to = EB_F | EB(HK_I32) | EB(HK_U32) | EB(HK_I64);
        return;
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
    /* bitcast keeps the width and crosses between real and integer */
    if (i->op == HK_OP_BITCAST &&
        (hk_elem_bytes(r) != hk_elem_bytes(a) || hk_is_float(r) == hk_is_float(a)))
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
/* The literals of a const or table i of element type t: present, and
 * each integer one fitting t ("has no <noun>" otherwise). */
static int payload_fits(Ver *v, const HkInst *i, HkType t, const char *noun)
{
    HkElem e = (HkElem)t.elem;
    if (i->x->cst.n == 0 ||
        (hk_is_float(e) ? i->x->cst.f == NULL : i->x->cst.i == NULL)) {
        err(v, i->loc, "'%s' of type '%s' has no %s", mn(i), ts(v, t), noun);
        return 0;
    }
    for (uint32_t k = 0; !hk_is_float(e) && k < i->x->cst.n; k++)
        if (!int_fits(e, i->x->cst.i[k])) {
            err(v, i->loc, "integer literal %" PRId64 " does not fit '%s'", i->x->cst.i[k],
                hk_elem_name(e));
            return 0;
        }
    return 1;
}

static int ty_const(Ver *v, const HkInst *i, HkType *out)
{
    HkType t = st(v, i);
    uint32_t n = hk_components(t);
    if (i->x->cst.n != 1 && i->x->cst.n != n) {
        if (n == 1)
            err(v, i->loc, "'const' of type '%s' needs 1 literal, but has %u", ts(v, t),
                i->x->cst.n);
        else
            err(v, i->loc, "'const' of type '%s' needs 1 or %u literals, but has %u",
                ts(v, t), n, i->x->cst.n);
        return 0;
    }
    if (!payload_fits(v, i, t, "literal"))
        return 0;
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
    for (uint32_t k = 0; k < i->x->nimm; k++)
        if (i->x->imm[k] < 0 || i->x->imm[k] >= (int64_t)a.dim[k]) {
            err(v, i->loc, "index %" PRId64 " is out of range for '%s'", i->x->imm[k],
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
    if (i->x->nimm == 0 || i->x->nimm > a.rank) {
        err(v, i->loc, "'extract' from '%s' takes %s, but has %u", ts(v, a),
            a.rank == 1 ? "1 index" : "1 or 2 indices", i->x->nimm);
        return 0;
    }
    if (!imms_in_range(v, i, a))
        return 0;
    *out = i->x->nimm == a.rank ? hk_scalar((HkElem)a.elem) : hk_vec((HkElem)a.elem, a.dim[1]);
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
    if (i->x->nimm != a.rank) {
        err(v, i->loc, "'insert' into '%s' takes %s, but has %u", ts(v, a),
            a.rank == 1 ? "1 index" : "2 indices", i->x->nimm);
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
    case HK_ROLE_TERMINATED: case HK_ROLE_LOCAL:
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
    case HK_R_CLAMPIDX: return "clamp an index into";
    case HK_R_STORE: return "store to";
    case HK_R_ACCUM: return "accumulate into";
    case HK_R_BUMP: return "bump";
    case HK_R_DISPATCH: return "count dispatch cases in";
    default: return "use";
    }
}

/* i's slot, or NULL after a diagnostic (a slot without a role was
 * reported at the slot: verify_slots). */
const HkSlot *hk_verify_slot_of(Ver *v, const HkInst *i)
{
    if (i->slot < 0 || (uint32_t)i->slot >= v->f->nslots) {
        err(v, i->loc, "'%s' needs a slot", mn(i));
        return NULL;
    }
    const HkSlot *s = &v->f->slots[i->slot];
    return (unsigned)s->role < HK_ROLE_COUNT ? s : NULL;
}

/* The mnemonic of the first op with rule r (for "use 'gather'" hints).
 * The rules writer_of and reader_of give all have an op, so the "?" is
 * never shown. */
static const char *rule_mnemonic(HkRule r)
{
    for (int k = 0; k < HK_OP_COUNT; k++)
        if (hk_ops[k].rule == r)
            return hk_ops[k].mnemonic;
    return "?";
}

/* i, of the op family want (at reads like load), may read (write) slot
 * s; reports why not. */
int hk_verify_slot_use(Ver *v, const HkInst *i, const HkSlot *s, HkRule want,
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

/* load %s : T, with T the slot's type; load %l[%r] : T, row r of a
 * local, T its element. */
static int ty_load(Ver *v, const HkInst *i, HkType *out)
{
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s == NULL || !hk_verify_slot_use(v, i, s, HK_R_LOAD, 0))
        return 0;
    if (s->role == HK_ROLE_LOCAL) {
        if (!i->has_index || i->nops != 1) {
            err(v, i->loc, "'load' from local '%%%s' needs a row index, '%%%s[%%r]'",
                s->name, s->name);
            return 0;
        }
        if (!check_index(v, i, 0))
            return 0;
        *out = row_type(s->type);
        return 1;
    }
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
    const HkSlot *s = hk_verify_slot_of(v, i);
    HkRule r = rule_of(i);
    if (s == NULL || !hk_verify_slot_use(v, i, s, r == HK_R_AT ? HK_R_LOAD : r, 0) ||
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

/* clamp_index %p, %k : i64 (k held to [0, extent - 1] of a runtime-length
 * plane or a tape's rows); clamp_index %p : i64, the sample's own position
 * held to a runtime-length plane's (LangRef "Index clamping"). */
static int ty_clamp_index(Ver *v, const HkInst *i, HkType *out)
{
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s == NULL)
        return 0;
    int dyn = s->type.rank >= 1 && s->type.dim[0] == HK_DYN;
    int rows = hk_roles[s->role].shape == HK_SHP_ROWS ||
               hk_roles[s->role].shape == HK_SHP_ROWS1;
    if (!dyn && !rows) {
        err(v, i->loc, "cannot clamp an index into '%%%s': role '%s' has neither rows nor a runtime length",
            s->name, hk_roles[s->role].name);
        return 0;
    }
    if (i->nops > 1 || (i->nops == 0 && !dyn)) {
        err(v, i->loc, "'clamp_index' into '%%%s' takes %s, but has %u", s->name,
            dyn ? "at most one index" : "one index", i->nops);
        return 0;
    }
    if (i->nops == 1 && !check_index(v, i, 0))
        return 0;
    *out = hk_scalar(HK_I64);
    return 1;
}

/* table %k, [e0, ..., eN-1] : T: an i64 index, N >= 1 entries of a
 * rank-0 real or integer T, each fitting it. */
static int ty_table(Ver *v, const HkInst *i, HkType *out)
{
    HkType t = st(v, i);
    HkElem e = (HkElem)t.elem;
    if (!check_index(v, i, 0))
        return 0;
    if (t.rank != 0 || !e_num(e)) {
        err(v, i->loc, "'table' needs a rank-0 real or integer type, not '%s'",
            ts(v, t));
        return 0;
    }
    if (!payload_fits(v, i, t, "entries"))
        return 0;
    *out = t;
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

/* Whether i stores into a cell of a shared accum_out plane (the legal form
 * of an own-column accumulate there, LangRef "Planes"). */
static int cell_store(const HkInst *i, const HkSlot *s)
{
    return s->role == HK_ROLE_ACCUM_OUT && hk_is_dyn(s->type) && i->has_index;
}

/* store %v, %s / store %v, %t[%r]: LangRef "Planes". */
static void verify_store(Ver *v, const HkInst *i)
{
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s == NULL || (!cell_store(i, s) && !hk_verify_slot_use(v, i, s, HK_R_STORE, 1)) ||
        !write_operands(v, i))
        return;
    HkShapeRule shape = hk_roles[s->role].shape;
    const char *role = hk_roles[s->role].name;
    int rows = shape == HK_SHP_ROWS || shape == HK_SHP_ROWS1;
    if (rows && !i->has_index) {
        err(v, i->loc, "store to '%%%s' needs a row index: role '%s' %s", s->name, role,
            shape == HK_SHP_ROWS ? "is a tape" : "holds rows");
        return;
    }
    if (i->has_index && !rows && shape != HK_SHP_DYN && !cell_store(i, s)) {
        err(v, i->loc, "store to '%%%s' cannot be indexed: role '%s' holds one value per sample",
            s->name, role);
        return;
    }
    check_written(v, i, s, i->has_index || hk_is_dyn(s->type) ? row_type(s->type) : s->type);
}

/* accum %v, %a (own column) / accum %v, %a[%k] (scattered, <? x ...>). */
static void verify_accum(Ver *v, const HkInst *i)
{
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s == NULL || !hk_verify_slot_use(v, i, s, HK_R_ACCUM, 1) || !write_operands(v, i))
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
    const HkSlot *s = hk_verify_slot_of(v, i);
    if (s != NULL)
        hk_verify_slot_use(v, i, s, HK_R_BUMP, 1);
}

const char *hk_verify_extents(HkType t)
{
    uint64_t n = 1;
    for (unsigned k = 0; k < t.rank && k < 2; k++) {
        if (t.dim[k] == HK_DYN)
            continue;
        if (t.dim[k] < 1)
            return "a tensor extent must be at least 1";
        n *= t.dim[k];
    }
    if (n >= UINT64_C(1) << 31)
        return "a tensor must have fewer than 2^31 components";
    return NULL;
}

/* A slot's shape and element obey its role (roles.def shape column). */
void hk_verify_slot_type(Ver *v, const HkSlot *s)
{
    HkType t = s->type;
    const HkRoleInfo *ri = &hk_roles[s->role];
    const char *bad = hk_verify_extents(t);
    if (bad != NULL) {
        err(v, s->loc, "slot '%%%s' has type '%s': %s", s->name, ts(v, t), bad);
        return;
    }
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
    case HK_SHP_ROWS1: ok = t.rank == 1 && !dyn; need = "the type '<K x T>' (K static rows of a rank-0 element)"; break;
    }
    if (t.rank == 2 && t.dim[1] == HK_DYN) {
        ok = 0;
        need = "'?' only as the first extent";
    }
    if (!ok)
        err(v, s->loc, "role '%s' needs %s, but '%%%s' has type '%s'", ri->name, need,
            s->name, ts(v, t));
    if (s->role == HK_ROLE_LOCAL && t.elem == HK_I1)
        err(v, s->loc, "local '%%%s' has type '%s': a local holds rows of f32, f64, "
            "i32, u32 or i64", s->name, ts(v, t));
    HkElem e = role_elem(s->role);
    if (e != HK_VOID && t.elem != e)
        err(v, s->loc, "role '%s' needs element type '%s', but '%%%s' has type '%s'",
            ri->name, hk_elem_name(e), s->name, ts(v, t));
}

/* ---- the rule of an op ------------------------------------------------- */

/* The stated result type is the one the op computes. */
static void expect_type(Ver *v, const HkInst *i, HkType t)
{
    if (!hk_type_eq(st(v, i), t))
        err(v, i->loc, "result type '%s' does not match the op's type '%s'",
            ts(v, st(v, i)), ts(v, t));
}

/* The type rule of i (ops.def's Rule column): the rule's result type must
 * be the stated one. */
void hk_verify_types(Ver *v, const HkInst *i)
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
    case HK_R_CLAMPIDX: ok = ty_clamp_index(v, i, &t); break;
    case HK_R_TABLE: ok = ty_table(v, i, &t); break;
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
    case HK_R_LOOP: case HK_R_BREAK: case HK_R_IF: case HK_R_DISPATCH:
    case HK_R_YIELD: case HK_R_CALL: case HK_R_RET:
        return; /* verifier.c: verify_rule */
    case HK_R_RAWDEV:
        if (i->x->text == NULL)
            err(v, i->loc, "'raw_device' needs its text");
        return;
    }
    if (ok)
        expect_type(v, i, t);
}
