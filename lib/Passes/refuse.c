/* refuse.c -- the one spelling of a refusal: every verify pass refuses
 * through hk_refuse, so the message shape, the rule and the position the
 * report and the C API read are the same everywhere. */
#include <inttypes.h>
#include <string.h>

#include "embedded.h"

/* Appends the refusal; kind NULL names the node by its mnemonic (or
 * "kernel"). */
/* The refusal's diagnostic, its fix as given. */
static HkDiag *refuse(HawkPassRun *r, HkFunc *f, const HkInst *at,
                      const char *kind, const char *rule, const char *why,
                      const char *fix)
{
    HkArena *a = f->module->arena;
    const char *pos = "kernel";
    if (at != NULL) {
        /* Without positions (the walk failed) the node is still named by
         * its mnemonic and line: "?" never hides the refusal itself. */
        const HkPositions *p = hk_positions(r, f);
        pos = p != NULL ? hk_pos(p, at) : "?";
    }
    if (kind == NULL)
        kind = at != NULL ? hk_ops[at->op].mnemonic : "kernel";
    /* An unknown target= is the profile's error to report, not ours. */
    const HkTarget *t = hk_profile_target(r);
    if (t == NULL)
        t = hk_target_default();
    HkLoc loc = at != NULL ? at->loc : f->loc;
    HkDiag *d = hk_error(hk_run_diags(r), &f->module->src, loc,
                         "'%s': the %s target refuses node %s (%s) under %s: "
                         "%s; %s",
                         f->name, t->display, pos, kind, rule, why, fix);
    d->rule = hk_strdup(a, rule);
    d->pos = hk_strdup(a, pos);
    return d;
}

void hk_refuse(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *kind,
               const char *rule, const char *why, const char *fix)
{
    refuse(r, f, at, kind, rule, why, fix);
}

void hk_refuse_option(HawkPassRun *r, HkFunc *f, const HkInst *at,
                      const char *kind, const char *rule, const char *why,
                      const HkFixOption *fix)
{
    HkArena *a = f->module->arena;
    const char *spelt = hk_spell_option(hk_run_diags(r), fix->key, fix->value);
    HkDiag *d = refuse(r, f, at, kind, rule, why,
                       hk_asprintf(a, "%srun with %s%s", fix->before, spelt,
                                   fix->after));
    const char *key = fix->key, *value = fix->value;
    d->fix_option = hk_strdup(a, key);
    d->fix_value = hk_strdup(a, value);
}

const char *hk_run_option(HawkPassRun *r, const char *key, int64_t value)
{
    HkDiags *d = hk_run_diags(r);
    return hk_spell_option(d, key, hk_asprintf(d->arena, "%" PRId64, value));
}

/* Whether d holds a warning of text msg at loc of src already: a build
 * exports one kernel once per target, each a copy of the module (its own
 * HkSource over the same text), and each proves the same. */
static int warned(const HkDiags *d, const HkSource *src, HkLoc loc,
                  const char *msg)
{
    for (uint32_t k = d->n; k-- > 0;) {
        const HkDiag *g = &d->items[k];
        if (g->severity == HAWK_WARNING && g->src != NULL &&
            g->src->text == src->text &&
            g->loc.line == loc.line && g->loc.col == loc.col &&
            strcmp(g->message, msg) == 0)
            return 1;
    }
    return 0;
}

int hk_warn(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *what)
{
    HkDiags *d = hk_run_diags(r);
    HkLoc loc = at != NULL ? at->loc : f->loc;
    if (d->warnings == HAWK_WARNINGS_OFF)
        return 0;
    if (d->warnings == HAWK_WARNINGS_AS_ERRORS) {
        hk_error(d, &f->module->src, loc, "'%s': %s (a warning made an error)",
                 f->name, what);
        return 1;
    }
    const char *msg = hk_asprintf(d->arena, "'%s': %s", f->name, what);
    if (!warned(d, &f->module->src, loc, msg))
        hk_warning(d, &f->module->src, loc, "%s", msg);
    return 0;
}
