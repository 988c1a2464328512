/* analysis_report.c -- hawk-opt -analysis-report=FILE: the JSON report of
 * every kernel of the input, collected chunk by chunk after the pipeline
 * ran and written whole at the end. */
#include <stdlib.h>
#include <string.h>

#include "tool_mem.h"
#include "opt.h"

int opt_collect_reports(OptRun *r, HawkModule *m)
{
    size_t n = hawk_module_function_count(m);
    for (size_t i = 0; i < n; i++) {
        HawkFunction *fn = hawk_module_function(m, i);
        if (!hawk_function_is_kernel(fn))
            continue;
        const char *text = hawk_kernel_report(r->pm, fn, NULL);
        if (text == NULL)
            return 1;
        const char **p = tool_realloc(r->reports, (r->nreports + 1) * sizeof *p);
        if (p == NULL)
            return tool_error(OPT_TOOL, "out of memory");
        p[r->nreports++] = text;
        r->reports = p;
    }
    return 0;
}

/* Appends text with every line indented one level (a tab, as cJSON
 * indents), so an object reads the same inside the array. */
static void put_indented(ToolBuf *b, const char *text)
{
    while (*text != '\0') {
        size_t line = strcspn(text, "\n");
        tool_buf_puts(b, "\t");
        tool_buf_put(b, text, line);
        text += line;
        if (*text == '\n') {
            tool_buf_puts(b, "\n");
            text++;
        }
    }
}

int opt_write_reports(const OptRun *r)
{
    ToolBuf b = {0};
    if (r->nreports == 1) {
        tool_buf_puts(&b, r->reports[0]);
    } else {
        tool_buf_puts(&b, "[");
        for (size_t i = 0; i < r->nreports; i++) {
            tool_buf_puts(&b, i > 0 ? ",\n" : "\n");
            put_indented(&b, r->reports[i]);
        }
        tool_buf_puts(&b, r->nreports > 0 ? "\n]" : "]");
    }
    tool_buf_puts(&b, "\n");
    int rc = tool_write_file(OPT_TOOL, r->cfg->analysis_report, b.data, b.len);
    tool_buf_free(&b);
    return rc;
}
