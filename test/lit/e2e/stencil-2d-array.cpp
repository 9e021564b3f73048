// A 2-D stencil on built-in two-dimensional arrays: a[i][j] with an inner
// loop over j; each chunk of rows gets rows i-1..i+1 of `in`.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>

constexpr int R = 200, C = 64;
static double in[R][C], out[R][C];

int main() {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      in[i][j] = (i * 7 + j * 3) % 11;
#pragma gpu_autopar for
  for (int i = 1; i < R - 1; ++i)
    for (int j = 1; j < C - 1; ++j)
      out[i][j] = (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]) / 4.0;
  double s = 0;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      s += out[i][j] * ((i + j) % 5);
  std::printf("s=%.4f\n", s);
}
// CHECK: cpu: stencil-2d-array.cpp:13 mode=kernel backend=cpu iterations=198 devices=1
// CHECK: sim:3: stencil-2d-array.cpp:13 mode=kernel backend=sim iterations=198 devices=3
// CHECK: sim:4,speed=1:2:1:1: stencil-2d-array.cpp:13 mode=kernel backend=sim iterations=198 devices=4
