#!/bin/sh
# run.sh -- the build cache: the float64 examples (every one but
# complementary_filter, whose float32 units need a directory of their
# own) built by hawk-build for the host and C rows with the checks, first
# into an empty cache, then again with nothing changed (every file from
# the cache), then again with -no-cache; the wall time of each and the
# ratio first/cached.
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
inputs=$(ls "$src"/examples/*.hir | grep -v complementary_filter)
now() { date +%s.%N; }
printf '%-8s %10s %10s %10s %8s\n' round first cached no-cache ratio
for r in $(seq "$rounds"); do
    rm -rf "$work/cache" "$work/out"*
    t0=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -cache-dir="$work/cache" -o "$work/out1" $inputs
    t1=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -cache-dir="$work/cache" -o "$work/out2" $inputs
    t2=$(now)
    # shellcheck disable=SC2086
    "$build/hawk-build" -no-cache -o "$work/out3" $inputs
    t3=$(now)
    for f in "$work/out1"/*; do cmp "$f" "$work/out2/$(basename "$f")"; done
    echo "$r $t0 $t1 $t2 $t3" | awk '{ printf "%-8s %9.3fs %9.3fs %9.3fs %7.1fx\n",
        $1, $3 - $2, $4 - $3, $5 - $4, ($3 - $2) / ($4 - $3) }'
done
