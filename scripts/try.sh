#!/usr/bin/env bash
# The first command: installs what is missing, builds the gpu-autopar tool and
# its runtime (nothing else: the tests are check.sh's), then runs the demo
# (scripts/demo.sh): the quickstart example rewritten, compiled and run next to
# its serial build, on CPU threads, on simulated devices and, where nvcc
# exists, as CUDA.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
bash scripts/setup.sh
GPU_AUTOPAR_BUILD_TARGETS="gpu-autopar gpu_autopar_runtime" bash scripts/build.sh -DGPU_AUTOPAR_BUILD_TESTS=OFF

bash scripts/demo.sh build
echo "== done in $((SECONDS - start)) s; next: README.md (tutorial) and examples/image_batch (a CMake project)"
