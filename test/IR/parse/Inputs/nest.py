"""Writes a kernel whose body nests N loops, one per line, unindented:
line 1 is the kernel, the loop at depth d is on line d + 1."""
import sys

n = int(sys.argv[1])
out = ["kernel @deep() {"]
out += ["loop %%i%d = 0 to 1 {" % d for d in range(1, n + 1)]
out += ["yield", "}"] * n
out += ["ret", "}"]
sys.stdout.write("\n".join(out) + "\n")
