#!/usr/bin/env bash
# package.headers: the installed include directory holds the runtime's public
# API only. Lists it and fails if anything of the test suite or of the
# runtime's internals is there: the CUDA stand-in's hook (a dlsym per kernel
# instantiation in every user program), the CPU pool's internals, test-only
# entry points. The templates' helpers live in namespace gpu_autopar::detail
# of the public headers; the runtime's own machinery stays in runtime/src.
source "$(dirname "$0")/common.sh"
inc="$GA_PREFIX/include"
[[ -d "$inc/gpu_autopar" ]] || fail "no $inc/gpu_autopar (package.install did not run?)"

step "the installed include directory"
(cd "$inc" && find . -type f | sort | sed 's|^\./|  |')

# gpu_autopar/openmp/omp.h: OpenMP's API for programs rewritten from OpenMP
# and built without it (what `#include <omp.h>` finds in the tool's parse).
step "nothing but gpu_autopar/*.h and gpu_autopar/openmp/omp.h"
if extra=$(cd "$inc" && find . -mindepth 1 ! -path './gpu_autopar' ! -path './gpu_autopar/*.h' \
             ! -path './gpu_autopar/openmp' ! -path './gpu_autopar/openmp/omp.h' | grep .); then
  fail "the include directory holds more than gpu_autopar/*.h and gpu_autopar/openmp/omp.h: $(echo $extra)"
fi

step "no test hook, no pool internals, no test-only entry points"
# By name: the stand-in's hook, the CPU pool, the lease pool, anything for tests.
if bad=$(cd "$inc/gpu_autopar" && ls | grep -E -i 'standin|stand_in|host_pool|lease_pool|test'); then
  fail "installed headers that are not public API: $(echo $bad)"
fi
# By content: what those headers declare, wherever it would move to. (chunk_kernel.h
# names the hook's header under #if defined(GPU_AUTOPAR_STANDIN_HOOK), which
# only a test build defines: that line is allowed, the hook itself is not.)
for pattern in 'dlsym' 'dlfcn\.h' 'standin_registrar' 'standin_twin_of' 'gpu_autopar_standin_twin' \
               'class host_pool' 'host_pool::' 'make_range_fn' 'lease_pool' '_for_testing'; do
  if hits=$(grep -n -E "$pattern" "$inc"/gpu_autopar/*.h); then
    echo "$hits" | sed "s|^$inc/||" >&2
    fail "installed headers mention '$pattern' (a test hook or the runtime's internals)"
  fi
done

step "gpu_autopar.h compiles on its own with the installed headers only"
printf '#include <gpu_autopar/gpu_autopar.h>\nint main() { return 0; }\n' > "$GA_WORK/only.cpp"
logged "$GA_WORK/only.log" "$GA_CXX" -std=c++17 -fsyntax-only -I"$inc" "$GA_WORK/only.cpp"
if [[ -n "${GA_NVCC:-}" ]]; then
  # What nvcc compiles of a user's CUDA file: no dlsym, no twin registration.
  step "as CUDA (nvcc -E), without GPU_AUTOPAR_STANDIN_HOOK: no trace of the stand-in"
  logged "$GA_WORK/only.cu.log" "$GA_NVCC" -std=c++17 --extended-lambda -E -x cu -I"$inc" "$GA_WORK/only.cpp" \
    -o "$GA_WORK/only.cu.ii"
  if grep -n -E 'dlsym|register_standin_twin|gpu_autopar_standin' "$GA_WORK/only.cu.ii" | head -3 >&2; then
    fail "a user's CUDA build of gpu_autopar.h holds the stand-in's hook"
  fi
fi
echo "OK: the installed headers are the public API ($(ls "$inc/gpu_autopar" | wc -l) files)"
