#!/usr/bin/env bash
# Configures and builds gpu-autopar into ./build (CUDA parts only where nvcc exists).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" > build.configure.log 2>&1 || {
  cat build.configure.log; exit 1; }
grep -E '^-- gpu-autopar:' build.configure.log || true
rm -f build.configure.log
cmake --build build
