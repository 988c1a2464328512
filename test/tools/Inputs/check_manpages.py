"""check_manpages.py BIN_DIR COMMAND_GUIDE -- for each tool: the man page
made at build time lists exactly the options of the tool's --help, and
docs/CommandGuide.md names every one of them.  Prints one line per tool,
or what disagrees; exits 1 on any disagreement."""
import re
import subprocess
import sys

bin_dir, guide_path = sys.argv[1], sys.argv[2]
guide = open(guide_path).read()
bad = 0
for tool in ("hawk-opt", "hawk-emit", "hawk-run", "hawk-build"):
    help_text = subprocess.run([bin_dir + "/" + tool, "--help"], check=True,
                               stdout=subprocess.PIPE, text=True).stdout
    want = [m.split("=")[0].split("[")[0]
            for m in re.findall(r"^  (-\S+)", help_text, re.M)]
    page = open(bin_dir + "/man/" + tool + ".1").read()
    have = [m.replace("\\-", "-").split("=")[0].split("[")[0]
            for m in re.findall(r"^\\fB(\S+)\\fR$", page, re.M)]
    if want != have:
        print("%s: the man page lists %s, --help %s" % (tool, have, want))
        bad = 1
    missing = [o for o in want
               if not re.search(r"(?<![\w-])-?%s(?![\w-])" % re.escape(o), guide)]
    if missing:
        print("%s: docs/CommandGuide.md does not name %s" % (tool, " ".join(missing)))
        bad = 1
    print("%s: %d options, man page and CommandGuide agree" % (tool, len(want))
          if not bad else "%s: checked" % tool)
sys.exit(bad)
