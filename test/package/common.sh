# Shared by the package tests (sourced). Inputs come from ctest's ENVIRONMENT
# (test/package/CMakeLists.txt):
#   GA_CMAKE      the cmake that configured gpu-autopar
#   GA_GENERATOR  its generator, reused for the example projects
#   GA_CXX        its C++ compiler
#   GA_SOURCE     the gpu-autopar source tree
#   GA_PREFIX     where package.install left the installed, relocated package
#   GA_WORK       this test's scratch directory (emptied first)
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

# Run a command with its output kept in a log; on failure show the log.
logged() {
  local log=$1; shift
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    cat "$log" >&2
    fail "command failed with exit status $rc: $*"
  fi
}

# Configure and build a CMake project against the installed package only.
# The prefix is the one place gpu-autopar is found: no build-tree fallback.
configure_project() {  # <source dir> <build dir> [cmake args...]
  local src=$1 bin=$2; shift 2
  logged "$bin.configure.log" "$GA_CMAKE" -S "$src" -B "$bin" -G "$GA_GENERATOR" \
    -DCMAKE_CXX_COMPILER="$GA_CXX" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$GA_PREFIX" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@"
}

[[ -n "${GA_WORK:-}" && -n "${GA_PREFIX:-}" ]] || fail "run through ctest (GA_WORK/GA_PREFIX unset)"
rm -rf "$GA_WORK"
mkdir -p "$GA_WORK"
