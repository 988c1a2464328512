#!/bin/sh
# run.sh -- hawk's own math against MPFR and the C library, in one run:
# per function and width, the largest error in ulps over N arguments and
# ns per call of hawk's emitted unit and of the C library's function over
# the same arguments, with their ratio.
#
#   bench/math/run.sh [build-dir] [points] [-only FUNCTION]
#
# The build directory (default build/gcc) must hold hawk-emit; the units
# and the measuring program (mathacc.c) are compiled with gcc -O2
# -ffp-contract=off.  Run it on a quiet machine: the times are wall times,
# each the best of five runs over all N arguments.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
points=${2:-1000000}
[ $# -ge 2 ] && shift 2 || shift $#
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for w in 64 32; do
    "$build/hawk-emit" -no-check "$src/bench/math/math$w.hir" -o "$work/d$w"
    def=""
    [ $w = 32 ] && def="-DHAWK_F32"
    gcc -O2 -ffp-contract=off -std=c99 -D_POSIX_C_SOURCE=200809L $def \
        -I"$work/d$w" "$src/bench/math/mathacc.c" "$work/d$w"/*.c \
        -lmpfr -lgmp -lm -o "$work/acc$w"
    "$work/acc$w" -time -points "$points" -bounds "$src/bench/math/bounds.txt" "$@"
done
