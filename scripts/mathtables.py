#!/usr/bin/env python3
"""mathtables.py -- the tables and polynomials of lib/Math/math.hir's
table-driven functions, computed with mpmath at 200 bits and printed as
the HIR math.hir holds, so a reviewer can regenerate and compare them:

    python3 scripts/mathtables.py log      # hawk_log_split's c and 1/c,
                                           # hawk_log_f64's log(c)
    python3 scripts/mathtables.py log2     # hawk_log2_f64's log2(c)
    python3 scripts/mathtables.py log10    # hawk_log10_f64's log10(c)
    python3 scripts/mathtables.py logdd    # hawk_log_dd's tables (pow)
    python3 scripts/mathtables.py exp      # hawk_exp_x2's tables
    python3 scripts/mathtables.py logf     # hawk_logf_split's tables and
    python3 scripts/mathtables.py log2f    # the f32 fast paths' log_b(c)
    python3 scripts/mathtables.py expf     # powf's exp2 polynomial
    python3 scripts/mathtables.py trig     # sin and cos on f32's kernels

z = x 2^-k in [0x1.6p-1, 0x1.6p0) falls in one of 128 subintervals,
numbered by the top 7 bits of bits(z) - bits(0x1.6p-1); c is the
subinterval's centre (a double with few bits), invc the double nearest
1/c.  log_b(c) = hi + lo, hi on the 2^-43 grid for log (so k ln2hi + hi
is exact for every exponent k) and on the 2^-42 grid for log2 and log10
(k log_b(2)hi + hi exact), lo the double nearest the rest.  r = (z - c)
invc is below 0x1.fe02p-9 in magnitude; (log1p(r) - r) / (r^2 ln b) is a
near-minimax degree-4 polynomial there (Chebyshev fit, mpmath.chebyfit),
each coefficient rounded to a double; near 1 (r = x - 1 within
[-2^-4, 0x1.09p-4)) the same quotient is a degree-11 polynomial in r.
1/ln b (1 for log) is split into a high part
of at most 32 bits (a 21-bit r times it is exact) and the rest.
"""
import struct
import sys

import mpmath

mpmath.mp.prec = 200
OFF = 0x3fe6000000000000
N = 128
BASES = {'log': (mpmath.e, 43), 'log2': (2, 42), 'log10': (10, 42)}


