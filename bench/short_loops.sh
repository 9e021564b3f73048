#!/usr/bin/env bash
# Split efficiency of a short kernel-mode saxpy (1M floats) on 2, 3 and 4
# equal simulated devices, first loop of the process and 30 more.
# Usage: bench/short_loops.sh [build-dir]
set -euo pipefail
build=${1:-build}
ninja -C "$build" bench_short_loops >/dev/null
for devices in sim:2 sim:3 sim:4; do
  report=$(mktemp)
  echo "== $devices"
  GPU_AUTOPAR_DEVICES=$devices GPU_AUTOPAR_REPORT=$report "$build/bench/bench_short_loops" 1000000 31 "$report"
  rm -f "$report"
done
