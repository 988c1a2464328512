/* diff.h -- what the differentiation passes (jvp.c, vjp.c) share: the
 * state of one differentiation, the rules of every op (diff_rules.c, the
 * elementwise ones as data: rules.def, diff_partials.c) and
 * the activity of slots and values (diff_activity.c). */
#ifndef HAWK_DIFF_H
#define HAWK_DIFF_H

#include "embedded.h"

typedef struct Diff Diff;

/* What the reads of one op's rule (rules.def) share: the numbers written
 * and the parts that name no tangent, by their offset in the rule.  vjp
 * reads an op's rule once per operand, at one place, so the operands
 * share its comparisons and constants (Diff.shared). */
typedef struct {
    struct {
        double c;
        HkType t;
        HkVal v;
    } lit[8];
    uint32_t nlit;
    struct {
        uint32_t at;
        HkVal v;
    } part[16];
    uint32_t npart;
} DiffShared;

struct Diff {
    HawkPassRun *r;
    const char *pass;    /* "jvp" or "vjp", for messages */
    const char *sfx;     /* "dot" or "bar": new values are <base>.<sfx>.* */
    HkFunc *f;
    HkArena *a;
    HkVal *tan;          /* value -> its tangent, HK_NOVAL for zero */
    uint8_t *act;        /* value -> may depend on an active input */
    uint8_t *wild;       /* value -> may be infinite or NaN where every
                            input is finite (hk_diff_is_wild) */
    uint32_t nwild;      /* values wild has an entry for */
    int tame;            /* the rule being written has finite partials:
                            no term of it needs hk_diff_guard */
    DiffShared *shared;  /* while one op's rule is read once per operand
                            at one place (vjp), else NULL */
    uint32_t ntan;       /* values when the pass began */
    int32_t *tslot;      /* primal slot -> its tangent slot, or -1 */
    uint8_t *in, *out;   /* primal slot: active input, active output */
    HkInst *at;          /* tangents are inserted before it, */
    HkBlock *blk;        /* or, when NULL, at the end of this block */
    HkLoc loc;
    const char *base;    /* the primal result's name: "<base>.dot" */
    int failed;
    uint32_t roles;      /* the plane and tape roles (bit 1 << role) this
                            pass takes beyond the per-sample and uniform
                            ones (lookup, wide_in, out, wide_out,
                            accum_out) */
};

/* Where new instructions go and what they are named after: saved by
 * hk_diff_enter, which then appends to the end of blk, and put back by
 * hk_diff_leave. */
typedef struct {
    HkInst *at;
    HkBlock *blk;
    const char *base;
} DiffPoint;

/* ---- diff.c -------------------------------------------------------------- */

DiffPoint hk_diff_enter(Diff *d, HkBlock *blk);
void hk_diff_leave(Diff *d, DiffPoint p);

/* d becomes the state of pass ("jvp", "vjp"; its new values named
 * <base>.<sfx>.*) over f, with no slot active yet. */
void hk_diff_init(Diff *d, HawkPassRun *r, HkFunc *f, const char *pass,
                  const char *sfx);
/* The per-value tables over f's values as they are: no tangent, none
 * active. */
void hk_diff_values(Diff *d);
/* The activity of f's values, and which may be wild, to a fixed point
 * over loops' trips. */
void hk_diff_settle(Diff *d);
/* Whether value v may be infinite or NaN where every input is finite
 * (computed, at any distance, by an op that makes one from finite
 * operands: a division, a log, a root, pow, exp, ...; or a call, or a
 * constant that is one); a value the pass made is. */
int hk_diff_is_wild(const Diff *d, HkVal v);
/* Value to, the pass's copy of value from, takes its activity and
 * wildness (d->act and d->wild as long as f's values). */
void hk_diff_inherit(Diff *d, HkVal to, HkVal from);
/* d->wild as long as f's values, the new entries wild. */
void hk_diff_grow_wild(Diff *d);
/* Refuses node at of g (the kernel, or a func it calls) by name. */
void hk_diff_refuse(Diff *d, HkFunc *g, const HkInst *at, const char *why);
/* Refuses the kernel's call that starts a chain of calls deeper than
 * HK_CALL_DEPTH_MAX (the pass makes a func per level, by recursion,
 * before it follows any); whether it did. */
int hk_diff_refuse_deep(Diff *d);
/* Refuses "<g>_<pass>", the name of g's derivative (what: "derivative",
 * "reverse derivative"), when the module has a function of that name the
 * pass did not make. */
void hk_diff_name_free(Diff *d, const HkFunc *g, const char *what);
/* The func g names as its rule for this pass (attributes {jvp = @r} or
 * {vjp = @r}, which the verifier checked), or NULL: a call of g then
 * calls it instead of g's derivative. */
HkFunc *hk_diff_custom(const Diff *d, const HkFunc *g);
/* g's derivative func "<g>_<pass>": the one made before (*made 0), else a
 * new copy of g to differentiate (*made 1). */
