#!/usr/bin/env bash
# Bytes moved per loop and device (bench/data_path.cpp), on 4 simulated
# devices with a PCIe-like link: prints, per loop, iterations, chunks, bytes
# in and out, allocations, launches, syncs and seconds, summed over devices.
#   bash bench/data_path.sh [build-dir]
set -euo pipefail
build=${1:-build}
ninja -C "$build" bench_data_path > /dev/null
report=$(mktemp)
trap 'rm -f "$report"' EXIT
GPU_AUTOPAR_DEVICES=${GPU_AUTOPAR_DEVICES:-sim:4,link=16GB/s} GPU_AUTOPAR_REPORT="$report" "$build/bench/bench_data_path"
python3 - "$report" <<'PY'
import json, sys
print("%-17s %10s %6s %12s %12s %6s %7s %6s %8s" % ("loop", "iterations", "chunks", "h2d bytes", "d2h bytes",
                                                  "allocs", "launches", "syncs", "seconds"))
for line in open(sys.argv[1]):
    l = json.loads(line)
    d = [e for e in l["devices"] if e["kind"] != "cpu"]
    s = lambda k: sum(e[k] for e in d)
    print("%-17s %10d %6d %12d %12d %6d %7d %6d %8.3f" % (l["loop"].split(":")[0], l["iterations"], s("chunks"),
          s("h2d_bytes"), s("d2h_bytes"), s("allocations"), s("launches"), s("syncs"), l["seconds"]))
PY
