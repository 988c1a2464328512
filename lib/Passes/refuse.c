/* refuse.c -- the one spelling of a refusal: every verify pass refuses
 * through hk_refuse, so the message shape, the rule and the position the
 * report and the C API read are the same everywhere. */
#include "embedded.h"

/* Appends the refusal; kind NULL names the node by its mnemonic (or
 * "kernel"). */
void hk_refuse(HawkPassRun *r, HkFunc *f, const HkInst *at, const char *kind,
               const char *rule, const char *why, const char *fix)
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
}
