/* source.c -- the pages of a mapped input given back behind a scan.
 *
 * A program of a million lines is tens of megabytes of text, read three
 * times (the byte check, the count that sizes a body's name table, the
 * lexer) and then needed only for a diagnostic's line.  When the caller
 * says the text lies in a read-only private mapping of a file
 * (hawk_parse_mapped), each scan gives back the pages it has passed:
 * they are the file's, so a later read maps them again, from the page
 * cache, with the same bytes. */
#define _DEFAULT_SOURCE  /* madvise */
#include <sys/mman.h>
#include <unistd.h>

#include "ir.h"

HkScanMark hk_scan_mark(const char *at)
{
    HkScanMark m = {at};
    return m;
}

void hk_source_give_back(HkScanMark *mark, const char *at)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)mark->done + page - 1) & ~(page - 1);
    uintptr_t to = (uintptr_t)at & ~(page - 1);
    /* whole pages only: the ones the scan shares with text before the
     * mark, or after at, stay */
    if (to > from)
        (void)madvise((void *)from, (size_t)(to - from), MADV_DONTNEED);
    mark->done = at;
}
