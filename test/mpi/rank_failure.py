"""Runs test/mpi/rank_failure.cpp under mpirun (docs/mpi.md, Failures): each
case must end on every rank within seconds, every rank must report the failure
(its own exception on the rank that threw, loop_error naming that rank on the
others) and then finish one more split loop in step with the others."""
import os
import re
import subprocess
import sys
import time

prog, mpirun, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", GPU_AUTOPAR_LOG="off")
for var in ("GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_DISTRIBUTE"):
    env.pop(var, None)
AFTER = "after: sum=99995000.0 z[0]=0.0 z[last]=9999.5"


def fail(msg):
    sys.stderr.write("rank-failure: " + msg + "\n")
    sys.exit(1)


def run(case, ranks, devices):
    cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,tcp", "-np", str(ranks),
           "-x", "GPU_AUTOPAR_DEVICES=" + devices, prog, case]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        fail("%s: still running after 60 s (a rank hangs): %s" % (case, " ".join(cmd)))
    took = time.time() - t0
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (case, p.returncode, p.stdout, p.stderr))
    if took > 30:
        fail("%s: took %.0f s, not seconds" % (case, took))
    lines = {}
    for line in p.stdout.splitlines():
        m = re.match(r"rank (\d+): (.*)", line)
        if m:
            lines.setdefault(int(m.group(1)), []).append(m.group(2))
    if sorted(lines) != list(range(ranks)):
        fail("%s: not every rank printed:\n%s%s" % (case, p.stdout, p.stderr))
    for r in range(ranks):
        if len(lines[r]) != 2 or lines[r][1] != AFTER:
            fail("%s: rank %d did not finish the next loop in step: %s" % (case, r, lines[r]))
    print("%s (%d ranks, %s): ended in %.1f s" % (case, ranks, devices, took))
    return [lines[r][0] for r in range(ranks)]


# The last iteration falls in the last rank's range.
got = run("throw", 3, "sim:6")
if got[2] != "own exception: boom at the last iteration":
    fail("throw: the throwing rank got %r" % got[2])
for r in (0, 1):
    if not (got[r].startswith("loop_error: gpu-autopar: rank_failure.cpp:20: the loop failed on rank 2: ")
            and "boom at the last iteration" in got[r]):
        fail("throw: rank %d got %r" % (r, got[r]))

# sim:4 over 2 ranks: rank 1 has sim2 and sim3, both fail their first chunk.
got = run("devices-gpu", 2, "sim:4,fail=2@1+3@1")
if not (got[1].startswith("loop_error: gpu-autopar: rank_failure.cpp:20: loop with fallback(gpu) cannot run")):
    fail("devices-gpu: rank 1 got %r" % got[1])
if not (got[0].startswith("loop_error: gpu-autopar: rank_failure.cpp:20: the loop failed on rank 1: ")
        and "fallback(gpu)" in got[0]):
    fail("devices-gpu: rank 0 got %r" % got[0])

got = run("devices-auto", 2, "sim:4,fail=2@1+3@1")
for r in (0, 1):
    if got[r] != "completed: sum=99995000.0 y[last]=9999.5":
        fail("devices-auto: rank %d got %r" % (r, got[r]))
# Halo rows cross between the ranks of a data region; the last rank's body
# throws in the third sweep. Nothing is left waiting for a halo.
got = run("region-throw", 3, "sim:3")
if got[2] != "own exception: boom in sweep 2":
    fail("region-throw: the throwing rank got %r" % got[2])
for r in (0, 1):
    if not (got[r].startswith("loop_error: gpu-autopar: rank_failure.cpp:53: the loop failed on rank 2: ")
            and "boom in sweep 2" in got[r]):
        fail("region-throw: rank %d got %r" % (r, got[r]))
print("OK")
