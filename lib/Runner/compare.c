/* compare.c -- both units over identical copies of one launch, compared
 * byte for byte (memcmp, never a tolerance).  The reference is the C unit
 * over the whole range; the host build over the whole range and both
 * units over a partition into pieces must give the same bytes.  The one
 * exception is a NaN against a NaN: C and LLVM leave the sign and payload
 * of a NaN result open, so those are counted, not failed, unless
 * -exact-nan asks for them too (docs/CommandGuide.md, "hawk-run"). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runnerint.h"

/* The entry statuses (the C header's hawk_status_t). */
enum { ST_OK = 0, ST_NULL = 1, ST_RANGE = 2 };

/* The test-only perturbation (docs/CommandGuide.md, "hawk-run"):
 * HAWK_RUN_TEST_PERTURB is a comma-separated list of words
 * "flip-bit-B-of-ROW-output" (B from 0 to 7, ROW c, oracle or interp:
 * the C unit, the row it is compared with (the host unit, or the
 * interpreter under -oracle=interp), the interpreter as the third row), and
 * "flip-last-bit-of-c-output" for flip-bit-0-of-c-output.  Each flips
 * bit B of the first byte of one output value of that row after its
 * whole-range run, so a test can watch the comparison catch a
 * difference, and name the row that disagrees, on any machine.  A list
 * with any other word leaves the hook off. */
enum { ROW_C, ROW_ORACLE, ROW_INTERP, ROWS };

static const char *const row_words[ROWS] = {"c", "oracle", "interp"};

/* The bits each row's value is flipped by; 0 when the hook is off. */
static int perturb_masks(unsigned char mask[ROWS])
{
    memset(mask, 0, ROWS);
    const char *v = getenv("HAWK_RUN_TEST_PERTURB");
    if (v == NULL || *v == '\0')
        return 0;
    for (const char *w = v; *w;) {
        size_t n = strcspn(w, ",");
        unsigned bit = 8;
        int row = -1;
        if (n == strlen("flip-last-bit-of-c-output") &&
            strncmp(w, "flip-last-bit-of-c-output", n) == 0) {
            bit = 0;
            row = ROW_C;
        } else if (n > 20 && strncmp(w, "flip-bit-", 9) == 0 &&
                   w[9] >= '0' && w[9] <= '7' && strncmp(w + 10, "-of-", 4) == 0) {
            bit = (unsigned)(w[9] - '0');
            for (int r = 0; r < ROWS; r++) {
                size_t k = strlen(row_words[r]);
                if (n == 14 + k + 7 && strncmp(w + 14, row_words[r], k) == 0 &&
                    strncmp(w + 14 + k, "-output", 7) == 0)
                    row = r;
            }
        }
        if (row < 0) {
            memset(mask, 0, ROWS);
            return 0;
        }
        mask[row] ^= (unsigned char)(1u << bit);
        w += n + (w[n] == ',');
    }
    return 1;
}

int compare_perturb_armed(void)
{
    unsigned char mask[ROWS];
    return perturb_masks(mask);
}

/* Flips the bits of mask in the middle element of the first written
 * plane (in its first byte in memory order: bit 0 is the lowest bit of a
 * little-endian value). */
static void perturb(HkLaunch *l, const HkLaunchShape *s, unsigned char mask)
{
    for (uint32_t k = 0; k < s->nplanes && mask != 0; k++) {
        const HkPlaneShape *p = &s->planes[k];
        if (!p->field->written || p->nelem == 0)
            continue;
        size_t e = (p->nelem - 1) / 2;
        l->data[k][e * p->field->elem_bytes] ^= mask;
        return;
    }
}

