/* badir.c -- hawk-capi-badir: the verifier's diagnostics that no HIR text
 * reaches, because the parser rejects the text first or cannot express the
 * IR at all (a value handle out of range, a plane op in a func, an
 * instruction whose type disagrees with its result, a constant with the
 * wrong number of literals, a loop without its body region, ...).  A pass
 * or a program using the IR directly can still build such IR, and
 * -verify-each must then say what is wrong, not crash.
 *
 * Each case builds one broken module with the construction API of
 * lib/IR/ir.h (private: only a test may reach it) and verifies it:
 *
 *   hawk-capi-badir CASE...     (or "all": every case, in table order)
 *
 * For each case, prints "case CASE:" and the rendered diagnostics to
 * stderr.  The module's file is named CASE.hir and has no text, so a
 * diagnostic shows as "CASE.hir:LINE:COL: error: message": functions are
 * created at column 1, slots at 2, instructions at 3, each on the next
 * line.  Exit status 1 when every case has errors (as each should), 0 when
 * one verifies clean, 2 on a usage error. */
#include "capi_test.h"
#include "passctx.h"

#define TOOL "hawk-capi-badir"

/* The module being built and the line of the next thing created. */
typedef struct {
    HkModule *m;
    uint32_t line;
} B;

static const HkType F64 = {HK_F64, 0, {0, 0}};
static const HkType I64 = {HK_I64, 0, {0, 0}};
static const HkType I1 = {HK_I1, 0, {0, 0}};

/* The location of the next thing created, at column col. */
static HkLoc at(B *b, uint32_t col)
{
    HkLoc l = {++b->line, col};
    return l;
}

static HkFunc *kernel(B *b, const char *name)
{
    return hk_func_new(b->m, name, 1, at(b, 1));
}

/* A func returning one value of type rt. */
static HkFunc *func(B *b, const char *name, HkType rt)
{
    HkFunc *f = hk_func_new(b->m, name, 0, at(b, 1));
    f->rtypes = hk_alloc(b->m->arena, sizeof *f->rtypes);
    f->rtypes[0] = rt;
    f->nrtypes = 1;
    return f;
}

/* Adds a parameter of type t to func f. */
static HkVal param(B *b, HkFunc *f, HkType t, const char *name)
{
    HkVal *p = hk_alloc(b->m->arena, (f->nparams + 1) * sizeof *p);
    for (uint32_t k = 0; k < f->nparams; k++)
        p[k] = f->params[k];
    p[f->nparams] = hk_value_new(f, t, name, HK_DEF_PARAM, NULL, f->nparams,
                                 at(b, 2));
    f->params = p;
    return p[f->nparams++];
}

static int32_t slot(B *b, HkFunc *f, const char *name, HkRole role, HkType t)
{
    return hk_slot_add(f, name, role, t, at(b, 2));
}

/* A new instruction at the end of blk with the n operands ops. */
static HkInst *inst(B *b, HkFunc *f, HkBlock *blk, HkOp op, const HkVal *ops,
                    uint32_t n)
{
    HkInst *i = hk_inst_new(f, op, at(b, 3));
    hk_inst_set_ops(f, i, ops, n);
    hk_block_append(blk, i);
    return i;
}

/* %name = const : t at the end of f's body, its payload n zero literals,
 * float or integer as ints says (whatever t is). */
static HkInst *literals(B *b, HkFunc *f, HkType t, uint32_t n, int ints,
                        const char *name)
{
    HkInst *i = inst(b, f, &f->body, HK_OP_CONST, NULL, 0);
    i->x->cst.n = n;
    if (ints)
        i->x->cst.i = hk_alloc(b->m->arena, n * sizeof *i->x->cst.i);
    else
        i->x->cst.f = hk_alloc(b->m->arena, n * sizeof *i->x->cst.f);
    hk_inst_result(f, i, t, name);
    return i;
}

/* %name = const x : f64 at the end of f's body. */
static HkVal cst(B *b, HkFunc *f, double x, const char *name)
{
    HkInst *i = literals(b, f, F64, 1, 0, name);
    i->x->cst.f[0] = x;
    return hk_res(i)[0];
}

