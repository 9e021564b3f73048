// Loops written C89 style (counters declared at the top, the inner one in
// private(...)), with descending inner loops and inner ranges that move with
// the annotated variable (tiles): they are accepted in kernel mode, mapped,
// and give the serial result on every device setting.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void mirror_rows(const std::vector<float> &in, std::vector<float> &out, int rows, int cols) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < rows; i++)
    for (j = cols - 1; j >= 0; j--)
      out[i * cols + j] = in[i * cols + (cols - 1 - j)] * 2 + j;
}

void fill_tiles(std::vector<float> &a, int tiles) {
  int t, k;
#pragma gpu_autopar for private(k)
  for (t = 0; t < tiles; t++)
    for (k = 16 * t; k < 16 * t + 16; k++)
      a[k] = k * 0.5f + t;
}

int main() {
  const int rows = 203, cols = 37, tiles = 41;
  std::vector<float> in(rows * cols), out(rows * cols, -1.0f), a(16 * tiles, 0.0f);
  for (int k = 0; k < rows * cols; ++k)
    in[k] = float((k * 7) % 23);
  mirror_rows(in, out, rows, cols);
  fill_tiles(a, tiles);
  double s = 0;
  for (int k = 0; k < rows * cols; ++k)
    s += out[k] * (k % 5);
  for (int k = 0; k < 16 * tiles; ++k)
    s += a[k] * (k % 3);
  std::printf("s=%.2f\n", s);
}
// CHECK: cpu: c89-loops.cpp:11 mode=kernel backend=cpu iterations=203 devices=1
// CHECK: cpu: c89-loops.cpp:19 mode=kernel backend=cpu iterations=41 devices=1
// CHECK: sim:3: c89-loops.cpp:11 mode=kernel backend=sim iterations=203 devices=3
// CHECK: sim:3: c89-loops.cpp:19 mode=kernel backend=sim iterations=41 devices=3