/* One value of element type e at src as "0x<hex> (<decimal>)". */
static void show_value(char *buf, size_t n, HkElem e, const unsigned char *src)
{
    switch (e) {
    case HK_F64: {
        double v; uint64_t b;
        memcpy(&v, src, 8); memcpy(&b, src, 8);
        snprintf(buf, n, "0x%016" PRIx64 " (%.17g)", b, v);
        return;
    }
    case HK_F32: {
        float v; uint32_t b;
        memcpy(&v, src, 4); memcpy(&b, src, 4);
        snprintf(buf, n, "0x%08" PRIx32 " (%.9g)", b, (double)v);
        return;
    }
    case HK_I64: {
        int64_t v; memcpy(&v, src, 8);
        snprintf(buf, n, "0x%016" PRIx64 " (%" PRId64 ")", (uint64_t)v, v);
        return;
    }
    case HK_I32: {
        int32_t v; memcpy(&v, src, 4);
        snprintf(buf, n, "0x%08" PRIx32 " (%" PRId32 ")", (uint32_t)v, v);
        return;
    }
    case HK_U32: {
        uint32_t v; memcpy(&v, src, 4);
        snprintf(buf, n, "0x%08" PRIx32 " (%" PRIu32 ")", v, v);
        return;
    }
    case HK_I1:
        snprintf(buf, n, "0x%02x (%s)", (unsigned)src[0],
                 src[0] ? "true" : "false");
        return;
    case HK_VOID: break;
    }
    snprintf(buf, n, "?");
}

/* Where element e of plane p sits: "component 1 sample 37" (per-sample
 * planes), "element 5" (shared planes), "cell 2" (mix, finished_count). */
static void show_place(char *buf, size_t n, const HkPlaneShape *p, int64_t ns,
                       size_t e)
{
    switch (p->field->addr) {
    case HK_ABI_SOA:
        snprintf(buf, n, "component %zu sample %zu", e / (size_t)ns,
                 e % (size_t)ns);
        return;
    case HK_ABI_FLAT_LEN:
        snprintf(buf, n, "element %zu", e);
        return;
    default:
        snprintf(buf, n, "cell %zu", e);
        return;
    }
}

/* Prints, under a mismatch at sample i, what the launch gave that sample:
 * every uniform and the sample's column of every per-sample plane as the
 * caller initialised it (orig; "prior" for a plane the kernel writes), so
 * the case can be reproduced. */
static void report_inputs(FILE *out, const HkLaunchShape *s, const HkLaunch *orig,
                          size_t i)
{
    char a[96];
    for (uint32_t k = 0; k < s->abi->nfields; k++) {
        const HkAbiField *f = &s->abi->fields[k];
        if (f->kind != HK_ABI_VALUE)
            continue;
        for (uint32_t c = 0; c < f->comps; c++) {
            show_value(a, sizeof a, f->elem,
                       orig->args + f->offset + (size_t)c * f->elem_bytes);
            fprintf(out, "  input %s component %u: %s\n", f->name, c, a);
        }
    }
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        if (p->field->addr != HK_ABI_SOA)
            continue;
        for (uint32_t c = 0; c < p->field->comps; c++) {
            size_t e = (size_t)c * (size_t)s->n + i;
            show_value(a, sizeof a, p->field->elem,
                       orig->data[k] + e * p->field->elem_bytes);
            fprintf(out, "  %s %s component %u: %s\n",
                   p->field->written ? "prior" : "input", p->field->name, c,
                   a);
        }
    }
}

/* Whether the e-th values of type e at a and b are both NaNs. */
static int both_nan(HkElem e, const unsigned char *a, const unsigned char *b)
{
    if (e == HK_F64) {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return isnan(x) && isnan(y);
    }
    if (e == HK_F32) {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        return isnan(x) && isnan(y);
    }
    return 0;
}

