// Subscripts through a const variable of the body (`const int row = i * m;`
// then `a[row + j]`): the section stands for the variable's initialiser. A
// body variable cannot be named before the loop, where the rewritten code
// evaluates sections (found by the randomized test, test/random/).
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar %s -- -std=c++17 | grep -v "MAPS:" | FileCheck %s --check-prefix=MAPS
#include <cstdio>
#include <vector>

static const int N = 300, M = 40;

void scale_rows(const double *in, double *out, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i++) {
    const int row = i * m;
    const int last = row + m - 1;
    for (int j = 0; j < m; j++)
      out[row + j] = in[row + j] * 2 + in[last];
  }
}

int main() {
  std::vector<double> a(N * M), b(N * M), c(N * M);
  for (int k = 0; k < N * M; k++)
    a[k] = k % 97;
#pragma gpu_autopar for
  for (int i = 0; i < N; i++) {
    const int row = i * M;
    for (int j = 0; j < M; j++)
      b[row + j] = a[row + j] * 3 + 1;
  }
  scale_rows(b.data(), c.data(), N, M);
  double s = 0;
  for (int k = 0; k < N * M; k++)
    s += c[k] * (k % 7);
  std::printf("s=%.1f c[41]=%.1f\n", s, c[41]);
}
// MAPS: ::gpu_autopar::from(out, ::gpu_autopar::affine(m, 0, m))
// MAPS: ::gpu_autopar::to(in, ::gpu_autopar::hull(::gpu_autopar::affine(m, 0, m), ::gpu_autopar::affine(m, m - 1, 1)))
// MAPS: ::gpu_autopar::from(b, ::gpu_autopar::affine(40, 0, 40))
// MAPS: ::gpu_autopar::to(a, ::gpu_autopar::affine(40, 0, 40))
// CHECK: sim:3: const-local-subscript.cpp:26 mode=kernel backend=sim iterations=300 devices=3
// CHECK: sim:3: const-local-subscript.cpp:13 mode=kernel backend=sim iterations=300 devices=3
