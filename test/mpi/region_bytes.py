"""Data regions across MPI ranks move halos, not whole arrays (issue 25).

Rewrites region_jacobi.cpp (a Jacobi-2d in a data region), builds it against
the MPI runtime and the unmodified file as the serial reference, and runs it
under mpirun with each rank on one simulated device of the node (sim:R shared
by R ranks). Every rank must print the serial output, and the bytes that
crossed between ranks over the whole run (the report: rank 0's line of each
split loop, `exchange.bytes`, and its region line, `bytes_from_ranks`) must be
within [0.8, 1.1] x the model of docs/mpi.md:

    halos:  sweeps x 2 x (R - 1) x (cols - 2) x element   (two halo rows per neighbour pair per sweep)
    end:    (R - 1) x 2 x rows x cols x element            (every rank gets the parts of both grids it lacks)

--bench also prints, per layout, the bytes the busiest rank received per sweep
(bench/README.md's weak and strong scaling figures).
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_e2e import run  # noqa: E402


def fail(msg):
    sys.stderr.write("region-bytes: " + msg + "\n")
    sys.exit(1)


def measure(a, par, ranks, rows, cols, sweeps, env):
    prefix = os.path.join(a.out, "np%d-%dx%dx%d" % (ranks, rows, cols, sweeps))
    report = prefix + ".jsonl"
    if os.path.exists(report):
        os.remove(report)
    cmd = [a.mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "-np", str(ranks),
           "-x", "GPU_AUTOPAR_DEVICES=sim:%d" % ranks, "-x", "GPU_AUTOPAR_REPORT=" + report,
           "sh", "-c", 'exec "$0" "$@" > "%s.out.$OMPI_COMM_WORLD_RANK"' % prefix, par,
           str(rows), str(cols), str(sweeps)]
    t0 = time.time()
    run(cmd, env=env, what="mpirun -np %d" % ranks)
    seconds = time.time() - t0
    outs = [open("%s.out.%d" % (prefix, r)).read() for r in range(ranks)]
    lines = [json.loads(l) for l in open(report).read().splitlines()]
    loops = sum(l["exchange"]["bytes"] for l in lines if isinstance(l.get("ranks"), list))
    regions = [l for l in lines if "region" in l and l.get("rank") == 0]
    if len(regions) != 1 or "bytes_from_ranks" not in regions[0]:
        fail("np %d: rank 0 wrote no region line with bytes_from_ranks: %s" % (ranks, regions))
    end = regions[0]["bytes_from_ranks"]
    # Each rank's own line of a split loop says what it received before it ran.
    per_rank = [0] * ranks
    for l in lines:
        d = l.get("distributed")
        if d and "bytes_received" in d:
            per_rank[l["rank"]] += d["bytes_received"]
    return outs, loops, end, max(per_rank) / float(sweeps), seconds


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--tool", "--cxx", "--include", "--runtime", "--runtime-mpi", "--mpirun", "--out", "--source"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--mpi-flags", default="", help="';'-separated compile and link flags for MPI")
    ap.add_argument("--ranks", default="2,3,4")
    ap.add_argument("--size", default="512,512,50", help="rows,cols,sweeps")
    ap.add_argument("--bench", action="store_true", help="strong and weak scaling figures for bench/README.md")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    par_src, par, ser = (os.path.join(a.out, n) for n in ("region_jacobi.par.cpp", "par", "serial"))
    run([a.tool, a.source, "-o", par_src, "--", "-std=c++17"], what="gpu-autopar")
    flags = [f for f in a.mpi_flags.split(";") if f]
    run([a.cxx, "-std=c++17", "-O2", "-I" + a.include, par_src, "-Wl,--undefined=gpu_autopar_mpi_link", a.runtime_mpi,
         a.runtime] + flags + ["-pthread", "-o", par], what="build rewritten")
    run([a.cxx, "-std=c++17", "-O2", "-Wno-unknown-pragmas", a.source, "-o", ser], what="build serial")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", GPU_AUTOPAR_LOG="warn")
    for var in ("GPU_AUTOPAR_DEVICES", "GPU_AUTOPAR_REPORT", "GPU_AUTOPAR_DISTRIBUTE"):
        env.pop(var, None)
    rows, cols, sweeps = (int(x) for x in a.size.split(","))
    layouts = [(int(r), rows, cols, sweeps) for r in a.ranks.split(",")]
    if a.bench:  # weak scaling: 128 rows per rank
        layouts += [(int(r), 128 * int(r), cols, sweeps) for r in a.ranks.split(",")]
    element = 8
    for ranks, rows, cols, sweeps in layouts:
        expected = run([ser, str(rows), str(cols), str(sweeps)], what="serial run").stdout
        outs, loops, end, busiest, seconds = measure(a, par, ranks, rows, cols, sweeps, env)
        for r, got in enumerate(outs):
            if got != expected:
                fail("np %d: rank %d's output differs from the serial program\n--- serial\n%s--- rank %d\n%s"
                     % (ranks, r, expected, r, got))
        model_halo = sweeps * 2 * (ranks - 1) * (cols - 2) * element
        model_end = (ranks - 1) * 2 * rows * cols * element
        model = model_halo + model_end
        measured = loops + end
        ratio = measured / float(model)
        print("np %d, %dx%d, %d sweeps: every rank prints the serial output; bytes between ranks %d "
              "(loops %d, region end %d) = %.3f x model %d (halos %d + end %d); busiest rank receives %.0f "
              "bytes per sweep; %.1f s" % (ranks, rows, cols, sweeps, measured, loops, end, ratio, model, model_halo,
                                           model_end, busiest, seconds))
        if not 0.8 <= ratio <= 1.1:
            fail("np %d: %d bytes crossed between ranks, %.3f x the model's %d (expected 0.8 to 1.1)"
                 % (ranks, measured, ratio, model))


if __name__ == "__main__":
    main()
