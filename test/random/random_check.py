"""Randomized differential test of kernel-mode loops (docs/testing.md).

For each seed: loopgen.py writes a program of legal annotated loops; the tool
rewrites it; the rewritten program and the unmodified (serial) program are
built; the rewritten one runs under several device settings drawn from the
seed (sim:1..5, uneven speeds, small memories, injected failures and
out-of-memory) and its output must equal the serial output byte for byte.
The output holds a hash of every array after every loop and every reduction
result, so the first differing line names the loop that went wrong.

Loops the tool rejects are dropped from the program (and counted); loops it
warns on are still compared. On a difference the seed, the device setting and
a reproducer (the failing loop alone, or the whole program when the loop
alone passes) are printed, and the exit status is 1.

With --data-env --nvcc --standin the seeds' programs are also built once with
nvcc and run on the CUDA stand-in (data_env_standin.py).

Seeds: --seed/--count, or GPU_AUTOPAR_RANDOM_SEED and GPU_AUTOPAR_RANDOM_COUNT
(the environment wins, so ctest runs longer without editing anything);
GPU_AUTOPAR_RANDOM_SETTINGS overrides the number of device settings per seed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lit"))
import loopgen  # noqa: E402
import data_env_standin  # noqa: E402  (--data-env on the CUDA stand-in)


def device_settings(seed, count):
    """Device settings for one seed: 1-5 simulated devices, uneven speeds,
    now and then a small memory, a failing chunk or an out-of-memory chunk."""
    r = random.Random(seed * 7919 + 17)
    out = []
    for _ in range(count):
        n = r.randint(1, 5)
        s = "sim:%d" % n
        if r.random() < 0.7:
            s += ",speed=" + ":".join(str(r.randint(1, 3)) for _ in range(n))
        if r.random() < 0.15:
            s += ",mem=%dKiB" % r.choice([4, 16, 64, 256])
        if r.random() < 0.3:
            s += ",fail=" + "+".join("%d@%d" % (r.randrange(n), r.randint(1, 12)) for _ in range(r.randint(1, 2)))
        if r.random() < 0.3:
            s += ",oom=" + "+".join("%d@%d" % (r.randrange(n), r.randint(1, 12)) for _ in range(r.randint(1, 2)))
        out.append(s)
    return out


class Failure(Exception):
    pass


def run(cmd, env=None, check=True, timeout=300):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise Failure("%s failed (exit %d)\n%s%s" % (" ".join(cmd), p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    return p


class Checker:
    def __init__(self, a):
        self.a = a
        self.lock = threading.Lock()
        self.stats = {"seeds": 0, "loops": 0, "compared": 0, "runs": 0, "rejected": 0, "warned": 0, "bounded": 0,
                      "modes": {}, "shapes": {}}
        self.rejections = []  # (seed, loop, shape, message)
        self.failures = []
        self.cuda_seeds = {}  # seed -> (generator, kept loops, serial output): for the stand-in (--nvcc)

    def rewrite(self, gen, work, only):
        """Writes the program without the loops the tool rejects; returns
        (source, rewritten, kept loops, rejected {loop: message}, warned {loop: message}, report)."""
        src, par = os.path.join(work, "prog.cpp"), os.path.join(work, "prog.par.cpp")
        report = os.path.join(work, "tool-report.json")
        rejected, warned = {}, {}
        keep = set(only)
        for _ in range(len(only) + 1):
            text, lines = gen.program(keep)
            with open(src, "w") as f:
                f.write(text)
            p = run([self.a.tool, src, "-o", par, "--report=" + report, "--", "-std=c++17"], check=False)
            by_loop = {}
            for m in re.finditer(r"^[^\n:]*prog\.cpp:(\d+):\d+: (error|warning): ([^\n]*)", p.stderr, re.M):
                line, kind, msg = int(m.group(1)), m.group(2), m.group(3)
                owner = max((k for k, l in lines.items() if l <= line), default=None, key=lambda k: lines[k])
                if owner is None:
                    raise Failure("the generated program does not compile (line %d): %s\n%s" % (line, msg, p.stderr))
                by_loop.setdefault((owner, kind), msg)
            if p.returncode == 0:
                for (k, kind), msg in by_loop.items():
                    if kind == "warning":
                        warned[k] = msg
                return src, par, keep, rejected, warned, report
            errs = {k: msg for (k, kind), msg in by_loop.items() if kind == "error"}
            if p.returncode != 1 or not errs:
                raise Failure("gpu-autopar failed (exit %d)\n%s" % (p.returncode, p.stderr[-3000:]))
            rejected.update(errs)
            keep -= set(errs)
        raise Failure("gpu-autopar keeps rejecting loops")

    def build(self, src, par, work):
        cxx = [self.a.cxx, "-std=c++17", "-O1", "-w"]
        jobs = [cxx + ["-I" + self.a.include, par, self.a.runtime, "-pthread", "-o", os.path.join(work, "par")],
                cxx + ["-Wno-unknown-pragmas", src, "-o", os.path.join(work, "serial")]]
        procs = [subprocess.Popen(j, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for j in jobs]
        for j, p in zip(jobs, procs):
            out, err = p.communicate()
            if p.returncode != 0:
                raise Failure("%s failed\n%s%s" % (" ".join(j), out, err[-5000:]))
        return os.path.join(work, "par"), os.path.join(work, "serial")

    def run_par(self, par, dev, work):
        report = os.path.join(work, "runtime-report.jsonl")
        if os.path.exists(report):
            os.remove(report)
        env = dict(os.environ, GPU_AUTOPAR_DEVICES=dev, GPU_AUTOPAR_REPORT=report, GPU_AUTOPAR_LOG="off",
                   GPU_AUTOPAR_PROGRESS="off", GPU_AUTOPAR_THREADS="2")
        p = run([par], env=env, check=False)
        if p.returncode != 0:
            return "exit %d\n%s" % (p.returncode, p.stderr[-2000:]), None
        lines = open(report).read().splitlines() if os.path.exists(report) else []
        for line in lines:
            rep = json.loads(line)
            if "region" in rep:  # a data region's line: bytes, no iterations
                continue
            total = sum(d["iterations"] for d in rep["devices"])
            if total != rep["iterations"]:
                return p.stdout, "%s: device iterations add up to %d, not %d" % (rep["loop"], total, rep["iterations"])
            # Generated subscripts never leave their dimensions: a bounds
            # check that fails is a wrong condition, not a fallback.
            if "may leave its dimensions" in rep.get("serial_reason", ""):
                return p.stdout, "%s: %s" % (rep["loop"], rep["serial_reason"])
        return p.stdout, None

    def check_seed(self, seed):
        work = os.path.join(self.a.out, "seed-%d" % seed)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        gen = loopgen.Generator(seed, self.a.data_env)
        src, par_src, kept, rejected, warned, tool_report = self.rewrite(gen, work, {l.index for l in gen.loops})
        modes = {}
        bounded = 0
        _, lines = gen.program(kept)
        for entry in json.load(open(tool_report)).get("loops", []):
            modes[entry.get("mode", "?")] = modes.get(entry.get("mode", "?"), 0) + 1
            bounded += 1 if entry.get("bounds_checks") else 0
            # The program's own functions a body calls run on a GPU
            # (GPU_AUTOPAR_HD): calling them must not take the loop off it.
            line = entry.get("location", {}).get("line")
            owner = next((k for k, l in lines.items() if l == line), None)
            if owner is not None and gen.loops[owner].calls and entry.get("mode") != "kernel":
                raise Failure("loop %d calls the program's functions and is %s, not kernel: %s" % (
                    owner, entry.get("mode"), json.dumps(entry.get("reasons"))))
        par, serial = self.build(src, par_src, work)
        expected = run([serial]).stdout
        settings = device_settings(seed, self.a.settings)
        failed = False
        for dev in settings:
            got, why = self.run_par(par, dev, work)
            if got != expected or why:
                self.report_failure(gen, seed, dev, expected, got, why, work, kept)
                failed = True
                break
        with self.lock:
            if not failed:
                self.cuda_seeds[seed] = (gen, kept, expected)
            st = self.stats
            st["seeds"] += 1
            st["loops"] += len(gen.loops)
            st["compared"] += len(kept)
            st["runs"] += len(settings)
            st["rejected"] += len(rejected)
            st["warned"] += len(warned)
            st["bounded"] += bounded
            for m, n in modes.items():
                st["modes"][m] = st["modes"].get(m, 0) + n
            for l in gen.loops:
                if l.index in kept:
                    st["shapes"][l.shape] = st["shapes"].get(l.shape, 0) + 1
            for k, msg in rejected.items():
                self.rejections.append((seed, k, gen.loops[k].shape, "rejected: " + msg))
            for k, msg in warned.items():
                self.rejections.append((seed, k, gen.loops[k].shape, "warned: " + msg))
        if not self.a.keep and not any(f[0] == seed for f in self.failures):
            shutil.rmtree(work, ignore_errors=True)

    def report_failure(self, gen, seed, dev, expected, got, why, work, kept):
        exp_lines, got_lines = expected.splitlines(), got.splitlines()
        first = next((n for n in range(max(len(exp_lines), len(got_lines)))
                      if n >= len(exp_lines) or n >= len(got_lines) or exp_lines[n] != got_lines[n]), None)
        loop = None
        if first is not None and first < len(exp_lines):
            m = re.match(r"L(-?\d+) ", exp_lines[first])
            loop = int(m.group(1)) if m else None
        detail = why or ("first difference at output line %d:\n  serial:   %s\n  parallel: %s" % (
            first + 1, exp_lines[first] if first < len(exp_lines) else "<end>",
            got_lines[first] if first < len(got_lines) else "<end>"))
        repro = self.reproduce(gen, seed, dev, loop, kept)
        msg = ("random: FAIL seed %d, GPU_AUTOPAR_DEVICES=%s, loop %s (%s)\n  %s\n  reproducer: %s\n" % (
            seed, dev, loop, gen.loops[loop].shape if loop is not None and loop >= 0 else "-", detail, repro))
        with self.lock:
            self.failures.append((seed, msg))
        sys.stderr.write(msg)

    def reproduce(self, gen, seed, dev, loop, kept):
        """A small program that still fails under `dev`: the failing loop
        alone if that fails, else the loops up to it with every loop removed
        whose removal keeps the failure (the fault counters of fail=/oom= count
        chunks over all loops, so earlier loops can matter). Returns its path
        and a script that rebuilds and reruns it."""
        dest = os.path.join(self.a.out, "failures", "seed-%d" % seed)
        work = dest + "-try"

        def fails(only):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            try:
                src, par_src, got_kept, _, _, _ = self.rewrite(gen, work, only)
                par, serial = self.build(src, par_src, work)
                got, why = self.run_par(par, dev, work)
                return (got != run([serial]).stdout or why is not None), got_kept
            except Failure:
                return False, only

        best = None
        if loop is not None and loop >= 0:
            ok, got_kept = fails({loop})
            if ok:
                best = got_kept
            else:
                best = {k for k in kept if k <= loop}
                for k in sorted(best - {loop}):
                    ok, got_kept = fails(best - {k})
                    if ok:
                        best = got_kept
        if best is None or not fails(best)[0]:
            best = set(kept)
            fails(best)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(work, dest)
        script = os.path.join(dest, "rerun.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n# seed %d, loops %s\nset -e\ncd \"$(dirname \"$0\")\"\n"
                    "%s prog.cpp -o prog.par.cpp -- -std=c++17\n"
                    "%s -std=c++17 -O1 -I%s prog.par.cpp %s -pthread -o par\n"
                    "%s -std=c++17 -O1 -Wno-unknown-pragmas prog.cpp -o serial\n"
                    "./serial > serial.out\nGPU_AUTOPAR_DEVICES='%s' ./par > par.out\n"
                    "diff serial.out par.out\n" % (
                        seed, ",".join(map(str, sorted(best))), self.a.tool, self.a.cxx, self.a.include,
                        self.a.runtime, self.a.cxx, dev))
        os.chmod(script, 0o755)
        return "%s (loops %s; rerun: sh %s)" % (os.path.join(dest, "prog.cpp"), ",".join(map(str, sorted(best))),
                                                script)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--settings", type=int, default=4, help="device settings per seed")
    ap.add_argument("--jobs", type=int, default=1, help="seeds checked at once (each builds with 2 processes)")
    ap.add_argument("--keep", action="store_true", help="keep every seed's files")
    ap.add_argument("--data-env", action="store_true",
                    help="main calls the loops inside data regions and enter/exit data (loopgen.DataEnvironment)")
    ap.add_argument("--nvcc", default="", help="with --data-env: build the seeds' programs with nvcc too, as one "
                    "unit, and run them on the CUDA stand-in (data_env_standin.py)")
    ap.add_argument("--standin", default="", help="directory of the CUDA stand-in's libcudart.so.13")
    a = ap.parse_args()
    a.seed = int(os.environ.get("GPU_AUTOPAR_RANDOM_SEED", a.seed))
    a.count = int(os.environ.get("GPU_AUTOPAR_RANDOM_COUNT", a.count))
    a.settings = int(os.environ.get("GPU_AUTOPAR_RANDOM_SETTINGS", a.settings))
    for name in ("tool", "cxx", "include", "runtime", "out", "nvcc", "standin"):
        if os.path.exists(getattr(a, name)):
            setattr(a, name, os.path.abspath(getattr(a, name)))
    os.makedirs(a.out, exist_ok=True)
    checker = Checker(a)
    seeds = range(a.seed, a.seed + a.count)
    errors = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for seed, fut in [(s, pool.submit(checker.check_seed, s)) for s in seeds]:
            try:
                fut.result()
            except Failure as e:
                errors.append("random: ERROR seed %d: %s" % (seed, e))
                sys.stderr.write(errors[-1] + "\n")
    cuda_summary = None
    if a.data_env and a.nvcc and a.standin and checker.cuda_seeds:
        try:
            cuda_summary, cuda_failures = data_env_standin.check(
                a, {s: v for s, v in checker.cuda_seeds.items()}, os.path.join(a.out, "standin"))
        except data_env_standin.Failure as e:
            cuda_failures = ["random: ERROR on the CUDA stand-in: %s\n" % e]
        for msg in cuda_failures:
            sys.stderr.write(msg)
            checker.failures.append((None, msg))
    st = checker.stats
    print("random: seeds %d..%d: %d loops generated, %d compared under %d device runs; %d rejected, %d warned; "
          "%d with bounds checks" % (a.seed, a.seed + a.count - 1, st["loops"], st["compared"], st["runs"],
                                     st["rejected"], st["warned"], st["bounded"]))
    print("random: modes %s; shapes %s" % (json.dumps(st["modes"], sort_keys=True),
                                            json.dumps(st["shapes"], sort_keys=True)))
    for seed, k, shape, msg in sorted(checker.rejections):
        print("random: seed %d loop %d (%s) %s" % (seed, k, shape, msg))
    if cuda_summary:
        print(cuda_summary)
    print("random: %d failing seeds, %d errors" % (len(checker.failures), len(errors)))
    return 1 if checker.failures or errors else 0


if __name__ == "__main__":
    sys.exit(main())