def as_double(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def hexf(x):
    return float(x).hex() if x != 0 else '0.0'


def on_grid(v, bits):
    hi = float(mpmath.nint(v * 2**bits) / 2**bits)
    return hi, float(v - hi)


def centres():
    cs, rmax = [], mpmath.mpf(0)
    for i in range(N):
        lo = as_double(OFF + (i << 45))
        hi = as_double(OFF + ((i + 1) << 45))
        c = float((mpmath.mpf(lo) + mpmath.mpf(hi)) / 2)
        invc = float(1 / mpmath.mpf(c))
        for z in (lo, hi):
            rmax = max(rmax, abs((mpmath.mpf(z) - c) * invc))
        cs.append((c, invc))
    return cs, rmax


def poly(lnb, rmax):
    bound = rmax * mpmath.mpf('1.01')

    def g(r):
        if r == 0:
            return mpmath.mpf(-0.5) / lnb
        return (mpmath.log1p(r) - r) / (r**2 * lnb)

    p, err = mpmath.chebyfit(g, [-bound, bound], 5, error=True)
    return [float(a) for a in reversed(p)], err * bound**2


def near_poly(lnb):
    """(log1p(r) - r) / (r^2 ln b) on r = x - 1 for x near 1, where log
    and log2 and log10 take no table: 12 coefficients, the error relative
    to log_b(1 + r) (about r / ln b) returned too."""
    lo = mpmath.mpf(-0.0625) * mpmath.mpf('1.01')
    hi = mpmath.mpf(float.fromhex('0x1.09p-4')) * mpmath.mpf('1.01')

    def g(r):
        if r == 0:
            return mpmath.mpf(-0.5) / lnb
        return (mpmath.log1p(r) - r) / (r**2 * lnb)

    p, err = mpmath.chebyfit(g, [lo, hi], 12, error=True)
    return [float(a) for a in reversed(p)], err * hi * lnb


def table(name, values):
    return '  %%%s = table %%i, [%s] : f64' % (
        name, ', '.join(hexf(v) for v in values))


DD_OFF = 0x3fe6955500000000


def logdd():
    """hawk_log_dd's tables (glibc's pow log): z in [0x1.69555p-1,
    0x1.69555p0) in 128 subintervals by the top 7 bits of bits(z) -
    bits(0x1.69555p-1); invc = round(N/centre)/N below 1, round(2N/centre)
    /2N above (8 bits, so z invc - 1 is exact in two parts), log(1/invc)
    = logc + logctail with logc on the 2^-43 grid; (log1p(r) - r + r^2/2)
    / r^3 of degree 5, scaled as the evaluation in powers of -r^2/2 reads
    it."""
    inv, lc, lt, rmax = [], [], [], mpmath.mpf(0)
    for i in range(N):
        lo = as_double(DD_OFF + (i << 45))
        hi = as_double(DD_OFF + ((i + 1) << 45))
        centre = (mpmath.mpf(lo) + mpmath.mpf(hi)) / 2
        if centre < 1:
            ic = float(mpmath.nint(N / centre) / N)
        else:
            ic = float(mpmath.nint(2 * N / centre) / (2 * N))
        h, t = on_grid(-mpmath.log(mpmath.mpf(ic)), 43)
        inv.append(ic)
        lc.append(h)
        lt.append(t)
        for z in (lo, hi):
            rmax = max(rmax, abs(mpmath.mpf(z) * ic - 1))
    bound = rmax * mpmath.mpf('1.0001')

    def g(r):
        if r == 0:
            return mpmath.mpf(1) / 3
        return (mpmath.log1p(r) - r + r * r / 2) / r**3

    p = mpmath.chebyfit(g, [-bound, bound], 6)
    c = [float(a) for a in reversed(p)]
    err = max(abs(mpmath.polyval(p, bound * k / 400) - g(bound * k / 400))
              * (bound * k / 400)**2 for k in range(-400, 401) if k)
    scale = [-2, -2, 4, 4, -8, -8]
    print('; |r| <= %s; the polynomial within %s of log1p(r) relative to it'
          % (hexf(rmax), mpmath.nstr(err, 3)))
    print(table('invc', inv))
    print(table('logc', lc))
    print(table('logct', lt))
    print('  %%a0 = const %s : f64' % hexf(-0.5))
    for k, (a, m) in enumerate(zip(c, scale)):
        print('  %%a%d = const %s : f64' % (k + 1, hexf(a * m)))


def exp_tables():
    """hawk_exp_x2's tables (glibc's exp): 2^(j/128) = s_j (1 + tail_j)
    with s_j the double nearest it; sbits_j = bits(s_j) - j 2^45, so
    that adding k 2^45 (k = 128 e + j) to it builds 2^e s_j; ln2/128 in
    two parts, the high one on the 2^-42 grid (35 bits: k ln2hi/128
    exact for |k| < 2^18, every x up to 745 in magnitude); (exp(r) - 1 -
    r)/r^2 of degree 3 on |r| <= ln2/256."""
    tails, sbits = [], []
    for j in range(N):
        v = mpmath.mpf(2) ** (mpmath.mpf(j) / N)
        sj = float(v)
        tails.append(float((v - sj) / sj))
        sbits.append(struct.unpack('<q', struct.pack('<d', sj))[0] - (j << 45))
    bound = mpmath.log(2) / (2 * N) * mpmath.mpf('1.02')

    def g(r):
        return (mpmath.exp(r) - 1 - r) / r**2 if r != 0 else mpmath.mpf(0.5)

    p = mpmath.chebyfit(g, [-bound, bound], 4)
    err = max(abs(mpmath.polyval(p, bound * k / 400) - g(bound * k / 400))
              * (bound * k / 400)**2 for k in range(-400, 401) if k)
    hi, lo = on_grid(mpmath.log(2) / N, 42)
    print('; |r| <= ln2/256; r + r^2 (c2 + ... + c5 r^3) within %s of exp(r) - 1'
          % mpmath.nstr(err, 3))
    print(table('tail', tails).replace('table %i', 'table %j'))
    print('  %%sbits = table %%j, [%s] : i64' % ', '.join(str(b) for b in sbits))
    for k, c in enumerate(reversed(p)):
        print('  %%c%d = const %s : f64' % (k + 2, hexf(c)))
    print('  %%invln2n = const %s : f64' % hexf(N / mpmath.log(2)))
    print('  %%nln2hin = const %s : f64' % hexf(-hi))
    print('  %%nln2lon = const %s : f64' % hexf(-lo))


def expf():
    """powf's exp2 on exp's table, in x = 128 t - k itself (|x| <= 1/2):
    2^(x/128) - 1 as x (a1 + a2 x + a3 x^2 + a4 x^3), so no product turns
    x into r = x ln2/128 first; the error printed relative to 2^(x/128)."""
    bound = mpmath.mpf(0.5) * mpmath.mpf('1.02')

    def g(x):
        return (mpmath.power(2, x / N) - 1) / x if x != 0 else mpmath.log(2) / N

    p = mpmath.chebyfit(g, [-bound, bound], 4)
    coeffs = [float(c) for c in p]
    err = max(abs(x * mpmath.polyval(coeffs, x) - (mpmath.power(2, x / N) - 1))
              / mpmath.power(2, x / N)
              for x in (bound * k / 400 for k in range(-400, 401)))
    print('; |x| <= 1/2; x (a1 + a2 x + a3 x^2 + a4 x^3) within 2^%s of'
          ' 2^(x/128) - 1 relative to 2^(x/128)' % mpmath.nstr(mpmath.log(err, 2), 4))
    for k, c in enumerate(reversed(coeffs)):
        print('  %%a%d = const %s : f64' % (k + 1, hexf(c)))


def logf(fn):
    """The f32 fast paths of log and log2: 64 subintervals of z (the top 6
    bits of bits(z) - bits(0x1.6p-1)), c each one's centre, but c = 1 for
    the two that meet at 1, so r = z - 1 is exact there and log(x) near 1
    has no cancellation; log_b(c) rounded to a double; (log1p(r) - r/ln b
    ... ) as r/ln b + r^2 (p0 + ... + p4 r^4), a Chebyshev fit over every
    r (|r| < 2^-6), its error relative to log_b(1 + r) printed.  powf's
    log2 takes the same tables and log2f's polynomial."""
    lnb = mpmath.log(2) if fn == 'log2f' else mpmath.mpf(1)
    ncoef = 5
    cs, lo_r, hi_r = [], mpmath.mpf(0), mpmath.mpf(0)
    for i in range(64):
        lo = as_double(OFF + (i << 46))
        hi = as_double(OFF + ((i + 1) << 46))
        c = 1.0 if lo == 1.0 or hi == 1.0 else float((mpmath.mpf(lo) + mpmath.mpf(hi)) / 2)
        invc = float(1 / mpmath.mpf(c))
        for z in (lo, hi):
            r = (mpmath.mpf(z) - c) * invc
            lo_r, hi_r = min(lo_r, r), max(hi_r, r)
        cs.append((c, invc))
    a, b = lo_r * mpmath.mpf('1.01'), hi_r * mpmath.mpf('1.01')

    def g(r):
        if r == 0:
            return mpmath.mpf(-0.5) / lnb
        return (mpmath.log1p(r) - r) / (r**2 * lnb)

    p = mpmath.chebyfit(g, [a, b], ncoef)
    coeffs = [float(v) for v in reversed(p)]
    worst = mpmath.mpf(0)
    for j in range(1, 4001):
        r = a + (b - a) * j / 4001
        v = r / lnb + r**2 * sum(mpmath.mpf(q) * r**k for k, q in enumerate(coeffs))
        worst = max(worst, abs(v / (mpmath.log1p(r) / lnb) - 1))
    print('; r in [%s, %s]; r/ln b + r^2 (p0 + ... + p%d r^%d) within 2^%s of'
          ' log_b(1 + r) relative' % (hexf(lo_r), hexf(hi_r), ncoef - 1, ncoef - 1,
                                      mpmath.nstr(mpmath.log(worst, 2), 4)))
    if fn == 'logf':
        print(table('c', [c for c, _ in cs]))
        print(table('invc', [v for _, v in cs]))
    print(table('lc', [float(mpmath.log(mpmath.mpf(c)) / lnb) for c, _ in cs]))
    for k, q in enumerate(coeffs):
        print('  %%p%d = const %s : f64' % (k, hexf(q)))


def trig():
    """sin and cos on f32's kernels: (sin(x) - x)/x^3 and (cos(x) - 1 +
    x^2/2)/x^4 in z = x^2 over |x| <= pi/4 (2% more), five coefficients
    each, their error relative to sin and cos printed."""
    top = (mpmath.pi / 4)**2 * mpmath.mpf('1.02')

    def gs(z):
        if z == 0:
            return mpmath.mpf(-1) / 6
        x = mpmath.sqrt(z)
        return (mpmath.sin(x) - x) / x**3

    def gc(z):
        if z == 0:
            return mpmath.mpf(1) / 24
        x = mpmath.sqrt(z)
        return (mpmath.cos(x) - 1 + z / 2) / z**2

    for name, g in (('s', gs), ('c', gc)):
        p = mpmath.chebyfit(g, [0, top], 5)
        coeffs = [float(v) for v in reversed(p)]
        worst = mpmath.mpf(0)
        for j in range(1, 2001):
            x = mpmath.pi / 4 * mpmath.mpf('1.01') * j / 2000
            z = x * x
            q = sum(mpmath.mpf(v) * z**k for k, v in enumerate(coeffs))
            if name == 's':
                e = abs((x + x * z * q) / mpmath.sin(x) - 1)
            else:
                e = abs((1 - z / 2 + z * z * q) / mpmath.cos(x) - 1)
            worst = max(worst, e)
        print('; within 2^%s relative' % mpmath.nstr(mpmath.log(worst, 2), 4))
        for k, v in enumerate(coeffs):
            print('  %%%s%d = const %s : f64' % (name, k + 1, hexf(v)))


def main():
    if sys.argv[1:] in (['logf'], ['log2f']):
        logf(sys.argv[1])
        return
    if sys.argv[1:] == ['trig']:
        trig()
        return
    if sys.argv[1:] == ['logdd']:
        logdd()
        return
    if sys.argv[1:] == ['expf']:
        expf()
        return
    if sys.argv[1:] == ['exp']:
        exp_tables()
        return
    if len(sys.argv) != 2 or sys.argv[1] not in BASES:
        sys.exit('usage: mathtables.py log|log2|log10|logdd|exp|logf|log2f|expf|trig')
    fn = sys.argv[1]
    base, grid = BASES[fn]
    lnb = mpmath.log(base)
    cs, rmax = centres()
    coeffs, err = poly(lnb, rmax)
    print('; |r| <= %s; r^2 (a0 + ... + a4 r^4) within %s of (log1p(r) - r)/ln %s'
          % (hexf(rmax), mpmath.nstr(err, 3), fn[3:] or 'e'))
    if fn == 'log':
        print(table('c', [c for c, _ in cs]))
        print(table('invc', [v for _, v in cs]))
    parts = [on_grid(mpmath.log(mpmath.mpf(c)) / lnb, grid) for c, _ in cs]
    print(table('lchi', [h for h, _ in parts]))
    print(table('lclo', [l for _, l in parts]))
    for k, a in enumerate(coeffs):
        print('  %%a%d = const %s : f64' % (k, hexf(a)))
    near, nerr = near_poly(lnb)
    print('; near 1, r = x - 1 in [-2^-4, 0x1.09p-4): r^2 (b0 + ... + b11 r^11)'
          ' within %s of log_b(1 + r) - r/ln b relative to it' % mpmath.nstr(nerr, 3))
    for k, b in enumerate(near):
        print('  %%b%d = const %s : f64' % (k, hexf(b)))
    ihi, ilo = on_grid(1 / lnb, 31)
    print('  %%ihi = const %s : f64\n  %%ilo = const %s : f64' % (hexf(ihi), hexf(ilo)))
    if fn != 'log':
        khi, klo = on_grid(mpmath.log(2) / lnb, 42)
        print('  %%khi = const %s : f64\n  %%klo = const %s : f64' % (hexf(khi), hexf(klo)))


if __name__ == '__main__':
    main()
