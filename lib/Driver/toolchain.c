/* toolchain.c -- which C compiler and cppcheck the checks run.
 *
 * The order is the contract's: an explicit $HAWK_CC must resolve (a typo must
 * not silently fall back to another compiler); the C sibling of $HAWK_CXX
 * keeps the C and C++ checks on one toolchain; then $CC's first word; then
 * cc, clang, gcc on PATH.
 */
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* "g++-13" -> "gcc-13", "clang++-14" -> "clang-14", "c++" -> "cc";
 * a directory prefix is kept. */
const char *hk_cc_sibling(HkArena *a, const char *cxx)
{
    static const struct { const char *cxx, *cc; } twins[] = {
        {"clang++", "clang"}, {"g++", "gcc"}, {"c++", "cc"},
    };
    const char *base = strrchr(cxx, '/');
    base = base ? base + 1 : cxx;
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) {
        const char *hit = strstr(base, twins[i].cxx);
        if (hit == NULL)
            continue;
        /* The twin's name must end the word or be followed by a version. */
        const char *after = hit + strlen(twins[i].cxx);
        if (*after != '\0' && *after != '-')
            continue;
        return hk_asprintf(a, "%.*s%s%s", (int)(hit - cxx), cxx, twins[i].cc,
                           after);
    }
    return NULL;
}

/* The first whitespace-separated word of s (for $CC="ccache gcc" that is
 * ccache: the contract takes the first word). */
static const char *first_word(HkArena *a, const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strcspn(s, " \t");
    return n ? hk_strndup(a, s, n) : NULL;
}

static void tool_version(HkArena *a, HkTool *t)
{
    const char *argv[] = {t->path, "--version", NULL};
    HkRunResult r = hk_run(a, argv);
    size_t n = strcspn(r.output, "\n");
    t->version = r.started && r.exited && r.status == 0
                     ? hk_strndup(a, r.output, n)
                     : "unknown";
}

static int found(HkArena *a, HkTool *out, const char *name, const char *how)
{
    const char *path = hk_which(a, name);
    if (path == NULL)
        return 0;
    out->path = path;
    out->name = name;
    out->how = how;
    tool_version(a, out);
    return 1;
}

/* $var, when set and not empty, names the tool, and must resolve (a typo
 * must not fall back to another tool): 1 with out filled, -1 with *why
 * set; 0 when $var is unset or empty. */
static int from_env(HkArena *a, HkTool *out, const char *var, const char **why)
{
    const char *env = getenv(var);
    if (env == NULL || *env == '\0')
        return 0;
    if (found(a, out, env, hk_asprintf(a, "$%s", var)))
        return 1;
    *why = hk_asprintf(a, "$%s is '%s', which does not resolve to an executable",
                       var, env);
    return -1;
}

int hk_resolve_cc(HkArena *a, HkTool *out, const char **why)
{
    memset(out, 0, sizeof *out);
    int set = from_env(a, out, "HAWK_CC", why);
    if (set != 0)
        return set > 0 ? 0 : -1;
    const char *env = getenv("HAWK_CXX");
    const char *twin = env && *env ? hk_cc_sibling(a, first_word(a, env)) : NULL;
    if (twin != NULL && found(a, out, twin, "$HAWK_CXX sibling"))
        return 0;
    env = getenv("CC");
    const char *cc = env ? first_word(a, env) : NULL;
    if (cc != NULL && found(a, out, cc, "$CC"))
        return 0;
    static const char *const path_names[] = {"cc", "clang", "gcc"};
    for (size_t i = 0; i < 3; i++)
        if (found(a, out, path_names[i], "PATH"))
            return 0;
    *why = "no C compiler found: set $HAWK_CC, $CC, or put cc, clang or gcc on PATH";
    return -1;
}

int hk_resolve_cppcheck(HkArena *a, HkTool *out, const char **why)
{
    memset(out, 0, sizeof *out);
    int set = from_env(a, out, "HAWK_CPPCHECK", why);
    if (set != 0)
        return set > 0 ? 0 : -1;
    if (found(a, out, "cppcheck", "PATH"))
        return 0;
    *why = "cppcheck not found: set $HAWK_CPPCHECK or put cppcheck on PATH";
    return -1;
}
