#!/usr/bin/env bash
# Builds hawk in every CMake configuration with gcc and with clang, warnings
# as errors, into build/cfg-<cc>-<config>: a warning that only one
# optimisation level or one compiler shows (gcc's maybe-uninitialized at
# -O3, say) fails here, before a user's default build meets it.  The two
# configurations make check tests (gcc RelWithDebInfo, clang Debug with the
# sanitizers) are built by make itself.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
status=0
for cc in gcc clang; do
  for cfg in Release MinSizeRel Debug RelWithDebInfo; do
    [[ $cc == gcc && $cfg == RelWithDebInfo ]] && continue
    dir="$top/build/cfg-$cc-$cfg"
    log="$dir.log"
    mkdir -p "$dir"
    if cmake -S "$top" -B "$dir" -DCMAKE_C_COMPILER="$cc" \
         -DCMAKE_BUILD_TYPE="$cfg" -DHAWK_WERROR=ON >"$log" 2>&1 &&
       cmake --build "$dir" -j "$jobs" >>"$log" 2>&1; then
      echo "configs: $cc $cfg ok"
    else
      echo "configs: $cc $cfg FAILED (warnings are errors):"
      grep -E 'error|warning' "$log" | sort -u | head -20
      status=1
    fi
  done
done
exit $status
