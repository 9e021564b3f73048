// reduction(+) over integers and floating point (integer-valued, so every
// order of summation gives the same double).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 200003;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = (i * 31) % 1000 - 500;
  long long total = 7;
  double weighted = 0.5;
#pragma gpu_autopar for reduction(+: total, weighted)
  for (int i = 0; i < n; ++i) {
    total += v[i];
    weighted += double(v[i]) * (i % 4);
  }
  std::printf("total=%lld weighted=%.1f\n", total, weighted);
}
// CHECK: cpu: reduction-plus.cpp:14 mode=kernel backend=cpu iterations=200003 devices=1
// CHECK: sim:3: reduction-plus.cpp:14 mode=kernel backend=sim iterations=200003 devices=3
// CHECK: sim:4,speed=1:2:1:1: reduction-plus.cpp:14 mode=kernel backend=sim iterations=200003 devices=4
