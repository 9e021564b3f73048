// Matrix multiply, one row of C per iteration: A's row i (A[i*n + k] over the
// inner loop), all of B (B[k*n + j] does not depend on i), C's row i written.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 96;
  std::vector<double> A(n * n), B(n * n), C(n * n, -1.0);
  for (int k = 0; k < n * n; ++k) {
    A[k] = (k % 9) - 4;
    B[k] = (k % 5) + 1;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
  }
  double trace = 0, s = 0;
  for (int i = 0; i < n; ++i)
    trace += C[i * n + i];
  for (int k = 0; k < n * n; ++k)
    s += C[k] * (k % 3);
  std::printf("trace=%.1f s=%.1f\n", trace, s);
}
// CHECK: cpu: matmul.cpp:14 mode=kernel backend=cpu iterations=96 devices=1
// CHECK: sim:1: matmul.cpp:14 mode=kernel backend=sim iterations=96 devices=1
// CHECK: sim:3: matmul.cpp:14 mode=kernel backend=sim iterations=96 devices=3
