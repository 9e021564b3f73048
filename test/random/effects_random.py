"""Randomized adversary for the effect model (docs/testing.md).

Each seed draws loops of effect-carrying shapes (pointer arithmetic, lambdas
with captures, callees writing globals or statics, const member functions
with mutable members, views returning references, tables of row pointers,
references to numbers, memcpy, exits and exceptions, rows handed to visible
functions), each in a racy and a
race-free variant whose status the generator knows by construction. Then:
- every racy loop gets a warning or an error from `gpu-autopar --check`
  (never accepted clean: "no silent safe");
- no race-free loop gets an error (it is rewritten, warnings allowed);
- a program of the race-free loops, rewritten, prints what its serial build
  prints under cpu, sim:3 and a failing-device setting.
Exit status 1 with the seed and the loop on any violation.
"""
import argparse
import os
import random
import re
import subprocess
import sys

N = 257  # elements per array: odd, so chunks split unevenly


def shape_pointer_arithmetic(r, k):
    racy = r.random() < 0.5
    off = r.choice([-1, 1]) if racy else 0
    src = "a" if racy or r.random() < 0.5 else "b"
    body = "*(a + i) = *(%s + i%+d) * 0.5 + %d;" % (src, off, r.randint(1, 9)) if off else \
           "*(a + i) = *(%s + i) * 0.5 + %d;" % (src, r.randint(1, 9))
    fn = ("void loop%d(double *a, double *b, int n) {\n#pragma gpu_autopar for\n"
          "  for (int i = 1; i < n - 1; ++i)\n    %s\n}\n" % (k, body))
    return racy, fn, "loop%d(a, b, N);" % k


def shape_lambda(r, k):
    racy = r.random() < 0.5
    if racy:
        inner = r.choice(["carry += a[i]; a[i] = carry;", "a[i] = a[i - 1] + 1;", "a[i + 1] = a[i] * 0.5;"])
        fn = ("void loop%d(double *a, int n) {\n  double carry = 0;\n  auto step = [&](int i) { %s };\n"
              "#pragma gpu_autopar for\n  for (int i = 1; i < n - 1; ++i)\n    step(i);\n"
              "  a[0] += carry;\n}\n" % (k, inner))
    else:
        fn = ("void loop%d(double *a, int n) {\n  const double k = %d.5;\n  auto twice = [k](double x) { return 2 * k * x; };\n"
              "#pragma gpu_autopar for\n  for (int i = 1; i < n - 1; ++i)\n    a[i] = twice(a[i]);\n}\n"
              % (k, r.randint(1, 4)))
    return racy, fn, "loop%d(a, N);" % k


