// private(...) gives each iteration its own temporary; `continue` ends an
// iteration (the inner loop's continue stays the inner loop's), also from
// inside a switch, so the write after it may not happen: the map brings the
// old values in (a `from` map sent back garbage for the skipped elements).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 25000;
  std::vector<int> in(n), out(n, -7);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 13) % 50;
  int t = 0;
  double acc = 0;
#pragma gpu_autopar for private(t, acc)
  for (int i = 0; i < n; ++i) {
    if (in[i] % 5 == 0)
      continue;
    t = in[i] * 2;
    acc = 0;
    for (int k = 0; k < 4; ++k) {
      if (k == t % 4)
        continue;
      acc += k;
    }
    out[i] = t + int(acc);
  }
  std::vector<int> kept(n, 3);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    switch (in[i] % 3) {
    case 0:
      continue;
    default:
      break;
    }
    kept[i] = in[i] + 1;
  }
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += long(out[i]) * (i % 11) + long(kept[i]) * (i % 7);
  std::printf("s=%ld out0=%d out1=%d\n", s, out[0], out[1]);
}
// CHECK: cpu: private-and-continue.cpp:16 mode=kernel backend=cpu iterations=25000 devices=1
// CHECK: sim:3: private-and-continue.cpp:16 mode=kernel backend=sim iterations=25000 devices=3
// CHECK: sim:3: private-and-continue.cpp:30 mode=kernel backend=sim iterations=25000 devices=3
