// Indirect accesses the tool cannot analyse (a warning, and the annotation is
// trusted): a gather x[idx[i]] maps all of x; a scatter through a permutation
// maps all of out, and each chunk copies back only the elements it changed.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 20011;
  std::vector<int> perm(n), x(n), out(n, -1), g(n);
  for (int i = 0; i < n; ++i) {
    perm[i] = int((i * 7919L) % n);
    x[i] = i * 3;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    g[i] = x[perm[i]] + 1;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[perm[i]] = g[i] * 2;
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += long(out[i]) * (i % 13);
  std::printf("s=%ld out0=%d\n", s, out[0]);
}
// CHECK: sim:3: indirect.cpp:15 mode=kernel backend=sim iterations=20011 devices=3
// CHECK: sim:3: indirect.cpp:18 mode=kernel backend=sim iterations=20011 devices=3
// CHECK: sim:4,speed=1:2:1:1: indirect.cpp:18 mode=kernel backend=sim iterations=20011 devices=4
