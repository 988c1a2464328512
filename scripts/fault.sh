#!/usr/bin/env bash
# fault.sh NAME OUTPUT [-only KIND] [-fresh DIR | -again] -- COMMAND... -- fault injection over one run of a
# tool (docs/CommandGuide.md, "Fault injection").  COMMAND is a tool of a
# build configured with HAWK_FAULT=ON (the sanitized build) that writes
# OUTPUT, a file or a directory.  A first run counts its allocations and
# writes (HAWK_FAULT=count) and keeps what it wrote; then, for every N,
# a run with the N-th allocation failing (HAWK_FAULT=alloc:N), one with
# the N-th write, rename or directory creation failing (io:N), and one
# with the N-th answer of LLVM's that the host row checks failing
# (llvm:N), each over OUTPUT as the first run left it (an earlier output).  Each must
# exit 1 with an error, or 0 having written the same bytes, and leave
# OUTPUT as it was or whole (a directory's files each whole; a report
# that would no longer certify its unit may be gone): no crash, no
# sanitizer report (a leak included), no temporary file, no stage.  The
# earlier output is there before each run, dated 2000-01-01, so a run
# that exits 0 must have written every file of it anew (a later date),
# or it swallowed a failed write.  Prints one
# line, "fault: NAME: A allocations, W writes[, L llvm answers]: F failed
# with an error, S succeeded, D defects" (the answers when there are any),
# and each defect; exits 1 when there is one.  -fresh DIR removes DIR
# before every run (a cache the run must fill, not find filled); -again
# counts the second run without a fault, not the first (one that finds
# what the first stored: a cache hit).  OUTPUT "-" is COMMAND's standard
# output (a program that writes no file): a run that succeeds must print
# what the first printed.  -only KIND (alloc, io or llvm) fails only
# the events of that kind: a run too long to fail each allocation in turn.
set -uo pipefail
name=${1:?usage: fault.sh NAME OUTPUT -- COMMAND...}
out=${2:?usage: fault.sh NAME OUTPUT -- COMMAND...}
shift 2
fresh= again= kinds="alloc io llvm"
if [[ ${1:-} == -only ]]; then
  kinds=${2:?usage: fault.sh NAME OUTPUT [-only KIND] [-fresh DIR | -again] -- COMMAND...}
  shift 2
fi
if [[ ${1:-} == -fresh ]]; then
  fresh=${2:?usage: fault.sh NAME OUTPUT [-only KIND] [-fresh DIR | -again] -- COMMAND...}
  shift 2
elif [[ ${1:-} == -again ]]; then
  again=1
  shift
fi
[[ ${1:-} == -- ]] || { echo "usage: fault.sh NAME OUTPUT [-only KIND] [-fresh DIR | -again] -- COMMAND..." >&2; exit 2; }
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stdout=/dev/null
if [[ $out == - ]]; then
  out=$work/stdout
  stdout=$out
fi
export ASAN_OPTIONS="exitcode=86:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:exitcode=87${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
rm -rf "$out"
[[ -n $fresh ]] && rm -rf "$fresh"
[[ -n $again ]] && "$@" > /dev/null 2>&1
if ! HAWK_FAULT=count "$@" > "$stdout" 2> "$work/count.err"; then
  echo "fault: $name: the run without a fault failed:"
  cat "$work/count.err"
  exit 1
fi
counts=$(grep -E '^hawk-fault: [0-9]+ allocations, [0-9]+ writes, [0-9]+ llvm answers$' "$work/count.err" | tail -1)
if [[ -z $counts ]]; then
  echo "fault: $name: no counts (is the build configured with HAWK_FAULT=ON?)"
  exit 1
fi
allocs=$(echo "$counts" | awk '{print $2}')
writes=$(echo "$counts" | awk '{print $4}')
answers=$(echo "$counts" | awk '{print $6}')
cp -a "$out" "$work/ref"
dir=$(dirname "$out")
failed=0 succeeded=0 defects=0
defect() {
  echo "fault: $name: HAWK_FAULT=$1: $2"
  [[ -s $work/err ]] && sed 's/^/  /' "$work/err" | head -8
  defects=$((defects + 1))
}
# Whether OUTPUT is as the first run left it: the file itself, or each
# file of the directory (one may be gone: an export removes a report that
# would no longer certify the unit beside it).
intact() {
  if [[ -f $work/ref ]]; then
    cmp -s "$work/ref" "$out"
    return
  fi
  [[ -d $out ]] || return 1
  local f
  while IFS= read -r -d '' f; do
    cmp -s "$f" "$work/ref/${f#"$out"/}" || return 1
  done < <(find "$out" -type f -print0)
}
# Whether each file of OUTPUT was written anew by a run that succeeded:
# the earlier output is dated 2000-01-01 before each run, so a file
# written again bears a later time, and a run that swallowed a failed
# write and exited 0 leaves the earlier copy, same bytes, same date.
# (An inode says nothing here: a file written whole takes a new one, but
# the number of a file it replaced may come back for the next.)
old_time=946684800
renewed() {
  local path
  while IFS= read -r -d '' path; do
    [[ $(stat -c %Y "$path") != "$old_time" ]] || {
      echo "${path#"$out"/}"
      return 1
    }
  done < <(find "$out" -type f -print0)
}
for kind in $kinds; do
  n=$allocs
  [[ $kind == io ]] && n=$writes
  [[ $kind == llvm ]] && n=$answers
  for ((i = 1; i <= n; i++)); do
    rm -rf "$out"
    cp -a "$work/ref" "$out"
    [[ -e $out ]] && find "$out" -type f -exec touch -d @$old_time {} +
    [[ -n $fresh ]] && rm -rf "$fresh"
    HAWK_FAULT=$kind:$i "$@" > "$stdout" 2> "$work/err"
    status=$?
    if [[ $status -eq 1 ]] && grep -q 'error: ' "$work/err" &&
       ! grep -qE 'internal error|Sanitizer|runtime error' "$work/err"; then
      failed=$((failed + 1))
    elif [[ $status -eq 0 ]]; then
      succeeded=$((succeeded + 1))
    else
      defect "$kind:$i" "exit status $status"
      continue
    fi
    if [[ $stdout != /dev/null && $status -ne 0 ]]; then
      : # a failed run's standard output is whatever it printed
    elif [[ -n $(find "$dir" -name '*.tmp.*' -print -quit) ]]; then
      defect "$kind:$i" "a temporary file is left: $(find "$dir" -name '*.tmp.*' | head -1)"
    elif [[ -n $(find "$dir" -name .hawk-stage -print -quit) ]]; then
      defect "$kind:$i" "a stage is left: $(find "$dir" -name .hawk-stage | head -1)"
    elif ! intact; then
      defect "$kind:$i" "the output is not the earlier one, nor written whole"
    elif [[ $status -eq 0 && $stdout == /dev/null ]] && ! stale=$(renewed); then
      defect "$kind:$i" "exit status 0, but the earlier $stale was not written again"
    fi
  done
done
llvm=
[[ $answers -gt 0 ]] && llvm=", $answers llvm answers"
echo "fault: $name: $allocs allocations, $writes writes$llvm: $failed failed with an error, $succeeded succeeded, $defects defects"
[[ $defects -eq 0 ]]
