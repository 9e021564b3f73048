// collapse(2): matmul with one GPU thread per element of C, and a C89-style
// nest (variables declared at the top, a descending inner loop) with a
// reduction. The collapsed index space (96 x 80) is cut into chunks that
// start and end inside rows, so neighbouring chunks share a row of C and
// must each copy back only their own elements.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 96, m = 80, p = 40;
  std::vector<double> A(n * p), B(p * m), C(n * m, -1.0);
  for (int k = 0; k < n * p; ++k)
    A[k] = (k % 9) - 4;
  for (int k = 0; k < p * m; ++k)
    B[k] = (k % 5) + 1;
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      double acc = 0;
      for (int k = 0; k < p; ++k)
        acc += A[i * p + k] * B[k * m + j];
      C[i * m + j] = acc;
    }
  }
  int i, j;
  long weighted = 0;
  double grid[50][30];
#pragma gpu_autopar for collapse(2) reduction(+: weighted)
  for (i = 0; i < 50; i++)
    for (j = 29; j >= 0; j--) {
      grid[i][j] = C[i * m + j] + i - j;
      weighted += (i + 1) * (j + 2);
    }
  double s = 0, g = 0;
  for (int k = 0; k < n * m; ++k)
    s += C[k] * (k % 7);
  for (i = 0; i < 50; i++)
    for (j = 0; j < 30; j++)
      g += grid[i][j] * ((i + j) % 3);
  std::printf("s=%.1f g=%.1f weighted=%ld\n", s, g, weighted);
}
// CHECK: cpu: collapse.cpp:17 mode=kernel backend=cpu iterations=7680 devices=1
// CHECK: cpu: collapse.cpp:29 mode=kernel backend=cpu iterations=1500 devices=1
// CHECK: sim:3: collapse.cpp:17 mode=kernel backend=sim iterations=7680 devices=3
// CHECK: sim:4,speed=1:2:1:1: collapse.cpp:17 mode=kernel backend=sim iterations=7680 devices=4
// CHECK: sim:4,speed=1:2:1:1: collapse.cpp:29 mode=kernel backend=sim iterations=1500
