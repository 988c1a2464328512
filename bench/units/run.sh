#!/bin/sh
# run.sh -- what a unit costs a reviewer, a target's flash and the
# checker: per kernel, the lines of its unit and of the runtime unit it
# needs, the flash of both (arm-none-eabi-gcc -Os for Cortex-M4F,
# text + data by arm-none-eabi-size) and the wall time of cppcheck's MISRA
# addon over both (the flags hawk's checks pass).  Each kernel is emitted
# alone, with -no-check, so its runtime unit holds only what it calls.
#
#   bench/units/run.sh [build-dir] [cppcheck-timeout-seconds] [files...]
#
# Inputs: every example and the kernels of bench/units/Inputs (one math op
# of a vector; two atan2 of vectors beside an asinh).  A cppcheck run past
# the timeout prints as ">N".
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
limit=${2:-300}
[ $# -gt 2 ] && shift 2 || set --
inputs=${*:-"$src/examples/*.hir $src/bench/units/Inputs/*.hir"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
armcc="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16
  -mfloat-abi=hard -Os -std=c99 -ffp-contract=off -c"
now() { date +%s.%N; }
printf '%-20s %6s %6s %8s %8s %9s\n' kernel lines rt-lines flash rt-flash cppcheck
for f in $inputs; do
    k=$(basename "$f" .hir)
    d="$work/$k"
    "$build/hawk-emit" -target=c -no-check -o "$d" "$f"
    (cd "$d" && $armcc "$k.c" hawk_runtime.c)
    flash() { arm-none-eabi-size "$d/$1.o" | awk 'NR == 2 { print $1 + $2 }'; }
    t0=$(now)
    if (cd "$d" && timeout "$limit" cppcheck --addon=misra --std=c99 \
            --language=c --enable=warning,style -q "$k.c" hawk_runtime.c \
            >/dev/null 2>&1); then
        t=$(echo "$t0 $(now)" | awk '{ printf "%.1fs", $2 - $1 }')
    else
        t=">$limit"
    fi
    printf '%-20s %6d %6d %8d %8d %9s\n' "$k" "$(wc -l <"$d/$k.c")" \
        "$(wc -l <"$d/hawk_runtime.c")" "$(flash "$k")" \
        "$(flash hawk_runtime)" "$t"
done
