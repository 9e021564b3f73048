#!/usr/bin/env bash
# package.add_subdirectory: a project that is not CUDA-enabled adds the
# gpu-autopar source tree (add_subdirectory/FetchContent) and calls
# gpu_autopar_target(). Configure and generate only: the rewrite rule must use
# the tool built in the same build, and the rewritten source must be compiled
# as C++ even though gpu-autopar's own directory enabled CUDA (it used to be
# handed to a CUDA compiler the project never set up, failing generation), and
# gpu-autopar's test suite is not part of the parent's build.
source "$(dirname "$0")/common.sh"
b="$GA_WORK/build"
logged "$GA_WORK/configure.log" "$GA_CMAKE" -S "$GA_SOURCE/test/package/projects/subdirectory" -B "$b" \
  -G "$GA_GENERATOR" -DCMAKE_CXX_COMPILER="$GA_CXX" -DGPU_AUTOPAR_SOURCE="$GA_SOURCE" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON

step "the rewritten saxpy.cpp is compiled as C++, after the in-tree tool rewrote it"
cc="$b/compile_commands.json"
entry=$(grep -F '"command": ' "$cc" | grep -F 'gpu_autopar/app/' || true)
[[ -n "$entry" ]] || fail "app does not compile a rewritten source (compile_commands.json)"
[[ "$entry" != *nvcc* ]] || fail "app's rewritten source is compiled by nvcc: $entry"
if [[ "$GA_GENERATOR" == Ninja ]]; then
  # The rewrite edge must depend on the tool target's output, so the tool is built first.
  grep -A2 '^build gpu_autopar/app/.*saxpy.cpp' "$b/build.ninja" | grep -q 'gpu-autopar/tool/gpu-autopar' ||
    fail "the rewrite of saxpy.cpp does not depend on the in-tree tool"
fi
step "gpu-autopar's own tests stay out of the parent project"
[[ ! -e "$b/gpu-autopar/test" ]] || fail "add_subdirectory() brought gpu-autopar's test suite into the parent build"
echo "OK: gpu_autopar_target works from an add_subdirectory() of the source tree"
