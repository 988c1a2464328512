#!/usr/bin/env bash
# Runs the lit suite on each build given: the gcc build, the
# clang build with AddressSanitizer and UndefinedBehaviorSanitizer (whose
# suite leaves out the few tests whose time goes to external tools: the
# 'sanitized' feature of test/lit.cfg.py).  An argument DIR:REGEX runs
# only the tests of DIR whose path REGEX matches (lit --filter).  Prints
# the slowest tests of each (lit --time-tests), then
# lit's summary for each, then one line "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
llvm_config=$(command -v llvm-config-14 || command -v llvm-config)
lit="$($llvm_config --prefix)/build/utils/lit/lit.py"
passed=0
failed=0
for arg in "$@"; do
  dir=${arg%%:*}
  filter=()
  if [[ $arg == *:* ]]; then
    filter=(--filter "${arg#*:}")
  fi
  echo "== lit: $arg"
  out=$(mktemp)
  python3 "$lit" -v --time-tests "${filter[@]}" "$top/$dir/test" 2>&1 | tee "$out" | grep -Ev '^PASS: '
  status=${PIPESTATUS[0]}
  # lit 14 ends with "  Passed: N", "  Failed: N", ... lines.
  p=$(awk '/^ *Passed *: /{s+=$NF} END{print s+0}' "$out")
  f=$(awk '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: /{s+=$NF} END{print s+0}' "$out")
  rm -f "$out"
  # a lit that could not start, or stopped, counts as a failure even
  # when it printed no count
  if [[ $status -ne 0 && $f -eq 0 ]]; then
    echo "lit exited with status $status for $dir"
    f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
