/* feature-refusal.c -- the feature-refusal pass: finds every feature of
 * features.def a kernel uses and refuses each use the profile's target
 * does not build (rule unsupported.<feature>, with the table's why and
 * fix).  It runs first in -verify-embedded: nothing else is worth
 * computing for a kernel the target cannot build. */
#include <string.h>

#include "embedded.h"

/* The feature id of each op's `feature` column (ops.def), -1 for none. */
static void op_features(int8_t *feat)
{
    for (int op = 0; op < HK_OP_COUNT; op++) {
        const char *name = hk_ops[op].feature;
        feat[op] = -1;
        if (name[0] == '\0')
            continue;
        for (int k = 0; k < HK_FEAT_COUNT && feat[op] < 0; k++)
            if (strcmp(hk_features[k].name, name) == 0)
                feat[op] = (int8_t)k;
        if (feat[op] < 0)
            hk_unreachable();  /* ops.def names a feature features.def lacks */
    }
}

/* The type of value v of f. */
static HkType type_of(const HkFunc *f, HkVal v)
{
    return hk_value(f, v)->type;
}

/* The feature instruction i needs, or -1: the op's own column first, then
 * the forms of an ordinary op that the C target does not lower. */
static int inst_feature(const HkFunc *f, const HkInst *i, const int8_t *feat)
{
    if (feat[i->op] >= 0)
        return feat[i->op];
    if (hk_ops[i->op].rule == HK_R_MATH1 && i->nops == 1 &&
        hk_is_int((HkElem)type_of(f, i->ops[0]).elem))
        return HK_FEAT_INT_LIBM;
    if (i->op == HK_OP_ACCUM && i->has_index && i->nops >= 1 &&
        type_of(f, i->ops[0]).rank >= 1)
        return HK_FEAT_SCATTERED_TENSOR_ACCUM;
    if (i->op == HK_OP_LOOP && !i->x->has_count && i->x->lo == i->x->hi)
        return HK_FEAT_ZERO_TRIP_LOOP;
    if (i->op == HK_OP_SELECT && i->nops == 3 &&
        type_of(f, i->ops[0]).rank >= 1)
        return HK_FEAT_TENSOR_SELECT_COND;
    return -1;
}

/* The HK_FEAT_BIT set the kernel's attributes need. */
static uint32_t attribute_features(const HkFunc *f)
{
    uint32_t used = 0;
    if (f->guard == HK_GUARD_ACTIVE_SET)
        used |= HK_FEAT_BIT(ACTIVE_SET);
    if (f->segmented)
        used |= HK_FEAT_BIT(SEGMENTED);
    if (f->sink == HK_SINK_COMPENSATED)
        used |= HK_FEAT_BIT(COMPENSATED);
    if (f->fused_lanes)
        used |= HK_FEAT_BIT(FUSED_LANES);
    if (f->two_path)
        used |= HK_FEAT_BIT(TWO_PATH);
    return used;
}

/* Refuses feature k at node at (NULL: the kernel). */
static void refuse_feature(HawkPassRun *r, HkFunc *f, const HkInst *at, int k)
{
    const HkFeatureInfo *fi = &hk_features[k];
    const char *rule = hk_asprintf(f->module->arena, "unsupported.%s", fi->name);
    hk_refuse(r, f, at, at ? hk_ops[at->op].mnemonic : "kernel", rule, fi->why,
              fi->fix);
}

/* The names of the features target t lacks, in features.def order. */
static void fill_checked(HkArena *a, const HkTarget *t, HkFeatureResult *res)
{
    res->checked = hk_alloc(a, HK_FEAT_COUNT * sizeof *res->checked);
    for (int k = 0; k < HK_FEAT_COUNT; k++)
        if (!(t->features & (UINT32_C(1) << k)))
            res->checked[res->nchecked++] = hk_features[k].name;
}

/* Refuses every use of a feature the target lacks; caches the result
 * only when there is none. */
int hk_pass_feature_refusal(HawkPassRun *r, HkFunc *f)
{
    HkArena *a = f->module->arena;
    HkFeatureResult *res = hk_alloc(a, sizeof *res);
    if (!f->is_kernel) {
        hk_analysis_set(r, f, HK_PASS_FEATURE_REFUSAL, res);
        return 0;
    }
    HkProfile prof;
    const HkPositions *pos = hk_positions(r, f);
    if (hk_profile_read(r, &prof) != 0 || pos == NULL)
        return 1;
    fill_checked(a, prof.target, res);
    int8_t feat[HK_OP_COUNT];
    op_features(feat);
    /* The kernel's attributes first (they stand before its body), then
     * every node in walk order: each use is reported, not only the first. */
    uint32_t lacks = ~prof.target->features & HK_FEAT_ALL;
    uint32_t refused = 0;
    uint32_t attrs = attribute_features(f);
    res->used = attrs;
    for (int k = 0; k < HK_FEAT_COUNT; k++)
        if (attrs & lacks & (UINT32_C(1) << k)) {
            refuse_feature(r, f, NULL, k);
            refused++;
        }
    /* banded is a named slot no target builds: refused everywhere, under
     * its own rule (extension-seams.md), before any feature of a row */
    if (f->sink == HK_SINK_BANDED) {
        hk_refuse(r, f, NULL, "kernel", "sink.banded",
                  "the banded sink policy is named but not built by any "
                  "target",
                  "use a sink policy that is built: plain or atomic (or "
                  "compensated where the target builds it)");
        refused++;
    }
    for (uint32_t n = 0; n < pos->walk.n; n++) {
        const HkInst *i = pos->walk.items[n].inst;
        int k = inst_feature(f, i, feat);
        if (k < 0)
            continue;
        res->used |= UINT32_C(1) << k;
        if (lacks & (UINT32_C(1) << k)) {
            refuse_feature(r, f, i, k);
            refused++;
        }
    }
    /* A refused kernel caches nothing: whoever asks again is refused
     * again, so a cached result always means "accepted". */
    if (refused != 0)
        return 1;
    hk_analysis_set(r, f, HK_PASS_FEATURE_REFUSAL, res);
    return 0;
}

/* Appends ", "-joined names of the features in set, or "none". */
static void put_features(HkBuf *b, uint32_t set)
{
    const char *sep = "";
    for (int k = 0; k < HK_FEAT_COUNT; k++)
        if (set & (UINT32_C(1) << k)) {
            hk_buf_printf(b, "%s%s", sep, hk_features[k].name);
            sep = ", ";
        }
    if (*sep == '\0')
        hk_buf_puts(b, "none");
}

/* "feature-refusal @k:", the features checked, the features used. */
void hk_print_feature_refusal(HkBuf *b, const HkFunc *f, const void *result)
{
    const HkFeatureResult *res = result;
    if (!f->is_kernel)
        return;
    hk_buf_printf(b, "feature-refusal @%s:\n  checked:", f->name);
    for (uint32_t k = 0; k < res->nchecked; k++)
        hk_buf_printf(b, "%s%s", k ? ", " : " ", res->checked[k]);
    hk_buf_puts(b, res->nchecked ? "\n  used: " : " none\n  used: ");
    put_features(b, res->used);
    hk_buf_puts(b, "\n");
}
