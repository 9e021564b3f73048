"""Randomized test of reach (docs/testing.md): loops over members, structs of
pointers, arrays of structs, nested members, accessors, the program's own
functions and templates (reachgen.py), run on simulated devices and, built
with nvcc, on the CUDA stand-in, against their serial build.

The seeds' units go into ONE translation unit (nvcc builds are slow), which is
rewritten once and built three times: the rewritten file with the host
compiler (CPU threads and simulated devices), the rewritten file with nvcc
and the flags every documented nvcc command uses (e2e_check.py's, with the
stand-in's hook), and the unmodified file (the serial reference). Required:
- every loop is accepted (each is race-free by construction) and kernel mode;
- every run prints the serial output byte for byte, every runtime report line
  accounts for every iteration, and the stand-in logs no violation;
- on the stand-in with nothing injected, every kernel-mode loop runs on the
  fake GPUs (backend=cuda) unless a run-time check sent it to serial
  execution (the struct-of-pointers loops given overlapping pointers).
A failure names the seed and the loop, and how to rerun that seed alone.
Seeds: --seed/--count, or GPU_AUTOPAR_RANDOM_SEED / GPU_AUTOPAR_RANDOM_COUNT.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lit"))
import reachgen  # noqa: E402
import e2e_check  # noqa: E402  (the nvcc flags, the stand-in hook, the PTX check)

# Simulated devices: CPU threads, 3 devices, 4 of uneven speed, a failing
# chunk and an out-of-memory one (retried elsewhere).
SIM_SETTINGS = ["cpu", "sim:3", "sim:4,speed=1:3:1:2", "sim:3,fail=1@2,oom=2@1"]
# The stand-in: 1 and 4 fake GPUs, a launch that faults (its GPU's context
# is lost: the chunks run elsewhere), an allocation that fails.
STANDIN_SETTINGS = ["devices=1", "devices=4", "devices=3 fault_launch=2", "devices=2 fail_alloc=2"]


class Failure(Exception):
    pass


def run(cmd, env=None, what=""):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    if p.returncode != 0:
        raise Failure("%s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout[-3000:],
                                                         p.stderr[-3000:]))
    return p


def owner(where, line):
    """The (seed, loop, shape) whose pragma is at `line`."""
    return where.get(line, (None, None, None))


def first_difference(expected, got):
    e, g = expected.splitlines(), got.splitlines()
    for n in range(max(len(e), len(g))):
        if n >= len(e) or n >= len(g) or e[n] != g[n]:
            return (e[n] if n < len(e) else "<end>"), (g[n] if n < len(g) else "<end>")
    return None


def check_output(label, expected, got, report, where, require_cuda):
    """The run's output and report, against the serial output."""
    diff = first_difference(expected, got)
    if diff:
        m = re.match(r"R(\d+) L(\d+) ", diff[0]) or re.match(r"R(\d+) L(\d+) ", diff[1])
        what = "seed %s, loop %s" % (m.group(1), m.group(2)) if m else "the output"
        shape = next((s for (sd, k, s) in where.values() if m and (sd, k) == (int(m.group(1)), int(m.group(2)))),
                     "?")
        raise Failure("%s (%s) differs from serial under %s\n  serial:   %s\n  parallel: %s" % (
            what, shape, label, diff[0], diff[1]))
    for line in open(report).read().splitlines() if os.path.exists(report) else []:
        r = json.loads(line)
        if "region" in r:
            continue
        total = sum(d["iterations"] for d in r["devices"])
        if total != r["iterations"]:
            raise Failure("%s under %s: device iterations add up to %d, not %d" % (r["loop"], label, total,
                                                                                   r["iterations"]))
        if require_cuda and r["mode"] == "kernel" and r["backend"] != "cuda":
            seed, k, shape = owner(where, int(r["loop"].rsplit(":", 1)[1]))
            if not (shape == "struct_ptrs" and "overlap" in r.get("serial_reason", "")):
                raise Failure("seed %s, loop %s (%s) ran on %s under %s with nothing injected: %s" % (
                    seed, k, shape, r["backend"], label, line))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--nvcc", default="", help="build the rewritten program with nvcc too")
    ap.add_argument("--standin", default="", help="directory of the CUDA stand-in's libcudart.so.13")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=6)
    a = ap.parse_args()
    a.seed = int(os.environ.get("GPU_AUTOPAR_RANDOM_SEED", a.seed))
    a.count = int(os.environ.get("GPU_AUTOPAR_RANDOM_COUNT", a.count))
    seeds = list(range(a.seed, a.seed + a.count))
    os.makedirs(a.out, exist_ok=True)
    try:
        summary = check(a, seeds)
    except Failure as e:
        m = re.search(r"seed (\d+)", str(e))
        one = m.group(1) if m else "SEED"
        sys.stderr.write("reach: FAIL seeds %d..%d: %s\n  files: %s\n  that seed alone: GPU_AUTOPAR_RANDOM_SEED=%s "
                         "GPU_AUTOPAR_RANDOM_COUNT=1 ctest --test-dir build -R random-reach --output-on-failure "
                         "(its program: python3 %s %s)\n" % (seeds[0], seeds[-1], e, a.out, one,
                                                             os.path.join(HERE, "reachgen.py"), one))
        return 1
    print(summary)
    return 0


