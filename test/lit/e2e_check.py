"""End-to-end check of one annotated program (the %e2e substitution).

Rewrites SOURCE with gpu-autopar, builds the rewritten file against the
runtime and the unmodified file as the serial reference, runs the rewritten
program under each device setting, and requires its output to equal the serial
program's byte for byte. Every run writes a GPU_AUTOPAR_REPORT; each report line
must account for every iteration (device iterations add up to the loop's).
Prints one summary line per executed loop for FileCheck:

  <devices>: <file:line> mode=<mode> backend=<backend> iterations=<n> devices=<k> [fallback=<to>] [serial=<why>]

where k counts the devices that ran at least one iteration.

With --accept omp,acc the tool treats OpenMP/OpenACC loop directives as
annotations. With --reference-openmp the reference is the OpenMP build of
SOURCE (`-fopenmp`, four threads) instead of the serial one: firstprivate and
lastprivate mean what OpenMP says they mean, which the serial program ignores.

Where nvcc exists the rewritten file is also built as CUDA with the flags every
documented nvcc command uses (NVCC_FLAGS, NVCC_CU: a device body nvcc would drop is
a build error), for sm_75 (the oldest architecture we support, so a construct a
newer one would need fails here), linked with `-cudart shared`; the PTX of
each chunk kernel must contain the body's global loads or stores. With
--standin, that build then runs against the CUDA stand-in (test/standin) under
each stand-in setting and must again print the serial output, with no
violation in the stand-in's log; where nothing is injected no loop may fall
back and some kernel- or task-mode loop must run on the fake GPUs
(backend=cuda).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

# What every documented nvcc command passes (README.md): the loop bodies are
# extended lambdas; constexpr host functions (std::min, std::max) may be
# called from device code; and the diagnostics nvcc gives when it would drop a
# device body (#20011-D, #20013-D: calling a host function from a
# __host__ __device__ one) are errors, not warnings.
NVCC_FLAGS = ["-std=c++17", "--extended-lambda"]
NVCC_CU = ["--expt-relaxed-constexpr", "--diag-error", "20011,20013", "-x", "cu"]  # for a .cpp source
# One architecture: each more costs a second cicc and ptxas pass (~1 s of the
# ~4 s an nvcc build takes, times every e2e program) and finds nothing the
# oldest one misses. Host code at -O1: the stand-in's runs are milliseconds
# either way, and -O1 compiles a third faster than -O2.
NVCC_ARCHS = ["-gencode", "arch=compute_75,code=sm_75"]
# The CUDA stand-in runs a kernel through the host twin the program registers
# (test/standin/include/gpu_autopar_standin/hook.h): the CUDA build compiles
# that registration in, which a user's build never does.
STANDIN_HOOK = ["-DGPU_AUTOPAR_STANDIN_HOOK",
                "-I" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "standin", "include")]


def run(cmd, env=None, what=""):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write("e2e: %s failed (exit %d): %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout, p.stderr))
        sys.exit(1)
    return p


def main():
    if sys.argv[1:2] == ["--check-ptx"]:  # only the PTX check, of the files given
        check_ptx(sys.argv[2:])
        print("ptx: every chunk kernel reads its views")
        return
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
    ap.add_argument("--standin", default="", help="directory holding the CUDA stand-in's libcudart.so.13")
    ap.add_argument("--standin-settings", default="",
                    help="';'-separated stand-in settings, each space-separated key=value: devices, memory, "
                         "fail_alloc, fault_launch (GPU_AUTOPAR_STANDIN_<KEY>)")
    ap.add_argument("--gpu", action="store_true", help="also run the nvcc build on this machine's real GPUs")
    ap.add_argument("--accept", default="", help="passed to gpu-autopar as --accept=...")
    ap.add_argument("--reference-openmp", action="store_true",
                    help="compare with the -fopenmp build of SOURCE instead of the serial one")
    ap.add_argument("source")
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    base = os.path.splitext(os.path.basename(a.source))[0]
    par_src = os.path.join(a.out, base + ".par.cpp")
    accept = ["--accept=" + a.accept] if a.accept else []
    # A C source (.c) is given without flags, as a user runs `gpu-autopar file.c`;
    # its reference is the C compiler's build of it.
    c_source = a.source.endswith(".c")
    flags = [] if c_source else ["--", "-std=c++17"]
    run([a.tool] + accept + [a.source, "-o", par_src] + flags, what="gpu-autopar")

    par, ser = os.path.join(a.out, "par"), os.path.join(a.out, "serial")
    run([a.cxx, "-std=c++17", "-O2", "-I" + a.include, par_src, a.runtime, "-pthread", "-o", par], what="build rewritten")
    reference = ["-fopenmp"] if a.reference_openmp else ["-Wno-unknown-pragmas"]
    language = ["-x", "c", "-std=c99"] if c_source else ["-std=c++17"]
    run([a.cxx] + language + ["-O2"] + reference + [a.source, "-o", ser], what="build the reference")
    expected = run([ser], env=dict(os.environ, OMP_NUM_THREADS="4"), what="reference run").stdout

    settings = [s for s in (a.devices or a.standard).split(";") if s]
    for dev in settings:
        env = dict(os.environ, GPU_AUTOPAR_DEVICES=dev, GPU_AUTOPAR_LOG="warn")
        check_runs(par, expected, dev, env, a.out)

    if a.nvcc:
        cuda = build_cuda(a, par_src)
        if a.standin:
            for setting in [s for s in a.standin_settings.split(";") if s]:
                run_standin(a, cuda, expected, setting)
        if a.gpu:
            env = dict(os.environ, GPU_AUTOPAR_LOG="warn")
            env.pop("GPU_AUTOPAR_DEVICES", None)
            check_runs(cuda, expected, "gpu", env, a.out, require_cuda=True)


def check_runs(program, expected, label, env, out, require_cuda=False):
    """Runs program with env, requires the serial output and a report whose
    lines account for every iteration; prints one summary line per loop."""
    report = os.path.join(out, "report-%s.jsonl" % "".join(c if c.isalnum() else "_" for c in label))
    if os.path.exists(report):
        os.remove(report)
    env = dict(env, GPU_AUTOPAR_REPORT=report)
    got = run([program], env=env, what="run with " + label).stdout
    if got != expected:
        sys.stderr.write("e2e: output with %s differs from the serial program\n"
                         "--- serial\n%s--- parallel\n%s" % (label, expected, got))
        sys.exit(1)
    lines = open(report).read().splitlines() if os.path.exists(report) else []
    on_cuda = device_loops = False
    for line in lines:
        r = json.loads(line)
        if "region" in r:  # a data region's line (docs/runtime.md): bytes, no iterations
            print("%s: region %s" % (label, r["region"]))
            continue
        total = sum(d["iterations"] for d in r["devices"])
        if total != r["iterations"]:
            sys.stderr.write("e2e: %s: device iterations add up to %d, not %d\n" % (label, total, r["iterations"]))
            sys.exit(1)
        used = sum(1 for d in r["devices"] if d["iterations"] > 0)
        fb = r.get("fallback")
        if require_cuda and fb:
            sys.stderr.write("e2e: %s: %s fell back (%s) with nothing injected\n%s\n" % (label, r["loop"], fb, line))
            sys.exit(1)
        on_cuda = on_cuda or r["backend"] == "cuda"
        device_loops = device_loops or r["mode"] != "host"
        print("%s: %s mode=%s backend=%s iterations=%d devices=%d%s%s" % (
            label, r["loop"], r["mode"], r["backend"], r["iterations"], used,
            " fallback=%s" % fb["to"] if fb else "",
            " serial=%s" % r["serial_reason"] if "serial_reason" in r else ""))
    if require_cuda and device_loops and not on_cuda:
        sys.stderr.write("e2e: %s: no kernel- or task-mode loop ran on CUDA devices\n" % label)
        sys.exit(1)


def build_cuda(a, par_src):
    """nvcc build of the rewritten file; checks the chunk kernels' PTX."""
    exe = os.path.join(a.out, "par.cuda")
    keep = os.path.join(a.out, "nvcc-keep")
    os.makedirs(keep, exist_ok=True)
    run([a.nvcc] + NVCC_FLAGS + NVCC_ARCHS + ["-O1", "-cudart", "shared", "--keep", "--keep-dir", keep,
        "-I" + a.include] + STANDIN_HOOK + NVCC_CU + [par_src, "-L" + os.path.dirname(a.runtime), "-lgpu_autopar", "-o", exe],
        what="nvcc")
    check_ptx(glob.glob(os.path.join(keep, "*.ptx")))
    for f in glob.glob(os.path.join(keep, "*")):
        if not f.endswith(".ptx"):  # nvcc's other intermediates: megabytes each
            os.remove(f)
    print("nvcc: compiled")
    return exe


