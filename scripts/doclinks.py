#!/usr/bin/env python3
"""doclinks.py -- every relative link of the Markdown files given resolves.

A link [text](target) whose target is not a URL names a file relative to
the page (it must exist) and, after '#', an anchor: a heading of that page
as GitHub spells it (lower case, punctuation dropped, spaces to '-', a
repeated heading numbered -1, -2, ...).  Links inside code spans and code
blocks are not links.  Prints 'file:line: broken link ...' per broken link
and exits 1 when there is one; else a line 'N files, M links: all resolve'.
"""
import os
import re
import sys

LINK = re.compile(r'(?<!!)\[([^\]]*)\]\(([^)\s]+)\)')


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[`*_]', '', s)
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def prose_lines(path):
    """(line number, text) of each line outside code blocks, code spans
    blanked."""
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*(```+|~~~+)', line)
            if m:
                if fence is None:
                    fence = m.group(1)[:3]
                elif m.group(1).startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield n, re.sub(r'`[^`]*`', lambda c: ' ' * len(c.group()), line)


def anchors(path, cache={}):
    if path not in cache:
        seen, out = {}, set()
        for _, line in prose_lines(path):
            m = re.match(r'#{1,6}\s+(.*)', line)
            if not m:
                continue
            s = slug(m.group(1))
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else '%s-%d' % (s, k))
        cache[path] = out
    return cache[path]


def prose(path):
    """The page's prose as one text, line for line, code blanked: a link
    may run over a line break."""
    lines = dict(prose_lines(path))
    with open(path, encoding='utf-8') as f:
        raw = f.read().split('\n')
    text = '\n'.join(lines.get(n, '').rstrip('\n') for n in range(1, len(raw) + 1))
    return text


def main(files):
    bad = links = 0
    for page in files:
        text = prose(page)
        for m in LINK.finditer(text):
            target = m.group(2)
            if re.match(r'[a-z]+:', target):
                continue
            links += 1
            n = text.count('\n', 0, m.start()) + 1
            name, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(page), name)) if name else page
            why = None
            if not os.path.exists(dest):
                why = 'no file %s' % name
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                why = 'no heading #%s in %s' % (anchor, os.path.basename(dest))
            if why:
                bad += 1
                label = re.sub(r'\s+', ' ', m.group(1))
                print('%s:%d: broken link [%s](%s): %s' % (page, n, label, target, why))
    if bad:
        return 1
    print('%d files, %d links: all resolve' % (len(files), links))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