def check(a, seeds):
    text, units, where = reachgen.program(seeds)
    src = os.path.join(a.out, "reach.cpp")
    with open(src, "w") as f:
        f.write(text)
    par_src = os.path.join(a.out, "reach.par.cpp")
    tool_report = os.path.join(a.out, "tool-report.json")
    p = subprocess.run([a.tool, src, "-o", par_src, "--report=" + tool_report, "--", "-std=c++17"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for m in re.finditer(r"^[^\n]*reach\.cpp:(\d+):\d+: error: ([^\n]*)", p.stderr, re.M):
        line = int(m.group(1))
        at = max((l for l in where if l <= line), default=None)
        seed, k, shape = where.get(at, (None, None, None))
        raise Failure("seed %s, loop %s (%s), race-free, is rejected: %s" % (seed, k, shape, m.group(2)))
    if p.returncode != 0:
        raise Failure("gpu-autopar failed (exit %d)\n%s" % (p.returncode, p.stderr[-3000:]))
    modes, shapes = {}, {}
    for entry in json.load(open(tool_report)).get("loops", []):
        seed, k, shape = owner(where, entry["location"]["line"])
        modes[entry["mode"]] = modes.get(entry["mode"], 0) + 1
        shapes[shape] = shapes.get(shape, 0) + 1
        if entry["mode"] != "kernel":
            raise Failure("seed %s, loop %d (%s) is %s mode, not kernel: %s" % (
                seed, k, shape, entry["mode"], json.dumps(entry.get("reasons"))))
    warned = len(re.findall(r"reach\.cpp:\d+:\d+: warning: ", p.stderr))

    # The three builds at once (two cores: nvcc's is the long one).
    par, serial, cuda = (os.path.join(a.out, n) for n in ("par", "serial", "par.cuda"))
    keep = os.path.join(a.out, "nvcc-keep")
    jobs = [([a.cxx, "-std=c++17", "-O1", "-w", "-I" + a.include, par_src, a.runtime, "-pthread", "-o", par],
             "build rewritten"),
            ([a.cxx, "-std=c++17", "-O1", "-w", "-Wno-unknown-pragmas", src, "-o", serial], "build serial")]
    if a.nvcc:
        os.makedirs(keep, exist_ok=True)
        jobs.append(([a.nvcc] + e2e_check.NVCC_FLAGS + e2e_check.NVCC_ARCHS +
                     ["-O1", "-w", "-cudart", "shared", "--keep", "--keep-dir", keep, "-I" + a.include] +
                     e2e_check.STANDIN_HOOK + e2e_check.NVCC_CU +
                     [par_src, "-L" + os.path.dirname(a.runtime), "-lgpu_autopar", "-o", cuda], "nvcc"))
    procs = [(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True), cmd, what)
             for cmd, what in jobs]
    for proc, cmd, what in procs:
        out, err = proc.communicate()
        if proc.returncode != 0:
            raise Failure("%s failed: %s\n%s%s" % (what, " ".join(cmd), out[-3000:], err[-5000:]))

    expected = run([serial], what="serial run").stdout
    report = os.path.join(a.out, "runtime-report.jsonl")
    base = dict(os.environ, GPU_AUTOPAR_LOG="off", GPU_AUTOPAR_PROGRESS="off", GPU_AUTOPAR_THREADS="2",
                GPU_AUTOPAR_REPORT=report)
    runs = 0
    for dev in SIM_SETTINGS:
        if os.path.exists(report):
            os.remove(report)
        got = run([par], env=dict(base, GPU_AUTOPAR_DEVICES=dev), what="run with " + dev).stdout
        check_output(dev, expected, got, report, where, False)
        runs += 1
    if a.nvcc:
        try:
            e2e_check.check_ptx([os.path.join(keep, f) for f in os.listdir(keep) if f.endswith(".ptx")])
        except SystemExit:
            raise Failure("nvcc dropped a loop body (the PTX check above)")
    if a.nvcc and a.standin:
        for setting in STANDIN_SETTINGS:
            env = dict(base, LD_LIBRARY_PATH=a.standin)
            env.pop("GPU_AUTOPAR_DEVICES", None)
            injected = False
            for field in setting.split():
                key, value = field.split("=", 1)
                env["GPU_AUTOPAR_STANDIN_" + key.upper()] = value
                injected = injected or key in ("fail_alloc", "fault_launch", "memory")
            log = os.path.join(a.out, "standin.log")
            for f in (log, report):
                if os.path.exists(f):
                    os.remove(f)
            env["GPU_AUTOPAR_STANDIN_LOG"] = log
            label = "the stand-in with " + setting
            got = run([cuda], env=env, what="run on " + label).stdout
            check_output(label, expected, got, report, where, not injected)
            text = open(log).read() if os.path.exists(log) else ""
            if "] violation " in text or "counts device=0 " not in text:
                raise Failure("the CUDA stand-in reports misuse under %s (or wrote no counts)\n%s" % (label,
                                                                                                    text[-3000:]))
            runs += 1
    loops = sum(len(u.loops) for u in units)
    return ("reach: seeds %d..%d: %d loops, all accepted, %d warned; modes %s; shapes %s; "
            "%d runs equal serial%s" % (seeds[0], seeds[-1], loops, warned,
                                        json.dumps(modes, sort_keys=True), json.dumps(shapes, sort_keys=True), runs,
                                        " (nvcc build on the stand-in included)" if a.nvcc and a.standin else ""))


if __name__ == "__main__":
    sys.exit(main())