/* %name = fneg %x : f64 at the end of blk. */
static HkInst *fneg(B *b, HkFunc *f, HkBlock *blk, HkVal x, const char *name)
{
    HkInst *i = inst(b, f, blk, HK_OP_FNEG, &x, 1);
    hk_inst_result(f, i, F64, name);
    return i;
}

/* `ret` with the n values vals, ending f's body. */
static void ret(B *b, HkFunc *f, const HkVal *vals, uint32_t n)
{
    inst(b, f, &f->body, HK_OP_RET, vals, n);
}

/* n regions for i, each ending with a `yield` of the n values vals. */
static void regions(B *b, HkFunc *f, HkInst *i, uint32_t nregions,
                    const HkVal *vals, uint32_t n)
{
    HkBlock *r = hk_inst_add_regions(f, i, nregions);
    for (uint32_t k = 0; k < nregions; k++)
        inst(b, f, &r[k], HK_OP_YIELD, vals, n);
}

/* loop %i = 0 to 4 (the index typed ivt) with no carried values, its
 * body a lone yield unless nregions is 0. */
static HkInst *loop(B *b, HkFunc *f, HkType ivt, uint32_t nregions)
{
    HkInst *l = inst(b, f, &f->body, HK_OP_LOOP, NULL, 0);
    l->x->hi = 4;
    l->x->ivar = hk_value_new(f, ivt, "i", HK_DEF_IVAR, l, 0, l->loc);
    regions(b, f, l, nregions, NULL, 0);
    return l;
}

/* loop %i = 0 to 4 iter(%s = %init) with %s typed st and the result typed
 * rt; the body yields %s. */
static HkInst *carried(B *b, HkFunc *f, HkVal init, HkType st, HkType rt)
{
    HkInst *l = inst(b, f, &f->body, HK_OP_LOOP, &init, 1);
    l->x->hi = 4;
    l->x->ivar = hk_value_new(f, I64, "i", HK_DEF_IVAR, l, 0, l->loc);
    l->x->iters = hk_alloc(b->m->arena, sizeof *l->x->iters);
    l->x->iters[0] = hk_value_new(f, st, "s", HK_DEF_ITER, l, 0, l->loc);
    hk_inst_result(f, l, rt, "r");
    regions(b, f, l, 1, l->x->iters, 1);
    return l;
}

/* ---- the cases, in verifier.c order ------------------------------------ */

/* A result typed void. */
static void no_type(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, hk_scalar(HK_VOID), 1, 0, "x");
    ret(b, k, NULL, 0);
}

/* A func parameter whose handle is past the function's values; a call of
 * it still verifies its arguments against the parameters that exist. */
static void bad_param(B *b)
{
    HkFunc *g = func(b, "g", F64);
    param(b, g, F64, "x");
    g->params[0] = 99;
    HkVal one = cst(b, g, 1.0, "one");
    ret(b, g, &one, 1);
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    HkInst *call = inst(b, k, &k->body, HK_OP_CALL, &c, 1);
    call->x->callee = 0;
    hk_inst_result(k, call, F64, "y");
    ret(b, k, NULL, 0);
}

/* Two values of one name (hk_value_new would have renamed the second). */
static void redef_value(B *b)
{
    HkFunc *k = kernel(b, "k");
    cst(b, k, 1.0, "x");
    HkVal y = cst(b, k, 2.0, "y");
    hk_value(k, y)->name = "x";
    ret(b, k, NULL, 0);
}

/* An operand handle past the function's values. */
static void bad_operand(B *b)
{
    HkFunc *k = kernel(b, "k");
    fneg(b, k, &k->body, 99, "y");
    ret(b, k, NULL, 0);
}

/* fcmp with one of icmp's predicates. */
static void bad_pred(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    HkVal ops[2] = {c, c};
    HkInst *i = inst(b, k, &k->body, HK_OP_FCMP, ops, 2);
    i->pred = HK_P_EQ;
    hk_inst_result(k, i, I1, "p");
    ret(b, k, NULL, 0);
}

