#!/usr/bin/env bash
# bench/mpi_split.sh [build dir]: bench/mpi_split.cpp on 1 rank × sim:2 and
# 2 ranks × sim:2 (GPU_AUTOPAR_DEVICES=sim:4 divided between the two ranks of
# this node), over shared memory and over TCP loopback. Figures: bench/README.md.
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target bench_mpi_split
prog="$build/bench/bench_mpi_split"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GPU_AUTOPAR_LOG=warn
report=$(mktemp)
trap 'rm -f "$report"' EXIT
mpi() { mpirun --allow-run-as-root --oversubscribe "$@"; }
for run in "compute 200000 7" "sleep 20000 7"; do
  set -- $run
  echo "== $1: 1 rank x sim:2"
  GPU_AUTOPAR_DEVICES=sim:2 mpi -np 1 "$prog" "$@" | tail -1
  for btl in self,vader self,tcp; do
    echo "== $1: 2 ranks x sim:2 (btl $btl)"
    : > "$report"
    GPU_AUTOPAR_DEVICES=sim:4 GPU_AUTOPAR_REPORT=$report mpi --mca btl "$btl" -np 2 "$prog" "$@" | tail -1
  done
done
