/* verify_rules.c -- a func's derivative rules (attributes {jvp = @g,
 * vjp = @h}, docs/LangRef.md "Custom derivative rules"): each names a
 * func of the module, not the func itself, whose signature is the one
 * the jvp or vjp pass would give the func's own derivative, so a call
 * of the rule stands where the pass would call that derivative. */
#include <string.h>

#include "verify.h"

static int is_real(HkType t)
{
    return t.elem == HK_F64 || t.elem == HK_F32;
}

/* A signature being built: parameter and result types. */
typedef struct {
    HkType *p, *r;
    uint32_t np, nr;
} Sig;

/* The signature a rule of f must have: jvp takes f's parameters, then
 * the tangent of each real one, and returns f's results, then the
 * tangent of each real one; vjp takes f's parameters, then the adjoint
 * of each real result, and returns the share of each real parameter. */
static Sig expected(Ver *v, const HkFunc *f, int reverse)
{
    HkArena *a = v->d->arena;
    Sig s;
    uint32_t n = f->nparams, m = f->nrtypes;
    s.p = hk_alloc(a, (2 * n + m + 1) * sizeof *s.p);
    s.r = hk_alloc(a, (n + 2 * m + 1) * sizeof *s.r);
    s.np = s.nr = 0;
    for (uint32_t k = 0; k < n; k++)
        s.p[s.np++] = hk_value(f, f->params[k])->type;
    if (!reverse) {
        for (uint32_t k = 0; k < n; k++)
            if (is_real(s.p[k]))
                s.p[s.np++] = s.p[k];
        for (uint32_t k = 0; k < m; k++)
            s.r[s.nr++] = f->rtypes[k];
        for (uint32_t k = 0; k < m; k++)
            if (is_real(f->rtypes[k]))
                s.r[s.nr++] = f->rtypes[k];
        return s;
    }
    for (uint32_t k = 0; k < m; k++)
        if (is_real(f->rtypes[k]))
            s.p[s.np++] = f->rtypes[k];
    for (uint32_t k = 0; k < n; k++)
        if (is_real(s.p[k]))
            s.r[s.nr++] = s.p[k];
    return s;
}

static HkType param_type(const HkFunc *g, uint32_t k)
{
    return hk_value(g, g->params[k])->type;
}

/* "(T1, T2) -> (T3)" of types p (np) and r (nr). */
static const char *spell(Ver *v, const HkType *p, uint32_t np, const HkType *r,
                         uint32_t nr)
{
    HkBuf b;
    hk_buf_init(&b, v->d->arena);
    hk_buf_puts(&b, "(");
    for (uint32_t k = 0; k < np; k++) {
        hk_buf_puts(&b, k ? ", " : "");
        hk_type_print(&b, p[k]);
    }
    hk_buf_puts(&b, ") -> (");
    for (uint32_t k = 0; k < nr; k++) {
        hk_buf_puts(&b, k ? ", " : "");
        hk_type_print(&b, r[k]);
    }
    hk_buf_puts(&b, ")");
    return hk_buf_cstr(&b);
}

/* Whether g's signature is want's. */
static int matches(const HkFunc *g, const Sig *want)
{
    if (g->nparams != want->np || g->nrtypes != want->nr)
        return 0;
    for (uint32_t k = 0; k < want->np; k++)
        if (g->params[k] >= g->nvalues || !hk_type_eq(param_type(g, k), want->p[k]))
            return 0;
    for (uint32_t k = 0; k < want->nr; k++)
        if (!hk_type_eq(g->rtypes[k], want->r[k]))
            return 0;
    return 1;
}

/* The rule of f named name at loc, for mode ("jvp" or "vjp"). */
static void check_rule(Ver *v, const HkFunc *f, const char *name, HkLoc loc,
                       const char *mode)
{
    int reverse = mode[0] == 'v';
    uint32_t gi = hk_func_index(v->m, name, strlen(name));
    if (gi == UINT32_MAX) {
        err(v, loc, "func '@%s' names '@%s' as its %s rule, which the module "
            "does not define", f->name, name, mode);
        return;
    }
    const HkFunc *g = v->m->funcs[gi];
    if (g->is_kernel || g == f) {
        err(v, loc, "func '@%s' names '@%s' as its %s rule, which is %s; a "
            "rule is another func", f->name, name, mode,
            g == f ? "itself" : "a kernel");
        return;
    }
    Sig want = expected(v, f, reverse);
    if (reverse && want.nr == 0) {
        err(v, loc, "func '@%s' has a vjp rule but no real parameter for it "
            "to return a share of", f->name);
        return;
    }
    if (matches(g, &want))
        return;
    HkType *gp = hk_alloc(v->d->arena, (g->nparams + 1) * sizeof *gp);
    for (uint32_t k = 0; k < g->nparams; k++)
        gp[k] = g->params[k] < g->nvalues ? param_type(g, k) : hk_scalar(HK_VOID);
    err(v, loc, "%s rule '@%s' of func '@%s' has the signature %s; a %s rule "
        "of '@%s' must be %s (%s)", mode, name, f->name,
        spell(v, gp, g->nparams, g->rtypes, g->nrtypes), mode, f->name,
        spell(v, want.p, want.np, want.r, want.nr),
        reverse ? "its parameters, then the adjoint of each real result; "
                  "the share of each real parameter"
                : "its parameters, then the tangent of each real one; its "
                  "results, then the tangent of each real one");
}

void hk_verify_rules(Ver *v)
{
    const HkFunc *f = v->f;
    if (f->rule_jvp != NULL)
        check_rule(v, f, f->rule_jvp, f->rule_jvp_loc, "jvp");
    if (f->rule_vjp != NULL)
        check_rule(v, f, f->rule_vjp, f->rule_vjp_loc, "vjp");
}
