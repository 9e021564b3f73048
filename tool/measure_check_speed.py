#!/usr/bin/env python3
"""Measures what analysis costs on top of parsing: `gpu-autopar --check FILE`
against `clang++ -fsyntax-only FILE` with the same flags, alternating the two
commands, RUNS times each, and reports the median CPU time (user + system of
the child, which is steadier than wall time on a shared machine) and the ratio,
then the same for the fastest run of each (another process on the machine
only ever adds time, so the fastest runs are the least disturbed pair).

usage: measure_check_speed.py TOOL CLANGXX RUNS FILE... [-- FLAGS]

A FILE written `synthetic:N` is a generated source with N annotated loops
(stencils, row-major 2-D loops, strided pairs, reductions) over std::vector.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def synthetic(count, directory):
    lines = ["#include <vector>", "#include <cmath>",
             "void f(std::vector<float> &a, std::vector<float> &b, const std::vector<float> &c, int n, int w) {",
             "  double s = 0;"]
    for k in range(count):
        kind = k % 4
        lines.append("#pragma gpu_autopar for" + (" reduction(+: s)" if kind == 3 else ""))
        lines.append([
            "  for (int i = 1; i < n - 1; ++i) a[i] = c[i - 1] + c[i + 1] * %d;" % k,
            "  for (int y = 0; y < n; ++y) for (int x = 0; x < w; ++x) b[y * w + x] = std::sqrt(c[y * w + x]) + %d;" % k,
            "  for (int i = 0; i < n; i += 2) { a[i] = b[i + 1]; b[i] = a[i + 1] * %d; }" % k,
            "  for (int i = 0; i < n; ++i) s += a[i] * c[i];"][kind])
    lines.append("  a[0] = s;\n}")
    path = os.path.join(directory, "synthetic-%d.cpp" % count)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def main():
    args = sys.argv[1:]
    flags = ["-std=c++17"]
    if "--" in args:
        k = args.index("--")
        args, flags = args[:k], args[k + 1:]
    tool, clangxx, runs, files = args[0], args[1], int(args[2]), args[3:]
    scratch = tempfile.mkdtemp(prefix="gpu-autopar-speed-")
    files = [synthetic(int(f.split(":")[1]), scratch) if f.startswith("synthetic:") else f for f in files]
    total_tool = total_clang = best_tool = best_clang = 0.0
    for f in files:
        t_tool, t_clang = [], []
        for _ in range(runs):
            t_tool.append(cpu_seconds([tool, "--check", f, "--"] + flags))
            t_clang.append(cpu_seconds([clangxx, "-fsyntax-only", f] + flags))
        a, b = statistics.median(t_tool), statistics.median(t_clang)
        total_tool += a
        total_clang += b
        best_tool += min(t_tool)
        best_clang += min(t_clang)
        print("%-28s gpu-autopar --check %.3f s   clang++ -fsyntax-only %.3f s   ratio %.2f   fastest %.3f / %.3f = %.2f"
              % (os.path.basename(f), a, b, a / b, min(t_tool), min(t_clang), min(t_tool) / min(t_clang)))
    print("%-28s gpu-autopar --check %.3f s   clang++ -fsyntax-only %.3f s   ratio %.2f   fastest %.3f / %.3f = %.2f"
          % ("all files (sum)", total_tool, total_clang, total_tool / total_clang, best_tool, best_clang,
             best_tool / best_clang))


if __name__ == "__main__":
    main()
