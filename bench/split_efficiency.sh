#!/usr/bin/env bash
# Split efficiency on 2, 4 and 8 simulated devices, equal speeds and 1:2
# speeds (half the devices twice as fast). Usage: bench/split_efficiency.sh [build-dir]
set -euo pipefail
build=${1:-build}
ninja -C "$build" bench_split_efficiency >/dev/null
for devices in sim:2 sim:2,speed=1:2 sim:4 sim:4,speed=1:1:2:2 sim:8 sim:8,speed=1:1:1:1:2:2:2:2; do
  report=$(mktemp)
  GPU_AUTOPAR_DEVICES=$devices GPU_AUTOPAR_REPORT=$report "$build/bench/bench_split_efficiency" 4000
  rm -f "$report"
done
