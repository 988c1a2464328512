#!/bin/sh
# run.sh -- reading and checking a large program: hawk-opt parsing and
# verifying HIR (-passes= -disable-output: no pass, nothing printed)
# against LLVM's opt parsing and
# verifying the same program in LLVM IR (-passes=verify -disable-output),
# side by side in one run.  For each shape of bench/parse/gen.py, about N
# instructions: the best wall time and peak memory of ROUNDS runs of
# each, and the ratios opt/hawk (above 1: hawk is ahead).
#
#   bench/parse/run.sh [build-dir] [N] [rounds]
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
n=${2:-1000000}
rounds=${3:-3}
opt=$(command -v opt-14 || command -v opt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# best of rounds: "seconds kilobytes" (GNU time's %e and %M)
best() {
    b_s= b_k=
    for _ in $(seq "$rounds"); do
        /usr/bin/time -f '%e %M' -o "$work/t" "$@" > /dev/null
        read -r s k < "$work/t"
        if [ -z "$b_s" ] || awk "BEGIN { exit !($s < $b_s) }"; then b_s=$s; fi
        if [ -z "$b_k" ] || [ "$k" -lt "$b_k" ]; then b_k=$k; fi
    done
    echo "$b_s $b_k"
}
printf '%-6s %9s %9s %9s %9s %9s %9s %9s\n' shape insts hawk-s opt-s \
    hawk-MB opt-MB time-x mem-x
for shape in line funcs wide nest; do
    python3 "$src/bench/parse/gen.py" "$shape" "$n" "$work/p"
    insts=$(grep -c ' = \| store \|^ *ret\|yield' "$work/p.hir")
    set -- $(best "$build/hawk-opt" -passes= -disable-output "$work/p.hir")
    hs=$1 hk=$2
    set -- $(best "$opt" -passes=verify -disable-output "$work/p.ll")
    os=$1 ok=$2
    echo "$shape $insts $hs $os $hk $ok" | awk '{
        printf "%-6s %9d %8.2fs %8.2fs %9.1f %9.1f %8.2fx %8.2fx\n",
            $1, $2, $3, $4, $5 / 1024, $6 / 1024,
            ($3 > 0 ? $4 / $3 : 0), $6 / $5 }'
done
