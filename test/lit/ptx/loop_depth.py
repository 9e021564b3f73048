"""Prints, for each chunk kernel (kernel_chunk in chunk_kernel.h) of a PTX file, the
function whose loop it is and how deeply its loops nest: a loop is a branch
back to a label above it, and loops nest when one's label-to-branch span holds
another's. A grid-stride loop around a body with one loop of its own is depth
2; with the two inner loops of a row-per-thread matmul, depth 3. Then how many
64-bit divisions and remainders (div/rem .u64/.s64) its loops hold, and
whether it has a 32-bit index path (a 32-bit division or remainder, where a
thread of a collapsed nest finds its first indices).

  loop_depth.py FILE.ptx
"""
import re
import sys

text = open(sys.argv[1]).read()
for m in re.finditer(r"\.entry (\S*kernel_chunk\S*)\((.*?)\)\s*\{(.*?)\n\}", text, re.S):
    name, body = m.group(1), m.group(3).split("\n")
    where = re.search(r"kernel_chunkIZ\d+(\w+?)P", name)
    labels = {}
    loops = []
    for at, line in enumerate(body):
        lab = re.match(r"^(\$\w+):", line.strip())
        if lab:
            labels[lab.group(1)] = at
        br = re.search(r"\bbra(?:\.uni)?\s+(\$\w+);", line)
        if br and br.group(1) in labels:
            loops.append((labels[br.group(1)], at))
    depth = 0
    for lo, hi in loops:
        inside = 1 + sum(1 for a, b in loops if (a, b) != (lo, hi) and a <= lo and hi <= b)
        depth = max(depth, inside)
    in_loops = set()
    for lo, hi in loops:
        in_loops.update(k for k in range(lo, hi + 1) if re.search(r"\b(div|rem)\.[us]64\b", body[k]))
    narrow = any(re.search(r"\b(div|rem)\.u32\b", line) for line in body)
    print("kernel of %s: loop depth %d, %d 64-bit divisions in loops, 32-bit path %s" %
          (where.group(1) if where else name, depth, len(in_loops), "yes" if narrow else "no"))
