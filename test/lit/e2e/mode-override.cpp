// mode(...) overrides the classification: a device-compilable body forced to
// task mode (one lease per iteration) and to host mode (CPU threads).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 8;
  std::vector<long> rows(n * 1000);
#pragma gpu_autopar for mode(task)
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < 1000; ++k)
      rows[r * 1000 + k] = (long)r * k;
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n * 1000; ++i)
    rows[i] += 1;
  long s = 0;
  for (long v : rows)
    s += v;
  std::printf("s=%ld\n", s);
}
// CHECK: cpu: mode-override.cpp:10 mode=task backend=cpu iterations=8 devices=1
// CHECK: cpu: mode-override.cpp:14 mode=host backend=cpu iterations=8000 devices=1
// CHECK: sim:3: mode-override.cpp:10 mode=task backend=sim iterations=8 devices=3
// CHECK: sim:3: mode-override.cpp:14 mode=host backend=cpu iterations=8000 devices=1
