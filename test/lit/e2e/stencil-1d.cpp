// A 1-D three-point stencil: each iteration reads its neighbours and writes
// only its own element of another array, so each chunk needs a halo of one
// element on each side; then the arrays swap roles for several sweeps.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 40000;
  std::vector<double> a(n), b(n, 0.0);
  for (int i = 0; i < n; ++i)
    a[i] = (i * 37) % 101;
  for (int sweep = 0; sweep < 4; ++sweep) {
#pragma gpu_autopar for
    for (int i = 1; i < n - 1; ++i)
      b[i] = (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
    b[0] = a[0];
    b[n - 1] = a[n - 1];
    a.swap(b);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i % 17);
  std::printf("s=%.6f a[1]=%.6f a[n/2]=%.6f\n", s, a[1], a[n / 2]);
}
// CHECK-COUNT-4: cpu: stencil-1d.cpp:14 mode=kernel backend=cpu iterations=39998 devices=1
// CHECK-COUNT-4: sim:3: stencil-1d.cpp:14 mode=kernel backend=sim iterations=39998 devices=3
