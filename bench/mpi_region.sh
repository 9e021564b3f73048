#!/usr/bin/env bash
# bench/mpi_region.sh [build dir]: Jacobi-2d in a data region on 2, 3 and 4
# ranks (one simulated device each, shared memory): the bytes that cross
# between ranks against the cost model of docs/mpi.md, at a fixed grid
# (strong scaling, 512 x 512) and at a fixed part per rank (weak scaling,
# 128 rows of 512 per rank). Figures: bench/README.md.
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$build" --target gpu-autopar gpu_autopar_runtime gpu_autopar_runtime_mpi
mpi_flags=$(mpicc --showme:compile)\;$(mpicc --showme:link)
python3 "$src/test/mpi/region_bytes.py" --tool "$build/tool/gpu-autopar" --cxx "${CXX:-c++}" \
  --include "$src/runtime/include" --runtime "$build/runtime/libgpu_autopar.a" \
  --runtime-mpi "$build/runtime/libgpu_autopar_mpi.a" --mpi-flags="${mpi_flags// /;}" --mpirun mpirun \
  --out "$(mktemp -d)" --source "$src/test/mpi/region_jacobi.cpp" --bench
