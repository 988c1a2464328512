#!/usr/bin/env python3
"""gen.py SHAPE N OUT -- a program of about N instructions in HIR (OUT.hir)
and the same program in LLVM IR (OUT.ll), for bench/parse/run.sh.

Shapes:
  line   one kernel, one long straight line of real arithmetic
  funcs  many small funcs (eight instructions each) and a kernel calling
         the last few
  wide   one kernel over <16 x f64> tensors (each instruction a vector op)
  nest   one kernel of if-regions nested 8 deep, repeated: each region a
         few instructions (LLVM: the same as basic blocks and branches)
"""
import sys


def straight(n, hir, ll, role, t, lt):
    """One kernel: a straight line of n real ops over values of HIR type t
    (LLVM type lt), the first loaded from a slot of the given role."""
    hir.write(f"kernel @k(%a: {role} {t}, %o: mutable {t}) {{\n"
              f"  %v0 = load %a : {t}\n")
    ll.write(f"define void @k({lt}* %a, {lt}* %o) {{\nentry:\n"
             f"  %v0 = load {lt}, {lt}* %a\n")
    for i in range(1, n + 1):
        op = ("fadd", "fmul", "fsub")[i % 3]
        hir.write(f"  %v{i} = {op} %v{i - 1}, %v0 : {t}\n")
        ll.write(f"  %v{i} = {op} {lt} %v{i - 1}, %v0\n")
    hir.write(f"  store %v{n}, %o\n  ret\n}}\n")
    ll.write(f"  store {lt} %v{n}, {lt}* %o\n  ret void\n}}\n")


def line(n, hir, ll):
    straight(n, hir, ll, "uniform", "f64", "double")


def wide(n, hir, ll):
    straight(n, hir, ll, "vec_in", "<16 x f64>", "<16 x double>")


def funcs(n, hir, ll):
    nf = max(1, n // 8)
    for f in range(nf):
        hir.write(f"func @f{f}(%x: f64, %y: f64) -> f64 {{\n")
        ll.write(f"define double @f{f}(double %x, double %y) {{\nentry:\n")
        prev = "%x"
        for i in range(7):
            op = ("fadd", "fmul", "fsub")[i % 3]
            hir.write(f"  %t{i} = {op} {prev}, %y : f64\n")
            ll.write(f"  %t{i} = {op} double {prev}, %y\n")
            prev = f"%t{i}"
        hir.write(f"  ret {prev}\n}}\n")
        ll.write(f"  ret double {prev}\n}}\n")
    hir.write("kernel @k(%a: uniform f64, %o: mutable f64) {\n"
              "  %x = load %a : f64\n")
    ll.write("define void @k(double* %a, double* %o) {\nentry:\n"
             "  %x = load double, double* %a\n")
    prev = "%x"
    for f in range(max(0, nf - 4), nf):
        hir.write(f"  %c{f} = call @f{f}({prev}, %x) : f64\n")
        ll.write(f"  %c{f} = call double @f{f}(double {prev}, double %x)\n")
        prev = f"%c{f}"
    hir.write(f"  store {prev}, %o\n  ret\n}}\n")
    ll.write(f"  store double {prev}, double* %o\n  ret void\n}}\n")


def nest(n, hir, ll):
    depth = 8
    per = 2 * depth + 2                 # instructions per nest, about
    reps = max(1, n // per)
    hir.write("kernel @k(%a: uniform f64, %o: mutable f64) {\n"
              "  %x = load %a : f64\n  %z = fsub %x, %x : f64\n")
    ll.write("define void @k(double* %a, double* %o) {\nentry:\n"
             "  %x = load double, double* %a\n  %z = fsub double %x, %x\n"
             "  br label %r0\n")
    acc = "%z"
    for r in range(reps):
        # HIR: if %c { ... if %c { %w = fadd ...; yield %w } ... yield }
        for d in range(depth):
            hir.write(f"{'  ' * (d + 1)}%c{r}_{d} = fcmp olt %x, {acc} : i1\n")
            hir.write(f"{'  ' * (d + 1)}%y{r}_{d} = if %c{r}_{d} -> f64 {{\n")
        hir.write(f"{'  ' * (depth + 2)}%w{r} = fadd {acc}, %x : f64\n"
                  f"{'  ' * (depth + 2)}yield %w{r}\n")
        for d in reversed(range(depth)):
            hir.write(f"{'  ' * (d + 1)}}} else {{\n"
                      f"{'  ' * (d + 2)}yield {acc}\n{'  ' * (d + 1)}}}\n")
            if d > 0:
                hir.write(f"{'  ' * d}  yield %y{r}_{d}\n")
        # LLVM: the same nest as blocks; each level a branch and a phi
        ll.write(f"r{r}:\n")
        for d in range(depth):
            ll.write(f"  %c{r}_{d} = fcmp olt double %x, {acc}\n"
                     f"  br i1 %c{r}_{d}, label %t{r}_{d}, label %e{r}_{d}\n"
                     f"t{r}_{d}:\n")
        ll.write(f"  %w{r} = fadd double {acc}, %x\n  br label %j{r}_{depth - 1}\n")
        for d in reversed(range(depth)):
            inner = f"%w{r}" if d == depth - 1 else f"%y{r}_{d + 1}"
            src = f"t{r}_{d}" if d == depth - 1 else f"j{r}_{d + 1}"
            ll.write(f"e{r}_{d}:\n  br label %j{r}_{d}\n"
                     f"j{r}_{d}:\n  %y{r}_{d} = phi double [ {inner}, %{src} ], "
                     f"[ {acc}, %e{r}_{d} ]\n")
            if d > 0:
                ll.write(f"  br label %j{r}_{d - 1}\n")
        ll.write(f"  br label %r{r + 1}\n")
        acc = f"%y{r}_0"
    hir.write(f"  store {acc}, %o\n  ret\n}}\n")
    ll.write(f"r{reps}:\n  store double {acc}, double* %o\n  ret void\n}}\n")


def main():
    shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(out + ".hir", "w") as hir, open(out + ".ll", "w") as ll:
        {"line": line, "funcs": funcs, "wide": wide, "nest": nest}[shape](n, hir, ll)


main()
