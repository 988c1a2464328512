/* derivcheck.c -- a kernel's forward derivative against central finite
 * differences of the kernel itself, as JAX's check_jvp does.  The jvp
 * pass makes <k>_jvp from a copy of the kernel; its host unit (the JIT)
 * runs once at the point x with direction v, giving the tangents J v of
 * the active outputs, and, since the derivative kernel computes the
 * primal too, four more times at x + s v for s = +-h and +-h/2, giving
 * the primal outputs there.  Each value is compared as
 *
 *   |t - d| <= tol (1 + |d|),   d = (y(x + h v) - y(x - h v)) / 2h
 *
 * (JAX's assert_allclose with atol = rtol = tol).  A value is skipped,
 * not compared, where a difference is not finite or where the
 * differences at h and h/2 disagree beyond a tenth of the tolerance: the
 * differences are not accurate enough to judge the tangent, or the primal is
 * not smooth within the step there (a kink, a branch or a break taken
 * on one side only), and no tangent could match a difference across it.
 * docs/CommandGuide.md, "hawk-run", states the steps and tolerances. */
#include <math.h>
#include <string.h>

#include "host.h"
#include "runnerint.h"

/* The steps of the differences and the tolerance, per element width. */
static const double STEP_F64 = 1e-6, TOL_F64 = 1e-6;
static const double STEP_F32 = 0x1p-7, TOL_F32 = 2e-3;
/* The differences at h and h/2 must agree to this fraction of the
 * tolerance: then their own error (truncation and rounding) is a small
 * part of it, and a value beyond it is the tangent's. */
static const double SMOOTH = 0.1;
/* Magnitudes of the drawn points and directions. */
static const double POINT_MAG = 2.0, DIR_MAG = 1.0;

/* One active slot: its primal member and its tangent member. */
typedef struct {
    const HkAbiField *x, *t;
    int input, output;
} Active;

typedef struct {
    HawkContext *ctx;
    const RunnerOptions *o;
    HkFunc *kernel;           /* the derivative kernel */
    HkLowered low;
    HkAbiLayout abi;
    HkHostJit *jit;
    HkHostEntry entry;
    Active *pairs;
    uint32_t npairs;
    double step, tol;
    RunnerDerivResult *res;
} Check;

static int is_real(HkElem e)
{
    return e == HK_F32 || e == HK_F64;
}

/* The roles whose members the kernel reads (docs/LangRef.md, "Slots"). */
static int read_role(HkRole r)
{
    return r == HK_ROLE_PER_SAMPLE || r == HK_ROLE_VEC_IN ||
           r == HK_ROLE_MAT_IN || r == HK_ROLE_UNIFORM || r == HK_ROLE_MUTABLE;
}

/* ---- values of a member in a launch ------------------------------------ */

/* Where value (sample i, component j) of member f lies in launch l. */
static unsigned char *at(const HkLaunch *l, const HkLaunchShape *s,
                         const HkAbiField *f, int64_t i, uint32_t j)
{
    if (f->kind == HK_ABI_VALUE)
        return l->args + f->offset + (size_t)j * f->elem_bytes;
    for (uint32_t p = 0; p < s->nplanes; p++)
        if (s->planes[p].field == f)
            return l->data[p] +
                   ((size_t)j * (size_t)s->n + (size_t)i) * f->elem_bytes;
    return NULL;
}

