/* nearest.c -- "did you mean": the candidate nearest a mistyped word by
 * edit distance, for the pass options and the tools' flags alike. */
#include <string.h>

#include "ir.h"

/* Levenshtein distance of a and b; SIZE_MAX past 64 characters (option
 * names are short). */
static size_t distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return (size_t)-1;
    size_t row[65];
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
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
