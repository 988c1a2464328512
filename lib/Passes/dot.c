/* dot.c -- print<dot>: a function as a Graphviz digraph, as `opt
 * -dot-cfg` draws LLVM's CFG.
 *
 * HIR has no basic blocks: its control is structured.  A block (the body,
 * or a region of a loop, if or dispatch) is a cluster; the straight-line
 * instructions between two region ops of a block are one box listing
 * them; a region op is a cluster headed by its own line (`loop %i = 0 to
 * 4 ...`) that holds its regions.  Solid edges follow the order a block
 * runs in; dashed edges carry the values that flow between boxes (one per
 * value and pair of boxes, labelled with the value's name).  Nodes and
 * edges come in walk order, so the same function gives the same text. */
#include <string.h>

#include "passes.h"

typedef struct {
    const HkFunc *f;
    HkBuf *b;
    uint32_t *box;        /* by value: the box that defines it, 0: none */
    uint32_t nboxes;      /* boxes so far; a box's id is its number */
    uint32_t nclusters;
    HkSymtab *edges;      /* "from to" -> its index in flows */
    HkSymtab *carried;    /* "from to value": a value on its edge */
    struct Flow {
        uint32_t from, to;
        HkBuf label;      /* "%a, %c" */
    } *flows;
    uint32_t nflows, capflows;
} Dot;

/* The picture is made when it is printed, from the function as it is
 * then; the result only says it was asked for. */
int hk_pass_dot(HawkPassRun *r, HkFunc *f)
{
    hk_analysis_set(r, f, HK_PASS_DOT, f);
    return 0;
}

/* s with the characters a DOT string cannot hold as they are (" and \)
 * escaped, each line ending in \l (left-aligned). */
static void put_label_text(HkBuf *b, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        char c = s[k];
        if (c == '\n') {
            hk_buf_puts(b, "\\l");
        } else if (c == '"' || c == '\\') {
            hk_buf_printf(b, "\\%c", c);
        } else {
            hk_buf_put(b, &c, 1);
        }
    }
}

/* The first line of region op i's text: its header, without " {". */
static void put_header(Dot *d, const HkInst *i)
{
    HkBuf t;
    hk_buf_init(&t, d->f->module->arena);
    hk_print_inst(&t, d->f, i, 0);
    const char *s = hk_buf_cstr(&t);
    size_t n = strcspn(s, "\n");
    if (n >= 2 && strncmp(s + n - 2, " {", 2) == 0)
        n -= 2;
    put_label_text(d->b, s, n);
}

/* Adds to the flow into box `to` every value instruction i uses that a
 * box other than `to` defines: one dashed edge per pair of boxes, its
 * label the values it carries, each once, in walk order. */
static void data_edges(Dot *d, const HkInst *i, uint32_t to)
{
    HkArena *a = d->f->module->arena;
    for (uint32_t k = 0; k < i->nops; k++) {
        HkVal v = i->ops[k];
        if (v >= d->f->nvalues || d->box[v] == 0 || d->box[v] == to)
            continue;
        const char *key = hk_asprintf(a, "%u %u %u", d->box[v], to, v);
        if (!hk_symtab_put(d->carried, key, strlen(key), 1))
            continue;
        const char *pair = hk_asprintf(a, "%u %u", d->box[v], to);
        uint32_t at = hk_symtab_get(d->edges, pair, strlen(pair));
        if (at == UINT32_MAX) {
            at = d->nflows++;
            d->flows = hk_grow(a, d->flows, &d->capflows, d->nflows,
                               sizeof *d->flows);
            d->flows[at].from = d->box[v];
            d->flows[at].to = to;
            hk_buf_init(&d->flows[at].label, a);
            hk_symtab_put(d->edges, pair, strlen(pair), at);
        }
        HkBuf *l = &d->flows[at].label;
        hk_buf_printf(l, "%s%%%s", l->len > 0 ? ", " : "",
                      hk_value(d->f, v)->name);
    }
}

static uint32_t put_block(Dot *d, const HkBlock *blk, int depth,
                          uint32_t *last);

/* Box of the straight-line instructions from i up to the next region op
 * (exclusive); returns that op or NULL, the box's id in *id. */
static const HkInst *put_box(Dot *d, const HkInst *i, int depth,
                             uint32_t *id)
{
    *id = ++d->nboxes;
    const HkInst *j = i;
    for (; j != NULL && !(hk_ops[j->op].flags & HK_F_REGION); j = j->next)
        for (uint32_t k = 0; k < j->nres; k++)
            d->box[hk_res(j)[k]] = *id;
    hk_buf_printf(d->b, "%*s  b%u [shape=box, label=\"", 2 * depth, "", *id);
    for (const HkInst *k = i; k != j; k = k->next) {
        HkBuf t;
        hk_buf_init(&t, d->f->module->arena);
        hk_print_inst(&t, d->f, k, 0);
        put_label_text(d->b, t.data, t.len);
    }
    hk_buf_puts(d->b, "\"];\n");
    return j;
}

