#!/usr/bin/env python3
"""rulestable.py -- docs/Passes.md's tables of derivative rules and of
their kinks, generated from lib/Diff/rules.def, where jvp and vjp read
them:

    python3 scripts/rulestable.py --write docs/Passes.md   # regenerate
    python3 scripts/rulestable.py --check docs/Passes.md   # exit 1 and a
                                                           # diff if stale

Each table sits between the lines '<!-- rules.def: NAME -->' and
'<!-- end of rules.def: NAME -->' (NAME 'rules' or 'kinks').  --check
also requires a rule for every op of lib/IR/ops.def whose rule is MATH1
or MATH2 (every libm op) and that every RULE names an op there.
"""
import difflib
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def read_def(path):
    rules, kinks = [], []
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r'^RULE\((\w+), "((?:[^"\\]|\\.)*)",\s*'
                         r'"((?:[^"\\]|\\.)*)"\)$', text, re.M):
        rules.append((m.group(1), m.group(2), m.group(3)))
    for m in re.finditer(r'^KINK\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\)$',
                         text, re.M):
        kinks.append((m.group(1), m.group(2)))
    return rules, kinks

def read_ops(path):
    """op name -> (mnemonic, rule) from lib/IR/ops.def."""
    ops = {}
    for m in re.finditer(r'^OP\((\w+),\s*"([^"]+)",\s*\d+,\s*(\w+),',
                         open(path, encoding="utf-8").read(), re.M):
        ops[m.group(1)] = (m.group(2), m.group(3))
    return ops

def parse(s):
    toks = re.findall(r"\(|\)|[^\s()]+", s)
    pos = 0
    def expr():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t != "(":
            return t
        out = []
        while toks[pos] != ")":
            out.append(expr())
        pos += 1
        return out
    e = expr()
    assert pos == len(toks), s
    return e

PREDS = {"oeq": "==", "one": "!=", "ogt": ">", "oge": ">=", "olt": "<",
         "ole": "<="}
ATOMS = {"ln2": "ln 2", "ln10": "ln 10", "nan": "NaN"}

# precedence: 0 select, 1 comparison, 2 sum, 3 product or quotient,
# 4 negation, 5 a name, a number or a call
def show(e, lets):
    if isinstance(e, str):
        if e in lets:
            return lets[e]
        if e.startswith("-"):
            return e, 4
        return ATOMS.get(e, e), 5
    head, args = e[0], e[1:]
    if head == "let":
        name, val, body = args
        v = show(val, lets)
        if v[1] == 1:  # a comparison: written where it is used
            return show(body, dict(lets, **{name: v}))
        b = show(body, dict(lets, **{name: (name, 5)}))
        return "%s, with %s = %s" % (b[0], name, v[0]), 0
    if head == "full":
        return show(args[0], lets)
    if head == "select":
        c, a, b = (show(x, lets) for x in args)
        return "%s ? %s : %s" % (c[0], wrap(a, 1), b[0]), 0
    if head in PREDS:
        a, b = (show(x, lets) for x in args)
        return "%s %s %s" % (wrap(a, 2), PREDS[head], wrap(b, 2)), 1
    if head in ("fadd", "add", "fsub", "sub"):
        a, b = (show(x, lets) for x in args)
        op = "+" if head in ("fadd", "add") else "-"
        return "%s %s %s" % (wrap(a, 2), op, wrap(b, 3 if op == "-" else 2)), 2
    if head in ("fmul", "scale"):
        a, b = (show(x, lets) for x in args)
        return "%s %s" % (factor(a, True), factor(b, False)), 3
    if head in ("fdiv", "over"):
        a, b = (show(x, lets) for x in args)
        return "%s / %s" % (factor(a, True), wrap(b, 4)), 3
    if head == "fneg":
        a = show(args[0], lets)
        return "-" + wrap(a, 4), 4
    return "%s(%s)" % (head, ", ".join(show(x, lets)[0] for x in args)), 5

def wrap(v, prec):
    return v[0] if v[1] >= prec else "(" + v[0] + ")"

def factor(v, first):
    """An operand of a product: a quotient or a sum in parentheses, and a
    negation or a product that starts with a minus unless it comes
    first."""
    if v[1] == 5:
        return v[0]
    if v[1] in (3, 4) and "/" not in v[0] and (first or not v[0].startswith("-")):
        return v[0]
    return "(" + v[0] + ")"

def tables(rules, kinks, ops):
    out = {}
    rows = ["| op | tangent |", "|---|---|"]
    for op, rule, note in rules:
        text = "none (zero)" if rule == "none" else "`%s`" % show(parse(rule), {})[0]
        rows.append("| `%s` | %s%s |" % (ops[op][0], text, ": " + note if note else ""))
    out["rules"] = rows
    rows = ["| where | value |", "|---|---|"]
    for where, value in kinks:
        rows.append("| %s | %s |" % (where, value))
    out["kinks"] = rows
    return out

def splice(doc, name, rows):
    begin = "<!-- rules.def: %s -->" % name
    end = "<!-- end of rules.def: %s -->" % name
    lines = doc.split("\n")
    try:
        b, e = lines.index(begin), lines.index(end)
    except ValueError:
        sys.exit("rulestable.py: no '%s' ... '%s' in the document" % (begin, end))
    return "\n".join(lines[:b + 1] + rows + lines[e:])

def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--check", "--write"):
        sys.exit("usage: rulestable.py --check|--write docs/Passes.md")
    rules, kinks = read_def(os.path.join(TOP, "lib/Diff/rules.def"))
    ops = read_ops(os.path.join(TOP, "lib/IR/ops.def"))
    named = set(op for op, _, _ in rules)
    bad = [op for op in named if op not in ops]
    bad += [op for op, (_, r) in sorted(ops.items())
            if r in ("MATH1", "MATH2") and op not in named]
    if bad:
        sys.exit("rulestable.py: an op with no rule or a rule of no op: " +
                 ", ".join(bad))
    path = sys.argv[2]
    doc = open(path, encoding="utf-8").read()
    new = doc
    for name, rows in tables(rules, kinks, ops).items():
        new = splice(new, name, rows)
    if sys.argv[1] == "--write":
        if new != doc:
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(path + ".tmp", path)
        return 0
    if new != doc:
        sys.stdout.writelines(difflib.unified_diff(
            doc.splitlines(True), new.splitlines(True), path,
            "generated from lib/Diff/rules.def"))
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
