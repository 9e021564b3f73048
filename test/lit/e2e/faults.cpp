// Injected device faults: chunks that fail (device_error) or run out of
// device memory are retried elsewhere, the failing device leaves the loop,
// and the result is the serial one; every iteration is still accounted for.
// RUN: %e2e --out %t %s --devices "sim:3,fail=0@1+1@1;sim:2,oom=0@1+1@1;sim:4,speed=1:2:1:1,fail=1@1+3@2" | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 120001;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = i % 1000;
  double total = 0;
#pragma gpu_autopar for reduction(+: total) schedule(dynamic, 5000)
  for (int i = 0; i < n; ++i) {
    y[i] = 2 * x[i] + 1;
    total += y[i];
  }
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    x[i] = y[i - 1] - y[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  std::printf("total=%.1f s=%.1f\n", total, s);
}
// Two of three devices fail their first chunk: the third does the rest (the
// report calls that a fallback to fewer GPUs).
// CHECK: sim:3,fail=0@1+1@1: faults.cpp:14 mode=kernel backend=sim iterations=120001 devices=1 fallback=gpu
// CHECK: sim:3,fail=0@1+1@1: faults.cpp:19 mode=kernel backend=sim iterations=120000 devices=3
// Both devices run out of memory on their first chunk, which is split smaller
// and retried; the loop still runs on the simulated devices.
// CHECK: sim:2,oom=0@1+1@1: faults.cpp:14 mode=kernel backend=sim iterations=120001 devices={{[12]}}
// CHECK: sim:4,speed=1:2:1:1,fail=1@1+3@2: faults.cpp:14 mode=kernel backend=sim iterations=120001 devices={{[2-4]}} fallback=gpu
