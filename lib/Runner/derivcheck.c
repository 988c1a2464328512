/* derivcheck.c -- a kernel's forward derivative against central finite
 * differences of the kernel itself, as JAX's check_jvp does.  The jvp
 * pass makes <k>_jvp from a copy of the kernel; its host unit (the JIT;
 * the HIR interpreter in a build without LLVM)
 * runs once at the point x with direction v, giving the tangents J v of
 * the active outputs, and, since the derivative kernel computes the
 * primal too, four more times at x + s v for s = +-h and +-h/2, giving
 * the primal outputs there.  Each value is compared as
 *
 *   |t - d| <= tol (1 + |d|),   d = (y(x + h v) - y(x - h v)) / 2h
 *
 * (JAX's assert_allclose with atol = rtol = tol).  A value is skipped,
 * not compared, where a difference is not finite or where the
 * differences at h and h/2 disagree beyond a tenth of the tolerance (a
 * tangent that is not finite where they are finite and agree fails): the
 * differences are not accurate enough to judge the tangent, or the primal is
 * not smooth within the step there (a kink, a branch or a break taken
 * on one side only), and no tangent could match a difference across it.
 * docs/CommandGuide.md, "hawk-run", states the steps and tolerances. */
#include <math.h>
#include <string.h>

#include "runnerint.h"
#if HAWK_HAVE_LLVM
#include "host.h"
#endif

/* The steps of the differences and the tolerance, per element width. */
static const double STEP_F64 = 1e-6, TOL_F64 = 1e-6;
static const double STEP_F32 = 0x1p-7, TOL_F32 = 2e-3;
/* The differences at h and h/2 must agree to this fraction of the
 * tolerance: then their own error (truncation and rounding) is a small
 * part of it, and a value beyond it is the tangent's. */
static const double SMOOTH = 0.1;
/* The dot-product test's tolerance, relative to the sum of the
 * magnitudes of its terms: some 10^4 times the width's epsilon, room for
 * the rounding of the two sweeps to compound through loops (a float32
 * loop of twelve nested atan steps differs by 1.9e-4). */
static const double DOT_F64 = 1e-11, DOT_F32 = 1e-3;
/* Magnitudes of the drawn points and directions. */
static const double POINT_MAG = 2.0, DIR_MAG = 1.0;

/* One active slot: its primal member and its tangent member. */
typedef struct {
    const HkAbiField *x, *t;
    const char *slot;         /* the primal slot's name */
    const HkAbiField *bar;    /* its cotangent member in the vjp kernel,
                                 or NULL */
    int input, output;
} Active;

/* A derivative kernel built to run here: the host unit through the JIT,
 * or, in a build without LLVM, the HIR interpreter; and the args struct
 * it takes. */
typedef struct {
    HkFunc *kernel;
    HkLowered low;
    HkAbiLayout abi;
    void *jit;                /* HkHostJit, or NULL */
    UnitEntry entry;          /* the JIT's entry, or NULL */
    HkInterp *interp;         /* without LLVM: the interpreter */
} Unit;

/* Unit u over samples [0, n) of args: the entry's status. */
static int32_t run_unit(const Unit *u, const void *args, int64_t n)
{
    return u->entry != NULL ? u->entry(args, 0, n, n)
                            : hk_interp_entry(u->interp, args, 0, n, n);
}

static void unit_free(Unit *u)
{
#if HAWK_HAVE_LLVM
    hk_host_jit_free(u->jit);
#else
    (void)u;
#endif
}

typedef struct {
    HawkContext *ctx;
    const RunnerOptions *o;
    Unit j;                   /* the jvp kernel */
    Unit v;                   /* the vjp kernel; v.kernel NULL: none */
    Active *pairs;
    uint32_t npairs;
    double step, tol, dot_tol;
    RunnerDerivResult *res;
} Check;

static const char *slot_of(const Unit *u, const HkAbiField *f);
static const HkAbiField *member(const Unit *u, const char *slot);

static int is_real(HkElem e)
{
    return e == HK_F32 || e == HK_F64;
}

/* The roles whose members the kernel reads (docs/LangRef.md, "Slots"). */
static int read_role(HkRole r)
{
    return r == HK_ROLE_PER_SAMPLE || r == HK_ROLE_VEC_IN ||
           r == HK_ROLE_MAT_IN || r == HK_ROLE_UNIFORM || r == HK_ROLE_MUTABLE ||
           r == HK_ROLE_LOOKUP || r == HK_ROLE_WIDE_IN;
}

