// reduction(*): a product of many factors that are mostly 1, exactly
// representable, and an unsigned product that wraps (exact modulo 2^64).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>

int main() {
  const int n = 4096;
  double p = 1.0;
  unsigned long long h = 1;
#pragma gpu_autopar for reduction(*: p, h)
  for (int i = 1; i <= n; ++i) {
    p *= (i % 512 == 0) ? 2.0 : 1.0;
    h *= 2 * (unsigned long long)i + 1;
  }
  std::printf("p=%.1f h=%llu\n", p, h);
}
// CHECK: cpu: reduction-times.cpp:10 mode=kernel backend=cpu iterations=4096 devices=1
// CHECK: sim:3: reduction-times.cpp:10 mode=kernel backend=sim iterations=4096 devices=3