/* Prints element e of plane k, which differs between ref and got. */
static void report(const Pair *pr, const char *what, const HkLaunchShape *s,
                   uint32_t k, size_t e, const HkLaunch *ref,
                   const char *ref_name, const HkLaunch *got,
                   const char *got_name, const char *run)
{
    const HkPlaneShape *p = &s->planes[k];
    size_t w = p->field->elem_bytes;
    char place[64], a[96], b[96];
    show_place(place, sizeof place, p, s->n, e);
    show_value(a, sizeof a, p->field->elem, ref->data[k] + e * w);
    show_value(b, sizeof b, p->field->elem, got->data[k] + e * w);
    fprintf(pr->out, "%s: %s in %s %s (round %u, %s): %s %s, %s %s\n",
           pr->kernel, what, p->field->name, place, pr->round, run, ref_name, a,
           got_name, b);
    if (pr->orig != NULL && p->field->addr == HK_ABI_SOA)
        report_inputs(pr->out, s, pr->orig, e % (size_t)s->n);
}

/* The first element of plane k where ref and got differ, skipping (and
 * counting in pr->nan_only) pairs of NaNs unless NaN bits must match.
 * Returns the plane's element count when there is none. */
static size_t first_difference(const Pair *pr, const HkPlaneShape *p,
                               const unsigned char *ref,
                               const unsigned char *got)
{
    size_t w = p->field->elem_bytes;
    for (size_t e = 0; e < p->nelem; e++) {
        if (memcmp(ref + e * w, got + e * w, w) == 0)
            continue;
        if (pr->exact_nan ||
            !both_nan(p->field->elem, ref + e * w, got + e * w))
            return e;
        (*pr->nan_only)++;
    }
    return p->nelem;
}

/* Compares the planes of got with ref (only the read-only ones when
 * inputs_only); prints the first difference.  Returns 0 when equal. */
static int same_planes(const Pair *pr, const HkLaunchShape *s, const HkLaunch *ref,
                       const char *ref_name, const HkLaunch *got,
                       const char *got_name, const char *run, int inputs_only)
{
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        if (inputs_only && p->field->written)
            continue;
        /* the common case: every byte equal */
        if (memcmp(ref->data[k], got->data[k], p->bytes) == 0)
            continue;
        size_t e = first_difference(pr, p, ref->data[k], got->data[k]);
        if (e == p->nelem)
            continue;
        report(pr, "MISMATCH", s, k, e, ref, ref_name, got, got_name, run);
        return 1;
    }
    return 0;
}

/* Calls entry over [base, base + count); a valid launch must return OK. */
/* Calls the C unit's entry (c_unit), on the target when the pair runs it
 * there, or the reference row's: the host unit's or the interpreter's. */
static int32_t enter(const Pair *pr, int c_unit, const void *args,
                     int64_t base, int64_t count, int64_t n)
{
    if (!c_unit)
        return pr->interp != NULL
                   ? hk_interp_entry(pr->interp, args, base, count, n)
                   : pr->host_entry(args, base, count, n);
    return pr->c_pil != NULL ? pil_entry(pr->c_pil, args, base, count, n)
                             : pr->c_entry(args, base, count, n);
}

static int call(const Pair *pr, int c_unit, const char *unit,
                const HkLaunch *l, int64_t base, int64_t count, int64_t n)
{
    int32_t st = enter(pr, c_unit, l->args, base, count, n);
    if (st == ST_OK)
        return 0;
    /* a unit is named by its row ("the c unit"); the interpreter is no
     * unit */
    const char *the = strcmp(unit, INTERP_NAME) == 0 ? "" : "the ";
    const char *kind = strcmp(unit, INTERP_NAME) == 0 ? "" : " unit";
    fprintf(pr->out, "%s: %s%s%s returned status %" PRId32 " on a valid launch "
           "(round %u, base %" PRId64 ", count %" PRId64 ", n_samples %"
           PRId64 ")\n",
           pr->kernel, the, unit, kind, st, pr->round, base, count, n);
    return 1;
}

/* Draws 2 to 5 pieces covering [0, n) (an empty piece allowed) into cuts:
 * piece j is [cuts[j], cuts[j + 1]).  Returns the piece count. */
