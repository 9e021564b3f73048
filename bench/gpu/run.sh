#!/usr/bin/env bash
# gpu-autopar vs hand-written CUDA, in one command (bench/README.md, "GPU
# programs"): saxpy over 2^28 floats (one-shot and in a data region), a dot
# product in a region, Jacobi-2d in a region (split on rows, and collapse(2))
# and a collapse(2) matrix multiply — bench/gpu/loops.cpp through the tool and
# nvcc against bench/gpu/reference.cu — on 1, 2, 3, 4 and 8 GPUs, printing
# each case's times, their ratio and the 1->4 GPU scaling.
#
# With GPUs it MEASURES (wall clock, on as many of the counts as the machine
# has). Without, where the build has the CUDA stand-in, it MODELS: both
# programs run on 1-8 fake GPUs and the stand-in's timeline gives each case's
# time on H100 SXM figures (docs/runtime.md); the output says which. ctest
# runs it that way (test bench.gpu). Without either it builds and exits 0.
#
# Sizes (SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS, then the stand-in's byte
# scale), two groups, each its own processes:
#   measured: 2^28 2^28 0 ... and 0 0 1024 10 256 ... (the sizes the model stands for)
#   modelled: 2^22 2^22 0 0 0 10 x64  (every byte scaled 64x: stands for 2^28, exact for
#             these 1-D loops) and 0 0 1024 10 256 10 x1 (2-D: unscaled, see bench/README.md)
# BENCH_GPU_GROUPS="A;B" overrides them; BENCH_GPU_COUNTS="1,4" the GPU counts.
#
# Usage: bench/gpu/run.sh [build-dir]
#   BENCH_GPU_ARCH=sm_90 compiles for that architecture (default sm_75: the
#   driver compiles its PTX for newer GPUs at the first launch, untimed).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=$build/bench/gpu
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "bench/gpu: no nvcc (install CUDA at /usr/local/cuda); nothing built" >&2
  exit 1
fi
launcher=$(command -v ccache || true)
arch=${BENCH_GPU_ARCH:-sm_75}
# A dropped device body is a build error (20011, 20013); both programs link
# the CUDA runtime shared, so the stand-in can stand in for it.
flags=(-std=c++17 -O3 -arch="$arch" --extended-lambda --expt-relaxed-constexpr --diag-error 20011,20013
       -cudart shared -Xcompiler -pthread)

# Where the build has the CUDA stand-in, both programs register their kernels'
# host twins with it (test/standin/README.md); with a real CUDA runtime that
# registration does nothing.
standin=$build/test/standin/lib
hook=()
if [ -e "$standin/libcudart.so.13" ]; then
  hook=(-DGPU_AUTOPAR_STANDIN_HOOK -Itest/standin/include)
fi

echo "== build (nvcc -arch=$arch) into $out"
"$build/tool/gpu-autopar" bench/gpu/loops.cpp -o "$out/loops.par.cpp" -- -std=c++17 2> "$out/tool.log" ||
  { cat "$out/tool.log" >&2; exit 1; }
$launcher "$nvcc" "${flags[@]}" "${hook[@]}" -x cu -Iruntime/include -Ibench/gpu "$out/loops.par.cpp" -L"$build/runtime" -lgpu_autopar \
  -ldl -o "$out/loops" &
tool_build=$!
$launcher "$nvcc" "${flags[@]}" "${hook[@]}" bench/gpu/reference.cu -ldl -o "$out/reference"
wait $tool_build

counts=${BENCH_GPU_COUNTS:-1,2,3,4,8}
gpus=$("$out/reference" count)
if [ "$gpus" -gt 0 ]; then
  IFS=';' read -ra groups <<< "${BENCH_GPU_GROUPS:-268435456 268435456 0 1 0 10 1;0 0 1024 10 256 10 1}"
  mode=(--mode measured --available "$gpus")
elif [ -e "$standin/libcudart.so.13" ]; then
  IFS=';' read -ra groups <<< "${BENCH_GPU_GROUPS:-524288 524288 0 1 0 5 512;0 0 512 10 128 5 1}"
  mode=(--mode modelled --standin "$standin")
else
  echo "== no GPU and no CUDA stand-in in $build: built $out/loops and $out/reference, nothing to run"
  exit 0
fi
group_args=()
for g in "${groups[@]}"; do group_args+=(--group "$g"); done
python3 bench/gpu/compare.py "${mode[@]}" --loops "$out/loops" --reference "$out/reference" --out "$out" \
  --gpus "$counts" "${group_args[@]}"
