#!/usr/bin/env python3
"""Runs a Markdown walk-through (docs/Tutorial.md) as written.

The fenced blocks are taken in order, in one empty working directory:

- a block whose info string names a file (```hir file=lowpass.hir```)
  writes that file (a later block of the same name replaces it);
- a ```console``` block holds commands, each a line starting with "$ ",
  and below each the output it must print (standard output and standard
  error together), byte for byte but for trailing blanks.  A command whose
  shown output has an "error:" line must exit with status 1, any other
  with 0;
- every other block (```sh``` set-up for the reader) is not run.

The commands run through /bin/sh in the working directory with the tools
of --bin first on PATH, NO_COLOR set and a private hawk-build cache.  On a
difference the script prints the command, a unified diff of the shown
output against the printed one, and exits 1; else one line:
"<doc>: N files, M commands: as written".
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

FENCE = re.compile(r"^```(\S*)(.*)$")


def blocks(text):
    """(info words, body lines, line number) of each fenced block."""
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = FENCE.match(lines[k])
        if not m or not m.group(1):
            k += 1
            continue
        start = k + 1
        end = start
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            sys.exit("%d: a block that is not closed" % (start))
        yield [m.group(1)] + m.group(2).split(), lines[start:end], start
        k = end + 1


def file_of(info):
    for word in info[1:]:
        if word.startswith("file="):
            return word[len("file="):]
    return None


def commands(body, first_line):
    """(command, shown output lines, line number) of a console block."""
    out = []
    for k, line in enumerate(body):
        if line.startswith("$ "):
            out.append((line[2:], [], first_line + k + 1))
        elif out:
            out[-1][1].append(line)
        else:
            sys.exit("%d: output before any command" % (first_line + k + 1))
    return out


def run(cmd, work, env):
    p = subprocess.run(["/bin/sh", "-c", cmd], cwd=work, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=600)
    text = p.stdout.decode("utf-8", "replace")
    lines = [l.rstrip() for l in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return p.returncode, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--bin", required=True, help="the directory of the tools")
    ap.add_argument("--work", required=True,
                    help="the working directory (emptied first)")
    a = ap.parse_args()
    with open(a.doc, encoding="utf-8") as f:
        text = f.read()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    env = dict(os.environ)
    env["PATH"] = os.path.abspath(a.bin) + os.pathsep + env.get("PATH", "")
    env["NO_COLOR"] = "1"
    env["HAWK_CACHE_DIR"] = os.path.join(os.path.abspath(a.work), ".cache")
    nfiles = ncmds = 0
    for info, body, line in blocks(text):
        name = file_of(info)
        if name is not None:
            path = os.path.join(a.work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(body) + "\n")
            nfiles += 1
            continue
        if info[0] != "console":
            continue
        for cmd, shown, at in commands(body, line):
            ncmds += 1
            rc, printed = run(cmd, a.work, env)
            shown = [l.rstrip() for l in shown]
            want = 1 if any("error:" in l for l in shown) else 0
            if printed == shown and rc == want:
                continue
            print("%s:%d: $ %s" % (a.doc, at, cmd))
            if rc != want:
                print("exit status %d, not %d" % (rc, want))
            sys.stdout.writelines(
                l + "\n" for l in difflib.unified_diff(
                    shown, printed, "as written", "as printed", lineterm=""))
            return 1
    if ncmds == 0:
        print("%s: no command to run" % a.doc)
        return 1
    print("%s: %d files, %d commands: as written"
          % (os.path.basename(a.doc), nfiles, ncmds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