static uint32_t draw_pieces(HkRng *r, int64_t n, int64_t cuts[6])
{
    uint32_t k = 2 + (uint32_t)hk_rng_below(r, 4);
    cuts[0] = 0;
    cuts[k] = n;
    for (uint32_t j = 1; j < k; j++)
        cuts[j] = (int64_t)hk_rng_below(r, (uint64_t)n + 1);
    /* insertion sort of the inner cuts */
    for (uint32_t j = 2; j < k; j++)
        for (uint32_t q = j; q > 1 && cuts[q - 1] > cuts[q]; q--) {
            int64_t t = cuts[q];
            cuts[q] = cuts[q - 1];
            cuts[q - 1] = t;
        }
    return k;
}

/* Runs entry over the pieces in ascending order. */
static int call_pieces(const Pair *pr, int c_unit, const char *unit,
                       const HkLaunch *l, const int64_t *cuts, uint32_t k,
                       int64_t n)
{
    for (uint32_t j = 0; j < k; j++)
        if (call(pr, c_unit, unit, l, cuts[j], cuts[j + 1] - cuts[j], n) != 0)
            return 1;
    return 0;
}

/* Whether sample i is masked: a guard mask plane of orig is set at i. */
static int masked(const HkLaunchShape *s, const HkLaunch *orig, size_t i)
{
    for (uint32_t k = 0; k < s->nplanes; k++) {
        const HkPlaneShape *p = &s->planes[k];
        if (p->field->role == HK_ROLE_TERMINATED &&
            orig->data[k][i * p->field->elem_bytes] != 0)
            return 1;
    }
    return 0;
}

/* Under a mask guard, a masked sample keeps the caller's value in every
 * per-sample plane: checks the C unit's result got against orig (the host
 * and the pieces equal it byte for byte once the comparison passed).
 * Returns 0, or 1 after printing the first sample that changed. */
static int masked_kept(const Pair *pr, const HkLaunchShape *s,
                       const HkLaunch *orig, const HkLaunch *got)
{
    size_t n = (size_t)s->n;
    for (size_t i = 0; i < n; i++) {
        if (!masked(s, orig, i))
            continue;
        for (uint32_t k = 0; k < s->nplanes; k++) {
            const HkPlaneShape *p = &s->planes[k];
            size_t w = p->field->elem_bytes;
            if (p->field->addr != HK_ABI_SOA || !p->field->written)
                continue;
            for (uint32_t c = 0; c < p->field->comps; c++) {
                size_t e = (size_t)c * n + i;
                if (memcmp(orig->data[k] + e * w, got->data[k] + e * w, w) == 0)
                    continue;
                report(pr, "MASKED SAMPLE CHANGED", s, k, e, orig, "caller",
                       got, pr->c_name, "the sample's mask is set");
                return 1;
            }
        }
    }
    return 0;
}

/* Whether the planes of a and b agree (a NaN's sign and payload aside
 * unless exact), without a report. */
static int agree(const Pair *pr, const HkLaunchShape *s, const HkLaunch *a,
                 const HkLaunch *b)
{
    for (uint32_t k = 0; k < s->nplanes; k++)
        if (memcmp(a->data[k], b->data[k], s->planes[k].bytes) != 0 &&
            first_difference(pr, &s->planes[k], a->data[k], b->data[k]) !=
                s->planes[k].nelem)
            return 0;
    return 1;
}

/* The third row: the HIR interpreter over the whole range beside the
 * C unit's (cw) and the host unit's (hw) runs.  When the three do not
 * all agree, the first difference from the C unit is reported and a
 * line names the row that disagrees with the other two; 0 when they
 * agree. */
