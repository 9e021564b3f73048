"""Checks that --report accounts for every OpenMP/OpenACC directive of SOURCE,
one entry each, and that the written file OUT keeps exactly the directives the
report says were left as written, in order, as written.

Usage: count_directives.py REPORT.json SOURCE OUT
Prints "rewritten=N left=N rejected=N", then "consistent" or what differs.
"""
import json
import re
import sys

PRAGMA = re.compile(r"^\s*#\s*pragma\s+(omp|acc)\b")


def pragma_lines(path):
    with open(path) as f:
        return [(n, line.strip()) for n, line in enumerate(f, 1) if PRAGMA.match(line)]


def main():
    report, source, out = sys.argv[1:4]
    with open(report) as f:
        loops = json.load(f)["loops"]
    counts = {"rewritten": 0, "left": 0, "rejected": 0}
    for entry in loops:
        counts[entry["decision"]] = counts.get(entry["decision"], 0) + 1
    print(" ".join("%s=%d" % kv for kv in counts.items()))

    problems = []
    in_source = pragma_lines(source)
    by_line = dict(in_source)
    reported = [e["location"]["line"] for e in loops]
    if sorted(reported) != [n for n, _ in in_source]:
        problems.append("report lines %s, directives of the source at %s" % (reported, [n for n, _ in in_source]))
    left = [by_line.get(e["location"]["line"], "?") for e in loops if e["decision"] == "left"]
    kept = [text for _, text in pragma_lines(out)]
    if left != kept:
        problems.append("left as written per the report: %s; in the written file: %s" % (left, kept))
    print("\n".join(problems) if problems else "consistent")


if __name__ == "__main__":
    main()
