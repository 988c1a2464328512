"""stack_usage.py OUT_DIR EXAMPLE.hir... -- the stack bound of every
example's unit (the report's budgets.stack_bound.total) against what compilers
measure (-fstack-usage): gcc and clang for x86-64, and, when
arm-none-eabi-gcc is installed, a Cortex-M4F (hard float, FPv4-SP) and a
Cortex-M0 (no FPU), each at -O0, -Os and -O2.  The measured worst path of
a call of the entry is the entry's frame, plus the per-sample function's,
plus the largest frame among the runtime functions the unit calls.  The
units carry their self-test (-selftest=on): its measured path is its own
frame plus the larger of the entry's path and its comparison function's
frame, against the report's selftest.frame_bytes plus the bound.  A
frame the compiler calls dynamic, or a path above its bound, is a
failure.  Prints one line per unit, then "<n> units, <m> builds, every
path within its bound"."""
import json
import os
import shutil
import subprocess
import sys

CONFIGS = [
    ("gcc", ["gcc"]),
    ("clang", ["clang"]),
    ("m4f", ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb",
             "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]),
    ("m0", ["arm-none-eabi-gcc", "-mcpu=cortex-m0", "-mthumb"]),
]
LEVELS = ["-O0", "-Os", "-O2"]


def frames(su_path):
    """{function: (bytes, qualifier)} of a .su file."""
    out = {}
    if not os.path.exists(su_path):
        return out  # clang writes none for a unit with no function
    with open(su_path) as f:
        for line in f:
            where, size, qual = line.rstrip("\n").split("\t")
            out[where.split(":")[-1]] = (int(size), qual)
    return out


def export(out_root, hir):
    """Exports hir alone into a directory of its own; the directory and
    the report of each kernel, by kernel name."""
    name = os.path.splitext(os.path.basename(hir))[0]
    d = os.path.join(out_root, os.path.basename(os.path.dirname(hir)), name)
    os.makedirs(d, exist_ok=True)
    subprocess.run(["hawk-emit", "-no-check", "-selftest=on", "-o", d, hir],
                   check=True)
    reps = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".embedded.json"):
            with open(os.path.join(d, f)) as fh:
                reps.append(json.load(fh))
    return d, reps


def measure(d, rep, tag, cc, level):
    """The worst path of rep's unit under one build, and any failure."""
    k = rep["kernel"]
    got = {}
    for src in (k + ".c", "hawk_runtime.c"):
        obj = os.path.join(d, "%s_%s_%s.o" % (src[:-2], tag, level[1:]))
        subprocess.run(cc + ["-std=c99", level, "-ffp-contract=off",
                             "-fstack-usage", "-c", src, "-o", obj],
                       cwd=d, check=True)
        got.update(frames(obj[:-2] + ".su"))
    bad = [f for f, (_, q) in got.items() if "dynamic" in q]
    calls = rep["helpers"] + rep["core"]
    path = got[k + "_c"][0] + got.get(k + "_sample", (0, ""))[0]
    # a math function of the runtime and, below it, any other runtime
    # function (more than it calls: the measured path only grows)
    below = max([q for f, (q, _) in got.items()
                 if f.startswith("hawk_") and f not in rep["math_functions"]]
                or [0])
    path += max([got[f][0] for f in calls if f in got] +
                [got[f][0] + below for f in rep["math_functions"]] or [0])
    same = max([q for f, (q, _) in got.items()
                if f.startswith(k + "_kat_same_")] or [0])
    selftest = got[k + "_selftest"][0] + max(path, same)
    return path, selftest, bad


def main(argv):
    out_root, hirs = argv[1], argv[2:]
    missing = sorted({cc[0] for _, cc in CONFIGS if not shutil.which(cc[0])})
    if missing:
        # every configuration is measured, or the count claims too much
        print("MISSING compilers: %s" % " ".join(missing))
        return 1
    configs = CONFIGS
    failed, builds, units = 0, 0, 0
    for hir in hirs:
        d, reps = export(out_root, hir)
        for rep in reps:
            units += 1
            failed |= check(d, rep, configs)
            builds += len(configs) * len(LEVELS)
    if not failed:
        print("%d units, %d builds, every path within its bound" %
              (units, builds))
    return failed


def check(d, rep, configs):
    """Prints rep's bound against its worst measured path; 1 if above (or
    a frame is dynamic)."""
    failed = 0
    bound = rep["budgets"]["stack_bound"]["total"]
    st_bound = bound + rep["selftest"]["frame_bytes"]
    worst, where, st_worst, st_where = 0, "", 0, ""
    for tag, cc in configs:
        for level in LEVELS:
            path, selftest, bad = measure(d, rep, tag, cc, level)
            if bad:
                print("%s: %s %s: dynamic frames %s" % (rep["kernel"], tag,
                                                       level, bad))
                failed = 1
            if path > worst:
                worst, where = path, "%s %s" % (tag, level)
            if selftest > st_worst:
                st_worst, st_where = selftest, "%s %s" % (tag, level)
    verdict = "within" if worst <= bound else "EXCEEDS"
    st_verdict = "within" if st_worst <= st_bound else "EXCEEDS"
    print("%s: bound %d, worst measured %d (%s): %s; self-test bound %d, "
          "worst measured %d (%s): %s" %
          (rep["kernel"], bound, worst, where, verdict, st_bound, st_worst,
           st_where, st_verdict))
    return failed | (worst > bound) | (st_worst > st_bound)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
