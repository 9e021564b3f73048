// Triangular inner loops over flattened matrices: each iteration maps its
// whole row (the inner range's hull over the loop), copied in because the
// iteration writes only part of it; the parts it does not write keep their
// values on every device setting. A transposed write maps the whole matrix.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 157;
  std::vector<float> up(n * n, 1.0f), lo(n * n, 2.0f), c(n * n, 3.0f);
  for (int k = 0; k < n * n; ++k)
    c[k] = float(k % 17);
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      up[i * n + j] = float(i + 2 * j);
#pragma gpu_autopar for
  for (int i = n - 1; i >= 2; i--)
    for (int j = 1; j < i; j++)
      lo[i * n + j - 1] += float(j - i);
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      c[j * n + i] = c[i * n + j] * 0.5f;
  double s = 0;
  for (int k = 0; k < n * n; ++k)
    s += up[k] * (k % 7) + lo[k] * (k % 5) + c[k] * (k % 3);
  std::printf("s=%.1f up1=%.1f lo1=%.1f c1=%.1f\n", s, up[n], lo[n + 1], c[n]);
}
// CHECK: sim:3: triangles.cpp:14 mode=kernel backend=sim iterations=157 devices=3
// CHECK: sim:3: triangles.cpp:18 mode=kernel backend=sim iterations=155 devices=3
// CHECK: sim:3: triangles.cpp:22 mode=kernel backend=sim iterations=157 devices=3
