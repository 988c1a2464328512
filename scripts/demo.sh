#!/usr/bin/env bash
# The demo `make demo` runs: the drag kernel of docs/LangRef.md through
# hawk-opt and hawk-emit.  Shows the kernel as written, the IR after the
# pipeline inline,cse,dce,scalarize, the instruction counts of the result,
# then exports it as MISRA C into out/, shows the header, and runs the C
# unit against the host unit with hawk-run.
# Usage: scripts/demo.sh BUILD_DIR   (BUILD_DIR relative to the repository
# or absolute).  Exits non-zero when any step fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: scripts/demo.sh BUILD_DIR}
[[ $build = /* ]] || build=$top/$build
opt=$build/hawk-opt
emit=$build/hawk-emit
run=$build/hawk-run
kernel=$top/examples/drag.hir
pipeline=inline,cse,dce,scalarize

heading() { printf '\n== %s\n\n' "$*"; }

for tool in "$opt" "$emit" "$run"; do
    [[ -x $tool ]] || { echo "demo: $tool not found; build first (make build)" >&2; exit 1; }
done

heading "The kernel: examples/drag.hir"
cat "$kernel"

heading "hawk-opt -passes=$pipeline examples/drag.hir"
"$opt" -passes="$pipeline" "$kernel"

heading "hawk-opt -passes=$pipeline,print<instcount> -disable-output examples/drag.hir"
# print<instcount> reports on stderr; -disable-output drops the module.
"$opt" -passes="$pipeline,print<instcount>" -disable-output "$kernel" 2>&1

heading "hawk-emit -target=c examples/drag.hir -o out/"
# The .c, the .h and the report, checked by the C compiler and cppcheck.
cd "$top"
"$emit" -target=c examples/drag.hir -o out/
ls out/drag.*

heading "out/drag.h"
cat out/drag.h

heading "hawk-run examples/drag.hir"
# The C unit (compiled with the resolved cc) against the host unit (LLVM's
# JIT), on the same planes, every output byte compared.
"$run" examples/drag.hir

printf '\n== demo: done\n'
