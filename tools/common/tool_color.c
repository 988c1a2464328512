/* tool_color.c -- colour in diagnostics, as clang prints them: the
 * location and message bold, the severity coloured, the caret green.
 * -color=auto (the default) colours only when standard error is a
 * terminal and NO_COLOR is unset or empty (no-color.org); always and
 * never decide alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_opts.h"

static int color_mode = -1;   /* -1 auto, 0 never, 1 always */

int tool_set_color(void *state, const ToolOpt *row, const char *value)
{
    (void)state;
    if (strcmp(value, "auto") == 0)
        color_mode = -1;
    else if (strcmp(value, "never") == 0)
        color_mode = 0;
    else if (strcmp(value, "always") == 0)
        color_mode = 1;
    else
        return tool_error(tool_current_name(), "option '-%s' expects "
                          "auto, always or never, got '%s'", row->name, value);
    return 0;
}

int tool_color(void)
{
    if (color_mode >= 0)
        return color_mode;
    const char *no = getenv("NO_COLOR");
    return (no == NULL || *no == '\0') && isatty(STDERR_FILENO);
}

#define BOLD "\033[1m"
#define RESET "\033[0m"

/* The escape of a severity word, or NULL. */
static const char *severity_color(const char *word, size_t n)
{
    if (n == 6 && memcmp(word, "error:", 6) == 0)
        return "\033[1;31m";
    if (n == 8 && memcmp(word, "warning:", 8) == 0)
        return "\033[1;35m";
    if (n == 5 && memcmp(word, "note:", 5) == 0)
        return "\033[1;30m";
    return NULL;
}

/* Writes the first line of a diagnostic, s[0..n): the location bold, the
 * severity in its colour, the message bold. */
static void head_line(const char *s, size_t n, FILE *out)
{
    static const char *const words[] = {"error:", "warning:", "note:"};
    for (size_t k = 0; k < 3; k++) {
        size_t w = strlen(words[k]);
        for (const char *p = s; p + w <= s + n; p++) {
            if (memcmp(p, words[k], w) != 0 || (p != s && p[-1] != ' '))
                continue;
            size_t loc = (size_t)(p - s);
            if (loc > 0)
                fprintf(out, BOLD "%.*s" RESET, (int)loc, s);
            fprintf(out, "%s%.*s" RESET BOLD "%.*s" RESET,
                    severity_color(p, w), (int)w, p, (int)(n - loc - w),
                    p + w);
            return;
        }
    }
    fwrite(s, 1, n, out);
}

/* Whether line s[0..n) is a caret line: spaces, then '^', '~' or spaces. */
static int caret_line(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    if (k == n || s[k] != '^')
        return 0;
    for (; k < n; k++)
        if (s[k] != '^' && s[k] != '~' && s[k] != ' ')
            return 0;
    return 1;
}

void tool_put_diag(const char *text, FILE *out)
{
    if (!tool_color()) {
        fputs(text, out);
        return;
    }
    const char *s = text;
    int first = 1;
    while (*s != '\0') {
        size_t n = strcspn(s, "\n");
        if (first)
            head_line(s, n, out);
        else if (caret_line(s, n))
            fprintf(out, "\033[1;32m%.*s" RESET, (int)n, s);
        else
            fwrite(s, 1, n, out);
        if (s[n] == '\n')
            fputc('\n', out);
        first = 0;
        s += n + (s[n] == '\n');
    }
}
