// Loops whose chunks write strips that cross the outermost dimension: columns
// of row-major 2-D data, the innermost index of 3-D data, a transpose. Chunks in
// flight at once (several devices, or slots(2) on one) each hold a copy of the
// same rows; each must copy back only the elements it wrote, never a stale copy
// of a neighbour's columns.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>

static double A[256][256];
static float B[40][30][20];
static double T[256][256];
static unsigned char C[64][96];

int main() {
  for (int i = 0; i < 256; i++)
    for (int j = 0; j < 256; j++)
      A[i][j] = i * 100 + j;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 20; k++)
        B[i][j][k] = float(i + j * k);
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 96; j++)
      C[i][j] = (unsigned char)(i ^ j);

#pragma gpu_autopar for
  for (int j = 0; j < 256; j++)
    for (int i = 0; i < 256; i++)
      A[i][j] = 2 * A[i][j];

#pragma gpu_autopar for slots(2)
  for (int j = 0; j < 256; j++)
    for (int i = 0; i < 256; i++)
      A[i][j] = A[i][j] + j;

#pragma gpu_autopar for
  for (int k = 0; k < 20; k++)
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 30; j++)
        B[i][j][k] = B[i][j][k] * 3 + k;

#pragma gpu_autopar for
  for (int j = 0; j < 256; j++)
    for (int i = 0; i < 256; i++)
      T[j][i] = A[i][j];

#pragma gpu_autopar for
  for (int j = 0; j < 96; j++)
    for (int i = 0; i < 64; i++)
      C[i][j] = (unsigned char)(C[i][j] + j);

  double sa = 0, st = 0, sb = 0;
  long sc = 0, wrong = 0;
  for (int i = 0; i < 256; i++)
    for (int j = 0; j < 256; j++) {
      sa += A[i][j] * (i + 1);
      st += T[i][j] * (j + 1);
      wrong += A[i][j] != 2.0 * (i * 100 + j) + j;
    }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 20; k++)
        sb += B[i][j][k] * (i + 1);
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 96; j++)
      sc += C[i][j] * (i + 1);
  std::printf("wrong=%ld sa=%.1f st=%.1f sb=%.1f sc=%ld\n", wrong, sa, st, sb, sc);
}
// CHECK: sim:1: column-sweep.cpp:31 mode=kernel backend=sim iterations=256 devices=1
// CHECK: sim:3: column-sweep.cpp:26 mode=kernel backend=sim iterations=256 devices=3
// CHECK: sim:3: column-sweep.cpp:31 mode=kernel backend=sim iterations=256 devices=3
// CHECK: sim:3: column-sweep.cpp:36 mode=kernel backend=sim iterations=20 devices=3
// CHECK: sim:3: column-sweep.cpp:42 mode=kernel backend=sim iterations=256 devices=3
// CHECK: sim:3: column-sweep.cpp:47 mode=kernel backend=sim iterations=96 devices=3
