#!/usr/bin/env python3
"""manpage.py TOOL OUT -- writes the man page (roff, section 1) of a hawk
tool from its own --help: the OVERVIEW line is the NAME, USAGE the
SYNOPSIS, every option line an entry of OPTIONS, so the page and the tool
cannot disagree (the option tables are the one source).  Deterministic:
no date, no path; the version is the tool's --version."""
import os
import re
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes and a leading dot or quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text[:1] in (".", "'"):
        text = "\\&" + text
    return text


def main(argv):
    tool, out = argv[1], argv[2]
    name = os.path.basename(tool)
    help_text = subprocess.run([tool, "--help"], check=True,
                               stdout=subprocess.PIPE, text=True).stdout
    version = subprocess.run([tool, "--version"], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.strip()
    overview = re.search(r"^OVERVIEW: (.*)$", help_text, re.M).group(1)
    usage = re.search(r"^USAGE: (.*)$", help_text, re.M).group(1)
    options = re.findall(r"^  (-\S+)\s+(.*)$", help_text, re.M)
    lines = [
        '.TH %s 1 "" "%s" "hawk"' % (name.upper(), roff(version)),
        ".SH NAME",
        "%s \\- %s" % (roff(name), roff(overview)),
        ".SH SYNOPSIS",
        ".B %s" % roff(usage.split(" ", 1)[0]),
        roff(usage.split(" ", 1)[1]) if " " in usage else "",
        ".SH DESCRIPTION",
        roff(overview[:1].upper() + overview[1:]) + ".",
        "Every long option is accepted with one dash or two; an option that",
        "takes a value accepts \\fB\\-name=value\\fR and \\fB\\-name value\\fR.",
        "docs/CommandGuide.md (installed under share/doc/hawk) describes",
        "each option at length, with examples.",
        ".SH OPTIONS",
    ]
    for flag, text in options:
        lines += [".TP", "\\fB%s\\fR" % roff(flag), roff(text)]
    lines += [
        ".SH EXIT STATUS",
        "0 on success, 1 on any error.",
        ".SH SEE ALSO",
        ", ".join("\\fB%s\\fR(1)" % roff(t) for t in
                  ("hawk-opt", "hawk-emit", "hawk-run") if t != name),
    ]
    text = "\n".join(l for l in lines if l != "") + "\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
