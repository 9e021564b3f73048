#!/usr/bin/env python3
"""Anything the tool accepts compiles: rewrites each source and compiles the
rewritten accepted loops with the host compiler and, where given, nvcc with
the flags the docs require (a dropped device body is an error). A source with
rejected loops counts too: its accepted loops are rewritten with the rejected
ones left serial (accepted_output.py). Prints one line per failure.

Usage: compile_accepted.py --tool T --cxx CXX --include DIR [--nvcc NVCC] --out DIR SOURCE...
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accepted_output  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--tool", required=True)
p.add_argument("--cxx", required=True)
p.add_argument("--include", required=True)
p.add_argument("--nvcc")
p.add_argument("--out", required=True)
p.add_argument("sources", nargs="+")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)

def compilations(src):
    """The compile commands for one source's accepted output (none when nothing was rewritten)."""
    out, _ = accepted_output.rewrite(a.tool, src, a.out)
    if not out or "::gpu_autopar::" not in open(out).read():
        return []  # nothing accepted or nothing to rewrite: nothing was claimed to compile
    std = [f for f in accepted_output.flags(src) if f.startswith("-std=")]
    # A .cu source is CUDA (kernels, <<<...>>>): nvcc's alone.
    compilers = [] if src.endswith(".cu") else [[a.cxx] + std + ["-fsyntax-only", "-I" + a.include, out]]
    if a.nvcc:
        compilers.append([a.nvcc] + std + ["--extended-lambda", "--expt-relaxed-constexpr",
                          "--diag-error", "20011,20013", "-arch=sm_75", "-I" + a.include, "-x", "cu",
                          "-cuda", out, "-o", os.devnull])
    return [(src, cmd) for cmd in compilers]


def compile_one(job):
    src, cmd = job
    c = subprocess.run(cmd, capture_output=True, text=True)
    if c.returncode == 0:
        return ""
    return "accepted but does not compile with %s: %s\n%s" % (os.path.basename(cmd[0]), src, c.stderr[:2000])


jobs = [job for src in a.sources for job in compilations(src)]
# Two at a time: each nvcc run is a few seconds of one core, and this test is
# one of the longest in ctest's schedule.
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    errors = [e for e in pool.map(compile_one, jobs) if e]
for e in errors:
    print(e)
print("%d compilations of accepted output, %d failures" % (len(jobs), len(errors)))
sys.exit(1 if errors else 0)
