// A loop whose bounds check fails inside a data region runs serially on the
// host: the host's copy of A must first get the values the devices hold from
// the loop before, and the loop after must see what the serial one wrote.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
static double A[16][32];
void bump(int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] * 0.5 + A[i][j + 1] + 1;
}
int main() {
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 32; j++)
      A[i][j] = i + j;
#pragma gpu_autopar data map(tofrom: A[0:16])
  {
    bump(15, 31);  // on the devices, results stay there
    bump(15, 33);  // check fails: serially on the host, which must see the devices' values
    bump(15, 31);
  }
  double s = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 32; j++)
      s += A[i][j] * (j % 3 + 1);
  std::printf("s=%.6f\n", s);
}
// CHECK: sim:3: within-dimensions-region.cpp:8 mode=kernel backend=sim iterations=15 devices=3{{$}}
// CHECK: sim:3: within-dimensions-region.cpp:8 mode=kernel backend=cpu iterations=15 devices=1 serial=the subscripts of 'A' may leave its dimensions: m <= 31 does not hold
// CHECK: sim:3: within-dimensions-region.cpp:8 mode=kernel backend=sim iterations=15 devices=3{{$}}
// CHECK: sim:3: region within-dimensions-region.cpp:17
