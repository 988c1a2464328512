#!/bin/sh
# run.sh -- hawk_launch (libhawk-rt) on one and two threads against the
# serial C unit: drag, gravity, haversine, kalman_predict, rk4 and
# quat_rotate built by hawk-build for the host and C rows, their C units
# built -O2 -ffp-contract=off into shared objects, all timed over the same
# planes by bench/launch/launch.c (the best of ROUNDS launches).
#
#   bench/launch/run.sh [build-dir] [samples] [rounds]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
n=${2:-1000000}
rounds=${3:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
kernels="drag gravity haversine kalman_predict rk4 quat_rotate"
files=""
for k in $kernels; do files="$files $src/examples/$k.hir"; done
# shellcheck disable=SC2086
"$build/hawk-build" -no-cache -no-check -o "$work/b" $files
mkdir -p "$work/c"
pairs=""
for k in $kernels; do
    cc -std=c99 -O2 -ffp-contract=off -fPIC -shared -I"$work/b" \
        "$work/b/$k.c" "$work/b/hawk_runtime.c" -lm -o "$work/c/$k.so"
    # the C unit's entry: its one defined function named after the kernel
    entry=$(nm -D --defined-only "$work/c/$k.so" |
        awk -v k="$k" '$2 == "T" && index($3, k "_") == 1 { print $3 }')
    pairs="$pairs $k=$entry"
done
cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -O2 -I"$src/include" "$src/bench/launch/launch.c" \
    "$build/libhawk-rt.a" -lcjson -ldl -lpthread -lm -o "$work/launch"
# shellcheck disable=SC2086
"$work/launch" "$work/b" "$work/c" "$n" "$rounds" $pairs
