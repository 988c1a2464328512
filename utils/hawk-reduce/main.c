/* hawk-reduce -- shrinks a HIR module that makes a test fail to a small
 * one that still does, as llvm-reduce and C-Reduce do: the test is a
 * program run on a candidate file (argument vector, never a shell) that
 * exits 0 while the candidate is still "interesting".  Each round tries,
 * in order, to drop a whole function, and to replace an instruction by
 * constants of its results' types (a region op with its regions, a store
 * or any other op without results dropped), to replace a one-result
 * instruction by an operand of its type, and to drop an unused constant,
 * each candidate followed by
 * dce (or, when the test needs what dce removes, not); a candidate is
 * kept when it verifies and the test passes.  Rounds
 * repeat until none changes the text.  docs/CommandGuide.md,
 * "hawk-reduce". */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "context.h"
#include "hawk/hawk.h"
#include "ir.h"

#define TOOL "hawk-reduce"

typedef struct {
    const char *input, *output, *test;
    const char **test_args;
    int ntest_args;
    long tries;             /* tests run */
} Reduce;

/* ---- files and the test -------------------------------------------------- */

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    for (size_t got; s != NULL && (got = fread(s + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *t = realloc(s, cap *= 2);
            if (t == NULL)
                free(s);
            s = t;
        }
    }
    fclose(f);
    if (s != NULL) {
        s[n < cap ? n : cap - 1] = '\0';
        *len = n;
    }
    return s;
}

/* Writes text to path whole: a temporary file beside it, then rename. */
static int write_whole(const char *path, const char *text)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (tmp == NULL)
        return -1;
    snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f != NULL && fputs(text, f) >= 0;
    if (f != NULL && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

/* Runs the test on file; 1 when it exits 0 (still interesting). */
static int interesting(Reduce *r, const char *file)
{
    r->tries++;
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        const char **argv = calloc((size_t)r->ntest_args + 3, sizeof *argv);
        if (argv == NULL)
            _exit(127);
        argv[0] = r->test;
        for (int k = 0; k < r->ntest_args; k++)
            argv[k + 1] = r->test_args[k];
        argv[r->ntest_args + 1] = file;
        execv(r->test, (char *const *)argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- candidates ------------------------------------------------------------ */

/* A constant of type t: zero, false, or for reals 1.0 (a zero would make
 * many divisions and logarithms the new failure). */
static HkVal constant(HkFunc *f, HkInst *before, HkType t)
{
    HkArena *a = f->module->arena;
    HkInst *c = hk_inst_new(f, HK_OP_CONST, before->loc);
    c->x->cst.n = 1;
    if (t.elem == HK_F32 || t.elem == HK_F64) {
        c->x->cst.f = hk_alloc(a, sizeof *c->x->cst.f);
        c->x->cst.f[0] = 1.0;
    } else {
        c->x->cst.i = hk_alloc(a, sizeof *c->x->cst.i);
    }
    HkVal v = hk_inst_result(f, c, t, NULL);
    hk_insert_before(before, c);
    return v;
}

/* Drops function k of m when no other calls it (-1 when one does): the
 * calls' indices and the name table follow. */
static int drop_func(HkModule *m, uint32_t k)
{
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        for (HkInst *i = m->funcs[fi]->body.first; i != NULL;
             i = hk_preorder_next(i))
            if (i->op == HK_OP_CALL && i->x->callee == k)
                return -1;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++)
        for (HkInst *i = m->funcs[fi]->body.first; i != NULL;
             i = hk_preorder_next(i))
            if (i->op == HK_OP_CALL && i->x->callee > k)
                i->x->callee--;
    const char *gone = m->funcs[k]->name;
    hk_symtab_del(m->fsyms, gone, strlen(gone));
    for (uint32_t fi = k; fi + 1 < m->nfuncs; fi++) {
        m->funcs[fi] = m->funcs[fi + 1];
        const char *name = m->funcs[fi]->name;
        hk_symtab_del(m->fsyms, name, strlen(name));
        hk_symtab_put(m->fsyms, name, strlen(name), fi);
    }
    m->nfuncs--;
    return 1;
}

/* Whether two types are the same. */
static int same_type(HkType a, HkType b)
{
    return a.elem == b.elem && a.rank == b.rank && a.dim[0] == b.dim[0] &&
           a.dim[1] == b.dim[1];
}

/* Whether an instruction of f reads v. */
static int used(HkFunc *f, HkVal v)
{
    for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
        for (uint32_t k = 0; k < i->nops; k++)
            if (i->ops[k] == v)
                return 1;
    return 0;
}

/* Replaces instruction i of f (variant 0: by constants of its results'
 * types; variant j > 0: its one result by its operand j - 1, when of the
 * same type, as llvm-reduce's operand forwarding).  1 when done, -1 when
 * the variant does not apply. */
static int replace(HkFunc *f, HkInst *i, uint32_t variant)
{
    if (variant == 0) {
        for (uint32_t r = 0; r < i->nres; r++) {
            HkValue *v = hk_value(f, hk_res(i)[r]);
            hk_replace_all_uses(f, hk_res(i)[r], constant(f, i, v->type));
        }
        hk_inst_remove(i);
        return 1;
    }
    if (i->nres != 1 || i->x->nregions > 0)
        return -1;
    HkVal op = i->ops[variant - 1];
    if (!same_type(hk_value(f, op)->type, hk_value(f, hk_res(i)[0])->type))
        return -1;
    hk_replace_all_uses(f, hk_res(i)[0], op);
    hk_inst_remove(i);
    return 1;
}

/* Candidate k of module m, applied in place: k < nfuncs drops function
 * k; then, over the instructions of every function in preorder, each
 * instruction's variants (replace).  Returns 1 when applied, -1 when
 * candidate k does not apply, 0 when k names nothing left. */
static int apply(HkModule *m, long k)
{
    if (k < (long)m->nfuncs) {
        /* a module keeps one function at least */
        return m->nfuncs < 2 ? -1 : drop_func(m, (uint32_t)k);
    }
    k -= (long)m->nfuncs;
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        HkFunc *f = m->funcs[fi];
        for (HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i)) {
            long variants = 1 + (long)i->nops;
            if (k >= variants) {
                k -= variants;
                continue;
            }
            if (i->op == HK_OP_YIELD || i->op == HK_OP_RET)
                return -1;
            /* a constant is as small as it gets (replacing it would only
             * rename it, round after round): it goes when unused */
            if (i->op == HK_OP_CONST) {
                if (k != 0 || used(f, hk_res(i)[0]))
                    return -1;
                hk_inst_remove(i);
                return 1;
            }
            return replace(f, i, (uint32_t)k);
        }
    }
    return 0;
}

