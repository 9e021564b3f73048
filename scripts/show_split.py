#!/usr/bin/env python3
"""Prints a runtime report (GPU_AUTOPAR_REPORT, one JSON object per loop) as
a small table: per device its iterations, share, chunks, busy time and bytes
copied in and out, with a bar. Usage: show_split.py report.jsonl"""
import json
import sys

for line in open(sys.argv[1]):
    loop = json.loads(line)
    total = loop["iterations"] or 1
    print("loop %s (%s mode): %d iterations in %.3f s, backend %s"
          % (loop["loop"], loop["mode"], loop["iterations"], loop["seconds"], loop["backend"]))
    print("  %-7s %11s %6s %7s %10s %10s %10s" % ("device", "iterations", "share", "chunks", "busy", "in", "out"))
    for d in loop["devices"]:
        name = "%s%d" % (d["kind"], d["id"]) if d["id"] >= 0 else "cpu"
        share = d["iterations"] / total
        moved = ["%7.1f MiB" % (d[k] / 2**20) if k in d else "%10s" % "-" for k in ("h2d_bytes", "d2h_bytes")]
        print("  %-7s %11d %5.0f%% %7d %8.1f ms %s %s  %s"
              % (name, d["iterations"], 100 * share, d["chunks"], 1000 * d["seconds"], moved[0], moved[1],
                 "#" * round(30 * share)))
    if loop.get("fallback"):
        print("  fallback to %s: %s" % (loop["fallback"]["to"], loop["fallback"]["reason"]))
