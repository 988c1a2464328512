#!/bin/sh
# run.sh -- checks paid once: hawk-emit of the fifteen float64 examples
# into one directory with the checks, first with an empty cache, then
# again with nothing changed (every verdict from the cache, no checker
# run), then after a change to one kernel (energy_histogram's 0.5 made
# 0.25: its compiler checks and cppcheck run, cppcheck re-reading that
# unit alone), then the same change with -no-cache (every check run);
# the wall time of each, and the ratio of the full run to the one-kernel
# one.
#
#   bench/checks/run.sh [build-dir] [rounds]
#
# Needs cppcheck and a C compiler (scripts/setup.sh installs them).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
rounds=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
printf '%-6s %10s %10s %12s %12s %8s\n' round first unchanged one-changed no-cache ratio
for r in $(seq "$rounds"); do
    rm -rf "$work/cache" "$work/out" "$work/in"
    mkdir -p "$work/in"
    for f in "$src"/examples/*.hir; do
        case $f in *complementary_filter*) continue ;; esac
        cp "$f" "$work/in/"
    done
    emit() { "$build/hawk-emit" "$@" -o "$work/out" "$work"/in/*.hir; }
    t0=$(now)
    emit -cache-dir="$work/cache"
    t1=$(now)
    emit -cache-dir="$work/cache"
    t2=$(now)
    sed -i 's/const 0.5 : f64/const 0.25 : f64/' "$work/in/energy_histogram.hir"
    emit -cache-dir="$work/cache"
    t3=$(now)
    sed -i 's/const 0.25 : f64/const 0.125 : f64/' "$work/in/energy_histogram.hir"
    emit -no-cache
    t4=$(now)
    echo "$r $t0 $t1 $t2 $t3 $t4" | awk '{ printf "%-6s %9.3fs %9.3fs %11.3fs %11.3fs %7.1fx\n",
        $1, $3 - $2, $4 - $3, $5 - $4, $6 - $5, ($6 - $5) / ($5 - $4) }'
done