/* The text of candidate k of text, after dce; NULL when k names nothing
 * (*end set) or the candidate does not verify. */
static char *candidate(const char *name, const char *text, long k, int *end,
                       int dce)
{
    HawkContext *ctx = hawk_context_create();
    char *out = NULL;
    HawkModule *m = hawk_parse(ctx, name, text, strlen(text));
    int rc = m != NULL ? apply(m, k) : 0;
    *end = rc == 0;
    if (rc == 1 && hawk_verify(ctx, m) == 0) {
        HawkPassManager *pm = hawk_pass_manager_create(ctx);
        if (pm != NULL && hawk_pass_manager_parse(pm, dce ? "dce" : "") == 0 &&
            hawk_pass_manager_run(pm, m) == 0) {
            size_t n;
            const char *s = hawk_print(ctx, m, &n);
            /* a file of lines: it ends in a newline */
            out = s != NULL ? malloc(n + 2) : NULL;
            if (out != NULL) {
                memcpy(out, s, n);
                if (n == 0 || s[n - 1] != '\n')
                    out[n++] = '\n';
                out[n] = '\0';
            }
        }
    }
    hawk_context_destroy(ctx);
    return out;
}

/* One round over every candidate; whether the text changed. */
static int round_once(Reduce *r, char **text)
{
    int changed = 0, end = 0;
    for (long k = 0; !end; k++) {
        /* with dce first; without, when what the test looks for is dead */
        for (int dce = 1; dce >= 0; dce--) {
            char *c = candidate(r->input, *text, k, &end, dce);
            if (c == NULL)
                break;
            if (strcmp(c, *text) != 0 && write_whole(r->output, c) == 0 &&
                interesting(r, r->output)) {
                free(*text);
                *text = c;
                changed = 1;
                k--;  /* the next candidate now has this index */
                break;
            }
            free(c);
        }
    }
    return changed;
}

static int usage(FILE *out)
{
    fprintf(out,
            "OVERVIEW: shrink a HIR module a test finds interesting\n\n"
            "USAGE: hawk-reduce -test=PROGRAM [-test-arg=ARG...] input.hir "
            "-o output.hir\n\n"
            "The test runs as PROGRAM ARG... FILE and exits 0 while FILE is "
            "still interesting.\n");
    return out == stdout ? 0 : 1;
}

int main(int argc, char **argv)
{
    Reduce r = {0};
    r.test_args = calloc((size_t)argc, sizeof *r.test_args);
    for (int k = 1; k < argc && r.test_args != NULL; k++) {
        const char *a = argv[k];
        if (strncmp(a, "-test=", 6) == 0)
            r.test = a + 6;
        else if (strncmp(a, "-test-arg=", 10) == 0)
            r.test_args[r.ntest_args++] = a + 10;
        else if (strcmp(a, "-o") == 0 && k + 1 < argc)
            r.output = argv[++k];
        else if (strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0)
            return usage(stdout);
        else if (a[0] != '-' && r.input == NULL)
            r.input = a;
        else {
            fprintf(stderr, "%s: error: unexpected argument '%s'\n", TOOL, a);
            return usage(stderr);
        }
    }
    if (r.test == NULL || r.input == NULL || r.output == NULL) {
        free(r.test_args);
        return usage(stderr);
    }
    size_t len;
    char *text = read_all(r.input, &len);
    if (text == NULL) {
        fprintf(stderr, "%s: error: cannot read '%s': %s\n", TOOL, r.input,
                strerror(errno));
        free(r.test_args);
        return 1;
    }
    /* the input itself must be interesting, or there is nothing to keep */
    if (write_whole(r.output, text) != 0 || !interesting(&r, r.output)) {
        fprintf(stderr, "%s: error: the test does not pass on '%s' itself\n",
                TOOL, r.input);
        remove(r.output);
        free(text);
        free(r.test_args);
        return 1;
    }
    size_t before = len;
    while (round_once(&r, &text))
        ;
    int rc = write_whole(r.output, text);
    fprintf(stderr, "%s: %zu bytes -> %zu bytes, %ld tests\n", TOOL, before,
            strlen(text), r.tries);
    free(text);
    free(r.test_args);
    return rc == 0 ? 0 : 1;
}
