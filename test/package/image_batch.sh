#!/usr/bin/env bash
# package.image_batch: examples/image_batch built against the installed
# package (find_package(GpuAutopar) + gpu_autopar_target), run on three
# simulated devices, and compared with the serial build of the same sources.
source "$(dirname "$0")/common.sh"
: "${GA_CHECK_REPORT:?}"
b="$GA_WORK/build"
# A copy, so that the rebuild check below can touch a source without touching the checkout.
src="$GA_WORK/src"
cp -R "$GA_SOURCE/examples/image_batch" "$src"

step "configure and build examples/image_batch against $GA_PREFIX"
configure_project "$src" "$b"
logged "$GA_WORK/build.log" "$GA_CMAKE" --build "$b" -j 2

step "the rewritten sources are what was compiled"
for f in main.cpp image.cpp filters.cpp pipeline.cpp; do
  [[ -f "$b/gpu_autopar/image_batch/$f" ]] || fail "no rewritten $f in the build tree"
done
grep -q 'gpu_autopar::task_loop' "$b/gpu_autopar/image_batch/pipeline.cpp" ||
  fail "pipeline.cpp's task-mode loop was not rewritten"
grep -q 'gpu_autopar::kernel_loop' "$b/gpu_autopar/image_batch/pipeline.cpp" ||
  fail "pipeline.cpp's kernel-mode loops were not rewritten"
# Compiler errors must name the original: the copy carries #line directives.
grep -q "#line [0-9]* \"$src/pipeline.cpp\"" "$b/gpu_autopar/image_batch/pipeline.cpp" ||
  fail "the rewritten pipeline.cpp has no #line naming the original by its absolute path"

step "REPORT loops.json: the tool's decisions for the three loops"
"$GA_CMAKE" -DREPORT="$b/loops.json" -DKIND=tool -DEXPECT_MODES="task;kernel;kernel" -P "$GA_CHECK_REPORT"

step "run on GPU_AUTOPAR_DEVICES=sim:3 and serially"
"$b/image_batch_serial" > "$GA_WORK/serial.txt"
rm -f "$GA_WORK/run.jsonl"
GPU_AUTOPAR_DEVICES=sim:3 GPU_AUTOPAR_REPORT="$GA_WORK/run.jsonl" "$b/image_batch" > "$GA_WORK/par.txt"
if ! diff -u "$GA_WORK/serial.txt" "$GA_WORK/par.txt"; then
  fail "image_batch on sim:3 printed something else than the serial build"
fi
[[ -s "$GA_WORK/serial.txt" ]] || fail "the serial build printed nothing"
"$GA_CMAKE" -DREPORT="$GA_WORK/run.jsonl" -DKIND=run -DEXPECT_MODES="task;kernel;kernel" \
  -DBACKEND=sim -DDEVICES=3 -P "$GA_CHECK_REPORT"

step "docs/tutorial.md shows what this run reported"
python3 "$GA_SOURCE/test/package/tutorial_matches.py" "$GA_SOURCE/docs/tutorial.md" "$b/loops.json" "$GA_WORK/run.jsonl" ||
  fail "docs/tutorial.md no longer matches a run of examples/image_batch"

step "editing a source re-runs its rewrite, and only its"
sleep 1   # make the new timestamp visibly newer on coarse-grained filesystems
touch "$src/pipeline.cpp"
"$GA_CMAKE" --build "$b" -j 2 > "$GA_WORK/rebuild.log" 2>&1 || { cat "$GA_WORK/rebuild.log"; fail "rebuild failed"; }
grep -q 'rewriting pipeline.cpp' "$GA_WORK/rebuild.log" || { cat "$GA_WORK/rebuild.log"; fail "touching pipeline.cpp did not re-run its rewrite"; }
! grep -q 'rewriting image.cpp' "$GA_WORK/rebuild.log" || fail "touching pipeline.cpp re-ran the rewrite of image.cpp"

step "editing a header re-runs the rewrites of the sources that include it"
sleep 1
touch "$src/pipeline.h"   # included by main.cpp and pipeline.cpp, not by image.cpp
"$GA_CMAKE" --build "$b" -j 2 > "$GA_WORK/rebuild-header.log" 2>&1 || { cat "$GA_WORK/rebuild-header.log"; fail "rebuild failed"; }
for f in main.cpp pipeline.cpp; do
  grep -q "rewriting $f" "$GA_WORK/rebuild-header.log" ||
    { cat "$GA_WORK/rebuild-header.log"; fail "touching pipeline.h did not re-run the rewrite of $f"; }
done
! grep -q 'rewriting image.cpp' "$GA_WORK/rebuild-header.log" || fail "touching pipeline.h re-ran the rewrite of image.cpp"
if [[ "$GA_GENERATOR" == Ninja ]]; then
  # Depfiles Ninja cannot match to their outputs make every build redo the rewrites.
  out=$("$GA_CMAKE" --build "$b" 2>&1)
  grep -q 'no work to do' <<<"$out" || { echo "$out"; fail "a build right after a build is not a no-op"; }
fi
echo "OK: image_batch on sim:3 matches the serial build"
