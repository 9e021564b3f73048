// saxpy over std::vector: a kernel-mode loop whose maps are x (to) and y
// (tofrom), one element per iteration; the trip count is prime so no device
// count divides it.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 100003;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * (i % 1000);
    y[i] = 1.0f + (i % 7);
  }
  const float a = 2.5f;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];

  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += y[i] * (i % 13);
  std::printf("sum=%.3f first=%.2f last=%.2f\n", sum, y[0], y[n - 1]);
}
// CHECK: cpu: saxpy-vector.cpp:16 mode=kernel backend=cpu iterations=100003 devices=1
// CHECK: sim:1: saxpy-vector.cpp:16 mode=kernel backend=sim iterations=100003 devices=1
// CHECK: sim:3: saxpy-vector.cpp:16 mode=kernel backend=sim iterations=100003 devices=3
// CHECK: sim:4,speed=1:2:1:1: saxpy-vector.cpp:16 mode=kernel backend=sim iterations=100003 devices=4