/* A scalar const with two literals. */
static void const_count_one(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, F64, 2, 0, "c");
    ret(b, k, NULL, 0);
}

/* A <3 x f64> const with two literals. */
static void const_count_many(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, hk_vec(HK_F64, 3), 2, 0, "c");
    ret(b, k, NULL, 0);
}

/* A float const whose payload holds integers only. */
static void const_no_literal(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, F64, 1, 1, "c");
    ret(b, k, NULL, 0);
}

/* An i32 const of 2^40. */
static void const_range(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, hk_scalar(HK_I32), 1, 1, "c")->x->cst.i[0] = INT64_C(1) << 40;
    ret(b, k, NULL, 0);
}

/* A const of type <0 x f64>: the parser refuses the extent, the API
 * does not. */
static void zero_extent(B *b)
{
    HkFunc *k = kernel(b, "k");
    literals(b, k, hk_vec(HK_F64, 0), 1, 0, "c");
    ret(b, k, NULL, 0);
}

/* A mat_in slot typed <3 x 0 x f64>. */
static void slot_zero_extent(B *b)
{
    HkFunc *k = kernel(b, "k");
    slot(b, k, "m", HK_ROLE_MAT_IN, hk_mat(HK_F64, 3, 0));
    ret(b, k, NULL, 0);
}

/* A mat_in slot of 2^31 components, whose count overflows int32. */
static void slot_huge(B *b)
{
    HkFunc *k = kernel(b, "k");
    slot(b, k, "m", HK_ROLE_MAT_IN, hk_mat(HK_F64, 65536, 32768));
    ret(b, k, NULL, 0);
}

/* A load without a slot. */
static void no_slot(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkInst *i = inst(b, k, &k->body, HK_OP_LOAD, NULL, 0);
    hk_inst_result(k, i, F64, "x");
    ret(b, k, NULL, 0);
}

/* A store of three operands and no index. */
static void store_operands(B *b)
{
    HkFunc *k = kernel(b, "k");
    int32_t o = slot(b, k, "o", HK_ROLE_MUTABLE, F64);
    HkVal c = cst(b, k, 1.0, "c");
    HkVal ops[3] = {c, c, c};
    inst(b, k, &k->body, HK_OP_STORE, ops, 3)->slot = o;
    ret(b, k, NULL, 0);
}

/* A mat_in slot whose second extent is a runtime one. */
static void slot_inner_dyn(B *b)
{
    HkFunc *k = kernel(b, "k");
    slot(b, k, "m", HK_ROLE_MAT_IN, hk_mat(HK_F64, 2, HK_DYN));
    ret(b, k, NULL, 0);
}

/* Two slots of one name (hk_slot_add refuses the second). */
static void redef_slot(B *b)
{
    HkFunc *k = kernel(b, "k");
    slot(b, k, "a", HK_ROLE_UNIFORM, F64);
    int32_t s = slot(b, k, "b", HK_ROLE_UNIFORM, F64);
    k->slots[s].name = "a";
    ret(b, k, NULL, 0);
}

/* A slot whose role is past roles.def; a load from it says nothing
 * more. */
static void slot_no_role(B *b)
{
    HkFunc *k = kernel(b, "k");
    int32_t s = slot(b, k, "a", HK_ROLE_COUNT, F64);
    HkInst *i = inst(b, k, &k->body, HK_OP_LOAD, NULL, 0);
    i->slot = s;
    hk_inst_result(k, i, F64, "x");
    ret(b, k, NULL, 0);
}

/* A loop with one result and no initial value. */
static void loop_inits(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkInst *l = loop(b, k, I64, 1);
    hk_inst_result(k, l, F64, "r");
    ret(b, k, NULL, 0);
}

/* A loop whose carried value's handle is past the function's values. */
static void loop_iter_missing(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    carried(b, k, c, F64, F64)->x->iters[0] = 99;
    ret(b, k, NULL, 0);
}

/* An f64 initial value for an i64 carried value. */
static void loop_init_type(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    carried(b, k, c, I64, I64);
    ret(b, k, NULL, 0);
}

