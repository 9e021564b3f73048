#!/usr/bin/env python3
"""--report lists each loop's data maps exactly as the rewritten code passes
them to the runtime.

For every accepted kernel-mode loop of each SOURCE (rejected loops of a source
are left serial, see accepted_output.py), the report's `maps` (their `emitted`
text, in order) must be the arguments of the `::gpu_autopar::data(...)` that
the loop's runtime call passes, and each map's `kind` and `section` must be
what that argument says. Prints one line per difference and a summary; exits 1
on any difference or when no kernel loop was checked.

Usage: maps_as_emitted.py TOOL WORKDIR SOURCE...
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accepted_output  # noqa: E402

PREFIX = "::gpu_autopar::"


def call_arguments(text, start):
    """The top-level arguments of the call whose '(' is at `start`."""
    depth, args, cur = 0, [], ""
    for c in text[start:]:
        if c == "(":
            depth += 1
            if depth == 1:
                continue
        elif c == ")":
            depth -= 1
            if depth == 0:
                if cur.strip():
                    args.append(" ".join(cur.split()))
                return args
        if c == "," and depth == 1:
            args.append(" ".join(cur.split()))
            cur = ""
        elif depth >= 1:
            cur += c
    raise ValueError("unbalanced call")


def unwrapped(emitted):
    """The map call inside also_written(...) / also_read(...), which mark a
    map whose kind does not say what the body does (docs/generated-code.md)."""
    for wrapper in ("also_written(", "also_read("):
        while emitted.startswith(PREFIX + wrapper) and emitted.endswith(")"):
            emitted = emitted[len(PREFIX + wrapper):-1]
    return emitted


def emitted_maps(text):
    """Line of the annotation -> the data(...) arguments of its kernel_loop call."""
    calls = {}
    for m in re.finditer(r'::gpu_autopar::kernel_loop\(::gpu_autopar::loop_site\{"(?:[^"\\]|\\.)*", (\d+)\}', text):
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("//"):
            continue  # a comment quoting a call (a test's CHECK line)
        start = text.index(PREFIX + "data(", m.end()) + len(PREFIX + "data")
        calls[int(m.group(1))] = call_arguments(text, start)
    return calls


def main():
    tool, work, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(work, exist_ok=True)
    checked = bad = 0
    for source in sources:
        out, loops = accepted_output.rewrite(tool, source, work)
        if not out:
            continue  # nothing written (errors outside the loops): no code to compare with
        with open(out) as f:
            calls = emitted_maps(f.read())
        for loop in loops:
            if loop["mode"] != "kernel" or loop["decision"] == "rejected":
                continue
            checked += 1
            line = loop["location"]["line"]
            reported = [" ".join(m["emitted"].split()) for m in loop["maps"]]
            problems = []
            if calls.get(line) != reported:
                problems.append("report: %s\n  code:   %s" % (reported, calls.get(line)))
            for m in loop["maps"]:
                expect = "%s%s(%s" % (PREFIX, m["kind"], m["var"])
                call = unwrapped(m["emitted"])
                section = call[len(expect) + 2:-1].replace(PREFIX, "")
                if not call.startswith(expect + ", ") or section != m["section"]:
                    problems.append("map %s: kind '%s', section '%s' but emitted %s"
                                    % (m["var"], m["kind"], m["section"], m["emitted"]))
            if problems:
                bad += 1
                print("%s:%d: %s" % (source, line, "\n  ".join(problems)))
    print("%d kernel loops; %d differ" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
