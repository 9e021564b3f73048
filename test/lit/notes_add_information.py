#!/usr/bin/env python3
"""Fails if a note repeats the diagnostic it belongs to.

Runs the tool with --check on each source and reads clang-style diagnostics:
a note whose text is contained word for word in the error, warning or remark
before it tells the user nothing new (it should say what is at its location
instead). Usage: notes_add_information.py TOOL SOURCE...
"""
import re
import subprocess
import sys

DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|remark|note): (.*)$")


def main():
    tool, sources = sys.argv[1], sys.argv[2:]
    bad = 0
    for src in sources:
        out = subprocess.run([tool, "--check", src, "--", "-std=c++17"], capture_output=True, text=True).stderr
        owner = None
        for line in out.splitlines():
            m = DIAG.match(line)
            if not m:
                continue
            kind, text = m.group(4), m.group(5)
            if kind != "note":
                owner = line, text
            elif owner and text.strip() and text.strip() in owner[1]:
                print(f"{owner[0]}\n  {line}\n  (the note repeats its diagnostic)")
                bad += 1
    print(f"{bad} note(s) repeating their diagnostic in {len(sources)} file(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
