#!/bin/sh
# run.sh -- ns/sample of every kernel of examples/ beside its jvp and vjp
# kernels, all three as C units, in one run (hawk-bench-deriv), with the
# measured ratios to the primal and the cost analysis' ratios of
# operations beside them.
#
#   bench/deriv/run.sh [build-dir] [hawk-bench-deriv options...] [kernel...]
#
# The build directory defaults to build/gcc.  The units are compiled with
# the resolved C compiler; HAWK_CC defaults to gcc here.  Run it on a
# quiet machine: the numbers are wall times, the best of several launches.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
[ $# -gt 0 ] && shift
cmake --build "$build" --target hawk-bench-deriv -j2 >/dev/null
export HAWK_CC="${HAWK_CC:-gcc}"
exec "$build/hawk-bench-deriv" "$@"
