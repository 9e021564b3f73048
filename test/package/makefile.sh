#!/usr/bin/env bash
# package.makefile: examples/makefile, the plain-Makefile use
# (gpu-autopar file.cpp -o out.cpp, then the compiler, and nvcc where there is one, with
# `pkg-config --cflags --libs gpu-autopar`), with only the installed
# package's bin/ on PATH and its lib/pkgconfig on PKG_CONFIG_PATH.
source "$(dirname "$0")/common.sh"
command -v make >/dev/null || { echo "SKIP: no make"; exit 77; }
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config"; exit 77; }

cp -R "$GA_SOURCE/examples/makefile" "$GA_WORK/src"
cd "$GA_WORK/src"
export PATH="$GA_PREFIX/bin:$PATH" PKG_CONFIG_PATH="$GA_PREFIX/lib/pkgconfig"
[[ "$(command -v gpu-autopar)" == "$GA_PREFIX/bin/gpu-autopar" ]] || fail "PATH does not find the installed gpu-autopar"

step "make (rewrite + compile) and make serial"
logged "$GA_WORK/make.log" make CXX="$GA_CXX"
logged "$GA_WORK/make-serial.log" make CXX="$GA_CXX" serial
grep -q 'gpu-autopar histogram.cpp -o histogram.par.cpp' "$GA_WORK/make.log" ||
  fail "make did not run gpu-autopar"
grep -q 'gpu_autopar::kernel_loop' histogram.par.cpp || fail "histogram.par.cpp has no rewritten loop"

step "run on GPU_AUTOPAR_DEVICES=sim:3 and serially"
./histogram_serial > serial.txt
GPU_AUTOPAR_DEVICES=sim:3 GPU_AUTOPAR_REPORT=run.jsonl ./histogram > par.txt
diff -u serial.txt par.txt || fail "histogram on sim:3 printed something else than the serial build"
"$GA_CMAKE" -DREPORT=run.jsonl -DKIND=run -DEXPECT_MODES="kernel;kernel" -DBACKEND=sim -DDEVICES=3 \
  -P "$GA_CHECK_REPORT"

if [[ -n "${GA_NVCC:-}" ]]; then
  # Compile and link only: there is no GPU to run it on.
  step "make cuda (the same rewritten file through nvcc, pkg-config flags)"
  logged "$GA_WORK/make-cuda.log" make NVCC="$GA_NVCC" cuda
  [[ -x histogram_cuda ]] || fail "make cuda built no histogram_cuda"
fi
echo "OK: the Makefile variant matches the serial build"