def check_ptx(files):
    """Every chunk kernel (kernel_chunk in chunk_kernel.h) whose loop maps data must
    read its views parameter (the fifth) and load or store global memory: a
    body nvcc dropped leaves only the partials' stores, and the views unread."""
    for f in files:
        text = open(f).read()
        for m in re.finditer(r"\.entry (\S*kernel_chunk\S*)\((.*?)\)\s*\{(.*?)\n\}", text, re.S):
            name, params, body = m.group(1), m.group(2), m.group(3)
            if re.search(r"\.b8 " + re.escape(name) + r"_param_4\[1\]", params):
                continue  # no maps: an empty views tuple
            if (not re.search(r"ld\.param\S*\s+[^;]*\[" + re.escape(name) + r"_param_4", body)
                    or not re.search(r"(ld|st)\.global", body)):
                sys.stderr.write("e2e: %s: chunk kernel %s never reads its views: nvcc dropped the loop body\n"
                                 % (os.path.basename(f), name))
                sys.exit(1)


def run_standin(a, exe, expected, setting):
    """Runs the nvcc build against the CUDA stand-in under one setting."""
    env = dict(os.environ, LD_LIBRARY_PATH=a.standin, GPU_AUTOPAR_LOG="warn")
    env.pop("GPU_AUTOPAR_DEVICES", None) # the CUDA devices the stand-in has
    injected = False
    for field in setting.split():
        key, value = field.split("=", 1)
        env["GPU_AUTOPAR_STANDIN_" + key.upper()] = value
        injected = injected or key in ("fail_alloc", "fault_launch", "memory")
    label = "standin " + setting
    log = os.path.join(a.out, "standin-%s.log" % "".join(c if c.isalnum() else "_" for c in setting))
    if os.path.exists(log):
        os.remove(log)
    env["GPU_AUTOPAR_STANDIN_LOG"] = log
    check_runs(exe, expected, label, env, a.out, require_cuda=not injected)
    text = open(log).read() if os.path.exists(log) else ""
    if "] violation " in text or "counts device=0 " not in text:
        sys.stderr.write("e2e: %s: the CUDA stand-in reports misuse (or wrote no counts)\n%s" % (label, text))
        sys.exit(1)


if __name__ == "__main__":
    main()
