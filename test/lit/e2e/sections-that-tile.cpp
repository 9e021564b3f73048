// Written-only sections that isl proves are written all through, though no
// single inner loop covers them: two inner loops tiling a block of 64, and a
// loop by twos writing pairs. They map `from`: a device's poison would come
// back in any element they missed. Pairs from the second one on leave
// element 1 of each block of 8, which keeps its old value. An element
// written inside an inner loop is only written when that loop runs: here it
// runs no times (`from` once sent back the device's poison for all of z).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main(int argc, char **) {
  const int n = 203, m = argc - 1; // 0: the program runs without arguments
  std::vector<int> t(n * 64, 1), u(n * 8, 2), v(n * 8, 3), z(n, 4);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        t[i * 64 + j * 8 + k] = i + j - k;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; j += 2) {
      u[i * 8 + j] = i;
      u[i * 8 + j + 1] = j;
    }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      v[i * 8 + 2 * j] = i;
    for (int j = 1; j < 4; ++j)
      v[i * 8 + 2 * j + 1] = j;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      z[i] = i + j;
  long sum = 0;
  for (int k = 0; k < n * 64; ++k)
    sum += long(t[k]) * (k % 7);
  for (int k = 0; k < n * 8; ++k)
    sum += long(u[k]) * (k % 5) + long(v[k]) * (k % 3);
  for (int k = 0; k < n; ++k)
    sum += long(z[k]) * (k % 11);
  std::printf("sum=%ld t1=%d u1=%d v1=%d z1=%d\n", sum, t[1], u[1], v[1], z[1]);
}
// CHECK: sim:3: sections-that-tile.cpp:15 mode=kernel backend=sim iterations=203 devices=3
// CHECK: sim:3: sections-that-tile.cpp:20 mode=kernel backend=sim iterations=203 devices=3
// CHECK: sim:3: sections-that-tile.cpp:26 mode=kernel backend=sim iterations=203 devices=3
// CHECK: sim:3: sections-that-tile.cpp:33 mode=kernel backend=sim iterations=203 devices=3
