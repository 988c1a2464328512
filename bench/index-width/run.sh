#!/bin/sh
# run.sh -- what 64-bit indexing costs a 32-bit MCU: every kernel of
# examples/ emitted as hawk writes it (int64_t indices, sizes and counts)
# and as the same text with every int64_t made int32_t (the unit a 32-bit
# ABI would write, near enough for counting), both built for a Cortex-M4F
# and a Cortex-M0 by arm-none-eabi-gcc (-fno-inline, so the per-sample
# function stays one); per kernel and build, the instructions of the
# unit's .text and of its per-sample function (the code each sample runs;
# the entry's checks run once per call), and the ratios int32/int64.
#
#   bench/index-width/run.sh [build-dir]
#
# The last lines give, per CPU and level, the geometric mean of the ratios
# and the smallest.
#
# Needs arm-none-eabi-gcc (scripts/setup.sh installs it).  The int32_t
# text is a measuring device, not a unit hawk emits: its entry no longer
# checks n_samples against the int64_t byte range, and it narrows the
# kernel's own i64 values too.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-"$src/build/gcc"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {
    arm-none-eabi-objdump -d "$1" | grep -cE '^ +[0-9a-f]+:'
}
# The instructions of function $2 in object $1 (0 when inlined away).
count_fn() {
    arm-none-eabi-objdump -d "$1" |
        awk -v f="<$2>:" '$2 == f { on = 1; next } /^$/ { on = 0 }
                          on && /^ +[0-9a-f]+:/ { n++ } END { print n + 0 }'
}
printf '%-22s %-4s %-4s %6s %6s %6s %6s %6s %6s\n' kernel cpu opt unit64 unit32 ratio \
    sample64 sample32 ratio
for f in "$src"/examples/*.hir; do
    k=$(basename "$f" .hir)
    "$build/hawk-emit" -no-check "$f" -o "$work/$k.64" > /dev/null
    mkdir -p "$work/$k.32"
    for u in "$work/$k.64"/*.c "$work/$k.64"/*.h; do
        sed 's/int64_t/int32_t/g; s/INT64_C/INT32_C/g' "$u" > "$work/$k.32/$(basename "$u")"
    done
    for cpu in m4f m0; do
        case $cpu in
        m4f) flags="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16" ;;
        m0) flags="-mcpu=cortex-m0 -mthumb -mfloat-abi=soft" ;;
        esac
        for opt in -O2 -Os; do
            n="" fn=""
            for w in 64 32; do
                # shellcheck disable=SC2086
                arm-none-eabi-gcc $flags -std=c99 -ffp-contract=off $opt \
                    -fno-inline -I"$work/$k.$w" -c "$work/$k.$w/$k.c" \
                    -o "$work/$k.$w.o"
                n="$n $(count "$work/$k.$w.o")"
                fn="$fn $(count_fn "$work/$k.$w.o" "${k}_sample")"
            done
            set -- $n $fn
            printf '%-22s %-4s %-4s %6d %6d %6.2f %6d %6d %6.2f\n' "$k" "$cpu" "$opt" \
                "$1" "$2" "$(echo "$2 / $1" | bc -l)" "$3" "$4" \
                "$(if [ "$3" -gt 0 ]; then echo "$4 / $3" | bc -l; else echo 1; fi)" |
                tee -a "$work/table"
        done
    done
done
awk '{k = $2 " " $3; s[k] += log($6); q[k] += log($9); n[k]++
      if (!(k in m) || $9 < m[k]) { m[k] = $9; at[k] = $1 } }
     END { for (k in s) printf "%s: int32/int64 geomean unit %.2f, per-sample function %.2f (smallest %.2f, %s)\n",
                               k, exp(s[k] / n[k]), exp(q[k] / n[k]), m[k], at[k] }' "$work/table" | sort
