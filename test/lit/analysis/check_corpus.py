"""Checks gpu-autopar's decision on every loop of a dependence corpus.

Each annotated loop in the corpus is preceded by a line `// expect: ANSWER`:
  independent  accepted with no error and no warning
  dependent    rejected: an error says iterations conflict
  unknown      accepted with a warning that independence cannot be proved
  checked      accepted with a remark that two objects that may overlap are
               compared before the loop runs (it runs serially if they do)
  bounded      accepted with a remark that the subscripts of a built-in
               array are checked to stay inside its dimensions before the
               loop runs (it runs serially if they do not)
  error        rejected by an error other than a conflict (`exit` in the body)
  warning      accepted with a warning other than an unproven independence
               (an exception that may leave the body, a std::vector<bool>)
A word after the answer (`// expect: unknown race`) is for the driver
(run_corpus.py): that loop races, so it is not run.
The script runs `gpu-autopar --check --report`, compares each loop's verdict
(and that its decision and diagnostics say the same) with its expectation, prints one line per loop and a summary, and exits 1 on
any mismatch (or a loop without an expectation).
"""
import json
import re
import subprocess
import sys
import tempfile
import os

CONFLICT = ("loop-carried dependence", "is declared outside the loop and written in it")
UNPROVEN = ("cannot prove that iterations", "may alias", "it must not touch data that other iterations use",
            "which is shared by all iterations", "does input or output")


VERDICT = {"independent": "independent", "dependent": "dependent", "unproven": "unknown"}
CHECKED = "the rewritten loop compares their addresses first"
BOUNDED = "only while its subscripts stay inside its dimensions"


def answer(loop):
    """The verdict, when the decision and the diagnostics agree with it."""
    said = from_messages(loop)
    verdict = VERDICT.get(loop.get("verdict"), "no verdict")
    if (said, loop["decision"]) in (("error", "rejected"), ("warning", "accepted")):
        return said  # the diagnostics name what the verdict's kind does not
    if verdict == "independent" and loop["alias_checks"]:
        verdict = "checked"
    elif verdict == "independent" and loop["bounds_checks"]:
        verdict = "bounded"
    return verdict if said == verdict else "%s (verdict) but %s (diagnostics)" % (verdict, said)


def from_messages(loop):
    errors = [r["message"] for r in loop["reasons"] if r["kind"] == "error"]
    warnings = [r["message"] for r in loop["reasons"] if r["kind"] == "warning"]
    if loop["decision"] == "rejected":
        return "dependent" if any(m.startswith(CONFLICT) or CONFLICT[1] in m for m in errors) else "error"
    if any(any(u in w for u in UNPROVEN) for w in warnings):
        return "unknown"
    if warnings:
        return "warning"
    remarks = [r["message"] for r in loop["reasons"] if r["kind"] == "remark"]
    if any(CHECKED in m for m in remarks):
        return "checked"
    return "bounded" if any(BOUNDED in m for m in remarks) else "independent"


def main():
    tool, source = sys.argv[1], sys.argv[2]
    with open(source) as f:
        lines = f.read().split("\n")
    expected = {}
    for n, line in enumerate(lines, start=1):
        m = re.match(r"\s*// expect: (\w+)", line)
        if m and n < len(lines) and lines[n].lstrip().startswith("#pragma gpu_autopar"):
            expected[n + 1] = m.group(1)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        subprocess.run([tool, "--check", "--report=" + report, source, "--", "-std=c++17", "-ferror-limit=0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(report) as f:
            loops = json.load(f)["loops"]
    bad = 0
    counts = {}
    for loop in loops:
        line = loop["location"]["line"]
        want = expected.get(line)
        got = answer(loop)
        ok = want == got
        bad += not ok
        counts[want] = counts.get(want, 0) + 1
        print("%s line %d: expected %s, got %s" % ("ok  " if ok else "FAIL", line, want, got))
    missing = sorted(set(expected) - {l["location"]["line"] for l in loops})
    for line in missing:
        print("FAIL line %d: no loop in the report" % line)
    bad += len(missing)
    print("%d loops: %s; %d mismatches" % (len(loops), ", ".join(
        "%d %s" % (counts[k], k) for k in sorted(counts, key=str)), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
