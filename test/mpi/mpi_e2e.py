"""End-to-end check of one annotated program split across the ranks of an
Open MPI job (docs/mpi.md).

Rewrites SOURCE with gpu-autopar, builds it against the runtime and the MPI
runtime library, builds the unmodified file as the serial reference, and runs
the rewritten program under mpirun on loopback in several layouts. Every rank's
standard output must equal the serial program's byte for byte. The report
(GPU_AUTOPAR_REPORT, one file for all ranks) must give every line a rank, and
the loops must have been split across the ranks (--expect split) or run in full
on every rank with a reason (--expect full). The same binary run without mpirun
must behave as a program linked without the MPI library: same output, report
lines without a rank.
"""
import argparse
import json
import os
import subprocess
import sys
import time

# Layouts: (name, btl, [(ranks, GPU_AUTOPAR_DEVICES), ...]). Ranks of one
# node given the same device setting divide its devices (sim:4 over 2 ranks:
# sim:2 each); ranks given settings of their own keep them.
LAYOUTS = [
    ("np2 sim:4 (2 each) tcp", "self,tcp", [(2, "sim:4")]),
    ("np3 sim:6 (2 each) shared memory", "self,vader", [(3, "sim:6")]),
    ("np3 sim:2 | sim:1,speed=2 | cpu", "self,tcp", [(1, "sim:2"), (1, "sim:1,speed=2"), (1, "cpu")]),
]
# More layouts for programs with data regions (--region-layouts, issue 25):
# one device per rank (rank 1's is sim1 of the node, at index 0 of its pool),
# a device on rank 0 and CPU threads on rank 1, three ranks of one device.
REGION_LAYOUTS = [
    ("np2 sim:2 (1 each) tcp", "self,tcp", [(2, "sim:2")]),
    ("np2 sim:1 (sim0 | cpu) tcp", "self,tcp", [(2, "sim:1")]),
    ("np3 sim:3 (1 each) shared memory", "self,vader", [(3, "sim:3")]),
]


def fail(msg):
    sys.stderr.write("mpi-e2e: " + msg + "\n")
    sys.exit(1)


