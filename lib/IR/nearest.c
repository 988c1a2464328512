/* nearest.c -- "did you mean": the candidate nearest a mistyped word by
 * edit distance, for every name a user types: the tools' flags, passes
 * and their options, ops, types, roles, slots, kernels and targets. */
#include <string.h>

#include "ir.h"

/* The edit distance of a and b, a swap of two neighbours one edit
 * ("jpv" is one from "jvp": optimal string alignment); SIZE_MAX past 64
 * characters (names are short). */
static size_t distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return (size_t)-1;
    size_t rows[3][65];
    size_t *before = rows[0], *prev = rows[1], *row = rows[2];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            row[j] = best;
        }
        size_t *t = before;
        before = prev;
        prev = row;
        row = t;
    }
    return prev[nb];
}

size_t hawk_nearest(const char *word, const char *const *cands, size_t n)
{
    size_t best = (size_t)-1, at = (size_t)-1;
    for (size_t k = 0; word != NULL && k < n; k++) {
        size_t d = cands[k] != NULL ? distance(word, cands[k]) : (size_t)-1;
        if (d < best) {
            best = d;
            at = k;
        }
    }
    /* close enough to be a typo: a third of the word, at least 1 edit */
    size_t limit = word != NULL && strlen(word) / 3 > 1 ? strlen(word) / 3 : 1;
    return best <= limit ? at : (size_t)-1;
}

const char *hk_did_you_mean(HkArena *a, const char *word, size_t n,
                            const char *const *cands, size_t ncands)
{
    const char *w = hk_strndup(a, word, n);
    size_t k = hawk_nearest(w, cands, ncands);
    if (k == (size_t)-1)
        return "";
    return hk_asprintf(a, " (did you mean '%s'?)", cands[k]);
}
