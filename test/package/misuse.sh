#!/usr/bin/env bash
# package.misuse: wrong calls of gpu_autopar_target() fail at configure time
# with a message naming the problem; right ones configure, and SOURCES limits
# the rewrite to the listed sources, and ACCEPT omp rewrites an OpenMP loop.
source "$(dirname "$0")/common.sh"
proj="$GA_SOURCE/test/package/projects/misuse"
b="$GA_WORK/build"
configure_project "$proj" "$b" -DCASE=ok

# must_fail <case> <message regex>
must_fail() {
  local out
  if out=$("$GA_CMAKE" -S "$proj" -B "$b" -DCASE="$1" 2>&1); then
    echo "$out"; fail "CASE=$1 configured, but it must not"
  fi
  # CMake wraps long messages: compare on one line.
  grep -Eq -- "$2" <<<"$(tr -s '\n ' '  ' <<<"$out")" || { echo "$out"; fail "CASE=$1: no message matching '$2'"; }
  echo "   CASE=$1: refused as expected"
}
step "wrong calls are refused with a clear message"
must_fail twice "gpu_autopar_target\(app\) was already called for this target"
must_fail language "LANGUAGE must be CXX or CUDA, not 'Fortran'"
must_fail not_a_target "gpu_autopar_target: 'ap' is not a target"
must_fail unknown_argument "gpu_autopar_target\(app\): unknown arguments: STRICTLY"
must_fail accept_cuda "gpu_autopar_target\(app\): ACCEPT takes omp and acc, not 'cuda'"

step "ACCEPT omp: an OpenMP loop is rewritten and runs"
logged "$GA_WORK/accept.configure.log" "$GA_CMAKE" -S "$proj" -B "$b" -DCASE=accept
logged "$GA_WORK/accept.build.log" "$GA_CMAKE" --build "$b" --target omp_app
"$b/omp_app" || fail "the ACCEPT omp build of omp_app computed a wrong result"
grep -q "::gpu_autopar::last_private(last)" "$b/gpu_autopar/omp_app/openmp.cpp" ||
  fail "openmp.cpp was not rewritten from its OpenMP directive"

step "SOURCES: only the listed sources are rewritten"
logged "$GA_WORK/sources.configure.log" "$GA_CMAKE" -S "$proj" -B "$b" -DCASE=sources
logged "$GA_WORK/sources.build.log" "$GA_CMAKE" --build "$b"
"$b/app" || fail "the SOURCES build of app computed a wrong total"
cc=$(grep -F '"command": ' "$b/compile_commands.json")
grep -q "gpu_autopar/app/helper.cpp" <<<"$cc" || fail "helper.cpp (listed) was not compiled from its rewritten copy"
grep -q "gpu_autopar/app/main.cpp" <<<"$cc" && fail "main.cpp (not listed) was rewritten"
grep -q "$proj/main.cpp" <<<"$cc" || fail "main.cpp (not listed) is not compiled from the original"
echo "OK: misuse of gpu_autopar_target is reported, SOURCES and ACCEPT are honoured"
