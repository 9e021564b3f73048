"""Randomized differential test of features together (issue 25): data regions
(a `data` block, or `enter data` ... `exit data`) x MPI ranks (1-4) x device
settings per rank (CPU threads, simulated devices, a node's devices shared by
its ranks, uneven speeds, injected failures) x loop shapes, against the serial
program.

For each seed, test/random/loopgen.py writes a program of legal kernel-mode
loops; main runs them inside a data region (the form drawn from the seed),
updating the host and printing a hash of every array after some of them, and
once more after the region. The rewritten program, built against the MPI
runtime, runs under mpirun in several layouts drawn from the seed; every
rank's output must equal the serial program's byte for byte.

Seeds: --seed/--count, or GPU_AUTOPAR_RANDOM_SEED / GPU_AUTOPAR_RANDOM_COUNT
(the environment wins); GPU_AUTOPAR_RANDOM_SETTINGS: layouts per seed.
On a difference the seed, the layout and the files to rerun it are printed,
and the exit status is 1.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "random"))
import loopgen  # noqa: E402
import random_check  # noqa: E402

# Settings a rank may get on its own (mpirun -x per context).
OWN_SETTINGS = ["cpu", "sim:1", "sim:2", "sim:1,speed=3", "sim:2,speed=1:3", "sim:2,fail=0@2", "sim:1,fail=0@3",
                "sim:2,oom=1@2"]


def layouts(seed, count):
    """(ranks, [(ranks of a context, GPU_AUTOPAR_DEVICES), ...]) per layout: a
    node's devices shared by all ranks (sim:K divided among them), or a
    setting of its own for each rank."""
    r = random.Random(seed * 104729 + 5)
    out = []
    for k in range(count):
        ranks = 1 + (k + r.randrange(4)) % 4 if k else r.randint(2, 4)
        if r.random() < 0.35:
            out.append((ranks, [(ranks, "sim:%d" % r.randint(1, 2 * ranks))]))
        else:
            out.append((ranks, [(1, r.choice(OWN_SETTINGS)) for _ in range(ranks)]))
    return out


class RegionProgram:
    """loopgen's program with the calls in a data region (what Checker.rewrite needs)."""

    def __init__(self, gen, region, synced):
        self.gen, self.region, self.synced = gen, region, synced
        self.loops = gen.loops

    def program(self, only=None):
        return self.gen.program(only, self.region, self.synced)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--runtime-mpi", required=True)
    ap.add_argument("--mpi-flags", default="", help="';'-separated compile and link flags for MPI")
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2)
    ap.add_argument("--settings", type=int, default=3, help="layouts per seed")
    ap.add_argument("--loops", type=int, default=6, help="loops per program (the first ones loopgen makes)")
    a = ap.parse_args()
    a.seed = int(os.environ.get("GPU_AUTOPAR_RANDOM_SEED", a.seed))
    a.count = int(os.environ.get("GPU_AUTOPAR_RANDOM_COUNT", a.count))
    a.settings = int(os.environ.get("GPU_AUTOPAR_RANDOM_SETTINGS", a.settings))
    os.makedirs(a.out, exist_ok=True)
    checker = random_check.Checker(a)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for var in ("GPU_AUTOPAR_DEVICES", "GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_DISTRIBUTE", "GPU_AUTOPAR_LOG"):
        env.pop(var, None)
    failures = runs = compared = split_loops = kept_loops = 0
    for seed in range(a.seed, a.seed + a.count):
        work = os.path.join(a.out, "seed-%d" % seed)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        gen = loopgen.Generator(seed)
        r = random.Random(seed * 31 + 7)
        region = r.choice(["data", "enter"])
        first = [l.index for l in gen.loops[:a.loops]]
        synced = {k for k in first if r.random() < 0.2}
        prog = RegionProgram(gen, region, synced)
        try:
            src, par_src, kept, rejected, _, _ = checker.rewrite(prog, work, set(first))
            par, serial = os.path.join(work, "par"), os.path.join(work, "serial")
            flags = [f for f in a.mpi_flags.split(";") if f]
            cxx = [a.cxx, "-std=c++17", "-O1", "-w"]
            random_check.run(cxx + ["-I" + a.include, par_src, "-Wl,--undefined=gpu_autopar_mpi_link", a.runtime_mpi,
                                    a.runtime] + flags + ["-pthread", "-o", par])
            random_check.run(cxx + ["-Wno-unknown-pragmas", src, "-o", serial])
            expected = random_check.run([serial]).stdout
        except random_check.Failure as e:
            print("region-random: ERROR seed %d: %s" % (seed, e))
            failures += 1
            continue
        compared += len(kept)
        shapes = ",".join(gen.loops[k].shape for k in sorted(kept))
        for ranks, contexts in layouts(seed, a.settings):
            runs += 1
            report = os.path.join(work, "report.jsonl")
            if os.path.exists(report):
                os.remove(report)
            cmd = [a.mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader"]
            for i, (n, devices) in enumerate(contexts):
                if i:
                    cmd.append(":")
                cmd += ["-np", str(n), "-x", "GPU_AUTOPAR_DEVICES=" + devices, "-x", "GPU_AUTOPAR_LOG=off",
                        "-x", "GPU_AUTOPAR_REPORT=" + report,
                        "-x", "GPU_AUTOPAR_THREADS=2", "sh", "-c",
                        'exec "$0" > "%s/out.$OMPI_COMM_WORLD_RANK"' % work, par]
            layout = " : ".join("-np %d %s" % c for c in contexts)
            what = "seed %d, %s region, loops %s (%s), mpirun %s" % (seed, region, sorted(kept), shapes, layout)
            try:
                p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   timeout=120)
                bad = None if p.returncode == 0 else "exit %d\n%s" % (p.returncode, p.stderr[-2000:])
            except subprocess.TimeoutExpired:
                bad = "timed out after 120 s (a rank waits for ever?)"
            for rank in range(ranks):
                if bad:
                    break
                got = open(os.path.join(work, "out.%d" % rank)).read()
                if got != expected:
                    exp_l, got_l = expected.splitlines(), got.splitlines()
                    n = next((i for i in range(max(len(exp_l), len(got_l)))
                              if i >= len(exp_l) or i >= len(got_l) or exp_l[i] != got_l[i]), 0)
                    bad = "rank %d differs at output line %d:\n  serial:   %s\n  parallel: %s" % (
                        rank, n + 1, exp_l[n] if n < len(exp_l) else "<end>", got_l[n] if n < len(got_l) else "<end>")
            if bad:
                failures += 1
                print("region-random: FAIL %s\n  %s\n  files: %s (prog.cpp, prog.par.cpp, par, serial)" % (
                    what, bad, work))
            else:
                lines = open(report).read().splitlines() if os.path.exists(report) else []
                splits = [json.loads(l) for l in lines if l.startswith('{"loop"') and '"ranks":[' in l]
                keeping = sum(1 for l in splits if l["exchange"].get("kept"))
                fetched = sum(l["exchange"].get("fetched_bytes", 0) for l in splits)
                split_loops += len(splits)
                kept_loops += keeping
                print("region-random: ok %s: %d loops split across ranks, %d left their writes with the writers, "
                      "%d bytes fetched point to point" % (what, len(splits), keeping, fetched))
        if rejected:
            print("region-random: seed %d: %d loops rejected by the tool" % (seed, len(rejected)))
    print("region-random: seeds %d..%d: %d loops compared under %d mpirun layouts (%d runs of a loop split "
          "across ranks, %d of them keeping their writes with the writers), %d failures" % (
              a.seed, a.seed + a.count - 1, compared, runs, split_loops, kept_loops, failures))
    if not failures and split_loops == 0:
        print("region-random: FAIL no loop was split across ranks: the test did not test what it is for")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
