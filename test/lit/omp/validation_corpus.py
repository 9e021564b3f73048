#!/usr/bin/env python3
"""Runs the validation-style corpus (Inputs/validation/*.cpp,
validation-style.test): OpenMP and OpenACC loop, data and reduction tests
written the way the suites write theirs, each a function `static int
test_NAME()` that returns its error count, called by main through VV_RUN,
which prints `PASS test_NAME` or `FAIL test_NAME: ...`.

  validation_corpus.py --tool T --cxx "CXX FLAGS" --runtime "LIB FLAGS"
                       [--openmp-include DIR] --out DIR [--min-percent P] SOURCE...

For each source:
1. gpu-autopar --accept=omp,acc rewrites it as written. A test translates when
   the tool writes it with no error in its lines, rewrites at least one of its
   loops, and leaves no directive of it as written but those whose meaning the
   written code keeps: OpenACC's `loop seq` (the loop runs in order, as
   written), `omp simd` inside a translated loop (a vectorisation hint), and
   the waits (`taskwait`, `acc wait`: the rewritten loops have finished). A
   loop directive inside a translated loop that runs serially in each of its
   iterations (gang/vector nests) is OpenACC's meaning too.
   Where the tool reports errors, the directives of the tests they fall in are
   made comments (those tests run serially, as without OpenMP/OpenACC) and the
   source is rewritten again.
2. The rewritten program is built without OpenMP (the tool's <omp.h>) and run
   on three simulated devices (GPU_AUTOPAR_DEVICES=sim:3); the source built
   the same way without gpu-autopar is the serial reference. Both must print
   the same lines, every test exactly one PASS, and every loop the tool
   rewrote in a translated test must have run (its line in the runtime's
   report).
3. A test marked `// not translated: why` must not translate, and every other
   test must: a change in what translates is a failure to look at, not a
   silent change of the figure.
Prints, per source and in all, how many tests translate and pass; exits 1 if
fewer than --min-percent of all tests translate, on any FAIL, and on any
mismatch above.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

TEST_START = re.compile(r"^static int (test_\w+)\(\)")
# Directives left as written whose meaning the written code keeps (above).
KEPT_MEANING = ("'seq' declares the loop sequential", "it stays a vectorisation hint",
                "so it waits for nothing of theirs")


def fail(msg):
    print("validation-style: " + msg)
    sys.exit(1)


def run(cmd, env=None, what=""):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    return p


def tests_of(lines):
    """[(name, first line, last line, expected_not_translated)], lines 1-based.
    A test's lines run from the end of the test before it (helper functions
    between two tests belong to the one after them) to its closing brace."""
    out, after_previous = [], None
    for i, l in enumerate(lines):
        m = TEST_START.match(l)
        if not m:
            continue
        last = next(j + 1 for j in range(i, len(lines)) if lines[j] == "}")
        first = after_previous or i + 1
        marked = any("// not translated:" in lines[k - 1] for k in range(i + 1, last + 1))
        out.append((m.group(1), first, last, marked))
        after_previous = last + 1
    return out


def owner(tests, line):
    for t in tests:
        if t[1] <= line <= t[2]:
            return t[0]
    return None


def rewrite(a, source, work, tests):
    """Rewrites the source, commenting out the directives of tests the tool
    refuses; returns (rewritten path, report loops, {test: first error})."""
    with open(source) as f:
        text = f.read().split("\n")
    refused = {}
    name = os.path.basename(source)
    for attempt in range(4):
        copy = os.path.join(work, name)  # same basename: the runtime names loops by it
        with open(copy, "w") as f:
            f.write("\n".join(text))
        out, report = os.path.join(work, name + ".par.cpp"), os.path.join(work, name + ".json")
        p = run([a.tool, "--accept=omp,acc", copy, "-o", out, "--report=" + report, "--",
                 "-std=c++17", "-I" + os.path.dirname(os.path.abspath(source)), "-ferror-limit=0"])
        errors = [(int(m.group(1)), m.group(2)) for m in
                  re.finditer(r"^" + re.escape(copy) + r":(\d+):\d+: error: (.*)$", p.stderr, re.M)]
        if p.returncode == 0 and not errors:
            with open(report) as f:
                return out, json.load(f)["loops"], refused
        if not errors:
            fail("%s: the tool failed without an error in a test:\n%s" % (name, p.stderr[-3000:]))
        for line, message in errors:
            test = owner(tests, line)
            if test is None:
                fail("%s:%d: an error outside every test: %s" % (name, line, message))
            refused.setdefault(test, message)
        for test, first, last, _ in tests:
            if test in refused:
                for i in range(first - 1, last):
                    text[i] = re.sub(r"^(\s*)#pragma (omp|acc) ", r"\1// (refused) #pragma \2 ", text[i])
    fail("%s: still refused after commenting out the refused tests" % name)


def classify(tests, loops, refused):
    """{test: None when it translates, else why not}, and each translated test's rewritten loop lines."""
    why, ran = {}, {}
    for test, first, last, _ in tests:
        if test in refused:
            why[test] = "error: " + refused[test]
            continue
        mine = [l for l in loops if first <= l["location"]["line"] <= last]
        bad = None
        for l in mine:
            if l["decision"] == "left":
                message = l["reasons"][0]["message"] if l["reasons"] else ""
                if not any(k in message for k in KEPT_MEANING):
                    bad = bad or "left as written: " + message
            elif l["decision"] not in ("rewritten", "ignored"):
                bad = bad or "%s at line %d" % (l["decision"], l["location"]["line"])
        # The runtime names a loop by its directive's line, as the report does.
        loops_rewritten = [l["location"]["line"] for l in mine if l["decision"] == "rewritten" and l.get("mode")]
        if not bad and not loops_rewritten:
            bad = "no loop rewritten"
        why[test] = bad
        if not bad:
            ran[test] = loops_rewritten
    return why, ran


