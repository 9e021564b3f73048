#!/usr/bin/env bash
# The first command: installs what is missing, builds gpu-autopar, rewrites the
# quickstart example with it, compiles and runs the result, and shows what the
# runtime did, next to the serial program built from the unmodified source.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh

src=examples/quickstart/saxpy.cpp
out=build/try
mkdir -p "$out"
echo
echo "== gpu-autopar $src -o $out/saxpy.par.cpp"
build/tool/gpu-autopar "$src" -o "$out/saxpy.par.cpp" -- -std=c++17
grep -n "gpu_autopar::" "$out/saxpy.par.cpp" | sed 's/^/   /'

echo "== compile the rewritten file and the original"
c++ -std=c++17 -O2 -Iruntime/include "$out/saxpy.par.cpp" build/runtime/libgpu_autopar.a -pthread -o "$out/saxpy.par"
c++ -std=c++17 -O2 -Wno-unknown-pragmas "$src" -o "$out/saxpy.serial"

devices=${GPU_AUTOPAR_DEVICES:-auto}
echo "== run (GPU_AUTOPAR_DEVICES=$devices)"
rm -f "$out/report.jsonl"
GPU_AUTOPAR_DEVICES=$devices GPU_AUTOPAR_LOG=info GPU_AUTOPAR_REPORT="$out/report.jsonl" "$out/saxpy.par" | tee "$out/par.txt"
echo "== serial"
"$out/saxpy.serial" | tee "$out/serial.txt"
if cmp -s "$out/par.txt" "$out/serial.txt"; then
  echo "== same output as the serial program"
else
  echo "== OUTPUT DIFFERS from the serial program"; exit 1
fi

# No GPUs needed to see a multi-GPU split: three simulated devices, each with
# its own memory and worker. The report line says how the iterations went.
echo "== run on three simulated devices (GPU_AUTOPAR_DEVICES=sim:3)"
rm -f "$out/sim.jsonl"
GPU_AUTOPAR_DEVICES=sim:3 GPU_AUTOPAR_REPORT="$out/sim.jsonl" "$out/saxpy.par" | tee "$out/sim.txt"
cmp -s "$out/sim.txt" "$out/serial.txt" || { echo "== OUTPUT DIFFERS from the serial program"; exit 1; }
echo "   report: $(cat "$out/sim.jsonl")"
echo "== same output; next: README.md (tutorial) and examples/image_batch (a CMake project)"