def run(cmd, env=None, what="", timeout=120):
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail("%s timed out after %d s: %s" % (what, timeout, " ".join(cmd)))
    if p.returncode != 0:
        fail("%s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def mpirun_base(a, btl):
    return [a.mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", btl]


def per_rank_output(prog, prefix):
    # Each rank writes its own files, named by its rank.
    return ["sh", "-c", 'exec "$0" > "%s.out.$OMPI_COMM_WORLD_RANK" 2> "%s.err.$OMPI_COMM_WORLD_RANK"' % (prefix, prefix),
            prog]


def check_report(path, ranks, expect, layout):
    lines = [json.loads(l) for l in open(path).read().splitlines()] if os.path.exists(path) else []
    if not lines:
        fail("%s: the report is empty" % layout)
    splits = full = 0
    for r in lines:
        if "rank" not in r or not 0 <= r["rank"] < ranks:
            fail("%s: report line without a valid rank: %s" % (layout, r))
        if isinstance(r.get("ranks"), list):  # rank 0's line of a split loop
            splits += 1
            if len(r["ranks"]) != ranks or sum(x["iterations"] for x in r["ranks"]) != r["iterations"]:
                fail("%s: the ranks' iterations do not add up: %s" % (layout, r))
            print("%s: %s split %s exchange=%s" % (layout, r["loop"], [x["iterations"] for x in r["ranks"]],
                                                    "slabs" if r["exchange"]["slabs"] else
                                                    "changes" if r["exchange"]["by_changes"] else "none"))
            continue
        if "region" in r:  # a data region's line: each rank's own copies
            continue
        if sum(d["iterations"] for d in r["devices"]) != r["iterations"]:
            fail("%s: device iterations do not add up: %s" % (layout, r))
        dist = r.get("distributed")
        if dist is not None and dist.get("full"):
            full += 1
            if not dist.get("reason"):
                fail("%s: a loop ran in full on every rank without a reason: %s" % (layout, r))
    if expect == "full" and full == 0:
        fail("%s: no loop says it ran in full on every rank" % layout)
    if expect == "split" and splits == 0:
        fail("%s: no loop was split across the ranks" % layout)
    if expect == "full" and splits:
        fail("%s: a loop was split, expected every loop in full on every rank" % layout)


def run_two_ranks(a, par, env, prefix, extra):
    cmd = mpirun_base(a, "self,tcp") + ["-np", "2", "-x", "GPU_AUTOPAR_DEVICES=sim:4"]
    for e in extra:
        cmd += ["-x", e]
    run(cmd + per_rank_output(par, prefix), env=env, what="mpirun (%s)" % " ".join(extra))
    return [(open("%s.out.%d" % (prefix, r)).read(), open("%s.err.%d" % (prefix, r)).read()) for r in range(2)]


def check_switches(a, par, expected, env):
    # GPU_AUTOPAR_DISTRIBUTE=off: each rank runs every loop alone, as a program
    # linked without the library: no rank, no split, and each rank keeps all
    # four simulated devices (the division belongs to the job the library joins).
    report = os.path.join(a.out, "off.jsonl")
    if os.path.exists(report):
        os.remove(report)
    for r, (out, err) in enumerate(run_two_ranks(a, par, env, os.path.join(a.out, "off"),
                                                 ["GPU_AUTOPAR_DISTRIBUTE=off", "GPU_AUTOPAR_REPORT=" + report])):
        if out != expected:
            fail("GPU_AUTOPAR_DISTRIBUTE=off: rank %d's output differs\n%s" % (r, out))
    for line in open(report).read().splitlines():
        rec = json.loads(line)
        if "rank" in rec or "distributed" in rec or "ranks" in rec:
            fail("GPU_AUTOPAR_DISTRIBUTE=off: a report line speaks of ranks: %s" % line)
        if not rec.get("serial") and sum(1 for d in rec["devices"] if d["kind"] == "sim") != 4:
            fail("GPU_AUTOPAR_DISTRIBUTE=off: a rank did not keep the four devices: %s" % line)
    print("GPU_AUTOPAR_DISTRIBUTE=off: 2 ranks each alone, output matches, no rank in the report")

    # GPU_AUTOPAR_LOG=info: info lines on rank 0 only, prefixed with the rank,
    # with the split line; GPU_AUTOPAR_LOG_RANKS=all brings rank 1's too.
    (out0, err0), (out1, err1) = run_two_ranks(a, par, env, os.path.join(a.out, "info"), ["GPU_AUTOPAR_LOG=info"])
    if "gpu-autopar: [rank 0] " not in err0 or " iterations over 2 ranks: rank0 " not in err0:
        fail("GPU_AUTOPAR_LOG=info: rank 0 logged no split line:\n" + err0)
    if "gpu-autopar" in err1:
        fail("GPU_AUTOPAR_LOG=info: rank 1 logged although only rank 0 should:\n" + err1)
    (out0, err0), (out1, err1) = run_two_ranks(a, par, env, os.path.join(a.out, "info-all"),
                                               ["GPU_AUTOPAR_LOG=info", "GPU_AUTOPAR_LOG_RANKS=all"])
    if "gpu-autopar: [rank 1] " not in err1 or "part [" not in err1:
        fail("GPU_AUTOPAR_LOG_RANKS=all: rank 1 logged no info line of its part:\n" + err1)
    print("GPU_AUTOPAR_LOG=info: rank 0 only, [rank N] prefixes; GPU_AUTOPAR_LOG_RANKS=all: every rank")

    # The two ranks share the node's cores: each rank's CPU pool takes half
    # of them (at least one), unless GPU_AUTOPAR_THREADS says otherwise.
    hw = os.cpu_count() or 1
    for extra, want in (([], max(1, hw // 2)), (["GPU_AUTOPAR_THREADS=3"], 3)):
        report = os.path.join(a.out, "threads.jsonl")
        if os.path.exists(report):
            os.remove(report)
        cmd = mpirun_base(a, "self,vader") + ["-np", "2", "-x", "GPU_AUTOPAR_DEVICES=cpu", "-x",
                                               "GPU_AUTOPAR_REPORT=" + report]
        for e in extra:
            cmd += ["-x", e]
        run(cmd + per_rank_output(par, os.path.join(a.out, "threads")), env=env, what="mpirun (cpu threads)")
        pools = {(json.loads(l)["rank"], d["threads"]) for l in open(report).read().splitlines()
                 for d in json.loads(l).get("devices", []) if d.get("threads")}
        if not pools or any(t != want for _, t in pools) or {r for r, _ in pools} != {0, 1}:
            fail("%s: CPU pools of the two ranks (rank, threads) %s, expected %d threads each on a node of %d"
                 % (" ".join(extra) or "default", sorted(pools), want, hw))
    print("CPU threads: each of 2 ranks on %d hardware threads gets %d; GPU_AUTOPAR_THREADS=3 gets 3"
          % (hw, max(1, hw // 2)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--runtime-mpi", required=True)
    ap.add_argument("--mpi-flags", default="", help="';'-separated compile and link flags for MPI")
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--expect", choices=["split", "full"], required=True)
    ap.add_argument("--check-switches", action="store_true",
                    help="also check GPU_AUTOPAR_DISTRIBUTE=off and GPU_AUTOPAR_LOG=info on rank 0 only")
    ap.add_argument("--region-layouts", action="store_true",
                    help="also run the layouts that data regions across ranks broke (issue 25)")
    ap.add_argument("source")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    base = os.path.splitext(os.path.basename(a.source))[0]
    par_src = os.path.join(a.out, base + ".par.cpp")
    run([a.tool, a.source, "-o", par_src, "--", "-std=c++17"], what="gpu-autopar")
    par, ser = os.path.join(a.out, "par"), os.path.join(a.out, "serial")
    mpi_flags = [f for f in a.mpi_flags.split(";") if f]
    run([a.cxx, "-std=c++17", "-O0", "-I" + a.include, par_src, "-Wl,--undefined=gpu_autopar_mpi_link",
         a.runtime_mpi, a.runtime] + mpi_flags + ["-pthread", "-o", par], what="build rewritten")
    run([a.cxx, "-std=c++17", "-O0", "-Wno-unknown-pragmas", a.source, "-o", ser], what="build serial")
    expected = run([ser], what="serial run").stdout

    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", GPU_AUTOPAR_LOG="warn")
    for var in ("GPU_AUTOPAR_DEVICES", "GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_DISTRIBUTE"):
        env.pop(var, None)

    for name, btl, contexts in LAYOUTS + (REGION_LAYOUTS if a.region_layouts else []):
        tag = "".join(c if c.isalnum() else "_" for c in name)
        prefix = os.path.join(a.out, tag)
        report = prefix + ".jsonl"
        if os.path.exists(report):
            os.remove(report)
        cmd = mpirun_base(a, btl)
        for i, (n, devices) in enumerate(contexts):
            if i:
                cmd.append(":")
            cmd += ["-np", str(n), "-x", "GPU_AUTOPAR_DEVICES=" + devices, "-x", "GPU_AUTOPAR_REPORT=" + report]
            cmd += per_rank_output(par, prefix)
        t0 = time.time()
        run(cmd, env=env, what="mpirun (%s)" % name)
        ranks = sum(n for n, _ in contexts)
        for r in range(ranks):
            got = open("%s.out.%d" % (prefix, r)).read()
            if got != expected:
                fail("%s: rank %d's output differs from the serial program\n--- serial\n%s--- rank %d\n%s--- its stderr\n%s"
                     % (name, r, expected, r, got, open("%s.err.%d" % (prefix, r)).read()))
        check_report(report, ranks, a.expect, name)
        print("%s: %d ranks match the serial output (%.1f s)" % (name, ranks, time.time() - t0))

    if a.check_switches:
        check_switches(a, par, expected, env)

    # Linked with the MPI library, started without mpirun: one process as before.
    report = os.path.join(a.out, "alone.jsonl")
    if os.path.exists(report):
        os.remove(report)
    got = run([par], env=dict(env, GPU_AUTOPAR_DEVICES="sim:2", GPU_AUTOPAR_REPORT=report), what="run without mpirun").stdout
    if got != expected:
        fail("without mpirun: output differs from the serial program\n--- serial\n%s--- got\n%s" % (expected, got))
    for line in open(report).read().splitlines():
        r = json.loads(line)
        if "rank" in r or "distributed" in r:
            fail("without mpirun: a report line speaks of ranks: %s" % line)
    print("without mpirun: one process, output matches, no rank in the report")


if __name__ == "__main__":
    main()
