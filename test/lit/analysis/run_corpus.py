#!/usr/bin/env python3
"""Runs a dependence corpus file through its driver (Inputs/<corpus>.driver.cpp,
Inputs/corpus_driver.h), two ways.

  run_corpus.py equal --tool T --cxx CXX --include INC --runtime LIB --out DIR SOURCE DRIVER
    Rewrites SOURCE (rejected loops left serial, accepted_output.py), builds the
    driver once with the serial corpus and once with the rewritten one, runs
    every function under each device setting (CPU threads, three simulated
    devices) and requires every array the functions change to be equal to the
    serial run's, element for element. Every accepted loop must have run (its
    line in the runtime's report), but for those whose `// expect:` line says
    "race" (a warned loop that races: the driver must not run it). With
    --runs N the sim:3 run is repeated N times.

  run_corpus.py witness --tool T --cxx CXX --out DIR SOURCE DRIVER
    For each loop whose verdict carries a witness ("with n = 3, iteration i=1
    writes a[1] and iteration i=2 reads it"), runs the serial loop with the
    witness's parameters, one iteration at a time (a copy of SOURCE in which
    every annotated loop skips all iterations but the one asked for), and
    checks each claim: the writing iteration changes the element; the reading
    iteration computes something else when the element holds another value.
    (A loop whose `// expect:` line says its write "shows in no value" stores
    the value the element holds; for it the element must stay as it was.)
Prints one line per failure and a summary; exits 1 on any failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import accepted_output  # noqa: E402

DEVICES = ["cpu", "sim:3"]


def build(cxx, out, source_for_driver, driver, extra):
    cmd = [cxx, "-std=c++17", "-O1", "-w", "-DCORPUS_SOURCE=\"%s\"" % source_for_driver,
           "-I", os.path.dirname(os.path.abspath(driver)), driver, "-o", out] + extra
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write("run_corpus: build failed: %s\n%s" % (" ".join(cmd), r.stdout[-4000:]))
        sys.exit(1)


def run(binary, out_file, args, env=None):
    r = subprocess.run([binary, out_file] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       env=env, timeout=300)
    if r.returncode != 0:
        sys.stderr.write("run_corpus: %s %s exited %d\n%s" % (binary, " ".join(args), r.returncode, r.stderr[-2000:]))
        sys.exit(1)
    arrays, function = {}, None
    with open(out_file) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "==":
                function = parts[1]
                continue
            arrays[(function, parts[0])] = parts[1:]
    return arrays


def report_loops(tool, source, work):
    report = os.path.join(work, "check.json")
    subprocess.run([tool, "--check", "--report=" + report, source, "--"] + accepted_output.flags(source) +
                   ["-ferror-limit=0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)["loops"]


def equal(a):
    work = a.out
    rewritten, loops = accepted_output.rewrite(a.tool, a.source, work)
    accepted = sorted(l["location"]["line"] for l in loops if l["decision"] != "rejected")
    # `// expect: unknown race` (check_corpus.py): a warned loop that races; the driver does not run it.
    races = racing_loops(a.source)
    if rewritten is None:
        print("no accepted loop")
        return 1
    serial_bin, par_bin = os.path.join(work, "serial"), os.path.join(work, "parallel")
    build(a.cxx, serial_bin, os.path.abspath(a.source), a.driver, [])
    build(a.cxx, par_bin, os.path.abspath(rewritten), a.driver,
          ["-I", a.include, a.runtime, "-pthread"])
    expected = run(serial_bin, os.path.join(work, "serial.txt"), ["all"])
    bad = 0
    for devices in DEVICES + ["sim:3"] * (a.runs - 1):
        report = os.path.join(work, "report-%s.jsonl" % devices.replace(":", ""))
        if os.path.exists(report):
            os.remove(report)
        env = dict(os.environ, GPU_AUTOPAR_DEVICES=devices, GPU_AUTOPAR_REPORT=report, GPU_AUTOPAR_LOG="off")
        got = run(par_bin, os.path.join(work, "par.txt"), ["all"], env)
        for key in sorted(expected):
            if got.get(key) != expected[key]:
                first = next((k for k, (x, y) in enumerate(zip(expected[key], got.get(key, []))) if x != y), None)
                print("FAIL %s: %s(): '%s' differs from the serial run (first at element %s)" %
                      (devices, key[0], key[1], first))
                bad += 1
        ran = set()
        with open(report) as f:
            for line in f:
                r = json.loads(line)
                if "loop" in r:
                    ran.add(int(r["loop"].rsplit(":", 1)[1]))
        for line in accepted:
            if line in races and line in ran:
                print("FAIL %s: the racing loop at line %d ran" % (devices, line))
                bad += 1
            elif line not in ran and line not in races:
                print("FAIL %s: the accepted loop at line %d did not run" % (devices, line))
                bad += 1
    accepted = [l for l in accepted if l not in races]
    print("%d accepted loops, %d arrays: %s" % (len(accepted), len(expected),
          "equal to serial on " + " and ".join(DEVICES) if not bad else "%d mismatches" % bad))
    return 1 if bad else 0


PRAGMA = re.compile(r"^\s*#\s*pragma\s+gpu_autopar\s+for\b")


def racing_loops(source):
    """The pragma lines of annotated loops whose `// expect:` line says "race"."""
    lines = open(source).read().split("\n")
    return {n + 1 for n, l in enumerate(lines, start=1)
            if re.match(r"\s*// expect: \w+ race\b", l) and n < len(lines) and PRAGMA.match(lines[n])}


def probed(source_lines):
    """SOURCE with `if (::corpus::skip(LINE, VAR)) {} else` after each annotated
    loop's header (LINE: the pragma's), on the same line."""
    text = "\n".join(source_lines)
    starts = [0]
    for l in source_lines:
        starts.append(starts[-1] + len(l) + 1)
    inserts = []
    for n, l in enumerate(source_lines, start=1):
        if not PRAGMA.match(l):
            continue
        at = re.compile(r"\bfor\s*\(").search(text, starts[n])
        depth, k = 0, text.index("(", at.start())
        for k in range(k, len(text)):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
        header = text[text.index("(", at.start()) + 1:k]
        if ";" in header:
            var = re.match(r"\s*(?:[\w:<>]+[\s*&]+)*(\w+)\s*=", header.split(";")[0]).group(1)
            guard = " if (::corpus::skip(%d, %s)) {} else " % (n, var)
        else:
            guard = " if (::corpus::skip_next(%d)) {} else " % n
        inserts.append((k + 1, guard))
    for pos, guard in reversed(inserts):
        text = text[:pos] + guard + text[pos:]
    return text


WRITES_READS = re.compile(r"^(?:with (?P<params>.*?), )?iteration (?P<v>\w+)=(?P<w>-?\d+) writes (?P<e>.+?) "
                          r"and iteration \w+=(?P<r>-?\d+) reads it$")
BOTH_WRITE = re.compile(r"^(?:with (?P<params>.*?), )?iterations (?P<v>\w+)=(?P<w>-?\d+) and \w+=(?P<r>-?\d+) "
                        r"both write (?P<e>.+)$")


def function_of(lines, line):
    for k in range(line - 1, -1, -1):
        m = re.match(r"^\s*(?:[\w:<>]+\s+)+(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{\s*$", lines[k]) or \
            re.match(r"^\s*(?:[\w:<>]+\s+)+(\w+)\s*\(", lines[k])
        if m and m.group(1) not in ("for", "if", "while", "switch", "return"):
            return m.group(1)
    return None


def element(arrays, function, e):
    """('a', 1) for 'a[1]'; ('A', 129) for 'A[1][1]' of a registered 128-wide A; ('g[1]', 0) for a row of g."""
    m = re.match(r"^(.*?)((?:\[-?\d+\])+)$", e)
    base, subs = m.group(1), [int(x) for x in re.findall(r"\[(-?\d+)\]", m.group(2))]
    for cut in range(len(subs), -1, -1):
        name = base + "".join("[%d]" % s for s in subs[:cut])
        if (function, name) in arrays:
            rest = subs[cut:]
            if len(rest) == 1:
                return name, rest[0]
            if len(rest) == 2:
                return name, rest[0] * int(arrays[(function, name + "#row")][0]) + rest[1]
    return None, None


def witness(a):
    work = a.out
    os.makedirs(work, exist_ok=True)
    with open(a.source) as f:
        lines = f.read().split("\n")
    copy = os.path.join(work, "probed" + os.path.splitext(a.source)[1])
    with open(copy, "w") as f:
        f.write(probed(lines))
    binary = os.path.join(work, "probed")
    build(a.cxx, binary, os.path.abspath(copy), a.driver, [])
    out = os.path.join(work, "run.txt")
    checked = bad = 0
    for loop in report_loops(a.tool, a.source, work):
        w = loop.get("witness")
        if not w:
            continue
        line = loop["location"]["line"]
        m = WRITES_READS.match(w) or BOTH_WRITE.match(w)
        fn = function_of(lines, line)
        if not m or not fn:
            print("FAIL line %d: cannot read the witness '%s' (function %s)" % (line, w, fn))
            bad += 1
            continue
        args = [fn]
        for p in (m.group("params") or "").split(", "):
            if p:
                name, value = p.rsplit(" = ", 1)
                args += ["--param", "%s=%s" % (name, value)]
        never = run(binary, out, args + ["--only", "%d:-987654321" % line])
        name, index = element(never, fn, m.group("e"))
        if name is None:
            print("FAIL line %d: the driver of %s() has no array for %s" % (line, fn, m.group("e")))
            bad += 1
            continue
        key = (fn, name)
        before = never[key][index]
        wrote = run(binary, out, args + ["--only", "%d:%s" % (line, m.group("w"))])
        claims = ["iteration %s=%s writes %s" % (m.group("v"), m.group("w"), m.group("e"))]
        ok = [wrote[key][index] != before]
        # A write of the value the element holds (`a[i] = a[0]` at i = 0) shows
        # in no value: the corpus says so on the loop's `// expect:` line.
        if "shows in no value" in lines[line - 2]:
            ok = [wrote[key][index] == before]
            claims = ["iteration %s=%s leaves %s as it was" % (m.group("v"), m.group("w"), m.group("e"))]
        if m.re is BOTH_WRITE:
            other = run(binary, out, args + ["--only", "%d:%s" % (line, m.group("r"))])
            claims.append("iteration %s=%s writes it" % (m.group("v"), m.group("r")))
            ok.append(other[key][index] != before)
        else:
            plain = run(binary, out, args + ["--only", "%d:%s" % (line, m.group("r"))])
            changed = run(binary, out, args + ["--only", "%d:%s" % (line, m.group("r")),
                                               "--perturb", "%s:%d" % (name, index)])
            differs = any(plain[k] != changed[k] for k in plain if k != key and not k[1].endswith("#row"))
            differs = differs or any(x != y for j, (x, y) in enumerate(zip(plain[key], changed[key])) if j != index)
            claims.append("iteration %s=%s reads it" % (m.group("v"), m.group("r")))
            ok.append(differs)
        checked += 1
        for claim, good in zip(claims, ok):
            if not good:
                print("FAIL line %d: %s: the serial loop does not show that %s" % (line, w, claim))
                bad += 1
    print("%d witnesses: %s" % (checked, "each confirmed by the serial loop" if not bad else "%d failures" % bad))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["equal", "witness"])
    p.add_argument("--tool", required=True)
    p.add_argument("--cxx", required=True)
    p.add_argument("--include")
    p.add_argument("--runtime")
    p.add_argument("--out", required=True)
    p.add_argument("source")
    p.add_argument("driver")
    p.add_argument("--runs", type=int, default=1, help="equal: run on sim:3 this many times")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    return equal(a) if a.mode == "equal" else witness(a)


if __name__ == "__main__":
    sys.exit(main())
