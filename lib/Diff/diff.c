/* diff.c -- what starts and names a differentiation (jvp.c, vjp.c): the
 * state of one, the activity of its values to a fixed point, its
 * refusals, and the names of the derivative kernel and funcs it makes.
 * docs/Passes.md, "jvp" and "vjp". */
#include <string.h>

#include "diff.h"

void hk_diff_init(Diff *d, HawkPassRun *r, HkFunc *f, const char *pass,
                  const char *sfx)
{
    HkArena *a = f->module->arena;
    memset(d, 0, sizeof *d);
    d->r = r;
    d->pass = pass;
    d->sfx = sfx;
    d->f = f;
    d->a = a;
    d->in = hk_alloc(a, f->nslots + 1u);
    d->out = hk_alloc(a, f->nslots + 1u);
    d->tslot = hk_alloc(a, (f->nslots + 1u) * sizeof *d->tslot);
}

DiffPoint hk_diff_enter(Diff *d, HkBlock *blk)
{
    DiffPoint p = {d->at, d->blk, d->base};
    d->at = NULL;
    d->blk = blk;
    return p;
}

void hk_diff_leave(Diff *d, DiffPoint p)
{
    d->at = p.at;
    d->blk = p.blk;
    d->base = p.base;
}

void hk_diff_values(Diff *d)
{
    d->ntan = d->f->nvalues;
    d->tan = hk_alloc(d->a, (d->ntan + 1) * sizeof *d->tan);
    for (uint32_t v = 0; v < d->ntan; v++)
        d->tan[v] = HK_NOVAL;
    d->act = hk_alloc(d->a, d->ntan + 1u);
}

void hk_diff_settle(Diff *d)
{
    while (hk_diff_act_block(d, &d->f->body))
        ;
    d->nwild = d->f->nvalues;
    d->wild = hk_alloc(d->a, d->nwild + 1u);
    while (hk_diff_wild_block(d, &d->f->body))
        ;
}

int hk_diff_is_wild(const Diff *d, HkVal v)
{
    return v >= d->nwild || d->wild[v];
}

void hk_diff_grow_wild(Diff *d)
{
    uint32_t n = d->f->nvalues;
    if (n <= d->nwild)
        return;
    uint8_t *w = hk_alloc(d->a, n + 1u);
    memcpy(w, d->wild, d->nwild);
    memset(w + d->nwild, 1, n - d->nwild);
    d->wild = w;
    d->nwild = n;
}

void hk_diff_inherit(Diff *d, HkVal to, HkVal from)
{
    d->act[to] = from < d->ntan && d->act[from];
    d->wild[to] = (uint8_t)hk_diff_is_wild(d, from);
}

void hk_diff_refuse(Diff *d, HkFunc *g, const HkInst *at, const char *why)
{
    const HkPositions *p = hk_positions(d->r, g);
    const char *in = g == d->f ? "" : hk_asprintf(d->a, " of func '%s'", g->name);
    hk_error(hk_run_diags(d->r), &d->f->module->src, at->loc,
             "'%s': %s refuses node %s (%s)%s: %s; differentiate a kernel "
             "without it", d->f->name, d->pass, p != NULL ? hk_pos(p, at) : "?",
             hk_ops[at->op].mnemonic, in, why);
    d->failed = 1;
}

int hk_diff_refuse_deep(Diff *d)
{
    const HkInst *at = hk_call_too_deep(d->a, d->f, HK_CALL_DEPTH_MAX);
    if (at != NULL)
        hk_diff_refuse(d, d->f, at,
                       hk_asprintf(d->a, "calls nest deeper than %d levels "
                                         "(a derivative func for each)",
                                   HK_CALL_DEPTH_MAX));
    return at != NULL;
}

/* "<g>_<pass>" and its index in g's module (UINT32_MAX: none). */
static const char *made_name(const Diff *d, const HkFunc *g, uint32_t *idx)
{
    const char *name = hk_asprintf(d->a, "%s_%s", g->name, d->pass);
    *idx = hk_func_index(g->module, name, strlen(name));
    return name;
}

HkFunc *hk_diff_custom(const Diff *d, const HkFunc *g)
{
    const char *name = d->pass[0] == 'j' ? g->rule_jvp : g->rule_vjp;
    if (name == NULL)
        return NULL;
    uint32_t k = hk_func_index(g->module, name, strlen(name));
    return k < g->module->nfuncs ? g->module->funcs[k] : NULL;
}

void hk_diff_name_free(Diff *d, const HkFunc *g, const char *what)
{
    uint32_t idx;
    const char *name = made_name(d, g, &idx);
    HkModule *m = g->module;
    if (idx == UINT32_MAX || (m->funcs[idx]->made_by != NULL &&
                              strcmp(m->funcs[idx]->made_by, d->pass) == 0))
        return;
    hk_error(hk_run_diags(d->r), &m->src, m->funcs[idx]->loc,
             "'%s': %s names the %s of func '%s' '%s', which the module "
             "already has", d->f->name, d->pass, what, g->name, name);
    d->failed = 1;
}

HkFunc *hk_diff_func_copy(Diff *d, HkFunc *g, int *made)
{
    uint32_t idx;
    const char *name = made_name(d, g, &idx);
    *made = idx == UINT32_MAX;
    if (!*made)  /* made before: hk_diff_name_free refused any other */
        return g->module->funcs[idx];
    HkFunc *h = hk_func_copy(g->module, g, name);
    h->made_by = d->pass;
    return h;
}

const char *hk_diff_kernel_name(Diff *d)
{
    uint32_t idx;
    const char *name = made_name(d, d->f, &idx);
    if (idx == UINT32_MAX)
        return name;
    hk_error(hk_run_diags(d->r), &d->f->module->src, d->f->loc,
             "'%s': %s names its kernel '%s', which the module already has",
             d->f->name, d->pass, name);
    return NULL;
}

void hk_diff_rename(Diff *d, const char *name)
{
    HkFunc *f = d->f;
    uint32_t fi = hk_func_index(f->module, f->name, strlen(f->name));
    hk_symtab_del(f->module->fsyms, f->name, strlen(f->name));
    f->name = name;
    hk_symtab_put(f->module->fsyms, name, strlen(name), fi);
}

void hk_diff_origin(Diff *d)
{
    HkFunc *f = d->f;
    HkArena *a = d->a;
    HkDerivOrigin *o = hk_alloc(a, sizeof *o);
    o->mode = d->pass;
    o->primal = hk_strdup(a, f->name);
    o->module = hk_module_clone_kernel(a, f->module, f);
    o->wrt = hk_alloc(a, (f->nslots + 1u) * sizeof *o->wrt);
    o->of = hk_alloc(a, (f->nslots + 1u) * sizeof *o->of);
    for (uint32_t k = 0; k < f->nslots; k++) {
        if (f->slots[k].role == HK_ROLE_LOCAL)
            continue;  /* no part of the interface */
        if (d->in[k])
            o->wrt[o->nwrt++] = f->slots[k].name;
        if (d->out[k])
            o->of[o->nof++] = f->slots[k].name;
    }
    f->origin = o;
}
