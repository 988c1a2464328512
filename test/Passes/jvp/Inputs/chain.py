"""chain.py N: a kernel calling @f0, each @fk calling @f(k+1), N funcs
in all: a chain of N calls."""
import sys

n = int(sys.argv[1])
print("kernel @deep(%x: per_sample f64, %y: mutable f64) {\n"
      "  %a = load %x : f64\n"
      "  %r = call @f0(%a) : f64\n"
      "  store %r, %y\n"
      "  ret\n}")
for k in range(n - 1):
    print(f"func @f{k}(%v: f64) -> f64 {{\n"
          f"  %w = call @f{k + 1}(%v) : f64\n"
          f"  %u = fmul %w, %v : f64\n"
          f"  ret %u\n}}")
print(f"func @f{n - 1}(%v: f64) -> f64 {{\n"
      f"  %u = fmul %v, %v : f64\n"
      f"  ret %u\n}}")
