#!/usr/bin/env bash
# stress.sh BUILD N [FIRST] -- runs the random kernels of seeds FIRST ...
# FIRST+N-1 (hawk-gen; FIRST defaults to 1) through hawk, in batches:
#   - the verifier and the embedded checks (hawk-opt -verify-embedded): a
#     kernel the C target refuses only because the interval analysis
#     proves a math op's operand outside its domain (fp.domain.violated,
#     a refusal hawk-gen cannot always foresee) is counted and left out;
#     any other refusal is a failure, and so is a crash (a signal, an
#     abort, a status past 1) or a status of 1 without an error;
#   - print, parse, print: the printer's text reads back to the same text;
#   - jvp and vjp: a refusal (status 1 with an error) is allowed and
#     counted per pass, a crash or a silent failure is not; a derivative
#     kernel made must pass -verify-embedded as its primal did;
#   - hawk-run on the kernels and on their jvp and vjp kernels: the C unit
#     against the host build and the HIR interpreter (the interpreter
#     alone without LLVM), bit for bit;
#   - with STRESS_CHECKS=1, hawk-emit with the compilers and cppcheck's
#     MISRA addon over each batch: each finding fails the seed of its
#     unit (g<seed>.c) and is counted by its id (cppcheck's
#     knownConditionTrueFalse, a compiler's -Werror=unused-variable),
#     and a line "stress: checks: B batches, N findings[: id count,
#     ...]" comes before the summary.
# Prints one line per failing seed with the command that reproduces it,
# then "stress: N kernels, A accepted, R refused (fp.domain.violated);
# jvp: J run, JR refused; vjp: V run, VR refused; F failed"; exits 1
# when F > 0.  STRESS_BATCH (default 50) kernels go to
# one hawk-run; STRESS_SAMPLES (default 256) samples per kernel;
# STRESS_SIZE (default 24) instructions per kernel, about.
set -uo pipefail
build=$(cd "${1:?usage: stress.sh BUILD N [FIRST]}" && pwd)
n=${2:?usage: stress.sh BUILD N [FIRST]}
first=${3:-1}
batch=${STRESS_BATCH:-50}
samples=${STRESS_SAMPLES:-256}
size=${STRESS_SIZE:-24}
gen="$build/hawk-gen"
opt="$build/hawk-opt"
run="$build/hawk-run"
emit="$build/hawk-emit"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

accepted=0
refused=0
failed=0
jvp_refused=0 vjp_refused=0  # derivative kernels refused by their pass
jvp_run=0 vjp_run=0          # derivative kernels made and run
check_batches=0 findings=0   # STRESS_CHECKS=1: batches checked, findings
declare -A finding_ids=()    # findings by id

fail() {  # seed, what
  echo "stress: seed $1: $2 (reproduce: hawk-gen -seed=$1 -size=$size > k.hir)"
  failed=$((failed + 1))
}

# Whether file $1 holds an error, and every error of it is an
# fp.domain.violated refusal (no error at all is no refusal: a run that
# fails without a diagnostic is a failure).
only_domain() {
  grep -qE ': error: ' "$1" &&
    ! grep -E ': error: ' "$1" | grep -qv 'under fp.domain.violated'
}

# Why hawk-opt's run whose status is $1 and errors are in $2 is not a
# refusal, or nothing when it is one: a signal, an abort or a status past
# 1 is a crash, and a status of 1 must come with an error.
not_refusal() {  # status, errors
  if [[ $1 -gt 128 ]]; then
    echo "crashed (signal $(($1 - 128))): $(head -c 300 "$2")"
  elif [[ $1 -gt 1 ]]; then
    echo "exited with status $1: $(head -c 300 "$2")"
  elif ! grep -qE ': error: ' "$2"; then
    echo "failed without an error: $(head -c 300 "$2")"
  fi
}

# The derivative kernels of one pass: exit 0 or 1, never a signal or an
# abort; a derivative kernel made is checked as the primal is (the C
# target must accept it) and goes to its mode's batch.
derive() {  # seed, file, pass
  "$opt" -passes="$3" "$2" -o "$work/d.hir" 2> "$work/pass.err"
  local rc=$? why
  if [[ $rc -ne 0 ]]; then
    why=$(not_refusal "$rc" "$work/pass.err")
    if [[ -n $why ]]; then
      fail "$1" "hawk-opt -passes=$3 $why"
    elif grep -q 'verification failed after pass' "$work/pass.err"; then
      # a refusal is allowed; IR the pass itself made invalid is not
      fail "$1" "hawk-opt -passes=$3 made IR that does not verify: $(grep ': error: ' "$work/pass.err" | grep -v 'verification failed' | head -1 | head -c 300)"
    else
      if [[ $3 == jvp ]]; then jvp_refused=$((jvp_refused + 1)); else vjp_refused=$((vjp_refused + 1)); fi
    fi
    return
  fi
  "$opt" -verify-embedded "$work/d.hir" -disable-output 2> "$work/ve.err"
  rc=$?
  if [[ $rc -ne 0 ]]; then
    why=$(not_refusal "$rc" "$work/ve.err")
    if [[ -n $why ]]; then
      fail "$1" "hawk-opt -verify-embedded on the $3 kernel $why"
    elif ! only_domain "$work/ve.err"; then
      fail "$1" "$3 kernel refused: $(grep -m1 ': error: ' "$work/ve.err" | head -c 400)"
    else
      if [[ $3 == jvp ]]; then jvp_refused=$((jvp_refused + 1)); else vjp_refused=$((vjp_refused + 1)); fi
    fi
    return
  fi
  cat "$work/d.hir" >> "$work/batch_$3.hir"
  if [[ $3 == jvp ]]; then seeds_jvp+=("$1"); else seeds_vjp+=("$1"); fi
}

