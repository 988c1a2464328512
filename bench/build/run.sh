#!/bin/sh
# run.sh -- the build cache: the float64 examples (every one but
# complementary_filter, whose float32 units need a directory of their
# own) built by hawk-build for the host and C rows with the checks, first
# into an empty cache, then again with nothing changed (every file from
# the cache), then after a change to one kernel (a line added to drag's
# body: the other kernels' objects come from their own entries, the checks
# of unchanged units from theirs), then again with -no-cache; the wall
# time of each and the ratios first/cached and first/one-changed.
#
#   bench/build/run.sh [build-dir] [rounds]
#
# Needs cppcheck and a C compiler (scripts/setup.sh installs them).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
inputs=""
for f in $(ls "$src"/examples/*.hir | grep -v complementary_filter); do
    inputs="$inputs $work/in/$(basename "$f")"
done
now() { date +%s.%N; }
printf '%-8s %10s %10s %10s %10s %8s %8s\n' round first cached one-changed \
    no-cache cached one
for r in $(seq "$rounds"); do
    rm -rf "$work/cache" "$work/out"*
    cp "$src"/examples/*.hir "$work/in/"
    t0=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -cache-dir="$work/cache" -o "$work/out1" $inputs
    t1=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -cache-dir="$work/cache" -o "$work/out2" $inputs
    t2=$(now)
    sed -i 's/^  ret$/  ; one line more\n  ret/' "$work/in/drag.hir"
    # shellcheck disable=SC2086
    "$build/hawk-build" -cache-dir="$work/cache" -o "$work/out4" $inputs
    t3=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -no-cache -o "$work/out3" $inputs
    t4=$(now)
    for f in "$work/out1"/*; do cmp "$f" "$work/out2/$(basename "$f")"; done
    for f in "$work/out3"/*; do cmp "$f" "$work/out4/$(basename "$f")"; done
    echo "$r $t0 $t1 $t2 $t3 $t4" | awk '{ printf "%-8s %9.3fs %9.3fs %9.3fs %9.3fs %7.1fx %7.1fx\n",
        $1, $3 - $2, $4 - $3, $5 - $4, $6 - $5, ($3 - $2) / ($4 - $3),
        ($3 - $2) / ($5 - $4) }'
done
