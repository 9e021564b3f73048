#!/usr/bin/env python3
"""Randomized test of the run-time overlap checks of raw pointers.

Per seed: a program of CPU-thread loops (`mode(host)`) over two raw pointers
`out` and `in` (or members `dst.data`, `src.data` of two structs) with random
coefficients, offsets and steps, each called with pointers to random places
of one buffer: sometimes far apart, sometimes overlapping, sometimes the
same. The rewritten loop compares the bytes each pointer covers over the
whole loop before it runs (docs/analysis.md, section 3). Half the member
loops have no mode clause: they are kernel mode, the members are mapped, and
the maps' sections are compared instead; the program runs on three simulated
devices. The test predicts
from the call's arguments whether those byte ranges meet, and requires:
  - the report says the call ran serially exactly when they meet (never
    parallel over memory a write shares with a read: a race the CPU threads
    may well not show; never serial when they are apart);
  - the program prints what the serial program prints.

Usage: alias_random.py --tool T --cxx C --include DIR --runtime LIB --out DIR
                       [--seed S] [--count N]
"""
import argparse
import json
import os
import random
import subprocess
import sys

BUFFER = 4096


class Loop:
    def __init__(self, r, k):
        self.k = k
        self.member = r.random() < 0.4
        self.kernel = self.member and r.random() < 0.5  # members mapped, maps compared
        self.a, self.c = r.choice([1, 1, 2, 3]), r.choice([1, 1, 2])
        self.b, self.d = r.randint(0, 3), r.randint(-2, 3)
        self.lo = max(0, -self.d) + r.randint(0, 2)
        self.step = r.choice([1, 1, 2, 3])
        self.n = r.randint(self.lo + 1, 400)

    def iterations(self):
        return range(self.lo, self.n, self.step)

    def source(self):
        w, rd = ("dst.data", "src.data") if self.member else ("out", "in")
        params = "Field &dst, const Field &src" if self.member else "float *out, const float *in"
        return ("void loop%d(%s, int n) {\n#pragma gpu_autopar for%s\n"
                "  for (int i = %d; i < n; i += %d)\n"
                "    %s[%d * i + %d] = %s[%d * i + %d] * 0.5f + i %% 7;\n}\n"
                % (self.k, params, "" if self.kernel else " mode(host)", self.lo, self.step, w, self.a, self.b,
                   rd, self.c, self.d))

    def hulls(self, po, pi):
        it = list(self.iterations())
        outs = [po + self.a * i + self.b for i in it]
        ins = [pi + self.c * i + self.d for i in it]
        return (min(outs), max(outs)), (min(ins), max(ins))


def program(r, loops):
    calls = []
    text = ["#include <cstdio>", "#include <vector>",
            "struct Field {", "  float *data;", "};"]
    for L in loops:
        text.append(L.source())
    text.append("int main() {")
    text.append("  std::vector<float> buf(%d);" % BUFFER)
    text.append("  for (int k = 0; k < %d; ++k) buf[k] = float(k %% 23);" % BUFFER)
    text.append("  float *p = buf.data();")
    for L in loops:
        for _ in range(3):
            span_out = L.a * (L.n - 1) + L.b + 1
            span_in = L.c * (L.n - 1) + L.d + 1
            po = r.randint(0, BUFFER - span_out - 1)
            choice = r.random()
            if choice < 0.3:
                pi = po  # the same place
            elif choice < 0.6:
                pi = po + r.randint(-span_in, span_out)  # near: may meet
            else:
                pi = r.randint(0, BUFFER)
            pi = max(0, min(BUFFER - span_in - 1, pi))
            (ol, oh), (il, ih) = L.hulls(po, pi)
            calls.append(ol <= ih and il <= oh)
            if L.member:
                text.append("  { Field dst{p + %d}, src{p + %d}; loop%d(dst, src, %d); }" % (po, pi, L.k, L.n))
            else:
                text.append("  loop%d(p + %d, p + %d, %d);" % (L.k, po, pi, L.n))
            text.append("  { double s = 0; for (int k = 0; k < %d; ++k) s += buf[k] * (k %% 13); "
                        "std::printf(\"%%.2f\\n\", s); }" % BUFFER)
    text.append("}")
    return "\n".join(text) + "\n", calls


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def check_seed(a, seed):
    r = random.Random(seed)
    loops = [Loop(r, k) for k in range(r.randint(2, 4))]
    src, expect = program(r, loops)
    work = os.path.join(a.out, "seed-%d" % seed)
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "prog.cpp")
    with open(path, "w") as f:
        f.write(src)
    par_src = os.path.join(work, "prog.par.cpp")
    t = run([a.tool, path, "-o", par_src, "--", "-std=c++17"])
    if t.returncode != 0:
        return "the tool failed:\n" + t.stderr
    for line in t.stderr.splitlines():
        if "warning:" in line or "error:" in line:
            return "the tool warned: " + line
    ser, par = os.path.join(work, "serial"), os.path.join(work, "par")
    for cmd in ([a.cxx, "-std=c++17", "-O1", "-Wno-unknown-pragmas", path, "-o", ser],
                [a.cxx, "-std=c++17", "-O1", "-I" + a.include, par_src, a.runtime, "-pthread", "-o", par]):
        c = run(cmd)
        if c.returncode != 0:
            return "compiling failed:\n" + c.stderr
    report = os.path.join(work, "report.jsonl")
    if os.path.exists(report):
        os.remove(report)
    s = run([ser])
    p = run([par], env=dict(os.environ, GPU_AUTOPAR_REPORT=report, GPU_AUTOPAR_DEVICES="sim:3"))
    if p.returncode != 0 or s.stdout != p.stdout:
        return "the rewritten program printed other numbers than the serial one (see %s)" % work
    with open(report) as f:
        lines = [json.loads(x) for x in f if x.strip()]
    if len(lines) != len(expect):
        return "%d report lines for %d calls" % (len(lines), len(expect))
    for n, (line, meets) in enumerate(zip(lines, expect)):
        if line["iterations"] < 2:
            continue  # one iteration runs on the calling thread, checked or not
        checked_serial = "overlap in memory" in line.get("serial_reason", "")
        if checked_serial != meets:
            return "call %d (%s): the pointers' ranges %s, but the report says %s" % (
                n, line["loop"], "meet" if meets else "are apart",
                "serial: " + line.get("serial_reason", "") if line.get("serial") else "parallel")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("--tool", "--cxx", "--include", "--runtime", "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=8)
    a = ap.parse_args()
    failed = 0
    for seed in range(a.seed, a.seed + a.count):
        why = check_seed(a, seed)
        if why:
            failed += 1
            sys.stderr.write("alias-random: FAIL seed %d: %s\n" % (seed, why))
    print("alias-random: seeds %d..%d: %d failing" % (a.seed, a.seed + a.count - 1, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