static double get(const unsigned char *p, HkElem e)
{
    if (e == HK_F32) {
        float v;
        memcpy(&v, p, sizeof v);
        return (double)v;
    }
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void put(unsigned char *p, HkElem e, double v)
{
    if (e == HK_F32) {
        float f = (float)v;
        memcpy(p, &f, sizeof f);
    } else {
        memcpy(p, &v, sizeof v);
    }
}

/* Samples a member holds a value for: one for a uniform. */
static int64_t rows(const HkAbiField *f, int64_t n)
{
    return f->kind == HK_ABI_VALUE ? 1 : n;
}

/* Whether the values of f are read or written per sample or as one
 * uniform value: the members the check draws and compares. */
static int per_value(const HkAbiField *f)
{
    return (f->kind == HK_ABI_PLANE && f->addr == HK_ABI_SOA) ||
           f->kind == HK_ABI_VALUE;
}

/* ---- the pairs ----------------------------------------------------------- */

/* Pairs each member of the derivative kernel with its tangent member
 * (the interface names a slot's tangent's member "<member>_dot"). */
static void find_pairs(Check *c)
{
    HkArena *a = c->ctx->arena;
    c->pairs = hk_alloc(a, (c->abi.nfields + 1) * sizeof *c->pairs);
    for (uint32_t k = 0; k < c->abi.nfields; k++) {
        const HkAbiField *x = &c->abi.fields[k];
        if (!is_real(x->elem) || !per_value(x))
            continue;
        const HkAbiField *t =
            hk_abi_field(&c->abi, hk_asprintf(a, "%s_dot", x->name));
        if (t == NULL || t->elem != x->elem || t->comps != x->comps)
            continue;
        Active *p = &c->pairs[c->npairs++];
        p->x = x;
        p->t = t;
        p->input = read_role(x->role);
        p->output = x->written && t->written;
    }
}

/* ---- one round ----------------------------------------------------------- */

static double uniform(HkRng *r, double mag)
{
    double u = (double)(hk_rng_next(r) >> 11) * 0x1p-53;
    return (2.0 * u - 1.0) * mag;
}

/* The point and direction: every real member drawn in [-2, 2] (the
 * generator's specials and extremes would leave few values to compare),
 * every tangent in [-1, 1]; a finish mask cleared, so every sample runs;
 * a written-only member zeroed, so a sample the kernel leaves unwritten
 * compares 0 with 0. */
static void draw(const Check *c, HkLaunch *l, const HkLaunchShape *s, HkRng *r)
{
    uint8_t *tangent = hk_alloc(c->ctx->arena, c->abi.nfields + 1u);
    for (uint32_t k = 0; k < c->npairs; k++)
        tangent[c->pairs[k].t - c->abi.fields] = 1;
    for (uint32_t k = 0; k < c->abi.nfields; k++) {
        const HkAbiField *f = &c->abi.fields[k];
        if (f->role == HK_ROLE_TERMINATED && f->kind == HK_ABI_PLANE)
            memset(at(l, s, f, 0, 0), 0, (size_t)s->n * f->elem_bytes);
        if (!is_real(f->elem) || !per_value(f))
            continue;
        int wonly = !read_role(f->role);
        for (uint32_t j = 0; j < f->comps; j++)
            for (int64_t i = 0; i < rows(f, s->n); i++)
                put(at(l, s, f, i, j), f->elem,
                    wonly ? 0.0 : uniform(r, tangent[k] ? DIR_MAG : POINT_MAG));
    }
}

/* Runs the derivative kernel over a copy of l moved by h along the
 * tangents (h = 0: at the point) into out, which the caller frees. */
static int run_at(const Check *c, const HkLaunch *l, const HkLaunchShape *s,
                  double h, HkLaunch *out)
{
    hk_launch_clone(out, l, s);
    for (uint32_t k = 0; k < c->npairs && h != 0.0; k++) {
        const Active *p = &c->pairs[k];
        if (!p->input)
            continue;
        for (uint32_t j = 0; j < p->x->comps; j++)
            for (int64_t i = 0; i < rows(p->x, s->n); i++) {
                unsigned char *x = at(out, s, p->x, i, j);
                double v = get(at(l, s, p->t, i, j), p->t->elem);
                put(x, p->x->elem, get(x, p->x->elem) + h * v);
            }
    }
    int32_t st = c->entry(out->args, 0, s->n, s->n);
    if (st == 0)
        return 0;
    hk_error(&c->ctx->diags, &c->kernel->module->src, c->kernel->loc,
             "'%s': the derivative kernel returned status %d", c->kernel->name,
             (int)st);
    return 1;
}

/* Compares value (i, j) of output pair p; the runs at 0, +h, -h, +h/2,
 * -h/2. */
static void compare_value(Check *c, const Active *p, const HkLaunch *run,
                          const HkLaunchShape *s, int64_t i, uint32_t j)
{
    RunnerDerivResult *r = c->res;
    double t = get(at(&run[0], s, p->t, i, j), p->t->elem);
    double y[4];
    for (int k = 0; k < 4; k++)
        y[k] = get(at(&run[k + 1], s, p->x, i, j), p->x->elem);
    double d1 = (y[0] - y[1]) / (2.0 * c->step);
    double d2 = (y[2] - y[3]) / c->step;
    if (!isfinite(t) || !isfinite(d1) || !isfinite(d2) ||
        fabs(d1 - d2) > SMOOTH * c->tol * (1.0 + fabs(d1))) {
        r->skipped++;
        return;
    }
    double err = fabs(t - d1) / (1.0 + fabs(d1));
    r->checked++;
    if (err > r->worst)
        r->worst = err;
    if (err > c->tol && r->failed++ == 0) {
        r->fail_member = p->x->name;
        r->fail_sample = i;
        r->fail_comp = j;
        r->fail_jvp = t;
        r->fail_diff = d1;
    }
}

static int round_of(Check *c, HkRng *rng, int64_t n)
{
    HkLaunchShape s;
    HkLaunch l;
    hk_launch_shape_init(&s, &c->abi, n, rng);
    hk_launch_fill(&l, &s, rng);
    draw(c, &l, &s, rng);
    const double steps[5] = {0.0, c->step, -c->step, c->step / 2, -c->step / 2};
    HkLaunch run[5];
    int rc = 0, made = 0;
    for (; made < 5 && rc == 0; made++)
        rc = run_at(c, &l, &s, steps[made], &run[made]);
    for (uint32_t k = 0; k < c->npairs && rc == 0; k++) {
        const Active *p = &c->pairs[k];
        if (!p->output)
            continue;
        for (uint32_t j = 0; j < p->x->comps; j++)
            for (int64_t i = 0; i < rows(p->x, n); i++)
                compare_value(c, p, run, &s, i, j);
    }
    for (int k = 0; k < made; k++)
        hk_launch_free(&run[k], &s);
    hk_launch_free(&l, &s);
    hk_launch_shape_free(&s);
    return rc;
}

/* ---- the kernel ---------------------------------------------------------- */

/* The derivative kernel of f: the kernel <f>_jvp when m has one (a
 * derivative written by hand, or by an earlier run, is checked as it
 * is), else the jvp pass's, made in a copy of f's module (f's own module
 * is left as it was); NULL with the pass's diagnostics in ctx. */
static HkFunc *derivative(HawkContext *ctx, HkModule *m, HkFunc *f)
{
    const char *given = hk_asprintf(ctx->arena, "%s_jvp", f->name);
    uint32_t g = hk_func_index(m, given, strlen(given));
    if (g < m->nfuncs && m->funcs[g]->is_kernel)
        return m->funcs[g];
    HkModule *nm = hk_module_clone_kernel(ctx->arena, m, f);
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (pm == NULL || hawk_pass_manager_parse(pm, "jvp") != 0 ||
        hawk_pass_manager_run(pm, nm) != 0)
        return NULL;
    const char *name = hk_asprintf(ctx->arena, "%s_jvp", f->name);
    uint32_t k = hk_func_index(nm, name, strlen(name));
    return k < nm->nfuncs ? nm->funcs[k] : NULL;
}

/* The step and tolerance: f32's when an active member is f32. */
static void width(Check *c)
{
    c->step = STEP_F64;
    c->tol = TOL_F64;
    for (uint32_t k = 0; k < c->npairs; k++)
        if (c->pairs[k].x->elem == HK_F32) {
            c->step = STEP_F32;
            c->tol = TOL_F32;
        }
}

int runner_derivatives(HawkContext *ctx, HkModule *m, HkFunc *f,
                       const RunnerOptions *o, RunnerDerivResult *res)
{
    static const HkLoc noloc = {0, 0, 0};
    memset(res, 0, sizeof *res);
    Check c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.o = o;
    c.res = res;
    c.kernel = derivative(ctx, m, f);
    if (c.kernel == NULL)
        return 1;
    const char *keys[] = {"math"};
    const char *vals[] = {o->math};
    if (hk_lower(ctx, c.kernel->module, c.kernel, keys, vals,
                 o->math != NULL ? 1u : 0u, &c.low) != 0)
        return 1;
    if (hk_abi_layout(ctx->arena, c.low.kernel, c.low.iface, &c.abi) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "'%s': no C layout for its interface",
                 c.kernel->name);
        return 1;
    }
    if (hk_host_jit(&c.low, &c.jit, &c.entry, &ctx->diags) != 0)
        return 1;
    find_pairs(&c);
    width(&c);
    for (uint32_t k = 0; k < c.npairs; k++)
        res->outputs += (uint32_t)c.pairs[k].output;
    if (res->outputs == 0) {
        hk_host_jit_free(c.jit);
        return 0;
    }
    res->step = c.step;
    res->tol = c.tol;
    HkRng rng;
    hk_rng_init(&rng, o->seed, f->name);
    int64_t rounds = o->rounds < o->samples ? o->rounds : o->samples;
    int rc = 0;
    for (int64_t r = 0; r < rounds && rc == 0; r++)
        rc = round_of(&c, &rng, o->samples / rounds + (r < o->samples % rounds));
    hk_host_jit_free(c.jit);
    if (rc == 0 && res->checked == 0) {
        hk_error(&ctx->diags, &m->src, f->loc,
                 "'%s': no derivative value could be compared (%llu skipped: "
                 "not finite or not smooth within the step)", f->name,
                 (unsigned long long)res->skipped);
        return 1;
    }
    return rc != 0 || res->failed != 0;
}
