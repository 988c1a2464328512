"""layout.py DIR CC WORK -- checks hawk.manifest.json's args layouts against
the C compiler: a program that includes each kernel's header prints
sizeof/_Alignof of <name>_args_t and offsetof/sizeof of every field the
manifest lists (the program is built in WORK); prints one line per
kernel, or what disagrees."""
import json
import os
import subprocess
import sys

d, cc, work = sys.argv[1], sys.argv[2], sys.argv[3]
m = json.load(open(os.path.join(d, "hawk.manifest.json")))
src = ["#include <stddef.h>", "#include <stdio.h>"]
for k in m["kernels"]:
    src.append('#include "%s.h"' % k["name"])
src.append("int main(void) {")
for k in m["kernels"]:
    s = k["abi"]["struct"]
    src.append('printf("%s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));' % (s, s, s))
    for f in k["abi"]["fields"]:
        src.append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s*)0)->%s));'
                   % (s, f["name"], s, f["name"], s, f["name"]))
src.append("return 0; }")
prog = os.path.join(work, "layout.c")
open(prog, "w").write("\n".join(src) + "\n")
exe = os.path.join(work, "layout")
subprocess.run([cc, "-std=c11", "-I" + d, prog, "-o", exe], check=True)
got = dict(l.split(" ", 1) for l in subprocess.run([exe], check=True, stdout=subprocess.PIPE,
                                                  text=True).stdout.splitlines())
bad = 0
for k in m["kernels"]:
    a = k["abi"]
    s = a["struct"]
    if got[s] != "%d %d" % (a["size"], a["align"]):
        print("%s: size/align %s, manifest %d %d" % (s, got[s], a["size"], a["align"]))
        bad = 1
    for f in a["fields"]:
        key = "%s.%s" % (s, f["name"])
        if got[key] != "%d %d" % (f["offset"], f["size"]):
            print("%s: offset/size %s, manifest %d %d" % (key, got[key], f["offset"], f["size"]))
            bad = 1
    print("%s: %d fields, the compiler's layout" % (k["name"], len(a["fields"])))
sys.exit(bad)
