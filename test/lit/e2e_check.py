"""End-to-end check of one annotated program (the %e2e substitution).

Rewrites SOURCE with gpu-autopar, builds the rewritten file against the
runtime and the unmodified file as the serial reference, runs the rewritten
program under each device setting, and requires its output to equal the serial
program's byte for byte. Every run writes a GPU_AUTOPAR_REPORT; each report line
must account for every iteration (device iterations add up to the loop's).
Prints one summary line per executed loop for FileCheck:

  <devices>: <file:line> mode=<mode> backend=<backend> iterations=<n> devices=<k> [fallback=<to>]

where k counts the devices that ran at least one iteration. Where nvcc exists
the rewritten file must also compile as CUDA.
"""
import argparse
import json
import os
import subprocess
import sys


def run(cmd, env=None, what=""):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write("e2e: %s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout, p.stderr))
        sys.exit(1)
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--nvcc", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--devices", default="", help="';'-separated device settings (default: the standard set)")
    ap.add_argument("--standard", required=True, help="the standard ';'-separated device settings")
    ap.add_argument("--cuda-source", action="store_true", help="the source is CUDA (.cu): nvcc builds both")
    ap.add_argument("source")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    base = os.path.splitext(os.path.basename(a.source))[0]
    par_src = os.path.join(a.out, base + ".par.cpp")
    run([a.tool, a.source, "-o", par_src, "--", "-std=c++17"], what="gpu-autopar")

    par, ser = os.path.join(a.out, "par"), os.path.join(a.out, "serial")
    run([a.cxx, "-std=c++17", "-O2", "-I" + a.include, par_src, a.runtime, "-pthread", "-o", par], what="build rewritten")
    run([a.cxx, "-std=c++17", "-O2", "-Wno-unknown-pragmas", a.source, "-o", ser], what="build serial")
    expected = run([ser], what="serial run").stdout

    settings = [s for s in (a.devices or a.standard).split(";") if s]
    for dev in settings:
        report = os.path.join(a.out, "report-%s.jsonl" % "".join(c if c.isalnum() else "_" for c in dev))
        if os.path.exists(report):
            os.remove(report)
        env = dict(os.environ, GPU_AUTOPAR_DEVICES=dev, GPU_AUTOPAR_REPORT=report, GPU_AUTOPAR_LOG="warn")
        got = run([par], env=env, what="run with GPU_AUTOPAR_DEVICES=" + dev).stdout
        if got != expected:
            sys.stderr.write("e2e: output with GPU_AUTOPAR_DEVICES=%s differs from the serial program\n"
                             "--- serial\n%s--- parallel\n%s" % (dev, expected, got))
            sys.exit(1)
        lines = open(report).read().splitlines() if os.path.exists(report) else []
        for line in lines:
            r = json.loads(line)
            total = sum(d["iterations"] for d in r["devices"])
            if total != r["iterations"]:
                sys.stderr.write("e2e: %s: device iterations add up to %d, not %d\n" % (dev, total, r["iterations"]))
                sys.exit(1)
            used = sum(1 for d in r["devices"] if d["iterations"] > 0)
            fb = r.get("fallback")
            print("%s: %s mode=%s backend=%s iterations=%d devices=%d%s" % (
                dev, r["loop"], r["mode"], r["backend"], r["iterations"], used,
                " fallback=%s" % fb["to"] if fb else ""))

    if a.nvcc:
        run([a.nvcc, "-std=c++17", "--extended-lambda", "-arch=sm_75", "-I" + a.include, "-x", "cu", "-c", par_src,
             "-o", os.path.join(a.out, "par.cu.o")], what="nvcc")
        print("nvcc: compiled")


if __name__ == "__main__":
    main()