HkFunc *hk_diff_func_copy(Diff *d, HkFunc *g, int *made);
/* The derivative kernel's name "<f>_<pass>", or NULL after a diagnostic
 * when the module has it. */
const char *hk_diff_kernel_name(Diff *d);
/* Records on the kernel what the report's derivative figures need (a
 * copy of the primal as it is now, the active slots): called once the
 * activity is known, before the kernel changes. */
void hk_diff_origin(Diff *d);
/* Renames the kernel (the module's name table follows). */
void hk_diff_rename(Diff *d, const char *name);

/* ---- diff_rules.c -------------------------------------------------------- */

/* Puts new instruction i before s->at, or at the end of s->blk when
 * s->at is NULL. */
void hk_diff_place(Diff *s, HkInst *i);
HkType hk_diff_type(const Diff *s, HkVal v);
int hk_diff_is_real(HkType t);
/* The tangent recorded for v, HK_NOVAL for zero. */
HkVal hk_diff_tan(const Diff *s, HkVal v);
/* A new instruction at the insertion point; its one result of type t,
 * named "<base>.dot.t". */
HkVal hk_diff_emit(Diff *s, HkOp op, const HkVal *ops, uint32_t n, HkType t);
HkVal hk_diff_emit1(Diff *s, HkOp op, HkVal a, HkType t);
HkVal hk_diff_emit2(Diff *s, HkOp op, HkVal a, HkVal b, HkType t);
/* The real constant c of type t. */
HkVal hk_diff_real(Diff *s, double c, HkType t);
/* The integer (or i1) constant c of type t, named "<base>.<sfx>.k" (base
 * NULL: s->base), placed before `before`, or at the insertion point when
 * it is NULL. */
HkVal hk_diff_int(Diff *s, int64_t c, HkType t, const char *base,
                  HkInst *before);
HkVal hk_diff_fcmp(Diff *s, HkPred p, HkVal a, HkVal b);
/* select c, a, b of type t, per component under a tensor condition. */
HkVal hk_diff_sel(Diff *s, HkVal c, HkVal a, HkVal b, HkType t);
/* Tangent t as a value of type rt (HK_NOVAL: 0.0; a rank-0 one under a
 * tensor type broadcast). */
HkVal hk_diff_full(Diff *s, HkVal t, HkType rt);
/* term, or exactly 0 where the tangent t is exactly 0, every component
 * of it for a tensor (a partial that is infinite or NaN times a zero
 * tangent adds 0, not NaN). */
HkVal hk_diff_guard(Diff *s, HkVal t, HkVal term);
/* ta + tb, f t and t / d, a zero tangent kept zero: HK_NOVAL stays
 * HK_NOVAL, and a tangent 0 at run time gives exactly 0 (hk_diff_guard;
 * not when f is a finite constant, or d one other than 0). */
HkVal hk_diff_add(Diff *s, HkVal ta, HkVal tb, HkType rt);
HkVal hk_diff_scale(Diff *s, HkVal f, HkVal t, HkType rt);
HkVal hk_diff_over(Diff *s, HkVal t, HkVal d, HkType rt);
/* The tangent of i's one real result from its operands' tangents
 * (s->tan), or HK_NOVAL for zero. */
HkVal hk_diff_rule(Diff *s, HkInst *i);
/* Why op i is not differentiated, or NULL. */
const char *hk_diff_refused(const Diff *s, const HkInst *i);

/* ---- diff_partials.c ----------------------------------------------------- */

/* Whether op's derivative is a rule of rules.def (the elementwise real
 * ops). */
int hk_diff_has_rule(HkOp op);
/* The tangent of i's result by its rule in rules.def, or HK_NOVAL for
 * zero. */
HkVal hk_diff_partials(Diff *s, const HkInst *i);

/* ---- diff_activity.c ----------------------------------------------------- */

/* Whether an operand of i from index from on is active. */
int hk_diff_any_active(const Diff *s, const HkInst *i, uint32_t from);
/* One sweep of the activity of every value of b (s->act); whether any
 * changed: the caller repeats it to a fixed point. */
int hk_diff_act_block(Diff *s, const HkBlock *b);
/* Whether op makes an infinite or NaN result from finite operands: a
 * pole or an edge of its domain, or an overflow of its own. */
int hk_diff_wild_op(HkOp op);
/* One sweep of the wildness of every value of b (s->wild: may be
 * infinite or NaN where every input is finite); whether any changed. */
int hk_diff_wild_block(Diff *s, const HkBlock *b);
/* Whether a real slot of role r may be an active input, an active output
 * (the plane and tape roles when s->roles has them). */
int hk_diff_input_role(const Diff *s, HkRole r);
int hk_diff_output_role(const Diff *s, HkRole r);
/* The active slots (s->in, s->out): the options wrt= and of=, else every
 * real input and output; 0, or -1 after a diagnostic. */
int hk_diff_slots(Diff *s);

#endif
