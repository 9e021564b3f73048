// Task mode with a clause that says what the loop produces: each iteration
// calls a function that runs an annotated loop of its own (GPU work, which
// the runtime cannot see into), and map(from: out[0:n]) names its output. On one machine the clause changes
// nothing; split across MPI ranks, out[0:n] is gathered (docs/mpi.md).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cmath>
#include <cstdio>
#include <vector>

double shade(int i) {
  long v = 0;
#pragma gpu_autopar for reduction(+: v)
  for (int k = 1; k < 50; ++k)
    v += long(i % 97 + k) * k;
  return std::sqrt(double(v));
}

int main() {
  const int n = 3000;
  std::vector<double> buffer(n, -1.0);
  double *out = buffer.data();
  long bright = 0;
#pragma gpu_autopar for map(from: out[0:n]) reduction(+: bright)
  for (int i = 0; i < n; ++i) {
    out[i] = shade(i);
    bright += out[i] > 250.0;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i] * (i % 13);
  std::printf("s=%.6f bright=%ld out[n-1]=%.6f\n", s, bright, out[n - 1]);
}
// CHECK: cpu: task-map-from.cpp:23 mode=task backend=cpu iterations=3000 devices=1
// CHECK: sim:3: task-map-from.cpp:23 mode=task backend=sim iterations=3000 devices=3
