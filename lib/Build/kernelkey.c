/* kernelkey.c -- the key of one kernel's files in one loadable row: the
 * sha256 of its terms, one line each, in a fixed order: hawk's version
 * and the digest of its sources; the kernel and the row; the input's
 * name; for the kernel and every function it calls (each once, in the
 * order the calls are met), where its text starts and the digest of that
 * text and of its canonical print; the profile; the C compiler that links
 * the shared object; the LLVM and the CPU the object is built for.  What
 * another kernel of the build says is no term: changing one kernel of N
 * misses one key.  A function the caller's transforms derived spells no
 * source text of its own, so the whole input's digest stands in for it.
 * docs/EmbeddedC.md, "The build door". */
#include <string.h>

#include "buildint.h"
#include "context.h"
#include "digest.h"
#include "host.h"

/* The functions k reaches through calls and derivative rules, k first,
 * each once (seen: by function index). */
typedef struct {
    const HkModule *m;
    const HkFunc **v;
    uint32_t n, cap;
    uint8_t *seen;
} Reach;

static void reach_add(HkArena *a, Reach *r, uint32_t fi)
{
    if (fi >= r->m->nfuncs || r->seen[fi])
        return;
    r->seen[fi] = 1;
    r->v = hk_grow(a, r->v, &r->cap, r->n + 1, sizeof *r->v);
    r->v[r->n++] = r->m->funcs[fi];
}

/* The function named name, when the module has one (hk_module_new
 * makes every module's table of functions). */
static void reach_named(HkArena *a, Reach *r, const char *name)
{
    if (name != NULL)
        reach_add(a, r, hk_symtab_get(r->m->fsyms, name, strlen(name)));
}

/* A breadth-first walk: r->v grows while it is read. */
static void reach_all(HkArena *a, Reach *r, const HkFunc *k)
{
    reach_named(a, r, k->name);
    for (uint32_t q = 0; q < r->n; q++) {
        const HkFunc *f = r->v[q];
        for (const HkInst *i = f->body.first; i != NULL; i = hk_preorder_next(i))
            if (i->op == HK_OP_CALL)
                reach_add(a, r, i->x->callee);
        reach_named(a, r, f->rule_jvp);
        reach_named(a, r, f->rule_vjp);
    }
}

/* "func <name> <line>:<col> <span digest> <print digest>", or the
 * whole input's digest for a function with no text of its own. */
static void func_line(HkArena *a, HkBuf *b, const HkModule *m, const HkFunc *f)
{
    HkBuf p;
    hk_buf_init(&p, a);
    hk_print_func(&p, f);
    const char *printed = hk_sha256_hex(a, hk_buf_cstr(&p), p.len);
    /* a module's source is the parser's copy (hawk_parse), never NULL;
     * a pass that makes or changes a function marks it */
    if (f->derived || f->made_by != NULL || f->src_end > m->src.len) {
        hk_buf_printf(b, "func %s derived %s input %s\n", f->name, printed,
                      hk_sha256_hex(a, m->src.text, m->src.len));
        return;
    }
    hk_buf_printf(b, "func %s %u:%u %s %s\n", f->name, f->loc.line, f->loc.col,
                  hk_sha256_hex(a, m->src.text + f->src_begin,
                                f->src_end - f->src_begin),
                  printed);
}

const char *build_kernel_key(const BuildRecord *r, const HkTarget *t,
                             const BuildKernel *k, const char **terms)
{
    HkArena *a = r->ctx->arena;
    const HkModule *m = k->m;
    Reach reach = {m, NULL, 0, 0, hk_alloc(a, m->nfuncs + 1u)};
    memset(reach.seen, 0, m->nfuncs + 1u);
    reach_all(a, &reach, k->f);
    HkBuf b;
    hk_buf_init(&b, a);
    hk_buf_printf(&b, "hawk %s sources %s\nbuilt %s\n", hawk_version(),
                  hawk_source_digest(), hawk_build_config());
    hk_buf_printf(&b, "kernel %s row %s\n", k->f->name, t->id);
    hk_buf_printf(&b, "input %s\n", build_input_name(&m->src));
    for (uint32_t q = 0; q < reach.n; q++)
        func_line(a, &b, m, reach.v[q]);
    hk_buf_printf(&b, "profile %s\n", r->profile);  /* read: a build of kernels */
    build_tool_line(&b, "cc", r->cc_found, &r->cc_tool, r->cc_why);
    hk_buf_printf(&b, "llvm %s\n", hk_host_llvm_version());
    if (hk_target_native(t))
        hk_buf_printf(&b, "cpu %s\n", hk_host_cpu(a));
    *terms = hk_buf_cstr(&b);
    return hk_sha256_hex(a, b.data, b.len);
}