/* An i64 result for an f64 carried value. */
static void loop_result_type(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    carried(b, k, c, F64, I64);
    ret(b, k, NULL, 0);
}

/* A loop without a body region. */
static void loop_regions(B *b)
{
    HkFunc *k = kernel(b, "k");
    loop(b, k, I64, 0);
    ret(b, k, NULL, 0);
}

/* A loop index typed f64. */
static void loop_index_type(B *b)
{
    HkFunc *k = kernel(b, "k");
    loop(b, k, F64, 1);
    ret(b, k, NULL, 0);
}

/* An if with three regions. */
static void if_regions(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal p = hk_res(literals(b, k, I1, 1, 1, "p"))[0];
    regions(b, k, inst(b, k, &k->body, HK_OP_IF, &p, 1), 3, NULL, 0);
    ret(b, k, NULL, 0);
}

/* A dispatch without a case, over a one-cell mix slot. */
static void dispatch_no_case(B *b)
{
    HkFunc *k = kernel(b, "k");
    int32_t m = slot(b, k, "m", HK_ROLE_MIX, hk_vec(HK_U32, 1));
    HkVal sel = hk_res(literals(b, k, I64, 1, 1, "sel"))[0];
    inst(b, k, &k->body, HK_OP_DISPATCH, &sel, 1)->slot = m;
    ret(b, k, NULL, 0);
}

/* A call of function number 7 in a module of one. */
static void call_missing(B *b)
{
    HkFunc *k = kernel(b, "k");
    inst(b, k, &k->body, HK_OP_CALL, NULL, 0)->x->callee = 7;
    ret(b, k, NULL, 0);
}

/* An fneg with two results. */
static void result_count(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    HkInst *i = inst(b, k, &k->body, HK_OP_FNEG, &c, 1);
    const HkType types[2] = {F64, F64};
    const char *const names[2] = {"y", "z"};
    hk_inst_set_results(k, i, types, names, 2);
    ret(b, k, NULL, 0);
}

/* A result handle past the function's values. */
static void result_missing(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    hk_res(fneg(b, k, &k->body, c, "y"))[0] = 99;
    ret(b, k, NULL, 0);
}

/* An instruction whose type is not its result's (a pass changed one). */
static void stale_type(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal c = cst(b, k, 1.0, "c");
    fneg(b, k, &k->body, c, "y")->type = hk_scalar(HK_F32);
    ret(b, k, NULL, 0);
}

/* A raw_device without its text. */
static void rawdev_text(B *b)
{
    HkFunc *k = kernel(b, "k");
    inst(b, k, &k->body, HK_OP_RAW_DEVICE, NULL, 0);
    ret(b, k, NULL, 0);
}

/* An op number past ops.def, as the last instruction of the body. */
static void unknown_op(B *b)
{
    HkFunc *k = kernel(b, "k");
    inst(b, k, &k->body, HK_OP_COUNT, NULL, 0);
}

/* A load in a func. */
static void plane_in_func(B *b)
{
    HkFunc *g = func(b, "g", F64);
    HkInst *i = inst(b, g, &g->body, HK_OP_LOAD, NULL, 0);
    i->slot = 0;
    HkVal x = hk_inst_result(g, i, F64, "x");
    ret(b, g, &x, 1);
}

/* A func with a slot. */
static void func_slots(B *b)
{
    HkFunc *g = func(b, "g", F64);
    slot(b, g, "a", HK_ROLE_UNIFORM, F64);
    HkVal c = cst(b, g, 1.0, "c");
    ret(b, g, &c, 1);
}

/* A func without a result type. */
static void func_no_result(B *b)
{
    HkFunc *g = func(b, "g", F64);
    g->nrtypes = 0;
    ret(b, g, NULL, 0);
}

/* A func returning void. */
static void func_void(B *b)
{
    HkFunc *g = func(b, "g", hk_scalar(HK_VOID));
    HkVal c = cst(b, g, 1.0, "c");
    ret(b, g, &c, 1);
}

