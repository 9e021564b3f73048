#!/bin/sh
# Builds the runtime and its tests with ThreadSanitizer and AddressSanitizer
# (separate build trees, without the LLVM-linked tool) and runs the runtime's
# unit and API tests under each. Usage: scripts/sanitize.sh [thread|address]...
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
[ $# -gt 0 ] || set -- thread address
for san in "$@"; do
  build="$root/build-$san"
  echo "== $san sanitizer ($build)"
  cmake -S "$root" -B "$build" -G Ninja -DGPU_AUTOPAR_BUILD_TOOL=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGPU_AUTOPAR_SANITIZE="$san" >/dev/null
  ninja -C "$build" -j"$jobs" runtime_unit_tests runtime_api_tests
  # halt_on_error: a report fails the run instead of scrolling past.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 die_after_fork=0" ASAN_OPTIONS="halt_on_error=1 detect_leaks=1" \
    "$build/test/unit/runtime_unit_tests"
  for devices in cpu sim:3 "sim:4,speed=1:2:1:1,fail=1@2"; do
    TSAN_OPTIONS="halt_on_error=1 die_after_fork=0" ASAN_OPTIONS="halt_on_error=1" GPU_AUTOPAR_DEVICES="$devices" \
      "$build/test/api/runtime_api_tests"
  done
done
