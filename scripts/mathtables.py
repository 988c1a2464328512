#!/usr/bin/env python3
"""mathtables.py -- the tables and polynomials of lib/Math/math.hir's
table-driven functions, computed with mpmath at 200 bits and printed as
the HIR math.hir holds, so a reviewer can regenerate and compare them:

    python3 scripts/mathtables.py log      # hawk_log_split's c and 1/c,
                                           # hawk_log_f64's log(c)
    python3 scripts/mathtables.py log2     # hawk_log2_f64's log2(c)
    python3 scripts/mathtables.py log10    # hawk_log10_f64's log10(c)

z = x 2^-k in [0x1.6p-1, 0x1.6p0) falls in one of 128 subintervals,
numbered by the top 7 bits of bits(z) - bits(0x1.6p-1); c is the
subinterval's centre (a double with few bits), invc the double nearest
1/c.  log_b(c) = hi + lo, hi on the 2^-43 grid for log (so k ln2hi + hi
is exact for every exponent k) and on the 2^-42 grid for log2 and log10
(k log_b(2)hi + hi exact), lo the double nearest the rest.  r = (z - c)
invc is below 0x1.fe02p-9 in magnitude; (log1p(r) - r) / (r^2 ln b) is a
near-minimax degree-4 polynomial there (Chebyshev fit, mpmath.chebyfit),
each coefficient rounded to a double.  1/ln b is split into a high part
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


def table(name, values):
    return '  %%%s = table %%i, [%s] : f64' % (
        name, ', '.join(hexf(v) for v in values))


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in BASES:
        sys.exit('usage: mathtables.py log|log2|log10')
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
    if fn != 'log':
        ihi, ilo = on_grid(1 / lnb, 31)
        khi, klo = on_grid(mpmath.log(2) / lnb, 42)
        print('  %%ihi = const %s : f64\n  %%ilo = const %s : f64' % (hexf(ihi), hexf(ilo)))
        print('  %%khi = const %s : f64\n  %%klo = const %s : f64' % (hexf(khi), hexf(klo)))


if __name__ == '__main__':
    main()