/* A kernel with a parameter. */
static void kernel_params(B *b)
{
    HkFunc *k = kernel(b, "k");
    HkVal *p = hk_alloc(b->m->arena, sizeof *p);
    p[0] = hk_value_new(k, F64, "x", HK_DEF_PARAM, NULL, 0, at(b, 2));
    k->params = p;
    k->nparams = 1;
    ret(b, k, NULL, 0);
}

/* Two functions of one name. */
static void redef_func(B *b)
{
    HkFunc *k = kernel(b, "k");
    ret(b, k, NULL, 0);
    k = kernel(b, "k");
    ret(b, k, NULL, 0);
}

typedef struct {
    const char *name;
    void (*build)(B *b);
} Case;

static const Case cases[] = {
    {"no-type", no_type},
    {"bad-param", bad_param},
    {"redef-value", redef_value},
    {"bad-operand", bad_operand},
    {"bad-pred", bad_pred},
    {"const-count-one", const_count_one},
    {"const-count-many", const_count_many},
    {"const-no-literal", const_no_literal},
    {"const-range", const_range},
    {"zero-extent", zero_extent},
    {"slot-zero-extent", slot_zero_extent},
    {"slot-huge", slot_huge},
    {"no-slot", no_slot},
    {"store-operands", store_operands},
    {"slot-inner-dyn", slot_inner_dyn},
    {"redef-slot", redef_slot},
    {"slot-no-role", slot_no_role},
    {"loop-inits", loop_inits},
    {"loop-iter-missing", loop_iter_missing},
    {"loop-init-type", loop_init_type},
    {"loop-result-type", loop_result_type},
    {"loop-regions", loop_regions},
    {"loop-index-type", loop_index_type},
    {"if-regions", if_regions},
    {"dispatch-no-case", dispatch_no_case},
    {"call-missing", call_missing},
    {"result-count", result_count},
    {"result-missing", result_missing},
    {"stale-type", stale_type},
    {"rawdev-text", rawdev_text},
    {"unknown-op", unknown_op},
    {"plane-in-func", plane_in_func},
    {"func-slots", func_slots},
    {"func-no-result", func_no_result},
    {"func-void", func_void},
    {"kernel-params", kernel_params},
    {"redef-func", redef_func},
};

enum { NCASES = sizeof cases / sizeof cases[0] };

/* Builds and verifies case c, printing its diagnostics; 1 when it has
 * errors, 0 when it verifies clean, -1 out of memory. */
static int run_case(const Case *c)
{
    HawkContext *ctx = hawk_context_create();
    if (ctx == NULL)
        return -1;
    B b = {hk_module_new(ctx->arena), 0};
    b.m->src.name = hk_asprintf(ctx->arena, "%s.hir", c->name);
    c->build(&b);
    fprintf(stderr, "case %s:\n", c->name);
    int errors = hawk_verify(ctx, b.m);
    capi_print_diags(TOOL, ctx);
    hawk_context_destroy(ctx);
    return errors > 0;
}

/* The case named name, or NULL. */
static const Case *find_case(const char *name)
{
    for (size_t k = 0; k < NCASES; k++)
        if (strcmp(cases[k].name, name) == 0)
            return &cases[k];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("usage: " TOOL " CASE... | all\ncases:", stderr);
        for (size_t k = 0; k < NCASES; k++)
            fprintf(stderr, " %s", cases[k].name);
        fputc('\n', stderr);
        return 2;
    }
    int all_failed = 1;
    for (int a = 1; a < argc; a++) {
        int every = strcmp(argv[a], "all") == 0;
        const Case *c = every ? &cases[0] : find_case(argv[a]);
        if (c == NULL) {
            fprintf(stderr, TOOL ": error: unknown case '%s'\n", argv[a]);
            return 2;
        }
        for (const Case *end = every ? cases + NCASES : c + 1; c < end; c++) {
            int rc = run_case(c);
            if (rc < 0) {
                fputs(TOOL ": error: out of memory\n", stderr);
                return 2;
            }
            all_failed &= rc;
        }
    }
    return all_failed;
}
