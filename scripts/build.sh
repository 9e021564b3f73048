#!/usr/bin/env bash
# Configures and builds gpu-autopar into ./build (CUDA parts only where nvcc exists),
# with the tests unless the arguments (passed on to cmake) say
# -DGPU_AUTOPAR_BUILD_TESTS=OFF, as scripts/try.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPU_AUTOPAR_BUILD_TESTS=ON "$@" > build.configure.log 2>&1 || {
  cat build.configure.log; exit 1; }
grep -E '^-- gpu-autopar:' build.configure.log || true
rm -f build.configure.log
# GPU_AUTOPAR_BUILD_TARGETS="a b": only those targets (try.sh builds the tool and the runtime only).
cmake --build build ${GPU_AUTOPAR_BUILD_TARGETS:+--target $GPU_AUTOPAR_BUILD_TARGETS}
