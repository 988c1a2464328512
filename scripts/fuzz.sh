#!/usr/bin/env bash
# fuzz.sh BUILD SECONDS -- runs each libFuzzer target of fuzz/ (BUILD was
# configured with HAWK_FUZZ=ON: the sanitized clang build) for SECONDS,
# with the HIR dictionary, over the seed corpus and the corpus earlier
# runs grew (build/fuzz/<target>, kept).  A crash leaves its input in
# build/fuzz/artifacts/<target>-crash-<sha1>.  Prints each target's
# executions, then "fuzz: N executions, F targets failed"; exits 1 when a
# target failed.
set -uo pipefail
build=$(cd "${1:?usage: fuzz.sh BUILD SECONDS}" && pwd)
seconds=${2:?usage: fuzz.sh BUILD SECONDS}
top=$(cd "$(dirname "$0")/.." && pwd)
keep="$top/build/fuzz"
mkdir -p "$keep/artifacts"
total=0
failed=0
for t in parse passes emit pipeline_text manifest; do
  exe="$build/hawk-fuzz-$t"
  if [[ ! -x $exe ]]; then
    echo "fuzz: $exe is missing: configure $build with -DHAWK_FUZZ=ON"
    exit 1
  fi
  mkdir -p "$keep/$t"
  seeds=("$build/fuzz/corpus")
  dict="$build/fuzz/hir.dict"
  [[ $t == pipeline_text ]] && seeds=()
  [[ $t == manifest ]] && seeds=("$top/fuzz/manifests") && dict="$top/fuzz/manifest.dict"
  log="$keep/$t.log"
  "$exe" -max_total_time="$seconds" -dict="$dict" \
    -artifact_prefix="$keep/artifacts/$t-" "$keep/$t" "${seeds[@]}" \
    > "$log" 2>&1
  status=$?
  runs=$(grep -oE '^Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' || echo 0)
  total=$((total + ${runs:-0}))
  if [[ $status -ne 0 ]]; then
    echo "fuzz: $t failed (status $status): $log"
    grep -E 'hawk fuzz defect|ERROR:' "$log" | head -5
    failed=$((failed + 1))
  else
    echo "fuzz: $t: $runs executions"
  fi
done
echo "fuzz: $total executions, $failed targets failed"
[[ $failed -eq 0 ]]
