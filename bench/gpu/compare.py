#!/usr/bin/env python3
"""Runs bench/gpu's two programs (gpu-autopar's loops and the hand-written
reference.cu) on 1, 2, 3, 4 and 8 GPUs and prints each case's time, their
ratio and the 1->4 GPU scaling (bench/README.md, "GPU programs").

--mode measured: real GPUs; the programs' wall-clock times (CUDA_VISIBLE_DEVICES
  picks the first G GPUs; counts above the machine's are left out).
--mode modelled: the CUDA stand-in (test/standin/), whose timeline models an
  H100 SXM per GPU (docs/runtime.md, "The calibrated timeline"); times are the
  stand-in's modelled times between the programs' marks, not measurements.

Each group of sizes runs in its own process pair, with its own byte scale
(GPU_AUTOPAR_STANDIN_SCALE: a group run at n/k stands for n where every
transfer is proportional to n). Fails on a wrong result, a checksum that
differs between the two programs, a stand-in violation, or a gpu-autopar loop
that did not run on all G GPUs."""
import argparse
import json
import os
import re
import subprocess
import sys

CASES = ["saxpy_oneshot", "saxpy_region", "dot_region", "jacobi_rows", "jacobi_collapse", "matmul"]


def run(cmd, env, what):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("bench/gpu: %s failed (exit %d):\n%s%s" % (what, p.returncode, p.stdout, p.stderr))
    return p.stdout


def parse_cases(stdout):
    rows = {}
    for line in stdout.splitlines():
        if line.startswith("case="):
            f = dict(kv.split("=", 1) for kv in line.split())
            rows[f["case"]] = f
    return rows


def modelled_times(log_path):
    """CASE -> (modelled seconds, bytes copied between host and GPUs), from the stand-in's `time mark=` lines."""
    marks = {}
    for line in open(log_path):
        m = re.search(r"time mark=(\S+)\.(begin|end) thread=\d+ at_us=(\S+) host_bytes=(\S+)", line)
        if m:
            marks[(m.group(1), m.group(2))] = (float(m.group(3)) * 1e-6, float(m.group(4)))
    return {c: (marks[(c, "end")][0] - marks[(c, "begin")][0], marks[(c, "end")][1] - marks[(c, "begin")][1])
            for (c, w) in marks if w == "begin" and (c, "end") in marks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["measured", "modelled"], required=True)
    ap.add_argument("--loops", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--standin", help="directory holding the stand-in's libcudart.so.13")
    ap.add_argument("--gpus", default="1,2,3,4,8")
    ap.add_argument("--available", type=int, default=0, help="GPUs on this machine (measured mode)")
    # Each group: "SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS SCALE".
    ap.add_argument("--group", action="append", required=True)
    args = ap.parse_args()

    counts = [int(g) for g in args.gpus.split(",")]
    if args.mode == "measured":
        counts = [g for g in counts if g <= args.available]
    times = {}  # (case, gpus) -> {"tool": (s, checksum), "reference": (s, checksum)}
    host_bytes = {}  # (case, gpus) -> {"tool": bytes, "reference": bytes} (modelled mode)
    for g in counts:
        for gi, group in enumerate(args.group):
            *argv, scale = group.split()
            for who, prog in (("tool", args.loops), ("reference", args.reference)):
                env = dict(os.environ)
                report = os.path.join(args.out, "report.%s.%d.%d.jsonl" % (who, g, gi))
                log = os.path.join(args.out, "standin.%s.%d.%d.log" % (who, g, gi))
                for p in (report, log):
                    if os.path.exists(p):
                        os.remove(p)
                env["GPU_AUTOPAR_DEVICES"] = "cuda"
                env["GPU_AUTOPAR_REPORT"] = report
                if args.mode == "modelled":
                    env["LD_LIBRARY_PATH"] = args.standin + ":" + env.get("LD_LIBRARY_PATH", "")
                    env["GPU_AUTOPAR_STANDIN_DEVICES"] = str(g)
                    env["GPU_AUTOPAR_STANDIN_LOG"] = log
                    env["GPU_AUTOPAR_STANDIN_SCALE"] = scale
                else:
                    env["CUDA_VISIBLE_DEVICES"] = ",".join(str(d) for d in range(g))
                out = run([prog] + argv, env, "%s on %d GPU(s), sizes %s" % (who, g, " ".join(argv)))
                rows = parse_cases(out)
                if args.mode == "modelled":
                    text = open(log).read()
                    if "violation" in text:
                        sys.exit("bench/gpu: the CUDA stand-in saw misuses (%s):\n%s" % (log, text))
                    model = modelled_times(log)
                for case, f in rows.items():
                    t = model[case][0] if args.mode == "modelled" else float(f["wall_s"])
                    times.setdefault((case, g), {})[who] = (t, float(f["checksum"]))
                    if args.mode == "modelled":
                        host_bytes.setdefault((case, g), {})[who] = model[case][1]
                if who == "tool" and os.path.exists(report):
                    for line in open(report):
                        r = json.loads(line)
                        if "loop" in r and (r["backend"] != "cuda" or len(r["devices"]) != g):
                            sys.exit("bench/gpu: %s ran on %s with %d device(s), not on the %d GPUs: %s"
                                     % (r["loop"], r["backend"], len(r["devices"]), g, r.get("fallback")))

    if args.mode == "modelled":
        print("== MODELLED, not measured: the CUDA stand-in's timeline with H100 SXM figures per GPU")
        print("   (docs/runtime.md, \"The calibrated timeline\"); no GPU ran this.")
    else:
        print("== MEASURED on this machine's GPUs (wall clock)")
    print("%-16s %4s %13s %13s %7s" % ("case", "GPUs", "gpu-autopar", "hand CUDA", "ratio"))
    bad = False
    for case in CASES:
        for g in counts:
            r = times.get((case, g))
            if not r or "tool" not in r or "reference" not in r:
                continue
            (t, ct), (h, ch) = r["tool"], r["reference"]
            print("%-16s %4d %10.3f ms %10.3f ms %6.2fx" % (case, g, t * 1e3, h * 1e3, t / h))
            if abs(ct - ch) > 1e-6 * max(1.0, abs(ch)):
                print("  %s on %d GPU(s): checksums differ: gpu-autopar %.9g, hand-written %.9g" % (case, g, ct, ch))
                bad = True
    print("ratio = gpu-autopar time / hand-written CUDA time (lower is better; 1.00x = as fast)")
    if 1 in counts and 4 in counts:
        print("scaling 1->4 GPUs (time on 1 / time on 4):")
        for case in CASES:
            a, b = times.get((case, 1)), times.get((case, 4))
            if a and b and len(a) == 2 and len(b) == 2 and b["tool"][0] > 0 and b["reference"][0] > 0:
                print("  %-16s gpu-autopar %5.2fx   hand CUDA %5.2fx" % (
                    case, a["tool"][0] / b["tool"][0], a["reference"][0] / b["reference"][0]))
    if host_bytes:
        print("bytes between host and GPUs per case (MB, scaled), gpu-autopar / hand CUDA:")
        for case in CASES:
            cells = ["%d GPU: %.1f / %.1f" % (g, host_bytes[(case, g)]["tool"] / 1e6, host_bytes[(case, g)]["reference"] / 1e6)
                     for g in counts if len(host_bytes.get((case, g), {})) == 2]
            if cells:
                print("  %-16s %s" % (case, ";  ".join(cells)))
    print("sizes (SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS, byte scale): " +
          "; ".join("%s x%s" % (" ".join(a[:-1]), a[-1]) for a in [g.split() for g in args.group]))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
