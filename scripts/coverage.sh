#!/usr/bin/env bash
# coverage.sh BUILD -- BUILD was configured with HAWK_COVERAGE=ON (gcc,
# --coverage): runs the lit suite there, then prints the line and branch
# coverage of lib/ per folder and in all (gcovr), and checks them against
# the floors of scripts/coverage-floor.txt.  Exits 1 when the suite or a
# floor fails.
set -uo pipefail
build=$(cd "${1:?usage: coverage.sh BUILD}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
llvm_config=$(command -v llvm-config-14 || command -v llvm-config)
lit="$($llvm_config --prefix)/build/utils/lit/lit.py"
find "$build" -name '*.gcda' -delete
python3 "$lit" -q "$build/test"
suite=$?
json=$(mktemp)
trap 'rm -f "$json"' EXIT
gcovr -r "$top" --object-directory "$build" -f "$top/lib/" \
  --exclude-directories "$build/test" \
  --json-summary "$json" --exclude-unreachable-branches > /dev/null || exit 1
python3 "$top/scripts/coverage-report.py" "$json" "$top/scripts/coverage-floor.txt"
report=$?
[[ $suite -eq 0 && $report -eq 0 ]]
