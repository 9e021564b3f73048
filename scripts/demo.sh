#!/usr/bin/env bash
# The demo part of try.sh, on an existing build: rewrites the quickstart
# example, compiles and runs the result next to the serial program built from
# the unmodified source, and shows in words how the runtime split the loop over
# simulated devices. Where nvcc exists it also builds the CUDA variant and says
# what a run of it does on this machine. ctest runs it too (test "try-demo"),
# so the README's first command cannot rot.
# Usage: scripts/demo.sh [build-dir [output-dir]]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
src=examples/quickstart/saxpy.cpp
out=${2:-$build/try}
mkdir -p "$out"
echo
echo "== gpu-autopar $src -o $out/saxpy.par.cpp"
"$build/tool/gpu-autopar" "$src" -o "$out/saxpy.par.cpp" -- -std=c++17
grep -n "gpu_autopar::" "$out/saxpy.par.cpp" | sed 's/^/   /'

# The CUDA variant (below) compiles meanwhile: nvcc is a chain of single-threaded
# steps, and the two host compiles take the second core.
nvcc=""
if command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -std=c++17 --extended-lambda --expt-relaxed-constexpr --diag-error 20011,20013 -arch=sm_75 -O2 \
    -x cu -Iruntime/include "$out/saxpy.par.cpp" -L"$build/runtime" -lgpu_autopar -Xcompiler -pthread \
    -o "$out/saxpy.cuda" > "$out/nvcc.log" 2>&1 &
  nvcc_job=$!
  trap 'kill $nvcc_job 2> /dev/null || true' EXIT   # an early failure leaves no nvcc behind
fi

echo "== compile the rewritten file and the original"
c++ -std=c++17 -O2 -Iruntime/include "$out/saxpy.par.cpp" "$build/runtime/libgpu_autopar.a" -pthread -o "$out/saxpy.par" &
par_job=$!
c++ -std=c++17 -O2 -Wno-unknown-pragmas "$src" -o "$out/saxpy.serial"
wait $par_job

echo "== serial"
"$out/saxpy.serial" | tee "$out/serial.txt"
same_as_serial() {
  cmp -s "$1" "$out/serial.txt" || { echo "== OUTPUT DIFFERS from the serial program"; exit 1; }
}
devices=${GPU_AUTOPAR_DEVICES:-auto}
echo "== run (GPU_AUTOPAR_DEVICES=$devices)"
GPU_AUTOPAR_DEVICES=$devices GPU_AUTOPAR_LOG=info "$out/saxpy.par" | tee "$out/par.txt"
same_as_serial "$out/par.txt"
echo "   same output as the serial program"

# No GPUs needed to see a multi-GPU split: three simulated devices, each with
# its own memory and worker thread. The runtime's report says how it went.
echo "== run on three simulated devices (GPU_AUTOPAR_DEVICES=sim:3)"
rm -f "$out/sim.jsonl"
GPU_AUTOPAR_DEVICES=sim:3 GPU_AUTOPAR_REPORT="$out/sim.jsonl" "$out/saxpy.par" > "$out/sim.txt"
same_as_serial "$out/sim.txt"
python3 scripts/show_split.py "$out/sim.jsonl" | sed 's/^/   /'
echo "   Each device took chunks as it became free (the adaptive schedule), and its iterations add up to"
echo "   the loop's. Simulated devices are threads sharing this machine's $(nproc) cores, so three equal"
echo "   ones rarely get equal shares here: whichever thread gets a core first takes more chunks."
echo "   Uneven devices: GPU_AUTOPAR_DEVICES=sim:3,speed=1:2:1 (docs/runtime.md)."
echo "   same output as the serial program"

if [ -n "$nvcc" ]; then
  echo "== the CUDA variant: nvcc $out/saxpy.par.cpp (as CUDA, sm_75)"
  wait $nvcc_job || { cat "$out/nvcc.log"; echo "== nvcc failed"; exit 1; }
  cat "$out/nvcc.log"
  GPU_AUTOPAR_LOG=info "$out/saxpy.cuda" > "$out/cuda.txt" 2> "$out/cuda.log"
  same_as_serial "$out/cuda.txt"
  if grep -q "running on CPU threads" "$out/cuda.log"; then
    echo "   no GPU here, so the loop ran on CPU threads; the runtime said why:"
    sed 's/^/     /' "$out/cuda.log"
    echo "   On a machine with GPUs, each GPU would get a share of the 4194304 iterations, run them as"
    echo "   one GPU thread each, with its slices of x and y copied in and y copied back."
  else
    sed 's/^/   /' "$out/cuda.log"
    echo "   same output as the serial program, computed on the GPUs listed above"
  fi
else
  echo "== no nvcc: the CUDA variant is skipped (install CUDA at /usr/local/cuda to build it)"
fi
