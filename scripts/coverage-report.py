#!/usr/bin/env python3
"""coverage-report.py SUMMARY FLOORS -- prints the line and branch
coverage of lib/ per folder and in all from gcovr's --json-summary, and
fails (exit 1) when a figure is below its floor in FLOORS (lines
"<folder|all> <lines%> <branches%>"), and when a floor's folder is not
in the summary or has no line measured there: a summary that measured
nothing (an empty one, a build without coverage) fails, never 100%."""
import json
import sys


def main():
    summary = json.load(open(sys.argv[1]))
    floors = {}
    for line in open(sys.argv[2]):
        line = line.split("#")[0].split()
        if len(line) == 3:
            floors[line[0]] = (float(line[1]), float(line[2]))
    folders = {}
    for f in summary["files"]:
        parts = f["filename"].split("/")
        key = "/".join(parts[:2]) if parts[0] == "lib" else parts[0]
        acc = folders.setdefault(key, [0, 0, 0, 0])
        acc[0] += f["line_covered"]
        acc[1] += f["line_total"]
        acc[2] += f["branch_covered"]
        acc[3] += f["branch_total"]
    total = [sum(a[k] for a in folders.values()) for k in range(4)]
    failed = 0
    if not floors:
        print("coverage: %s holds no floor" % sys.argv[2])
        failed += 1
    print("%-14s %8s %8s" % ("folder", "lines", "branches"))
    for key in sorted(set(folders) | set(floors) - {"all"}) + ["all"]:
        a = total if key == "all" else folders.get(key, [0, 0, 0, 0])
        floor = floors.get(key)
        if a[1] == 0:
            # no line measured: a folder the summary lacks, or an empty
            # summary, has no figure to hold against its floor
            failed += floor is not None or key == "all"
            print("%-14s %8s %8s  not measured" % (key, "-", "-"))
            continue
        lines = 100.0 * a[0] / a[1]
        branches = 100.0 * a[2] / a[3] if a[3] else 100.0
        low = floor is not None and (lines < floor[0] or branches < floor[1])
        failed += low
        print("%-14s %7.1f%% %7.1f%%%s" % (key, lines, branches,
              "  below the floor %.1f%% %.1f%%" % floor if low else ""))
    print("coverage: lines %d of %d, branches %d of %d; %d failed"
          % (total[0], total[1], total[2], total[3], failed))
    return 1 if failed else 0


sys.exit(main())
