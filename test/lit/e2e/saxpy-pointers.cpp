// saxpy over raw pointers in a function: affine subscripts need no extent;
// the second loop reads through an index and writes a scratch buffer, so it
// names their extents in map clauses.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <cstdlib>

void saxpy(float a, const float *x, float *y, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void gather(const float *x, const int *idx, float *out, int n) {
#pragma gpu_autopar for map(to: x[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = x[idx[i]] * 2.0f;
}

int main() {
  const int n = 50021;
  float *x = static_cast<float *>(std::malloc(n * sizeof(float)));
  float *y = static_cast<float *>(std::malloc(n * sizeof(float)));
  float *z = static_cast<float *>(std::malloc(n * sizeof(float)));
  int *idx = static_cast<int *>(std::malloc(n * sizeof(int)));
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 100);
    y[i] = float(i % 3);
    idx[i] = (i * 7919) % n;
  }
  saxpy(3.0f, x, y, n);
  gather(y, idx, z, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += z[i] * (i % 5);
  std::printf("y[17]=%.1f z[3]=%.1f s=%.1f\n", y[17], z[3], s);
  std::free(x), std::free(y), std::free(z), std::free(idx);
}
// CHECK: cpu: saxpy-pointers.cpp:9 mode=kernel backend=cpu iterations=50021 devices=1
// CHECK: cpu: saxpy-pointers.cpp:15 mode=kernel backend=cpu iterations=50021 devices=1
// CHECK: sim:3: saxpy-pointers.cpp:9 mode=kernel backend=sim iterations=50021 devices=3
// CHECK: sim:3: saxpy-pointers.cpp:15 mode=kernel backend=sim iterations=50021 devices=3