def build_and_run(a, source, work, rewritten):
    cxx = shlex.split(a.cxx)
    serial, par = os.path.join(work, "serial"), os.path.join(work, "par")
    inc = "-I" + os.path.dirname(os.path.abspath(source))
    for cmd in ([*cxx, "-w", inc, "-I" + a.openmp_include, source, "-o", serial],
                [*cxx, "-w", inc, rewritten, *shlex.split(a.runtime), "-o", par]):
        p = run(cmd)
        if p.returncode:
            fail("build failed: %s\n%s" % (" ".join(cmd), p.stderr[-3000:]))
    env = dict(os.environ)
    env.pop("GPU_AUTOPAR_DEVICES", None)
    ps = run([serial], env=env)
    env.update(GPU_AUTOPAR_DEVICES="sim:3", GPU_AUTOPAR_REPORT=os.path.join(work, "run.jsonl"))
    if os.path.exists(env["GPU_AUTOPAR_REPORT"]):
        os.remove(env["GPU_AUTOPAR_REPORT"])
    pp = run([par], env=env)
    if pp.returncode not in (0, 1) or ps.returncode not in (0, 1):
        fail("%s: a program crashed (serial %d, sim:3 %d)\n%s" % (source, ps.returncode, pp.returncode,
                                                                  pp.stderr[-2000:]))
    with open(env["GPU_AUTOPAR_REPORT"]) as f:
        runs = [r for r in (json.loads(l) for l in f if l.strip()) if "loop" in r]  # not the data regions' lines
    return ps.stdout, pp.stdout, runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--openmp-include", default="",
                    help="the directory of gpu-autopar's own omp.h (default: found under --cxx's -I directories)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--min-percent", type=float, default=90)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    if not a.openmp_include:
        dirs = [f[2:] for f in shlex.split(a.cxx) if f.startswith("-I")]
        a.openmp_include = next((os.path.join(d, "gpu_autopar", "openmp") for d in dirs
                                 if os.path.exists(os.path.join(d, "gpu_autopar", "openmp", "omp.h"))), "")
        if not a.openmp_include:
            fail("no -I directory of --cxx holds gpu_autopar/openmp/omp.h")
    total = translated = passed = 0
    problems = []
    for source in a.sources:
        name = os.path.basename(source)
        work = os.path.join(a.out, os.path.splitext(name)[0])
        os.makedirs(work, exist_ok=True)
        with open(source) as f:
            lines = f.read().split("\n")
        tests = tests_of(lines)
        rewritten, loops, refused = rewrite(a, source, work, tests)
        why, ran = classify(tests, loops, refused)
        serial_out, par_out, runs = build_and_run(a, source, work, rewritten)
        if serial_out != par_out:
            problems.append("%s: the sim:3 run does not print what the serial program prints" % name)
        results = {}
        for line in par_out.splitlines():
            m = re.match(r"^(PASS|FAIL) (test_\w+)", line)
            if m:
                results.setdefault(m.group(2), []).append(m.group(1))
        ran_lines = {int(r["loop"].rsplit(":", 1)[1]) for r in runs if r["loop"].rsplit(":", 1)[0] == name}
        on_sim = sum(1 for r in runs if r.get("backend") == "sim")
        n_ok = 0
        for test, _, _, marked in tests:
            total += 1
            ok = why[test] is None
            translated += ok
            n_ok += ok
            if results.get(test) != ["PASS"]:
                problems.append("%s: %s printed %s" % (name, test, results.get(test) or "nothing"))
            elif ok:
                passed += 1
            if ok and marked:
                problems.append("%s: %s translates, but is marked 'not translated'" % (name, test))
            if not ok and not marked:
                problems.append("%s: %s does not translate: %s" % (name, test, why[test]))
            if not ok:
                print("%s: not translated: %s (%s)" % (name, test, why[test]))
            for line in ran.get(test, []):
                if line not in ran_lines:
                    problems.append("%s: %s: the loop at line %d did not run" % (name, test, line))
        print("%s: %d of %d tests translate; %d loop runs on sim:3 (%d on the simulated devices)" %
              (name, n_ok, len(tests), len(runs), on_sim))
    percent = 100.0 * translated / total
    print("validation-style: %d of %d tests translate (%.1f%%); %d of the %d print PASS" %
          (translated, total, percent, passed, translated))
    if percent < a.min_percent:
        problems.append("%.1f%% of the tests translate, fewer than %.0f%%" % (percent, a.min_percent))
    for p in problems:
        print("validation-style: FAILED: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
