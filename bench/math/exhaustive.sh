#!/bin/sh
# exhaustive.sh -- whether hawk's f32 math is correctly rounded over
# every float: builds bench/math/exhaustive.c against the f32 units of
# bench/math/math32.hir and runs it, one function after another.
#
#   bench/math/exhaustive.sh [build-dir] [exhaustive options...]
#
# A whole function is 2^32 arguments: a few minutes each (bound it with
# timeout, or narrow it with -stride, -from and -to).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
[ $# -ge 1 ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/hawk-emit" -no-check "$src/bench/math/math32.hir" -o "$work/d32"
gcc -O2 -ffp-contract=off -std=c99 -D_POSIX_C_SOURCE=200809L \
    -I"$work/d32" "$src/bench/math/exhaustive.c" "$work/d32"/*.c \
    -lmpfr -lgmp -lm -o "$work/exhaustive"
"$work/exhaustive" "$@"
