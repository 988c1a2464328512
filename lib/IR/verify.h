/* verify.h -- what the parts of the verifier share (docs/LangRef.md
 * "Verification"): verifier.c walks the module (names, dominance, regions,
 * calls, where each op stands), verify_types.c holds the type rule of
 * every op and every slot role, and verify_rules.c checks the derivative
 * rules a func names.  Private to those files.
 *
 * The helpers are static inline: short names for the many messages, one
 * copy of each.  Every one expects what verifier.c checked before calling
 * into a type rule: the op is known and the operand and result handles
 * exist.
 */
#ifndef HAWK_VERIFY_H
#define HAWK_VERIFY_H

#include <stdarg.h>

#include "ir.h"

/* A call: an edge of the call graph, for the recursion check. */
typedef struct {
    uint32_t caller, callee;
    const HkInst *inst;
} CallEdge;

/* Bit sets over values: the words of n bits, bit x, and setting it. */
static inline size_t hk_bit_words(uint32_t n)
{
    return ((size_t)n + 63u) / 64u;
}
static inline int hk_bit(const uint64_t *s, uint32_t x)
{
    return (int)((s[x / 64u] >> (x % 64u)) & 1u);
}
static inline void hk_bit_set(uint64_t *s, uint32_t x)
{
    s[x / 64u] |= (uint64_t)1 << (x % 64u);
}
static inline void hk_bit_clear(uint64_t *s, uint32_t x)
{
    s[x / 64u] &= ~((uint64_t)1 << (x % 64u));
}

/* The verifier's state over one module; the per-value and per-slot arrays
 * belong to the function being verified (sized for the
 * module's largest function and cleared for each). */
typedef struct {
    const HkModule *m;
    HkDiags *d;
    const HkFunc *f;
    uint32_t fidx;
    uint64_t *visible;     /* per value, a bit: defined in a region still
                              open */
    uint64_t *defined;     /* per value, a bit: defined somewhere already */
    uint8_t *counted;      /* per slot: a dispatch counts into this mix */
    CallEdge *calls;       /* call graph edges, grouped by caller */
    uint32_t ncalls, cap_calls;
} Ver;

/* ---- reporting -------------------------------------------------------- */

static inline void err(Ver *v, HkLoc loc, const char *fmt, ...) HK_PRINTF(3, 4);

/* An error at loc in the module's source. */
static inline void err(Ver *v, HkLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hk_vdiag(v->d, HAWK_ERROR, &v->m->src, loc, fmt, ap);
    va_end(ap);
}

/* The spelling of t, for a message. */
static inline const char *ts(Ver *v, HkType t)
{
    HkBuf b;
    hk_buf_init(&b, v->d->arena);
    hk_type_print(&b, t);
    return hk_buf_cstr(&b);
}

/* "s" unless n is 1. */
static inline const char *pl(uint32_t n)
{
    return n == 1 ? "" : "s";
}

/* i's mnemonic (i's op is known). */
static inline const char *mn(const HkInst *i)
{
    return hk_ops[i->op].mnemonic;
}

/* i's rule in ops.def (i's op is known). */
static inline HkRule rule_of(const HkInst *i)
{
    return hk_ops[i->op].rule;
}

/* Whether i is an op of rule r; false for an unknown op, which may end a
 * block of IR built through the API. */
static inline int is_rule(const HkInst *i, HkRule r)
{
    return (unsigned)i->op < HK_OP_COUNT && hk_ops[i->op].rule == r;
}

/* ---- values ----------------------------------------------------------- */

/* The name of value x (x exists: check_operands, check_counts). */
static inline const char *vn(const Ver *v, HkVal x)
{
    return hk_value(v->f, x)->name;
}

/* The type of value x. */
static inline HkType vt(const Ver *v, HkVal x)
{
    return hk_value(v->f, x)->type;
}

/* Type of operand k of i. */
static inline HkType ot(const Ver *v, const HkInst *i, uint32_t k)
{
    return vt(v, i->ops[k]);
}

/* The stated type of a single-result op. */
static inline HkType st(const Ver *v, const HkInst *i)
{
    return vt(v, hk_res(i)[0]);
}

/* Whether t is a rank-0 value of element type e. */
static inline int is_scalar_of(HkType t, HkElem e)
{
    return t.rank == 0 && t.elem == e;
}

/* ---- verify_types.c ---------------------------------------------------- */

/* The type rule of i for every rule but the region ops, break_if, yield,
 * call and ret, which verifier.c checks (ops.def's Rule column). */
void hk_verify_types(Ver *v, const HkInst *i);
/* A slot's shape and element obey its role (roles.def's shape column). */
void hk_verify_slot_type(Ver *v, const HkSlot *s);
/* Why t's extents are not the parser's (each static extent at least 1,
 * fewer than 2^31 components), or NULL when they are.  Only IR built
 * through the API can break them; passes and writers count on them. */
const char *hk_verify_extents(HkType t);
/* i's slot, or NULL after a diagnostic (a slot without a role was
 * reported at the slot). */
const HkSlot *hk_verify_slot_of(Ver *v, const HkInst *i);
/* i, of the op family want (at reads like load), may read (write) slot
 * s; reports why not. */
int hk_verify_slot_use(Ver *v, const HkInst *i, const HkSlot *s, HkRule want,
                       int write);

/* ---- verify_rules.c ---------------------------------------------------- */

/* The derivative rules v->f names (jvp = @g, vjp = @h) are funcs of the
 * signatures docs/LangRef.md "Custom derivative rules" states. */
void hk_verify_rules(Ver *v);

#endif
