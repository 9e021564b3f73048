// A 2-D Jacobi iteration inside a data region: several sweeps of two loops
// (stencil into b, copy back into a) whose grids stay on the devices between
// loops, a host read after `update host`, and a reduction over the result.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 203, sweeps = 7;
  std::vector<double> a(n * n), b(n * n);
  int i, j, s;
  for (int k = 0; k < n * n; ++k)
    a[k] = b[k] = double((k * 7919) % 1000) / 7.0;
  double corner = 0, sum = 0;
#pragma gpu_autopar data map(tofrom: a[0:n*n]) map(tofrom: b[0:n * n])
  {
    for (s = 0; s < sweeps; ++s) {
#pragma gpu_autopar for private(j)
      for (i = 1; i < n - 1; ++i)
        for (j = 1; j < n - 1; ++j)
          b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma gpu_autopar for private(j)
      for (i = 1; i < n - 1; ++i)
        for (j = 1; j < n - 1; ++j)
          a[i * n + j] = b[i * n + j];
    }
#pragma gpu_autopar update host(a[0:n*n])
    corner = a[n + 1];
#pragma gpu_autopar for reduction(+: sum)
    for (i = 0; i < n * n; ++i)
      sum += a[i];
  }
  std::printf("a[%d]=%.6f corner=%.6f sum=%.6f b=%.6f\n", n * 5 + 7, a[n * 5 + 7], corner, sum, b[n * 100 + 100]);
}
// CHECK: cpu: data-region-jacobi.cpp:18 mode=kernel backend=cpu iterations=201 devices=1
// CHECK: cpu: region data-region-jacobi.cpp:15
// CHECK: sim:3: data-region-jacobi.cpp:18 mode=kernel backend=sim iterations=201 devices=3
// CHECK: sim:3: data-region-jacobi.cpp:29 mode=kernel backend=sim iterations=41209 devices=3
// CHECK: sim:3: region data-region-jacobi.cpp:15
// CHECK: sim:3,fail=1@2,oom=2@1: region data-region-jacobi.cpp:15