one_kernel() {  # seed; appends an accepted kernel to the batch
  local s=$1 k="$work/k.hir"
  if ! "$gen" -seed="$s" -size="$size" > "$k"; then
    fail "$s" "hawk-gen failed"
    return
  fi
  "$opt" -verify-embedded "$k" -disable-output 2> "$work/ve.err"
  local rc=$? why
  if [[ $rc -ne 0 ]]; then
    why=$(not_refusal "$rc" "$work/ve.err")
    if [[ -n $why ]]; then
      fail "$s" "hawk-opt -verify-embedded $why"
    elif only_domain "$work/ve.err"; then
      refused=$((refused + 1))
    else
      fail "$s" "refused: $(grep -m1 ': error: ' "$work/ve.err" | head -c 400)"
    fi
    return
  fi
  "$opt" "$k" -o "$work/p1.hir" && "$opt" "$work/p1.hir" -o "$work/p2.hir"
  if ! cmp -s "$work/p1.hir" "$work/p2.hir"; then
    fail "$s" "print, parse, print is not a fixed point"
    return
  fi
  derive "$s" "$k" jvp
  derive "$s" "$k" vjp
  cat "$k" >> "$work/batch.hir"
  seeds+=("$s")
  accepted=$((accepted + 1))
}

# hawk-run over one batch file: every kernel of it (g<seed><suffix>) must
# have its bit-identical line.
run_file() {  # file, suffix, seeds...
  local file=$1 suffix=$2
  shift 2
  [[ $# -eq 0 ]] && return
  if [[ $suffix == _jvp ]]; then jvp_run=$((jvp_run + $#)); elif [[ $suffix == _vjp ]]; then vjp_run=$((vjp_run + $#)); fi
  if ! "$run" -samples="$samples" "$file" > "$work/run.out" 2>&1; then
    grep -v ': bit-identical' "$work/run.out" | head -40
    for s in "$@"; do
      if ! grep -qE "^g$s$suffix: .*bit-identical" "$work/run.out"; then
        fail "$s" "hawk-run${suffix:+ on the ${suffix#_} kernel}: no bit-identical line"
      fi
    done
  fi
}

# hawk-emit's checks over the batch: each finding (a line
# "g<seed>.c:L:C: severity: text [id]" of a compiler or cppcheck, once
# per seed, line and id) fails its seed and is counted by id; a failure
# that names no unit fails the batch's first seed.
check_batch() {
  rm -rf "$work/out"
  check_batches=$((check_batches + 1))
  "$emit" "$work/batch.hir" -o "$work/out" > "$work/emit.out" 2>&1 && return
  local re='^g([0-9]+)\.c:([0-9]+):[0-9]+: [a-z]+: (.*) \[([^]]+)\]$'
  local line any=0
  declare -A seen=()
  while IFS= read -r line; do
    [[ $line =~ $re ]] || continue
    local seed=${BASH_REMATCH[1]} id=${BASH_REMATCH[4]}
    local key="$seed:${BASH_REMATCH[2]}:$id"
    [[ -n ${seen[$key]:-} ]] && continue
    seen[$key]=1
    any=1
    findings=$((findings + 1))
    finding_ids[$id]=$(( ${finding_ids[$id]:-0} + 1 ))
    fail "$seed" "check finding [$id] at g$seed.c:${BASH_REMATCH[2]}: ${BASH_REMATCH[3]:0:200}"
  done < "$work/emit.out"
  if [[ $any -eq 0 ]]; then
    head -40 "$work/emit.out"
    fail "${seeds[0]}" "hawk-emit's checks failed on the batch from it"
  fi
}

run_batch() {
  [[ ${#seeds[@]} -eq 0 ]] && return
  run_file "$work/batch.hir" "" "${seeds[@]}"
  run_file "$work/batch_jvp.hir" _jvp "${seeds_jvp[@]}"
  run_file "$work/batch_vjp.hir" _vjp "${seeds_vjp[@]}"
  if [[ ${STRESS_CHECKS:-0} == 1 ]]; then
    check_batch
  fi
  : > "$work/batch.hir"
  : > "$work/batch_jvp.hir"
  : > "$work/batch_vjp.hir"
  seeds=()
  seeds_jvp=()
  seeds_vjp=()
}

seeds=()
seeds_jvp=()
seeds_vjp=()
: > "$work/batch.hir"
: > "$work/batch_jvp.hir"
: > "$work/batch_vjp.hir"
for ((s = first; s < first + n; s++)); do
  one_kernel "$s"
  if [[ ${#seeds[@]} -ge $batch ]]; then
    run_batch
  fi
done
run_batch
if [[ ${STRESS_CHECKS:-0} == 1 ]]; then
  summary="stress: checks: $check_batches batches, $findings findings"
  if [[ $findings -gt 0 ]]; then
    summary+=":"
    sep=" "
    for id in $(printf '%s\n' "${!finding_ids[@]}" | sort); do
      summary+="$sep$id ${finding_ids[$id]}"
      sep=", "
    done
  fi
  echo "$summary"
fi
echo "stress: $n kernels, $accepted accepted, $refused refused (fp.domain.violated); jvp: $jvp_run run, $jvp_refused refused; vjp: $vjp_run run, $vjp_refused refused; $failed failed"
[[ $failed -eq 0 ]]
