#!/bin/sh
# run.sh -- builds hawk-bench and runs it at 10^6 and 10^7 samples.
#
#   bench/run.sh [build-dir] [hawk-bench options...]
#
# The build directory defaults to build/bench (configured with gcc when it
# does not exist yet).  The emitted C is compiled with the resolved C
# compiler; HAWK_CC defaults to gcc here, so the table compares gcc -O2
# -ffp-contract=off builds.  Run it on a quiet machine: the numbers are
# wall times, the best of several launches.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$src/build/bench"}
[ $# -gt 0 ] && shift
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=gcc >/dev/null
fi
cmake --build "$build" --target hawk-bench -j2 >/dev/null
export HAWK_CC="${HAWK_CC:-gcc}"
for n in 1000000 10000000; do
    "$build/hawk-bench" -samples=$n "$@"
    echo
done
