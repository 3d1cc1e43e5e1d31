#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Extracts every example of the man pages and README.md, for examples.sh.

An example is a block: `.EX`/`.EE` or `.nf`/`.fi` in a man page, each `.TP`
heading of an EXAMPLES section, a ``` fence in Markdown. Each must follow a
marker naming its kind, `.\\" example: KIND ...` in roff, `<!-- example: KIND
... -->` in Markdown; a marker holds for the blocks after it, up to the next
marker or section. A block with no marker is an error, so no new example
escapes the test. Kinds:
  policy [NAME]  a policy: written to NAME (default example-N.policy), checked
  shell          commands, one a line (`\\` continues), run in order
  text WHY       not an example to run (an output, a grammar, a schema)
  skip WHY       an example the suite does not run, reported as a skipped case

Writes to DIR, for example N: N.kind (KIND and its words), N.where
(FILE:LINE) and N.text (the example, roff escapes undone).
Usage: examples.py DIR FILE...
"""
import os
import re
import sys

ROFF = [(r"\\", "\x00"), (r"\-", "-"), (r"\e", "\\"), (r"\(aq", "'"), (r"\(dq", '"'), (r"\(em", "--"),
        (r"\&", ""), (r"\fB", ""), (r"\fI", ""), (r"\fR", ""), (r"\fP", ""), (r"\ ", " ")]


def unroff(line):
    for a, b in ROFF:
        line = line.replace(a, b)
    return line.replace("\x00", "\\")


def heading_text(line):
    """The text of a `.B`/`.BR`/`.BI` heading line."""
    m = re.match(r"^\.(B|I|BR|BI|IR|RB)\s+(.*)$", line)
    if not m:
        return unroff(line)
    words = [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', m.group(2))]
    # .B and .I: one font, words apart; the others alternate fonts, words joined.
    return unroff((" " if m.group(1) in ("B", "I") else "").join(words))


def roff_examples(path):
    kind, section, block, start = None, None, None, 0
    tp = False
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines, 1):
        m = re.match(r'^\.\\" example: (.*)$', line)
        if m:
            kind = m.group(1).strip()
            continue
        if block is not None:
            if line in (".EE", ".fi"):
                yield kind, "%s:%d" % (path, start), "\n".join(block)
                block = None
            elif not line.startswith(".") or line.startswith(".\\\""):
                block.append(unroff(line))
            elif re.match(r"^\.(B|I|BR|BI|IR|RB) ", line):
                block.append(heading_text(line))
            continue
        if line.startswith(".SH ") or line.startswith(".SS "):
            section, kind, tp = line[4:].strip('"'), None, False
            continue
        if line in (".EX", ".nf"):
            block, start = [], i
            continue
        if section == "EXAMPLES" and line.startswith(".TP"):
            tp = True
            continue
        if tp:
            tp = False
            yield kind, "%s:%d" % (path, i), heading_text(line)


def markdown_examples(path):
    kind, block, start = None, None, 0
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines, 1):
        if block is not None:
            if line.startswith("```"):
                yield kind, "%s:%d" % (path, start), "\n".join(block)
                block = None
            else:
                block.append(line)
            continue
        m = re.match(r"^<!-- example: (.*) -->$", line)
        if m:
            kind = m.group(1).strip()
        elif line.startswith("#"):
            kind = None
        elif line.startswith("```"):
            block, start = [], i


def main():
    out, files = sys.argv[1], sys.argv[2:]
    n, bad = 0, 0
    for path in files:
        gen = markdown_examples(path) if path.endswith(".md") else roff_examples(path)
        for kind, where, text in gen:
            if not kind:
                print("%s: an example with no `example:` marker before it" % where,
                      file=sys.stderr)
                bad += 1
                continue
            n += 1
            for ext, data in (("kind", kind), ("where", where), ("text", text)):
                with open(os.path.join(out, "%d.%s" % (n, ext)), "w") as f:
                    f.write(data + "\n")
    print(n)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
