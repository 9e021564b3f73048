#!/usr/bin/env python3
"""Measures what analysis costs on top of parsing: `gpu-autopar --check FILE`
against `clang++ -fsyntax-only FILE` with the same flags, alternating the two
commands, RUNS times each, and reports the median CPU time (user + system of
the child, which is steadier than wall time on a shared machine) and the ratio.

usage: measure_check_speed.py TOOL CLANGXX RUNS FILE... [-- FLAGS]
"""
import os
import resource
import statistics
import subprocess
import sys


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    args = sys.argv[1:]
    flags = ["-std=c++17"]
    if "--" in args:
        k = args.index("--")
        args, flags = args[:k], args[k + 1:]
    tool, clangxx, runs, files = args[0], args[1], int(args[2]), args[3:]
    total_tool = total_clang = 0.0
    for f in files:
        t_tool, t_clang = [], []
        for _ in range(runs):
            t_tool.append(cpu_seconds([tool, "--check", f, "--"] + flags))
            t_clang.append(cpu_seconds([clangxx, "-fsyntax-only", f] + flags))
        a, b = statistics.median(t_tool), statistics.median(t_clang)
        total_tool += a
        total_clang += b
        print("%-28s gpu-autopar --check %.3f s   clang++ -fsyntax-only %.3f s   ratio %.2f"
              % (os.path.basename(f), a, b, a / b))
    print("%-28s gpu-autopar --check %.3f s   clang++ -fsyntax-only %.3f s   ratio %.2f"
          % ("all files (sum of medians)", total_tool, total_clang, total_tool / total_clang))


if __name__ == "__main__":
    main()
