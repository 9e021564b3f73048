#!/usr/bin/env bash
# gpu-autopar vs hand-written CUDA on every visible GPU, in one command:
# saxpy over 2^28 floats, a 4096 x 4096 Jacobi-2d sweep and a dot product of
# 2^28 floats (bench/gpu/loops.cpp through the tool and nvcc, against
# bench/gpu/reference.cu), each with its copies and with its data resident,
# printing the times and their ratio (bench/README.md, "GPU programs").
#
# Without a GPU it builds both programs, runs the tool's at small sizes on
# simulated devices (and on the CUDA stand-in when the build has it) to check
# that they compute what the serial loops do, says that there is no GPU to
# measure on, and exits 0. ctest runs it that way (test bench.gpu).
#
# Usage: bench/gpu/run.sh [build-dir [REPS]]
#   BENCH_GPU_ARCH=sm_90 compiles for that architecture (default sm_75: the
#   driver compiles its PTX for newer GPUs at the first launch, untimed).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
reps=${2:-20}
out=$build/bench/gpu
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
  echo "bench/gpu: no nvcc (install CUDA at /usr/local/cuda); nothing built" >&2
  exit 1
fi
launcher=$(command -v ccache || true)
arch=${BENCH_GPU_ARCH:-sm_75}
# A dropped device body is a build error (20011, 20013); the runtime is
# linked with -cudart shared so the CUDA stand-in can stand in for libcudart.
flags=(-std=c++17 -O3 -arch="$arch" --extended-lambda --expt-relaxed-constexpr --diag-error 20011,20013
       -cudart shared -Xcompiler -pthread)

# Where the build has the CUDA stand-in, the tool's program registers its
# kernels' host twins with it (test/standin/README.md); with a real CUDA
# runtime that registration does nothing.
hook=()
if [ -e "$build/test/standin/lib/libcudart.so.13" ]; then
  hook=(-DGPU_AUTOPAR_STANDIN_HOOK -Itest/standin/include)
fi

echo "== build (nvcc -arch=$arch) into $out"
"$build/tool/gpu-autopar" bench/gpu/loops.cpp -o "$out/loops.par.cpp" -- -std=c++17 2> "$out/tool.log" ||
  { cat "$out/tool.log" >&2; exit 1; }
$launcher "$nvcc" "${flags[@]}" "${hook[@]}" -x cu -Iruntime/include "$out/loops.par.cpp" -L"$build/runtime" -lgpu_autopar \
  -o "$out/loops" &
tool_build=$!
$launcher "$nvcc" "${flags[@]}" bench/gpu/reference.cu -o "$out/reference"
wait $tool_build

gpus=$("$out/reference" count)
if [ "$gpus" -eq 0 ]; then
  echo "== no GPU here: the CUDA runtime sees none, so there is nothing to measure"
  echo "   built $out/loops (gpu-autopar) and $out/reference (hand-written CUDA);"
  echo "   checking the tool's program at small sizes instead:"
  checks=("saxpy 100003 2" "jacobi 67 3" "dot 100003 2")
  for c in "${checks[@]}"; do
    # shellcheck disable=SC2086
    GPU_AUTOPAR_DEVICES=sim:3 "$out/loops" $c | sed 's/^/   sim:3      /'
  done
  standin=$build/test/standin/lib
  if [ -e "$standin/libcudart.so.13" ]; then
    rm -f "$out/standin.log"
    for c in "${checks[@]}"; do
      # shellcheck disable=SC2086
      LD_LIBRARY_PATH=$standin GPU_AUTOPAR_STANDIN_DEVICES=2 GPU_AUTOPAR_STANDIN_LOG="$out/standin.log" \
        GPU_AUTOPAR_DEVICES=cuda "$out/loops" $c | sed 's/^/   stand-in:2 /'
    done
    # The stand-in logs every misuse of the CUDA runtime API it sees.
    if grep "violation" "$out/standin.log" >&2; then
      echo "bench/gpu: the CUDA stand-in saw the misuses above ($out/standin.log)" >&2
      exit 1
    fi
  fi
  echo "   On a machine with GPUs, bash bench/gpu/run.sh measures both programs on all of them."
  exit 0
fi

echo "== $gpus GPU(s); $reps resident reps per loop"
results=$out/results.txt
: > "$results"
for loop in saxpy jacobi dot; do
  report=$out/$loop.report.jsonl
  rm -f "$report"
  # (assigned first, so that a failing run stops the script)
  tool=$(GPU_AUTOPAR_DEVICES=cuda GPU_AUTOPAR_REPORT=$report "$out/loops" $loop 0 "$reps")
  hand=$("$out/reference" $loop 0 "$reps")
  printf 'tool %s\nreference %s\n' "$tool" "$hand" >> "$results"
  # Every loop of the tool's program must have run on the GPUs, all of them.
  python3 - "$report" "$gpus" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "loop" in r and (r["backend"] != "cuda" or len(r["devices"]) != int(sys.argv[2])):
        sys.exit("bench/gpu: %s ran on %s with %d device(s), not on the %s GPUs: %s"
                 % (r["loop"], r["backend"], len(r["devices"]), sys.argv[2], r.get("fallback")))
PY
done
python3 - "$results" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    who, loop, *fields = line.split()
    rows.setdefault(loop, {})[who] = dict(f.split("=", 1) for f in fields)
print("%-7s %-9s %12s %12s %8s" % ("loop", "timing", "gpu-autopar", "hand CUDA", "ratio"))
bad = False
for loop, r in rows.items():
    t, h = r["tool"], r["reference"]
    for what in ("copies_s", "resident_s"):
        a, b = float(t[what]), float(h[what])
        print("%-7s %-9s %11.3fms %11.3fms %7.2fx" % (loop, what[:-2], a * 1e3, b * 1e3, a / b))
    # Same inputs, same number of sweeps or updates: the same result.
    ct, ch = float(t["checksum"]), float(h["checksum"])
    if abs(ct - ch) > 1e-9 * max(1.0, abs(ch)):
        print("  %s: checksums differ: gpu-autopar %s, hand-written %s" % (loop, t["checksum"], h["checksum"]))
        bad = True
print("ratio = gpu-autopar time / hand-written CUDA time (lower is better; 1.00x = as fast)")
sys.exit(1 if bad else 0)
PY
