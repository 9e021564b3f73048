#!/usr/bin/env bash
# package.mpi: the optional MPI library of the installed package
# (docs/mpi.md): gpu_autopar_target(<t> MPI) and pkg-config gpu-autopar-mpi,
# each program run under mpirun on 2 ranks printing the serial output on both,
# and the same binary started without mpirun.
source "$(dirname "$0")/common.sh"
[[ -f "$GA_PREFIX/lib/libgpu_autopar_mpi.a" ]] || { echo "SKIP: gpu-autopar was built without MPI"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun (scripts/setup.sh installs openmpi-bin)"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for f in lib/cmake/GpuAutopar/GpuAutoparMpiTargets.cmake lib/pkgconfig/gpu-autopar-mpi.pc; do
  [[ -f "$GA_PREFIX/$f" ]] || fail "missing $f"
done

# run_ranks <program> <report>: both ranks' output must be the serial one.
run_ranks() {
  local prog=$1 report=$2
  rm -f "$report" out.*
  GPU_AUTOPAR_DEVICES=sim:4 GPU_AUTOPAR_REPORT="$report" timeout 120 \
    mpirun --allow-run-as-root --oversubscribe --mca btl self,tcp -np 2 \
    sh -c 'exec "$0" > "out.$OMPI_COMM_WORLD_RANK"' "$prog" || fail "mpirun $prog failed"
  for r in 0 1; do
    diff -u serial.txt "out.$r" || fail "$prog: rank $r printed something else than the serial build"
  done
  grep -q '"ranks":\[{"rank":0' "$report" || fail "$prog: no loop was split across the ranks ($report)"
}

cp -R "$GA_SOURCE/test/package/projects/mpi" "$GA_WORK/src"
step "configure and build a project with gpu_autopar_target(relax MPI)"
configure_project "$GA_WORK/src" "$GA_WORK/build"
logged "$GA_WORK/build.log" "$GA_CMAKE" --build "$GA_WORK/build" -j 2
cd "$GA_WORK"
./build/relax_serial > serial.txt
step "mpirun -np 2, sim:4 (two simulated devices per rank)"
run_ranks ./build/relax cmake.jsonl
step "the same binary without mpirun: one process, no rank in the report"
GPU_AUTOPAR_DEVICES=sim:2 GPU_AUTOPAR_REPORT=alone.jsonl ./build/relax > alone.txt
diff -u serial.txt alone.txt || fail "without mpirun the output differs"
if grep -q '"rank"' alone.jsonl; then fail "without mpirun the report speaks of ranks"; fi

if command -v pkg-config >/dev/null; then
  step "pkg-config gpu-autopar-mpi"
  export PKG_CONFIG_PATH="$GA_PREFIX/lib/pkgconfig"
  "$GA_PREFIX/bin/gpu-autopar" src/relax.cpp -o relax.par.cpp -- -std=c++17
  # shellcheck disable=SC2046
  logged pc.log "$GA_CXX" -std=c++17 -O1 relax.par.cpp $(pkg-config --cflags --libs gpu-autopar-mpi) -o relax_pc
  run_ranks ./relax_pc pc.jsonl
fi
echo "OK: the MPI library splits loops across ranks, from CMake and from pkg-config"
