#!/bin/sh
# each.sh OUT TAG CC "CFLAGS" [EXEC] -- exports every example of
# $EXAMPLES with -selftest=on into OUT/<name>/ (once: a later call with the
# same OUT builds the same units), builds its self-test with CC and CFLAGS
# (the unit, the runtime unit and Inputs/main.c) into OUT/<name>/TAG and
# runs it, through EXEC when given: prints "<name> <status>" per example,
# after "<name> fused <n>" when FUSED is set (the fused multiply-add
# instructions objdump finds in the unit's object).
set -e
out=$1 tag=$2 cc=$3 cflags=$4 exec=$5
here=$(dirname "$0")
for f in "$EXAMPLES"/*.hir; do
  k=$(basename "$f" .hir)
  d="$out/$k"
  if [ ! -f "$d/$k.c" ]; then
    mkdir -p "$d"
    hawk-emit -no-check -selftest=on -o "$d" "$f"
  fi
  # shellcheck disable=SC2086
  $cc -std=c99 $cflags -I"$d" -DHDR="\"$k.h\"" -DSELFTEST="${k}_selftest" \
      "$here/main.c" "$d/$k.c" "$d/hawk_runtime.c" -lm -o "$d/$tag"
  if [ -n "$FUSED" ]; then
    # shellcheck disable=SC2086
    $cc -std=c99 $cflags -I"$d" -c "$d/$k.c" -o "$d/$tag.o"
    echo "$k fused $(objdump -d "$d/$tag.o" | grep -c 'vfn\?m' || true)"
  fi
  status=0
  $exec "$d/$tag" > /dev/null || status=$?
  echo "$k $status"
done