static int third_row(const Pair *pr, const HkLaunchShape *s,
                     const HkLaunch *l, const HkLaunch *cw,
                     const HkLaunch *hw)
{
    HkLaunch iw;
    hk_launch_clone(&iw, l, s);
    uint64_t ignored = 0;
    Pair quiet = *pr;
    quiet.nan_only = &ignored;
    int32_t st = hk_interp_entry(pr->third, iw.args, 0, s->n, s->n);
    unsigned char mask[ROWS];
    if (st == ST_OK && perturb_masks(mask))
        perturb(&iw, s, mask[ROW_INTERP]);
    int rc = 0;
    if (st != ST_OK) {
        fprintf(pr->out, "%s: the HIR interpreter returned status %" PRId32
                " on a valid launch (round %u)\n", pr->kernel, st, pr->round);
        rc = 1;
    } else {
        int ch = agree(&quiet, s, cw, hw), ci = agree(&quiet, s, cw, &iw);
        int hi = agree(&quiet, s, hw, &iw);
        if (!ch || !ci) {
            char c[160], h[160];
            snprintf(c, sizeof c, "the C unit ('%s')", pr->c_name);
            snprintf(h, sizeof h, "the host unit ('%s')", pr->host_name);
            const char *odd = ch ? INTERP_NAME : ci ? h : hi ? c : NULL;
            if (!ch)
                same_planes(pr, s, cw, pr->c_name, hw, pr->host_name,
                            "whole range", 0);
            else
                same_planes(pr, s, cw, pr->c_name, &iw, INTERP_NAME,
                            "whole range", 0);
            if (odd != NULL)
                fprintf(pr->out, "%s: of %s, %s and %s, %s disagrees with "
                        "the other two (round %u)\n", pr->kernel, c, h,
                        INTERP_NAME, odd, pr->round);
            else
                fprintf(pr->out, "%s: %s, %s and %s all disagree (round %u)\n",
                        pr->kernel, c, h, INTERP_NAME, pr->round);
            rc = 1;
        }
    }
    hk_launch_free(&iw, s);
    return rc;
}

int compare_launch(const Pair *pr, const HkLaunchShape *s, const HkLaunch *l,
                   HkRng *r)
{
    int64_t n = s->n, cuts[6];
    uint32_t k = draw_pieces(r, n, cuts);
    Pair with = *pr;
    with.orig = l;
    pr = &with;
    HkLaunch cw, hw, cp, hp;
    hk_launch_clone(&cw, l, s);
    hk_launch_clone(&hw, l, s);
    hk_launch_clone(&cp, l, s);
    hk_launch_clone(&hp, l, s);
    int rc = call(pr, 1, pr->c_name, &cw, 0, n, n) ||
             call(pr, 0, pr->host_name, &hw, 0, n, n) ||
             call_pieces(pr, 1, pr->c_name, &cp, cuts, k, n) ||
             call_pieces(pr, 0, pr->host_name, &hp, cuts, k, n);
    char c_whole[64], c_pieces[64], host_pieces[64];
    snprintf(c_whole, sizeof c_whole, "%s whole", pr->c_name);
    snprintf(c_pieces, sizeof c_pieces, "%s pieces", pr->c_name);
    snprintf(host_pieces, sizeof host_pieces, "%s pieces", pr->host_name);
    unsigned char mask[ROWS];
    if (rc == 0 && perturb_masks(mask)) {
        perturb(&cw, s, mask[ROW_C]);
        perturb(&hw, s, mask[ROW_ORACLE]);
    }
    /* the interpreter runs every launch: it is the row that checks the
     * lowering both units share */
    if (rc == 0 && pr->third != NULL)
        rc = third_row(pr, s, l, &cw, &hw);
    if (rc == 0)
        rc = same_planes(pr, s, &cw, pr->c_name, &hw, pr->host_name,
                         "whole range", 0) ||
             same_planes(pr, s, &cw, c_whole, &cp, c_pieces, "partition",
                         0) ||
             same_planes(pr, s, &cw, c_whole, &hp, host_pieces, "partition",
                         0) ||
             same_planes(pr, s, l, "before", &cw, "after",
                         "read-only plane written", 1) ||
             (pr->guarded && masked_kept(pr, s, l, &cw));
    hk_launch_free(&cw, s);
    hk_launch_free(&hw, s);
    hk_launch_free(&cp, s);
    hk_launch_free(&hp, s);
    return rc;
}

/* ---- the entry's own checks ------------------------------------------ */

