/* cstack.c -- the stack bound of a C unit (docs/EmbeddedC.md, "The stack
 * bound"), computed from the C text the writer produced, so it counts
 * exactly the objects the unit declares.
 *
 * The model: a call of the entry pushes the entry's frame, the per-sample
 * function's frame and, below that, one runtime function's frame at a
 * time.  A frame holds at most every parameter and every local object the
 * function declares, each in a slot of its own rounded up to 8 bytes (what
 * -O0 does; an optimising build keeps fewer, and spills a value at most
 * once), one more slot for each conditional expression (clang -O0 passes
 * its value through a stack slot of its own), plus HK_FRAME_OVERHEAD bytes for the return address, the saved
 * registers (core and floating-point callee-saved ones) and alignment.
 * Inlining only merges frames, so the sum stays a bound.  It does not
 * cover libm's frames, the caller's frame or interrupts.
 */
#include <string.h>

#include "cwriter.h"

/* The slots of an array declarator "name[N]" in s[0..n), or 1. */
static int64_t elements(const char *s, size_t n)
{
    const char *open = memchr(s, '[', n);
    const char *eq = memchr(s, '=', n);
    if (open == NULL || (eq != NULL && eq < open))
        return 1;
    int64_t k = 0;
    for (const char *p = open + 1; p < s + n && *p >= '0' && *p <= '9'; p++)
        k = k * 10 + (*p - '0');
    return k > 0 ? k : 1;
}

/* The bytes of the slots line s[0..n) declares: a local of a type the
 * writer spells ("const T v = e;", "T v;", "T v[N];"), 8 bytes a slot,
 * and 8 more for each conditional expression in its initialiser; 0 for
 * any other line. */
static int64_t decl_slot(const char *s, size_t n)
{
    static const char *const types[] = {
        "hawk_f64_t ", "hawk_f32_t ", "hawk_int_t ", "hawk_status_t ",
        "int64_t ",     "int32_t ",    "uint32_t ",      "uint64_t ",
        "uint8_t ",     "bool ",       NULL};
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    if (n - k > 6 && strncmp(s + k, "const ", 6) == 0)
        k += 6;
    if (n == 0 || s[n - 1] != ';')
        return 0;
    for (const char *const *t = types; *t != NULL; t++) {
        size_t len = strlen(*t);
        if (n - k <= len || strncmp(s + k, *t, len) != 0)
            continue;
        /* a declaration, not a call statement: no '(' before any '=' */
        const char *eq = memchr(s + k, '=', n - k);
        const char *paren = memchr(s + k, '(', n - k);
        if (paren != NULL && (eq == NULL || paren < eq))
            return 0;
        int64_t ternaries = 0;
        for (const char *p = s + k; p < s + n; p++)
            ternaries += *p == '?';
        return 8 * (elements(s + k, n - k) + ternaries);
    }
    return 0;
}

int64_t hk_c_locals_bytes(const char *text)
{
    int64_t bytes = 0;
    for (const char *s = text; *s != '\0';) {
        size_t n = strcspn(s, "\n");
        bytes += decl_slot(s, n);
        s += n + (s[n] == '\n');
    }
    return bytes;
}

int64_t hk_c_frame_bound(int64_t params, int64_t locals_bytes)
{
    return 8 * params + locals_bytes + HK_FRAME_OVERHEAD;
}

/* The parameters of the function whose signature is the first line of
 * text holding '(': its commas plus one, none for "(void)" or "()". */
static int64_t params_of(const char *text)
{
    const char *open = strchr(text, '(');
    const char *close = open ? strchr(open, ')') : NULL;
    if (open == NULL || close == NULL || close == open + 1 ||
        strncmp(open, "(void)", 6) == 0)
        return 0;
    int64_t n = 1;
    for (const char *p = open; p < close; p++)
        n += *p == ',';
    return n;
}

int64_t hk_ch_frame_bound(HkArena *a, uint32_t id)
{
    HkBuf b;
    hk_buf_init(&b, a);
    hk_ch_write(&b, id);
    const char *text = hk_buf_cstr(&b);
    const char *sig = strstr(text, "\nstatic ");
    const char *body = sig ? strchr(sig, '{') : NULL;
    if (sig == NULL || body == NULL)
        hk_unreachable();
    return hk_c_frame_bound(params_of(sig), hk_c_locals_bytes(body));
}