def shape_callee(r, k):
    racy = r.random() < 0.5
    depth = r.randint(1, 5)
    chain = ""
    if racy:
        chain += "static double g%d;\nstatic double f%d_0(double x) { g%d += x; return g%d; }\n" % (k, k, k, k)
    else:
        chain += ("static double t%d[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                  "static double f%d_0(double x) { return x * t%d[(int)x & 7]; }\n" % (k, k, k))
    for d in range(1, depth):
        chain += "static double f%d_%d(double x) { return f%d_%d(x) + %d; }\n" % (k, d, k, d - 1, d)
    fn = chain + ("void loop%d(double *__restrict__ a, const double *__restrict__ b, int n) {\n"
                  "#pragma gpu_autopar for\n  for (int i = 0; i < n; ++i)\n    a[i] = f%d_%d(b[i]);\n}\n"
                  % (k, k, depth - 1))
    return racy, fn, "loop%d(a, b, N);" % k


def shape_mutable(r, k):
    racy = r.random() < 0.5
    member = "mutable long calls = 0;\n  " if racy else ""
    count = "++calls; " if racy else ""
    fn = ("struct C%d {\n  %sdouble s = 1.5;\n  double f(double x) const { %sreturn s * x; }\n};\n"
          "void loop%d(const C%d &c, double *__restrict__ a, const double *__restrict__ b, int n) {\n"
          "#pragma gpu_autopar for\n  for (int i = 0; i < n; ++i)\n    a[i] = c.f(b[i]);\n}\n"
          % (k, member, count, k, k))
    return racy, fn, "{ C%d c; loop%d(c, a, b, N); }" % (k, k)


def shape_view(r, k):
    racy = r.random() < 0.5
    body = "v(i) = v(i - 1) + 1;" if racy else "w[i] = v(i) * 2;"
    fn = ("struct V%d {\n  double *p;\n  double &operator()(int i) const { return p[i]; }\n};\n"
          "void loop%d(V%d v, double *w, int n) {\n#pragma gpu_autopar for\n"
          "  for (int i = 1; i < n; ++i)\n    %s\n}\n" % (k, k, k, body))
    return racy, fn, "loop%d(V%d{b}, a, N);" % (k, k)


def shape_rows(r, k):
    racy = r.random() < 0.5
    fn = ("void loop%d(double **rows, int n, int m) {\n#pragma gpu_autopar for\n"
          "  for (int i = 0; i < n; ++i)\n    for (int j = 0; j < m; ++j)\n      rows[i][j] = rows[i][j] * 0.5 + i;\n}\n"
          % k)
    share = "rows[3] = rows[2];" if racy else ""
    call = ("{ double *rows[16]; for (int r = 0; r < 16; ++r) rows[r] = a + 16 * r; %s loop%d(rows, 16, 16); }"
            % (share, k))
    return racy, fn, call


def shape_reference(r, k):
    racy = r.random() < 0.5
    mode = " mode(task)" if r.random() < 0.5 else ""
    fn = ("void loop%d(double *a, const double &x, int n) {\n#pragma gpu_autopar for%s\n"
          "  for (int i = 0; i < n; ++i)\n    a[i] = a[i] + x;\n}\n" % (k, mode))
    # Racy only as called: x names an element the loop writes. The tool must
    # check it at run time (task mode) or warn (kernel mode).
    call = "loop%d(a, a[N / 2], N);" % k if racy else "{ const double x = 2.25; loop%d(a, x, N); }" % k
    return (racy and not mode), fn, call


def shape_memcpy(r, k):
    racy = r.random() < 0.5
    src = "&a[i - 1]" if racy else "&b[i]"
    fn = ("void loop%d(double *a, double *b, int n) {\n#pragma gpu_autopar for\n"
          "  for (int i = 1; i < n; ++i)\n    std::memcpy(&a[i], %s, sizeof(double));\n}\n" % (k, src))
    return racy, fn, "loop%d(a, b, N);" % k


def shape_leaves(r, k):
    racy = r.random() < 0.5
    if racy:
        stmt = r.choice(["if (a[i] < -1e300) std::exit(2);", "if (a[i] < -1e300) std::abort();",
                         "if (a[i] < -1e300) throw std::runtime_error(\"x\");"])
    else:
        stmt = "try { if (a[i] < -1e300) throw std::runtime_error(\"x\"); } catch (const std::exception &) { a[i] = 0; }"
    fn = ("void loop%d(double *a, int n) {\n#pragma gpu_autopar for\n"
          "  for (int i = 0; i < n; ++i) {\n    %s\n    a[i] = a[i] * 0.75;\n  }\n}\n" % (k, stmt))
    return racy, fn, "loop%d(a, N);" % k


def shape_row_callee(r, k):
    """Rows of a built-in array handed to visible functions (docs/analysis.md, "Pointer parameters
    followed"): staying inside the row, only reading it, or handing it on are race-free; reaching into
    the next row, or filling one scratch array in every iteration, are races."""
    racy = r.random() < 0.5
    kind = r.choice(["past", "scratch"]) if racy else r.choice(["inside", "reads", "through"])
    s = r.randint(1, 9)
    pre = "static double m%d[16][8];\n" % k
    if kind == "inside" or kind == "through":
        pre += "static void f%d(double row[8], double s) { for (int c = 0; c < 8; c++) row[c] = row[c] * s + c; }\n" % k
        if kind == "through":
            pre += "static void h%d(double *row) { f%d(row, 0.%d); }\n" % (k, k, s)
        body = "h%d(m%d[i]);" % (k, k) if kind == "through" else "f%d(m%d[i], 0.%d);" % (k, k, s)
    elif kind == "reads":
        pre += "static double g%d(double *row) { double t = 0; for (int c = 0; c < 8; c++) t += row[c] * c; return t; }\n" % k
        body = "b[i] = g%d(m%d[i]) + %d;" % (k, k, s)
    elif kind == "past":
        pre += "static void f%d(double *row) { row[8] = row[0] * 0.5 + %d; }\n" % (k, s)
        body = "f%d(m%d[i]);" % (k, k)
    else:
        pre += ("static double t%d[4];\nstatic void fill%d(double *t, double x) { for (int c = 0; c < 4; c++) t[c] = x + c; }\n"
                % (k, k))
        body = "fill%d(t%d, i * 0.%d); m%d[i][0] = t%d[1];" % (k, k, s, k, k)
    fn = pre + ("void loop%d(double *b) {\n#pragma gpu_autopar for\n  for (int i = 0; i < 15; ++i) {\n    %s\n  }\n}\n"
                % (k, body))
    call = ("{ for (int r = 0; r < 16; ++r) for (int c = 0; c < 8; ++c) m%d[r][c] = a[8 * r + c];\n"
            "    loop%d(b);\n    for (int r = 0; r < 16; ++r) for (int c = 0; c < 8; ++c) a[8 * r + c] = m%d[r][c]; }"
            % (k, k, k))
    return racy, fn, call


SHAPES = [shape_pointer_arithmetic, shape_lambda, shape_callee, shape_mutable, shape_view, shape_rows,
          shape_reference, shape_memcpy, shape_leaves, shape_row_callee]

HEADER = ("#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <stdexcept>\n"
          "const int N = %d;\n" % N)


def program(loops):
    fns = "".join(fn for _, _, fn, _ in loops)
    calls = "".join("  %s\n  sum(\"loop%d\", a, b);\n" % (call, k) for k, _, _, call in loops)
    main = ("static void sum(const char *what, const double *a, const double *b) {\n"
            "  double s = 0;\n  for (int i = 0; i < 16 * 16 && i < N; ++i) s += a[i] * (i %% 7 + 1) + b[i] * (i %% 3);\n"
            "  std::printf(\"%%s %%.6f\\n\", what, s);\n}\n"
            "int main() {\n  static double a[N], b[N];\n"
            "  for (int i = 0; i < N; ++i) { a[i] = (i * 7 %% 13) * 0.5; b[i] = (i * 5 %% 11) * 0.25; }\n"
            "%s}\n" % calls)
    return HEADER + fns + main


def run(cmd, env=None):
    return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


def check_seed(a, seed):
    r = random.Random(seed)
    loops = []
    for k in range(a.loops):
        racy, fn, call = r.choice(SHAPES)(r, k)
        loops.append((k, racy, fn, call))
    work = os.path.join(a.out, "seed%d" % seed)
    os.makedirs(work, exist_ok=True)
    problems = []
    # Diagnostics: each loop on its own, so that a finding is its loop's.
    for k, racy, fn, call in loops:
        src = os.path.join(work, "loop%d.cpp" % k)
        with open(src, "w") as f:
            f.write(program([(k, racy, fn, call)]))
        p = run([a.tool, "--check", src, "--", "-std=c++17"])
        found = re.findall(r"loop%d\.cpp:\d+:\d+: (error|warning): " % k, p.stderr)
        if racy and not found:
            problems.append("loop%d (racy) accepted clean:\n%s" % (k, fn))
        if not racy and "error" in found:
            problems.append("loop%d (race-free) rejected:\n%s%s" % (k, fn, p.stderr[-1500:]))
    # The race-free loops together, rewritten and run against serial.
    free = [l for l in loops if not l[1]]
    src, par = os.path.join(work, "free.cpp"), os.path.join(work, "free.par.cpp")
    with open(src, "w") as f:
        f.write(program(free))
    p = run([a.tool, src, "-o", par, "--", "-std=c++17"])
    if p.returncode != 0:
        return problems + ["rewriting the race-free loops failed:\n" + p.stderr[-3000:]]
    cxx = [a.cxx, "-std=c++17", "-O1", "-w"]
    for cmd in (cxx + ["-I" + a.include, par, a.runtime, "-pthread", "-o", os.path.join(work, "par")],
                cxx + ["-Wno-unknown-pragmas", src, "-o", os.path.join(work, "serial")]):
        b = run(cmd)
        if b.returncode != 0:
            return problems + ["build failed: %s\n%s" % (" ".join(cmd), b.stderr[-3000:])]
    serial = run([os.path.join(work, "serial")]).stdout
    for dev in ("cpu", "sim:3", "sim:2,fail=1@2"):
        env = dict(os.environ, GPU_AUTOPAR_DEVICES=dev, GPU_AUTOPAR_LOG="off", GPU_AUTOPAR_PROGRESS="off",
                   GPU_AUTOPAR_THREADS="2")
        out = run([os.path.join(work, "par")], env=env)
        if out.returncode != 0 or out.stdout != serial:
            problems.append("race-free loops differ from serial on %s (exit %d):\n--- serial\n%s--- parallel\n%s%s"
                            % (dev, out.returncode, serial, out.stdout, out.stderr[-1000:]))
    return problems


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--tool", "--cxx", "--include", "--runtime", "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--loops", type=int, default=12)
    a = ap.parse_args()
    seed = int(os.environ.get("GPU_AUTOPAR_RANDOM_SEED", a.seed))
    count = int(os.environ.get("GPU_AUTOPAR_RANDOM_COUNT", a.count))
    failed = 0
    for s in range(seed, seed + count):
        problems = check_seed(a, s)
        for p in problems:
            print("seed %d: %s" % (s, p))
        failed += bool(problems)
    print("effects adversary: %d seeds x %d loops, %d seeds with problems" % (count, a.loops, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