/* Cluster of region op i, holding its regions; its entry box in *first,
 * the box its regions end in (the op's own header box) in *last. */
static void put_region_op(Dot *d, const HkInst *i, int depth, uint32_t *first,
                          uint32_t *last)
{
    uint32_t head = ++d->nboxes;
    for (uint32_t k = 0; k < i->nres; k++)
        d->box[hk_res(i)[k]] = head;
    if (i->op == HK_OP_LOOP) {
        d->box[i->x->ivar] = head;
        for (uint32_t k = 0; k < i->nres; k++)
            d->box[i->x->iters[k]] = head;
    }
    hk_buf_printf(d->b, "%*s  subgraph cluster_%u {\n", 2 * depth, "",
                  ++d->nclusters);
    hk_buf_printf(d->b, "%*s    style=rounded;\n", 2 * depth, "");
    hk_buf_printf(d->b, "%*s    b%u [shape=box, style=bold, label=\"",
                  2 * depth, "", head);
    put_header(d, i);
    hk_buf_puts(d->b, "\\l\"];\n");
    for (uint32_t r = 0; r < i->x->nregions; r++) {
        uint32_t end = 0;
        uint32_t start = put_block(d, &i->x->regions[r], depth + 1, &end);
        if (start != 0)
            hk_buf_printf(d->b, "%*s    b%u -> b%u [label=\"%s\"];\n",
                          2 * depth, "", head, start,
                          i->op == HK_OP_IF ? (r == 0 ? "then" : "else")
                          : i->op == HK_OP_LOOP ? "trip"
                                                : hk_asprintf(
                                                      d->f->module->arena,
                                                      "case %u", r));
        if (i->op == HK_OP_LOOP && end != 0)
            hk_buf_printf(d->b, "%*s    b%u -> b%u [label=\"next\"];\n",
                          2 * depth, "", end, head);
    }
    hk_buf_printf(d->b, "%*s  }\n", 2 * depth, "");
    *first = *last = head;
}

/* The boxes and clusters of blk in order, joined by solid edges; its first
 * box's id (0 for an empty block), its last in *last. */
static uint32_t put_block(Dot *d, const HkBlock *blk, int depth,
                          uint32_t *last)
{
    uint32_t first = 0, prev = 0;
    for (const HkInst *i = blk->first; i != NULL;) {
        uint32_t in, out;
        const HkInst *next;
        if (hk_ops[i->op].flags & HK_F_REGION) {
            put_region_op(d, i, depth, &in, &out);
            next = i->next;
        } else {
            next = put_box(d, i, depth, &in);
            out = in;
        }
        if (prev != 0)
            hk_buf_printf(d->b, "%*s  b%u -> b%u;\n", 2 * depth, "", prev,
                          in);
        if (first == 0)
            first = in;
        prev = out;
        i = next;
    }
    *last = prev;
    return first;
}

/* The data edges of every instruction of the function, in walk order:
 * the box of each instruction is the box its results went to, or, for an
 * instruction without results, the box of the instruction before it. */
static void all_data_edges(Dot *d)
{
    uint32_t at = 0, nbox = 0;
    /* the boxes again in the order put_block numbered them */
    for (const HkInst *i = d->f->body.first; i != NULL;
         i = hk_preorder_next(i)) {
        int region = (hk_ops[i->op].flags & HK_F_REGION) != 0;
        int starts = region || i->prev == NULL ||
                     (hk_ops[i->prev->op].flags & HK_F_REGION) != 0;
        if (starts)
            at = ++nbox;
        data_edges(d, i, at);
    }
    for (uint32_t k = 0; k < d->nflows; k++)
        hk_buf_printf(d->b, "  b%u -> b%u [style=dashed, label=\"%s\"];\n",
                      d->flows[k].from, d->flows[k].to,
                      hk_buf_cstr(&d->flows[k].label));
}

void hk_print_dot(HkBuf *b, const HkFunc *f, const void *result)
{
    (void)result;
    HkArena *a = f->module->arena;
    Dot d;
    memset(&d, 0, sizeof d);
    d.f = f;
    d.b = b;
    d.box = hk_alloc(a, (f->nvalues + 1u) * sizeof *d.box);
    d.edges = hk_symtab_new(a);
    d.carried = hk_symtab_new(a);
    hk_buf_printf(b, "digraph \"%s @%s\" {\n",
                  f->is_kernel ? "kernel" : "func", f->name);
    hk_buf_puts(b, "  node [fontname=\"monospace\"];\n");
    uint32_t last;
    put_block(&d, &f->body, 0, &last);
    all_data_edges(&d);
    hk_buf_puts(b, "}\n");
}