/* An invalid call: what it changes in the launch and what it expects. */
typedef struct {
    const char *what;
    int null_args;
    int64_t base, count, n;
    int32_t field;            /* plane set to NULL or length set to 0; -1 */
    int32_t expect;
} BadCall;

/* Makes copy c of l with the damage of bad applied to its args. */
static void damage(HkLaunch *c, const HkLaunch *l, const HkLaunchShape *s,
                   const BadCall *bad)
{
    hk_launch_clone(c, l, s);
    if (bad->field < 0)
        return;
    const HkAbiField *f = &s->abi->fields[bad->field];
    unsigned char *at = c->args + f->offset;
    if (f->kind == HK_ABI_LEN) {
        int64_t zero = 0;
        memcpy(at, &zero, sizeof zero);
    } else {
        void *null = NULL;
        memcpy(at, &null, sizeof null);
    }
}

/* Calls both units with bad; both must return bad->expect untouched. */
static int check_one(const Pair *pr, const HkLaunchShape *s, const HkLaunch *l,
                     const BadCall *bad)
{
    HkLaunch c, h;
    damage(&c, l, s, bad);
    damage(&h, l, s, bad);
    int32_t sc = enter(pr, 1, bad->null_args ? NULL : c.args, bad->base,
                       bad->count, bad->n);
    int32_t sh = enter(pr, 0, bad->null_args ? NULL : h.args, bad->base,
                       bad->count, bad->n);
    int rc = 0;
    if (sc != bad->expect || sh != bad->expect) {
        fprintf(pr->out, "%s: entry check '%s': %s returned %" PRId32 ", %s %" PRId32
               ", expected %" PRId32 "\n",
               pr->kernel, bad->what, pr->c_name, sc, pr->host_name, sh,
               bad->expect);
        rc = 1;
    }
    if (rc == 0)
        rc = same_planes(pr, s, l, "before", &c, pr->c_name, bad->what, 0) ||
             same_planes(pr, s, l, "before", &h, pr->host_name, bad->what,
                         0);
    hk_launch_free(&c, s);
    hk_launch_free(&h, s);
    return rc;
}

int compare_entry_checks(const Pair *pr, const HkLaunchShape *s, const HkLaunch *l)
{
    int64_t n = s->n;
    const BadCall fixed[] = {
        {"args NULL", 1, 0, n, n, -1, ST_NULL},
        {"base -1", 0, -1, 1, n, -1, ST_RANGE},
        {"base past n_samples", 0, n + 1, 0, n, -1, ST_RANGE},
        {"count -1", 0, 0, -1, n, -1, ST_RANGE},
        {"count past n_samples - base", 0, 1, n, n, -1, ST_RANGE},
        {"n_samples -1", 0, 0, 0, -1, -1, ST_RANGE},
    };
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        if (check_one(pr, s, l, &fixed[k]) != 0)
            return 1;
    /* the sample bound, exactly: an empty range of the largest n_samples
     * runs, one more is refused */
    if (pr->sample_max < INT64_MAX) {
        const BadCall edge[] = {
            {"n_samples at the bound, no sample", 0, 0, 0, pr->sample_max,
             -1, ST_OK},
            {"n_samples past the bound", 0, 0, 0, pr->sample_max + 1, -1,
             ST_RANGE},
        };
        for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++)
            if (check_one(pr, s, l, &edge[k]) != 0)
                return 1;
    }
    for (uint32_t k = 0; k < s->abi->nfields; k++) {
        const HkAbiField *f = &s->abi->fields[k];
        if (f->kind == HK_ABI_VALUE)
            continue;
        char what[96];
        snprintf(what, sizeof what, f->kind == HK_ABI_LEN ? "%s 0" : "%s NULL",
                 f->name);
        BadCall bad = {what, 0, 0, n, n, (int32_t)k,
                       f->kind == HK_ABI_LEN ? ST_RANGE : ST_NULL};
        if (check_one(pr, s, l, &bad) != 0)
            return 1;
    }
    return 0;
}
