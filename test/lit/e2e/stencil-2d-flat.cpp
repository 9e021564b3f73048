// A 2-D five-point stencil on a flattened grid: the outer loop runs over rows
// and an inner sequential loop over columns, so a row i reads rows i-1..i+1
// (a[(i-1)*m + j] .. a[(i+1)*m + j]) and writes row i of b.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void sweep(const std::vector<float> &a, std::vector<float> &b, int rows, int m) {
#pragma gpu_autopar for
  for (int i = 1; i < rows - 1; ++i) {
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.2f * (a[i * m + j] + a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
  }
}

int main() {
  const int rows = 301, m = 97;
  std::vector<float> a(rows * m), b(rows * m, 0.0f);
  for (int k = 0; k < rows * m; ++k)
    a[k] = float((k * 13) % 29);
  for (int t = 0; t < 3; ++t) {
    sweep(a, b, rows, m);
    sweep(b, a, rows, m);
  }
  double s = 0;
  for (int k = 0; k < rows * m; ++k)
    s += a[k] * (k % 7);
  std::printf("s=%.4f mid=%.5f\n", s, a[(rows / 2) * m + m / 2]);
}
// CHECK-COUNT-6: cpu: stencil-2d-flat.cpp:9 mode=kernel backend=cpu iterations=299 devices=1
// CHECK-COUNT-6: sim:3: stencil-2d-flat.cpp:9 mode=kernel backend=sim iterations=299 devices=3
