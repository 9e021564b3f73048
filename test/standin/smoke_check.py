"""Runs the stand-in's scenarios (smoke.cu) against the stand-in and checks
each one's output, exit status and the exact set of violation kinds logged.

  smoke_check.py PROGRAM STANDIN_LIB_DIR WORK_DIR
"""
import os
import re
import subprocess
import sys

# scenario: (environment, expected stdout (regex), expected violation kinds)
SCENARIOS = {
    "clean": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"total=2497500\n$", set()),
    # The copy back ran before the kernel: the old value.
    "race": ({}, r"v\[1\]=1\n$", {"unordered-access"}),
    "blocking-stream": ({}, r"v\[1\]=2\n$", set()),
    # Poison (0xA5 bytes) until the copy lands; the cudaMemcpy on the legacy
    # stream is also unordered with the non-blocking stream's copies.
    "early-read": ({}, r"w\[1\]=-1515870811\n$", {"host-access", "unordered-access"}),
    # A kernel writes one half of an allocation while another device pulls
    # the other half: disjoint bytes, no race; one element more is one.
    "halo": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"v\[n-1\]=999\n$", set()),
    "halo-race": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"v\[n-1\]=999\n$", {"unordered-access"}),
    # Two kernels on streams nothing orders update their own elements of one
    # allocation (one page) in place: read and written to the byte, no race
    # (device memory, two streams; managed memory, two GPUs). A kernel that
    # reads an element the other writes races; so does one whose code does
    # not report its reads (then allocation-wide).
    "in-place": ({}, r"^v\[0\]=0 v\[half-1\]=1004 v\[half\]=1509\n$", set()),
    "in-place-managed": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"^v\[0\]=0 v\[half-1\]=1004 v\[half\]=1509\n$", set()),
    "in-place-race": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"^v\[0\]=0 v\[half-1\]=1004 v\[half\]=1509\n$",
                      {"unordered-access"}),
    "in-place-unreported": ({}, r"^v\[0\]=0 v\[half-1\]=1004 v\[half\]=1509\n$", {"unordered-access"}),
    "wrong-device": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"^$", {"wrong-device"}),
    "foreign-stream": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2"}, r"^$", {"foreign-stream"}),
    "leak": ({}, r"^$", {"leak"}),
    "use-after-free": ({}, r"^$", {"use-after-free"}),
    "oom": ({"GPU_AUTOPAR_STANDIN_MEMORY": "1K"}, r"free=1024 total=1024\n$", set()),
    "fault": ({"GPU_AUTOPAR_STANDIN_DEVICES": "2", "GPU_AUTOPAR_STANDIN_FAULT_LAUNCH": "1"}, r"recovered\n$", set()),
    "missing-twin": ({}, r"^$", {"no-twin"}),
    "unsynchronised": ({}, r"^$", {"unsynchronised", "leak"}),
    # cudaEventElapsedTime gives the timeline's time: 2 us to issue the first
    # copy, then 2 x (3 us + 1 MiB at 50 GB/s).
    "event-time": ({}, r"^elapsed_us=49\.94\n$", set()),
}


def main():
    program, lib_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failed = 0
    for name, (extra, stdout_re, kinds) in SCENARIOS.items():
        log = os.path.join(work, name + ".log")
        if os.path.exists(log):
            os.remove(log)
        env = dict(os.environ, LD_LIBRARY_PATH=lib_dir, GPU_AUTOPAR_STANDIN_LOG=log, **extra)
        p = subprocess.run([program, name], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        text = open(log).read() if os.path.exists(log) else ""
        got = set(re.findall(r"\] violation ([a-z-]+):", text))
        problems = []
        if p.returncode != 0:
            problems.append("exit status %d" % p.returncode)
        if not re.search(stdout_re, p.stdout):
            problems.append("stdout %r does not match %r" % (p.stdout, stdout_re))
        if got != kinds:
            problems.append("violations %s, expected %s" % (sorted(got), sorted(kinds)))
        if "counts device=0 " not in text:
            problems.append("no counts in the log")
        if problems:
            failed += 1
            sys.stderr.write("FAIL %s: %s\n--- log\n%s--- stderr\n%s\n" % (name, "; ".join(problems), text, p.stderr))
        else:
            print("ok %s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