/* The buffer shape of plane member f in s, or NULL. */
static const HkPlaneShape *plane_of(const HkLaunchShape *s, const HkAbiField *f)
{
    for (uint32_t p = 0; p < s->nplanes; p++)
        if (s->planes[p].field == f)
            return &s->planes[p];
    return NULL;
}

/* ---- values of a member in a launch ------------------------------------ */

/* Where value (sample or cell i, component j) of member f lies in
 * launch l: a shared plane holds its cells one after the other. */
static unsigned char *at(const HkLaunch *l, const HkLaunchShape *s,
                         const HkAbiField *f, int64_t i, uint32_t j)
{
    if (f->kind == HK_ABI_VALUE)
        return l->args + f->offset + (size_t)j * f->elem_bytes;
    for (uint32_t p = 0; p < s->nplanes; p++)
        if (s->planes[p].field == f) {
            size_t k = f->addr == HK_ABI_FLAT_LEN
                           ? (size_t)i * f->comps + j
                           : (size_t)j * (size_t)s->n + (size_t)i;
            return l->data[p] + k * f->elem_bytes;
        }
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

/* Samples a member holds a value for: one for a uniform, the cells of
 * a shared plane. */
static int64_t rows(const HkLaunchShape *s, const HkAbiField *f)
{
    if (f->kind == HK_ABI_VALUE)
        return 1;
    if (f->addr == HK_ABI_FLAT_LEN)  /* its length member follows it */
        return s->lens[f - s->abi->fields + 1];
    return s->n;
}

/* Whether the values of f are read or written per sample or as one
 * uniform value: the members the check draws and compares. */
static int per_value(const HkAbiField *f)
{
    return (f->kind == HK_ABI_PLANE && f->addr == HK_ABI_SOA) ||
           f->kind == HK_ABI_VALUE;
}

/* Whether the jvp check draws and compares f: per_value, or a shared
 * plane of runtime length (lookup, wide_in, wide_out, accum_out), whose
 * tangent plane has the primal's length. */
static int compared(const HkAbiField *f)
{
    return per_value(f) || (f->kind == HK_ABI_PLANE && f->addr == HK_ABI_FLAT_LEN);
}

/* ---- the pairs ----------------------------------------------------------- */

/* Pairs each member of the derivative kernel with its tangent member
 * (the interface names a slot's tangent's member "<member>_dot"). */
static void find_pairs(Check *c)
{
    HkArena *a = c->ctx->arena;
    c->pairs = hk_alloc(a, (c->j.abi.nfields + 1) * sizeof *c->pairs);
    for (uint32_t k = 0; k < c->j.abi.nfields; k++) {
        const HkAbiField *x = &c->j.abi.fields[k];
        if (!is_real(x->elem) || !compared(x))
            continue;
        const HkAbiField *t =
            hk_abi_field(&c->j.abi, hk_asprintf(a, "%s_dot", x->name));
        if (t == NULL || t->elem != x->elem || t->comps != x->comps)
            continue;
        Active *p = &c->pairs[c->npairs++];
        p->slot = slot_of(&c->j, x);
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
    uint8_t *tangent = hk_alloc(c->ctx->arena, c->j.abi.nfields + 1u);
    for (uint32_t k = 0; k < c->npairs; k++)
        tangent[c->pairs[k].t - c->j.abi.fields] = 1;
    for (uint32_t k = 0; k < c->j.abi.nfields; k++) {
        const HkAbiField *f = &c->j.abi.fields[k];
        if (f->role == HK_ROLE_TERMINATED && f->kind == HK_ABI_PLANE)
            memset(at(l, s, f, 0, 0), 0, (size_t)s->n * f->elem_bytes);
        if (!is_real(f->elem) || !compared(f))
            continue;
        int wonly = !read_role(f->role);
        for (uint32_t j = 0; j < f->comps; j++)
            for (int64_t i = 0; i < rows(s, f); i++)
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
            for (int64_t i = 0; i < rows(s, p->x); i++) {
                unsigned char *x = at(out, s, p->x, i, j);
                double v = get(at(l, s, p->t, i, j), p->t->elem);
                put(x, p->x->elem, get(x, p->x->elem) + h * v);
            }
    }
    int32_t st = run_unit(&c->j, out->args, s->n);
    if (st == 0)
        return 0;
    hk_error(&c->ctx->diags, &c->j.kernel->module->src, c->j.kernel->loc,
             "'%s': the derivative kernel returned status %d", c->j.kernel->name,
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
    if (!isfinite(d1) || !isfinite(d2) ||
        fabs(d1 - d2) > SMOOTH * c->tol * (1.0 + fabs(d1))) {
        r->skipped++;
        return;
    }
    /* the primal is smooth here with a finite slope: a tangent that is
     * not finite is wrong, never a value to skip */
    double err = isfinite(t) ? fabs(t - d1) / (1.0 + fabs(d1)) : INFINITY;
    r->nonfinite += isfinite(t) ? 0u : 1u;
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

/* ---- the dot-product test ------------------------------------------------ */

/* Copies member f of launch l into member g (the same slot's) of launch
 * m, both of n samples. */
static void copy_member(const HkLaunch *l, const HkLaunchShape *ls,
                        const HkAbiField *f, HkLaunch *m,
                        const HkLaunchShape *ms, const HkAbiField *g)
{
    size_t bytes = (size_t)f->comps * (size_t)rows(ls, f) * f->elem_bytes;
    memcpy(at(m, ms, g, 0, 0), at(l, ls, f, 0, 0), bytes);
}

/* Whether member f is one value for the whole launch or a shared plane
 * (a uniform, a table, a shared accum_out): its tangents and cotangents
 * are not any one sample's. */
static int shared(const HkAbiField *f)
{
    return f->kind == HK_ABI_VALUE || f->addr == HK_ABI_FLAT_LEN;
}

/* The length of vjp plane g: a primal plane's is the jvp launch's; a
 * cotangent plane "<x>.bar" takes x's, or, for a uniform x, one cell per
 * component; 0 when neither (the drawn one stays). */
static int64_t vjp_length(const Check *c, const HkAbiField *g,
                          const HkLaunchShape *s)
{
    const Unit *v = &c->v;
    const char *slot = slot_of(v, g);
    const HkAbiField *f = member(&c->j, slot);
    size_t n = strlen(slot);
    if (f == NULL && n > 4 && strcmp(slot + n - 4, ".bar") == 0)
        f = member(&c->j, hk_strndup(c->ctx->arena, slot, n - 4));
    if (f == NULL)
        return 0;
    if (f->kind == HK_ABI_VALUE)
        return (int64_t)f->comps;
    if (f->addr == HK_ABI_FLAT_LEN)
        return s->lens[f - c->j.abi.fields + 1];
    return 0;
}

/* The vjp launch beside jvp launch l: the same primal members (a
 * shared plane at the same length), each active output's cotangent w
 * drawn in [-1, 1] (kept in w), every other cotangent member zero; a
 * uniform's cotangent plane of one cell per component, a table's or a
 * shared output's at the plane's length. */
static void vjp_launch(const Check *c, const HkLaunch *l, const HkLaunchShape *s,
                       HkRng *r, HkLaunch *m, HkLaunchShape *ms)
{
    const Unit *v = &c->v;
    hk_launch_shape_init(ms, &v->abi, s->n, r);
    for (uint32_t p = 0; p < ms->nplanes; p++) {
        HkPlaneShape *ps = &ms->planes[p];
        if (ps->field->addr != HK_ABI_FLAT_LEN)
            continue;
        int64_t len = vjp_length(c, ps->field, s);
        if (len <= 0)
            continue;
        ms->lens[ps->field - v->abi.fields + 1] = len;
        /* a written plane is allocated for every sample's own position */
        int64_t cells = ps->field->written && s->n > len ? s->n : len;
        ps->nelem = (size_t)cells * ps->field->comps;
        ps->bytes = ps->nelem * ps->field->elem_bytes;
    }
    hk_launch_fill(m, ms, r);
    for (uint32_t k = 0; k < v->abi.nfields; k++) {
        const HkAbiField *g = &v->abi.fields[k];
        const HkAbiField *f = g->kind != HK_ABI_LEN ? member(&c->j, slot_of(v, g)) : NULL;
        if (f != NULL && compared(f) && compared(g) && f->comps == g->comps &&
            rows(s, f) == rows(ms, g))
            copy_member(l, s, f, m, ms, g);
        else if (g->addr == HK_ABI_FLAT_LEN)
            for (uint32_t p = 0; p < ms->nplanes; p++)
                if (ms->planes[p].field == g)
                    memset(m->data[p], 0, ms->planes[p].bytes);
    }
    for (uint32_t k = 0; k < c->npairs; k++) {
        const Active *p = &c->pairs[k];
        const HkAbiField *b = p->bar;
        if (b == NULL || !compared(b))
            continue;
        for (uint32_t j = 0; j < b->comps; j++)
            for (int64_t i = 0; i < rows(ms, b); i++)
                put(at(m, ms, b, i, j), b->elem, p->output ? uniform(r, DIR_MAG) : 0.0);
    }
}

/* jvp run at l with the tangents of one kind of input zeroed: the shared
 * ones (per_sample 1) or the per-sample ones (0). */
static int jvp_only(const Check *c, const HkLaunch *l, const HkLaunchShape *s,
                    int per_sample, HkLaunch *out)
{
    hk_launch_clone(out, l, s);
    for (uint32_t k = 0; k < c->npairs; k++) {
        const Active *p = &c->pairs[k];
        if (!p->input || shared(p->t) != per_sample)
            continue;
        for (uint32_t j = 0; j < p->t->comps; j++)
            for (int64_t i = 0; i < rows(s, p->t); i++)
                put(at(out, s, p->t, i, j), p->t->elem, 0.0);
    }
    return run_unit(&c->j, out->args, s->n) != 0;
}

/* Records one side-by-side of <J v, w> (lhs) and <v, J^T w> (rhs), with
 * the magnitude of their terms; sample -1 for the launch's sum. */
static void dot_compare(Check *c, double lhs, double rhs, double mag,
                        int64_t sample)
{
    RunnerDerivResult *r = c->res;

    /* one side finite and the other not: a mode made a NaN or an
     * infinity the other did not, which no tolerance covers */
    int one_side = isfinite(lhs) != isfinite(rhs);
    if (!one_side && (!isfinite(lhs) || !isfinite(mag))) {
        r->dot_skipped++;
        return;
    }
    double err = one_side ? INFINITY
                          : fabs(lhs - rhs) / (mag > 0.0 ? mag : 1.0);
    r->dot_nonfinite += (uint64_t)one_side;
    r->dot_checked++;
    if (err > r->dot_worst)
        r->dot_worst = err;
    if (err > c->dot_tol && r->dot_failed++ == 0) {
        r->dot_fail_sample = sample;
        r->dot_fail_lhs = lhs;
        r->dot_fail_rhs = rhs;
    }
}

/* A dot product's running sums: <J v, w>, <v, J^T w>, the magnitude. */
typedef struct {
    double lhs, rhs, mag;
} Dot;

static void dot_add(double *side, double *mag, double a, double b)
{
    *side += a * b;
    *mag += fabs(a * b);
}

/* Adds the shared members' terms over the launch to g: each shared
 * input's directions against its cotangents (a uniform's cell per
 * component, a table's cell per cell), and, with shared outputs (all),
 * each shared output's tangents (from the runs ja and jb together)
 * against w. */
static void dot_shared(const Check *c, const HkLaunch *l, const HkLaunchShape *s,
                       const HkLaunch *ja, const HkLaunch *jb,
                       const HkLaunch *m, const HkLaunchShape *ms,
                       const HkLaunch *w, Dot *g)
{
    for (uint32_t k = 0; k < c->npairs; k++) {
        const Active *p = &c->pairs[k];
        const HkAbiField *b = p->bar;
        if (b == NULL || !shared(p->x))
            continue;
        for (uint32_t j = 0; j < p->x->comps; j++)
            for (int64_t i = 0; i < rows(s, p->t); i++) {
                if (p->input) {
                    double vv = get(at(l, s, p->t, i, j), p->t->elem);
                    double ub = p->t->kind == HK_ABI_VALUE
                                    ? get(at(m, ms, b, j, 0), b->elem)
                                    : get(at(m, ms, b, i, j), b->elem);
                    dot_add(&g->rhs, &g->mag, vv, ub);
                }
                if (p->output) {
                    double t = get(at(ja, s, p->t, i, j), p->t->elem) +
                               get(at(jb, s, p->t, i, j), p->t->elem);
                    dot_add(&g->lhs, &g->mag, t, get(at(w, ms, b, i, j), b->elem));
                }
            }
    }
}

/* <J v, w> = <v, J^T w>.  Per sample over the per-sample members (jvp
 * with the shared inputs' tangents zeroed), then once over the launch
 * for the shared inputs (jvp with the per-sample tangents zeroed, summed
 * over the samples, against the shared cotangents, which sum over the
 * samples too).  A shared output (a scattered accum_out) mixes the
 * samples: then the whole launch is one comparison, every member's
 * terms in it. */
static int dot_round(Check *c, const HkLaunch *l, const HkLaunchShape *s,
                     HkRng *r)
{
    const Unit *v = &c->v;
    HkLaunchShape ms;
    HkLaunch m, w, ja, jb;
    vjp_launch(c, l, s, r, &m, &ms);
    hk_launch_clone(&w, &m, &ms);
    int rc = jvp_only(c, l, s, 1, &ja) | jvp_only(c, l, s, 0, &jb) |
             (run_unit(v, m.args, s->n) != 0);
    int whole = 0, any_shared = 0;
    for (uint32_t k = 0; k < c->npairs; k++) {
        whole |= c->pairs[k].output && shared(c->pairs[k].x);
        any_shared |= c->pairs[k].bar != NULL && shared(c->pairs[k].x);
    }
    Dot g = {0.0, 0.0, 0.0};
    for (int64_t i = 0; i < s->n && rc == 0; i++) {
        Dot d = {0.0, 0.0, 0.0};
        for (uint32_t k = 0; k < c->npairs; k++) {
            const Active *p = &c->pairs[k];
            const HkAbiField *b = p->bar;
            if (b == NULL || shared(p->x))
                continue;
            for (uint32_t j = 0; j < p->x->comps; j++) {
                if (p->output) {
                    double wv = get(at(&w, &ms, b, i, j), b->elem);
                    double ta = get(at(&ja, s, p->t, i, j), p->t->elem);
                    double tb = get(at(&jb, s, p->t, i, j), p->t->elem);
                    dot_add(whole ? &g.lhs : &d.lhs, whole ? &g.mag : &d.mag,
                            whole ? ta + tb : ta, wv);
                    if (!whole)
                        dot_add(&g.lhs, &g.mag, tb, wv);
                }
                if (p->input) {
                    double vv = get(at(l, s, p->t, i, j), p->t->elem);
                    double xb = get(at(&m, &ms, b, i, j), b->elem);
                    dot_add(whole ? &g.rhs : &d.rhs, whole ? &g.mag : &d.mag, vv, xb);
                }
            }
        }
        if (!whole)
            dot_compare(c, d.lhs, d.rhs, d.mag, i);
    }
    if (rc == 0 && any_shared) {
        dot_shared(c, l, s, &ja, &jb, &m, &ms, &w, &g);
        dot_compare(c, g.lhs, g.rhs, g.mag, -1);
    }
    hk_launch_free(&ja, s);
    hk_launch_free(&jb, s);
    hk_launch_free(&w, &ms);
    hk_launch_free(&m, &ms);
    hk_launch_shape_free(&ms);
    if (rc != 0)
        hk_error(&c->ctx->diags, &c->v.kernel->module->src, c->v.kernel->loc,
                 "'%s': a derivative kernel returned an error status",
                 c->v.kernel->name);
    return rc;
}

/* A tangent plane of runtime length takes its primal's length. */
static void tangent_lengths(const Check *c, HkLaunchShape *s)
{
    for (uint32_t k = 0; k < c->npairs; k++) {
        const Active *p = &c->pairs[k];
        if (p->x->addr != HK_ABI_FLAT_LEN)
            continue;
        const HkPlaneShape *x = plane_of(s, p->x);
        HkPlaneShape *t = (HkPlaneShape *)plane_of(s, p->t);
        if (x == NULL || t == NULL)
            continue;
        t->nelem = x->nelem;
        t->bytes = x->bytes;
        s->lens[p->t - c->j.abi.fields + 1] = s->lens[p->x - c->j.abi.fields + 1];
    }
}

static int round_of(Check *c, HkRng *rng, int64_t n)
{
    HkLaunchShape s;
    HkLaunch l;
    hk_launch_shape_init(&s, &c->j.abi, n, rng);
    tangent_lengths(c, &s);
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
            for (int64_t i = 0; i < rows(&s, p->x); i++)
                compare_value(c, p, run, &s, i, j);
    }
    if (rc == 0 && c->v.kernel != NULL)
        rc = dot_round(c, &l, &s, rng);
    for (int k = 0; k < made; k++)
        hk_launch_free(&run[k], &s);
    hk_launch_free(&l, &s);
    hk_launch_shape_free(&s);
    return rc;
}

/* ---- the kernels --------------------------------------------------------- */

/* Forgets the diagnostics from index from on (a refusal reported as a
 * note of the check, not as an error of the run). */
static const char *take_diags(HawkContext *ctx, uint32_t from)
{
    HkDiags *d = &ctx->diags;
    const char *first = from < d->n ? d->items[from].message : "refused";
    for (uint32_t k = from; k < d->n; k++)
        d->errors -= d->items[k].severity == HAWK_ERROR;
    d->n = from;
    return first;
}

/* The derivative kernel <f>_<pass> of f: the kernel of that name when
 * m has one (a derivative written by hand, or by an earlier run, is
 * checked as it is), else the pass's, made in a copy of f's module (f's
 * own module is left as it was); NULL with the pass's diagnostics in
 * ctx. */
static HkFunc *derivative(HawkContext *ctx, HkModule *m, HkFunc *f,
                          const char *pass)
{
    const char *name = hk_asprintf(ctx->arena, "%s_%s", f->name, pass);
    uint32_t g = hk_func_index(m, name, strlen(name));
    if (g < m->nfuncs && m->funcs[g]->is_kernel)
        return m->funcs[g];
    HkModule *nm = hk_module_clone_kernel(ctx->arena, m, f);
    HawkPassManager *pm = hawk_pass_manager_create(ctx);
    if (pm == NULL || hawk_pass_manager_parse(pm, pass) != 0 ||
        hawk_pass_manager_run(pm, nm) != 0)
        return NULL;
    uint32_t k = hk_func_index(nm, name, strlen(name));
    return k < nm->nfuncs ? nm->funcs[k] : NULL;
}

/* Lowers kernel k and builds its host unit into u; 0, or 1 with
 * diagnostics in ctx. */
static int unit_build(HawkContext *ctx, HkFunc *k, const char *math, Unit *u)
{
    static const HkLoc noloc = {0, 0};
    const char *keys[] = {"math"};
    const char *vals[] = {math};
    u->kernel = k;
    if (hk_lower(ctx, k->module, k, keys, vals, math != NULL ? 1u : 0u,
                 &u->low) != 0)
        return 1;
    if (hk_abi_layout(ctx->arena, u->low.kernel, u->low.iface, &u->abi) != 0) {
        hk_error(&ctx->diags, NULL, noloc, "'%s': no C layout for its interface",
                 k->name);
        return 1;
    }
#if HAWK_HAVE_LLVM
    HkHostJit *jit = NULL;
    HkHostEntry entry = NULL;
    int rc = hk_host_jit(&u->low, &jit, &entry, &ctx->diags);
    u->jit = jit;
    u->entry = entry;
    return rc != 0;
#else
    u->interp = hk_interp_new(ctx->arena, ctx, &u->low, &ctx->diags);
    return u->interp == NULL;
#endif
}

/* The slot member f of u comes from. */
static const char *slot_of(const Unit *u, const HkAbiField *f)
{
    return u->low.kernel->slots[u->low.iface->rows[f->row].slot].name;
}

/* The plane or value member of u's slot named slot, or NULL. */
static const HkAbiField *member(const Unit *u, const char *slot)
{
    for (uint32_t k = 0; k < u->abi.nfields; k++)
        if (u->abi.fields[k].kind != HK_ABI_LEN &&
            strcmp(slot_of(u, &u->abi.fields[k]), slot) == 0)
            return &u->abi.fields[k];
    return NULL;
}

/* The step and tolerance: f32's when an active member is f32. */
static void width(Check *c)
{
    c->step = STEP_F64;
    c->tol = TOL_F64;
    c->dot_tol = DOT_F64;
    for (uint32_t k = 0; k < c->npairs; k++)
        if (c->pairs[k].x->elem == HK_F32) {
            c->step = STEP_F32;
            c->tol = TOL_F32;
            c->dot_tol = DOT_F32;
        }
}

/* The vjp kernel of f for the dot-product test, when vjp takes f: else
 * v.kernel stays NULL and res->vjp_note says why. */
static int build_vjp(Check *c, HkModule *m, HkFunc *f)
{
    uint32_t from = c->ctx->diags.n;
    HkFunc *k = derivative(c->ctx, m, f, "vjp");
    if (k == NULL) {
        c->res->vjp_note = take_diags(c->ctx, from);
        return 0;
    }
    if (unit_build(c->ctx, k, c->o->math, &c->v) != 0)
        return 1;
    for (uint32_t i = 0; i < c->npairs; i++)
        c->pairs[i].bar = member(&c->v, hk_asprintf(c->ctx->arena, "%s.bar",
                                                      c->pairs[i].slot));
    return 0;
}

/* The cost analysis of kernel f of m, lowered in a copy of m under the
 * check's math, into slot 0 of res; 0, or 1 with diagnostics. */
static int primal_cost(Check *c, HkModule *m, HkFunc *f)
{
    const char *keys[] = {"math"};
    const char *vals[] = {c->o->math};
    HkModule *nm = hk_module_clone_kernel(c->ctx->arena, m, f);
    uint32_t k = hk_func_index(nm, f->name, strlen(f->name));
    HkLowered low;
    if (k >= nm->nfuncs ||
        hk_lower(c->ctx, nm, nm->funcs[k], keys, vals,
                 c->o->math != NULL ? 1u : 0u, &low) != 0)
        return 1;
    c->res->ops[0] = low.cost->ops_total;
    c->res->bytes[0] = low.cost->total_bytes;
    return 0;
}

/* The active slots' names, inputs and outputs, into res. */
static void active_names(Check *c)
{
    HkBuf in, out;
    hk_buf_init(&in, c->ctx->arena);
    hk_buf_init(&out, c->ctx->arena);
    for (uint32_t k = 0; k < c->npairs; k++) {
        const Active *p = &c->pairs[k];
        if (p->input)
            hk_buf_printf(&in, "%s%s", in.len ? ", " : "", p->slot);
        if (p->output)
            hk_buf_printf(&out, "%s%s", out.len ? ", " : "", p->slot);
    }
    c->res->active_in = hk_buf_cstr(&in);
    c->res->active_out = hk_buf_cstr(&out);
}

/* The derivative kernels' costs, where built, into res. */
static void derivative_costs(Check *c)
{
    const Unit *u[2] = {&c->j, &c->v};
    for (int k = 0; k < 2; k++)
        if (u[k]->kernel != NULL && u[k]->low.cost != NULL) {
            c->res->ops[k + 1] = u[k]->low.cost->ops_total;
            c->res->bytes[k + 1] = u[k]->low.cost->total_bytes;
        }
}

int runner_derivatives(HawkContext *ctx, HkModule *m, HkFunc *f,
                       const RunnerOptions *o, RunnerDerivResult *res)
{
    memset(res, 0, sizeof *res);
    for (int k = 0; k < 3; k++)
        res->ops[k] = res->bytes[k] = -1;
    Check c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.o = o;
    c.res = res;
    HkFunc *k = derivative(ctx, m, f, "jvp");
    int rc = k == NULL || unit_build(ctx, k, o->math, &c.j) != 0;
    if (rc == 0) {
        find_pairs(&c);
        width(&c);
        res->step = c.step;
        res->tol = c.tol;
        res->dot_tol = c.dot_tol;
        for (uint32_t i = 0; i < c.npairs; i++)
            res->outputs += (uint32_t)c.pairs[i].output;
    }
    if (rc == 0 && res->outputs > 0)
        rc = build_vjp(&c, m, f);
    if (rc == 0 && res->outputs > 0) {
        rc = primal_cost(&c, m, f);
        derivative_costs(&c);
        active_names(&c);
    }
    if (rc == 0 && res->outputs > 0) {
        HkRng rng;
        hk_rng_init(&rng, o->seed, f->name);
        int64_t rounds = o->rounds < o->samples ? o->rounds : o->samples;
        for (int64_t r = 0; r < rounds && rc == 0; r++)
            rc = round_of(&c, &rng, o->samples / rounds + (r < o->samples % rounds));
    }
    unit_free(&c.j);
    unit_free(&c.v);
    if (rc != 0 || res->outputs == 0)
        return rc;
    if (res->checked == 0) {
        hk_error(&ctx->diags, &m->src, f->loc,
                 "'%s': no derivative value could be compared (%llu skipped: "
                 "not finite or not smooth within the step)", f->name,
                 (unsigned long long)res->skipped);
        return 1;
    }
    return res->failed != 0 || res->dot_failed != 0;
}
