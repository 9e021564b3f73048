// Built-in arrays swept to run-time bounds, as PolyBench writes them
// (`double A[N][M]` with loops to `ni` and `nj`): the iterations touch
// distinct elements while the subscripts stay inside the dimensions, which
// the rewritten loop checks before it runs. Inside them the loops run on the
// devices; a call whose rows reach one element past the row length (so that
// iteration i reads and writes the first element of row i + 1 through the
// flat layout) runs serially on the calling thread and prints what the
// serial program prints.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>

static double A[64][48];
static float G[10][12][16];

void smooth(double a[][48], int ni, int nj) {
#pragma gpu_autopar for
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      a[i][j] = a[i][j] * 0.5 + a[i][j + 1] * 0.25 + i;
}

void fill(int ni, int nj, int nk) {
#pragma gpu_autopar for
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      for (int k = nk - 1; k >= 0; k--)
        G[i][j][k] = G[i][j][k] * 0.5f + float(i + j * k);
}

int main() {
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 48; j++)
      A[i][j] = (i * 7 + j * 3) % 11;
  smooth(A, 64, 47); // inside: parallel
  smooth(A, 60, 48); // reads A[i][48], which is A[i + 1][0]: serially
  smooth(A, 62, 49); // writes A[i][48] too: serially
  fill(10, 12, 16);  // inside: parallel
  fill(9, 13, 16);   // row j = 12 is the next plane's first: serially
  double s = 0;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 48; j++)
      s += A[i][j] * ((i + j) % 5 + 1);
  double t = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 12; j++)
      for (int k = 0; k < 16; k++)
        t += G[i][j][k] * ((i + j + k) % 3 + 1);
  std::printf("A=%.6f G=%.3f\n", s, t);
}
// CHECK: cpu: within-dimensions.cpp:16 mode=kernel backend=cpu iterations=64 devices=1{{$}}
// CHECK: cpu: within-dimensions.cpp:16 mode=kernel backend=cpu iterations=60 devices=1 serial=the subscripts of 'a' may leave its dimensions: nj <= 47 does not hold
// CHECK: cpu: within-dimensions.cpp:16 mode=kernel backend=cpu iterations=62 devices=1 serial=the subscripts of 'a' may leave its dimensions: nj <= 47 does not hold
// CHECK: cpu: within-dimensions.cpp:23 mode=kernel backend=cpu iterations=10 devices=1{{$}}
// CHECK: cpu: within-dimensions.cpp:23 mode=kernel backend=cpu iterations=9 devices=1 serial=the subscripts of 'G' may leave its dimensions: nk <= 16 && nj <= 12 does not hold
// CHECK: sim:3: within-dimensions.cpp:16 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: within-dimensions.cpp:16 mode=kernel backend=cpu iterations=60 devices=1 serial=the subscripts of 'a' may leave its dimensions: nj <= 47 does not hold
// CHECK: sim:3: within-dimensions.cpp:16 mode=kernel backend=cpu iterations=62 devices=1 serial=the subscripts of 'a' may leave its dimensions: nj <= 47 does not hold
// CHECK: sim:3: within-dimensions.cpp:23 mode=kernel backend=sim iterations=10 devices=3{{$}}
// CHECK: sim:3: within-dimensions.cpp:23 mode=kernel backend=cpu iterations=9 devices=1 serial=the subscripts of 'G' may leave its dimensions: nk <= 16 && nj <= 12 does not hold
