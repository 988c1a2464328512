#!/bin/sh
# fake-tool.sh MODE OUT: a stand-in for a tool under scripts/fault.sh, to
# show the harness fails on what it must catch.  It writes OUT/a and
# OUT/b whole (a temporary file, then a rename) and counts two writes
# under HAWK_FAULT=count.  Under HAWK_FAULT=io:N its N-th write fails,
# and MODE says what it does then:
#   honest    exits 1 with an error
#   swallow   goes on as if the write had been made, and exits 0
#   stage     exits 1 with an error, leaving a marked stage behind
mode=$1 out=$2
mkdir -p "$out" || exit 2
[ "${HAWK_FAULT:-}" = count ] && echo "hawk-fault: 1 allocations, 2 writes, 0 llvm answers" >&2
n=0
for f in a b; do
  n=$((n + 1))
  if [ "${HAWK_FAULT:-}" = "io:$n" ]; then
    case $mode in
      swallow) continue ;;
      stage) mkdir -p "$out/.hawk-build-Left01" && : > "$out/.hawk-build-Left01/.hawk-stage" ;;
    esac
    echo "fake-tool: error: cannot write '$out/$f': No space left on device" >&2
    exit 1
  fi
  printf '%s\n' "$f" > "$out/$f.tmp.1" && mv "$out/$f.tmp.1" "$out/$f" || exit 2
done
exit 0
