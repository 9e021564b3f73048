#!/usr/bin/env bash
# Jacobi-2d with and without a data region on simulated devices: wall time and
# every byte copied between host and devices, from the report (loop lines:
# h2d and d2h per device; a region's line adds what it brought back to the
# host outside chunks: halo rows that went through the host and the results
# at its end), and the halo rows copied from device to device (p2p_bytes).
# Usage: bench/jacobi_region.sh [build-dir] [N] [SWEEPS] [DEVICES]
set -euo pipefail
build=${1:-build}
n=${2:-4096}
sweeps=${3:-100}
devices=${4:-sim:4}
ninja -C "$build" bench_jacobi_region >/dev/null
for mode in region plain; do
  report=$(mktemp)
  GPU_AUTOPAR_DEVICES=$devices GPU_AUTOPAR_REPORT=$report "$build/bench/bench_jacobi_region" "$n" "$sweeps" "$mode"
  python3 - "$report" "$n" "$sweeps" "$devices" <<'PY'
import json, re, sys
moved, between, loops = 0, 0, 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "region" in r:
        moved += r["bytes_to_host"]
        continue
    loops += 1
    moved += sum(d.get("h2d_bytes", 0) + d.get("d2h_bytes", 0) for d in r["devices"])
    between += sum(d.get("p2p_bytes", 0) for d in r["devices"])
n, sweeps = int(sys.argv[2]), int(sys.argv[3])
count = int(re.match(r"sim:(\d+)", sys.argv[4]).group(1))
grid = n * n * 8
# Each sweep's stencil needs the row above and below each device's rows from
# its neighbours: 2 rows per boundary, each copied device -> host -> device
# (`p2p=off`) or device -> device.
halos = 2 * (count - 1) * 2 * n * 8 * sweeps
print("  %d loops, %.3f GB copied over the host = %.2f x (grids in + out = %.3f GB), %.3f GB device to device;"
      " bound 1.1 x in/out + halos = %.3f GB"
      % (loops, moved / 1e9, moved / (4 * grid), 4 * grid / 1e9, between / 1e9, (1.1 * 4 * grid + halos) / 1e9))
PY
  rm -f "$report"
done
