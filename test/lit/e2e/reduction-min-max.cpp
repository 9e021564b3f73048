// reduction(min) and reduction(max), written with std::min/std::max and with
// a conditional, over integers and doubles.
// RUN: %e2e --out %t %s | FileCheck %s
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
  const int n = 100000;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = double((i * 7919L) % 100003) - 50000.5;
  double lo = 1e300, hi = -1e300;
  int first_big = n, last_big = -1;
#pragma gpu_autopar for reduction(min: lo, first_big) reduction(max: hi, last_big)
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
    if (x[i] > 49000)
      first_big = i < first_big ? i : first_big;
    if (x[i] > 49000)
      last_big = i > last_big ? i : last_big;
  }
  std::printf("lo=%.1f hi=%.1f first=%d last=%d\n", lo, hi, first_big, last_big);
}
// CHECK: cpu: reduction-min-max.cpp:15 mode=kernel backend=cpu iterations=100000 devices=1
// CHECK: sim:3: reduction-min-max.cpp:15 mode=kernel backend=sim iterations=100000 devices=3
