/* refuse.c -- the one spelling of a refusal: every verify pass refuses
 * through hk_refuse, so the message shape, the rule and the position the
 * report and the C API read are the same everywhere. */
#include <inttypes.h>
#include <string.h>

#include "embedded.h"

/* Appends the refusal, its fix as given, and returns it; kind NULL
 * names the node by its mnemonic (or "kernel"). */
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
    d->fix_option = hk_strdup(a, fix->key);
    d->fix_value = hk_strdup(a, fix->value);
}

const char *hk_run_option(HawkPassRun *r, const char *key, int64_t value)
{
    HkDiags *d = hk_run_diags(r);
    return hk_spell_option(d, key, hk_asprintf(d->arena, "%" PRId64, value));
}

int hk_warn(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *what)
{
    return hk_warn_at(r, f, at != NULL ? at->loc : f->loc, what);
}

int hk_warn_at(HawkPassRun *r, HkFunc *f, HkLoc loc, const char *what)
{
    HkDiags *d = hk_run_diags(r);
    if (d->warnings == HAWK_WARNINGS_OFF)
        return 0;
    if (d->warnings == HAWK_WARNINGS_AS_ERRORS) {
        hk_error(d, &f->module->src, loc, "'%s': %s (a warning made an error)",
                 f->name, what);
        return 1;
    }
    (void)hk_warning_once(d, &f->module->src, loc,
                          hk_asprintf(d->arena, "'%s': %s", f->name, what));
    return 0;
}
