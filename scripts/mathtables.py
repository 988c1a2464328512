#!/usr/bin/env python3
"""mathtables.py -- the tables and polynomials of lib/Math/math.hir's
table-driven functions, computed with mpmath at 200 bits and printed as
the HIR math.hir holds, so a reviewer can regenerate and compare them:

    python3 scripts/mathtables.py log     # hawk_log_f64's tables

log: z = x 2^-k in [0x1.6p-1, 0x1.6p0) falls in one of 128 subintervals,
numbered by the top 7 bits of bits(z) - bits(0x1.6p-1); c is the
subinterval's centre rounded to a double, invc the double nearest 1/c,
and log(c) = logc_hi + logc_lo with logc_hi on the 2^-43 grid (so that
k ln2hi + logc_hi is exact for every exponent k) and logc_lo the double
nearest the rest.  r = (z - c) invc is below 0x1.fe02p-9 in magnitude;
(log1p(r) - r) / r^2 is a near-minimax degree-4 polynomial there
(Chebyshev fit, mpmath.chebyfit), each coefficient rounded to a double.
"""
import struct
import sys

import mpmath

mpmath.mp.prec = 200
LOG_OFF = 0x3fe6000000000000
LOG_N = 128


def as_double(b):
    return struct.unpack('<d', struct.pack('<Q', b))[0]


def hexf(x):
    return float(x).hex()


def log_tables():
    rows, rmax = [], mpmath.mpf(0)
    for i in range(LOG_N):
        lo = as_double(LOG_OFF + (i << 45))
        hi = as_double(LOG_OFF + ((i + 1) << 45))
        c = float((mpmath.mpf(lo) + mpmath.mpf(hi)) / 2)
        invc = float(1 / mpmath.mpf(c))
        lc = mpmath.log(mpmath.mpf(c))
        lc_hi = float(mpmath.nint(lc * 2**43) / 2**43)
        lc_lo = float(lc - lc_hi)
        for z in (lo, hi):
            rmax = max(rmax, abs((mpmath.mpf(z) - c) * invc))
        rows.append((c, invc, lc_hi, lc_lo))
    return rows, rmax


def log_poly(rmax):
    bound = rmax * mpmath.mpf('1.01')

    def g(r):
        return (mpmath.log1p(r) - r) / r**2 if r != 0 else mpmath.mpf(-0.5)

    poly, err = mpmath.chebyfit(g, [-bound, bound], 5, error=True)
    return [float(p) for p in reversed(poly)], err * bound**2


def main():
    if sys.argv[1:] != ['log']:
        sys.exit('usage: mathtables.py log')
    rows, rmax = log_tables()
    coeffs, err = log_poly(rmax)
    print('; |r| <= %s; the polynomial within %s of log1p(r) - r'
          % (hexf(rmax), mpmath.nstr(err, 3)))
    for k, name in enumerate(('c', 'invc', 'lchi', 'lclo')):
        print('  %%%s = table %%i, [%s] : f64'
              % (name, ', '.join(hexf(r[k]) for r in rows)))
    for k, a in enumerate(coeffs):
        print('  %%a%d = const %s : f64' % (k, hexf(a)))


if __name__ == '__main__':
    main()
