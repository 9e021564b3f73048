#!/usr/bin/env bash
# Dispatch overhead of an empty 64-iteration loop on 2 threads, idle and with
# both cores loaded by another process, against libgomp with its default wait
# policy and with OMP_WAIT_POLICY=passive, all in one run so the figures share
# the machine's conditions. Usage: bench/dispatch_loaded.sh [build-dir]
set -euo pipefail
build=${1:-build}
ninja -C "$build" bench_dispatch >/dev/null
bench="$build/bench/bench_dispatch"

# Real time per loop (ns) of one benchmark, median of 5 repetitions.
time_of() { # name [env...]
  local name=$1; shift
  env "$@" "$bench" --benchmark_filter="^dispatch/$name/" --benchmark_repetitions=5 \
    --benchmark_format=csv 2>/dev/null |
    awk -F, '$1 ~ /_median"$/ { printf "%.0f", $3 }'
}

measure() { # label
  local omp passive ours
  omp=$(time_of openmp)
  passive=$(time_of openmp OMP_WAIT_POLICY=passive)
  ours=$(time_of gpu_autopar)
  awk -v l="$1" -v o="$omp" -v p="$passive" -v g="$ours" 'BEGIN {
    printf "| %s | %d ns | %d ns | %d ns | %.2fx | %.2fx |\n", l, o, p, g, g / o, g / p }'
}

echo "| machine | libgomp (default) | libgomp (passive) | gpu_autopar | vs default | vs passive |"
echo "|---|---|---|---|---|---|"
measure idle
# Two busy processes, one per core, for the loaded measurement.
pids=()
for _ in 1 2; do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
sleep 0.5
measure "both cores busy"
