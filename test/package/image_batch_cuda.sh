#!/usr/bin/env bash
# package.image_batch_cuda: the CUDA variant of examples/image_batch
# (-DIMAGE_BATCH_CUDA=ON) configures and compiles against the installed
# package: the rewritten sources are compiled by nvcc with --extended-lambda.
# Compile and link only: there is no GPU to run it on.
source "$(dirname "$0")/common.sh"
: "${GA_NVCC:?}"
b="$GA_WORK/build"

step "configure and build examples/image_batch as CUDA with $GA_NVCC"
configure_project "$GA_SOURCE/examples/image_batch" "$b" -DIMAGE_BATCH_CUDA=ON \
  -DCMAKE_CUDA_COMPILER="$GA_NVCC"
logged "$GA_WORK/build.log" "$GA_CMAKE" --build "$b" -j 2 --target image_batch
[[ -x "$b/image_batch" ]] || fail "no image_batch executable"

step "the rewritten sources were compiled as CUDA, with --extended-lambda --expt-relaxed-constexpr --diag-error 20011,20013"
cc="$b/compile_commands.json"
if [[ -f "$cc" ]]; then
  for f in main.cpp image.cpp filters.cpp pipeline.cpp; do
    entry=$(grep -F "\"command\": " "$cc" | grep -F "gpu_autopar/image_batch/$f" || true)
    [[ "$entry" == *nvcc* ]] || fail "$f was not compiled by nvcc: $entry"
    [[ "$entry" == *--extended-lambda* ]] || fail "$f was compiled without --extended-lambda: $entry"
    [[ "$entry" == *"--expt-relaxed-constexpr"* && "$entry" == *"--diag-error 20011,20013"* ]] ||
      fail "$f was compiled without --expt-relaxed-constexpr --diag-error 20011,20013: $entry"
  done
fi
echo "OK: the CUDA variant compiles (not run: no GPU)"
