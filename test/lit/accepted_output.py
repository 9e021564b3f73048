"""The tool's output for the loops it accepts in a source, also when it
rejects others (then it writes nothing for the source as given).

`rewrite(tool, source, workdir)` runs the tool with --report. Where a loop is
rejected, it writes a copy of the source in which each rejected loop's
`#pragma gpu_autopar` line is a comment (so the loop stays serial, as a
rejected loop does; every line keeps its number) and rewrites that copy.
Returns (path of the rewritten text or None when nothing was accepted,
report loops of the source as given). A source whose first lines hold
`// compile-flags: ...` is parsed with those flags instead of -std=c++17;
`flags(source)` gives them, for compiling the output.
"""
import json
import os
import subprocess

import re


def flags(source):
    with open(source) as f:
        m = re.search(r"^// compile-flags: (.*)$", f.read(4000), re.M)
    return m.group(1).split() if m else ["-std=c++17"]


def run(tool, source, out, report, extra=(), given=None):
    return subprocess.run([tool, source, "-o", out, "--report=" + report, "--"] + (given or flags(source)) +
                          ["-ferror-limit=0"] + list(extra),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def rewrite(tool, source, workdir):
    os.makedirs(workdir, exist_ok=True)
    base = os.path.join(workdir, os.path.basename(source))
    out, report = base + ".par" + os.path.splitext(source)[1], base + ".json"
    r = run(tool, source, out, report)
    if not os.path.exists(report):
        return None, []
    with open(report) as f:
        loops = json.load(f)["loops"]
    if r.returncode == 0:
        return (out if os.path.exists(out) else None), loops
    rejected = {l["location"]["line"] for l in loops if l["decision"] == "rejected"}
    with open(source) as f:
        lines = f.read().split("\n")
    for line in rejected:
        text = lines[line - 1]
        if text.lstrip().startswith("#pragma gpu_autopar"):
            lines[line - 1] = text.replace("#pragma gpu_autopar", "// (rejected) gpu_autopar", 1)
    kept = sum(1 for l in loops if l["decision"] != "rejected")
    if not kept:
        return None, loops
    # The copy's includes resolve as the source's do: -I its directory.
    copy = base + ".accepted" + os.path.splitext(source)[1]
    with open(copy, "w") as f:
        f.write("\n".join(lines))
    r = run(tool, copy, out, base + ".accepted.json", ["-I" + os.path.dirname(os.path.abspath(source))],
            flags(source))
    # Errors that are not a loop's (a malformed '#pragma gpu_autopar data',
    # say) still reject the file: nothing of it was claimed to compile.
    return (out if r.returncode == 0 else None), loops
