"""Checks gpu-autopar's --convert on annotated sources (the %convert-check substitution).

For each SOURCE: --accept=DIALECTS --convert must change nothing but the
accepted directives' lines (each becomes `#pragma gpu_autopar for|data|update ...`, and a
file keeps its line count), and the converted file, run through gpu-autopar
without --accept, must give exactly the rewritten code that --accept gives on
the original. Both runs see the file under the same name in their own
directory, so the #line directives and loop sites compare equal.
Prints one line per source: `<name>: <k> directives converted, same rewrite`.
"""
import argparse
import os
import shutil
import subprocess
import sys

# What a converted line starts with: a loop annotation, a data region, an
# update, unstructured data.
CONVERTED = ("#pragma gpu_autopar for", "#pragma gpu_autopar data", "#pragma gpu_autopar update",
             "#pragma gpu_autopar enter data", "#pragma gpu_autopar exit data")


def tool(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write("convert-check: %s failed (exit %d) in %s\n%s" % (" ".join(cmd), p.returncode, cwd, p.stderr))
        sys.exit(1)
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--accept", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    for source in a.sources:
        name = os.path.basename(source)
        orig, conv = os.path.join(a.out, "original"), os.path.join(a.out, "converted")
        for d in (orig, conv):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        shutil.copy(source, os.path.join(orig, name))
        flags = ["--", "-std=c++17"]
        converted = tool([a.tool, "--accept=" + a.accept, "--convert", name] + flags, orig)
        with open(os.path.join(conv, name), "w") as f:
            f.write(converted)

        before = open(source).read().split("\n")
        after = converted.split("\n")
        if len(before) != len(after):
            sys.stderr.write("convert-check: %s: %d lines became %d\n" % (name, len(before), len(after)))
            sys.exit(1)
        changed = 0
        for k, (b, c) in enumerate(zip(before, after), 1):
            if b == c:
                continue
            continued = before[k - 2].endswith("\\") if k > 1 else False
            if not ((b.lstrip().startswith(("#pragma omp", "#pragma acc")) and c.startswith(CONVERTED))
                    or (continued and c == "")):
                sys.stderr.write("convert-check: %s:%d changed beyond the directive:\n-%s\n+%s\n" % (name, k, b, c))
                sys.exit(1)
            changed += c.startswith(CONVERTED)

        accepted = tool([a.tool, "--accept=" + a.accept, name] + flags, orig)
        reparsed = tool([a.tool, name] + flags, conv)
        if accepted != reparsed:
            sys.stderr.write("convert-check: %s: the converted file rewrites differently\n--- --accept\n%s--- converted\n%s"
                             % (name, accepted, reparsed))
            sys.exit(1)
        print("%s: %d directives converted, same rewrite" % (name, changed))


if __name__ == "__main__":
    main()
