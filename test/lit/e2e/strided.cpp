// Strided loops: i += 3 writing every third element (the elements between
// must survive the round trip through a device), and a[2*i] reading a[2*i+1].
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 90001;
  std::vector<long> a(n), b(2 * n + 2);
  for (int i = 0; i < n; ++i)
    a[i] = i;
  for (int i = 0; i < 2 * n + 2; ++i)
    b[i] = 3 * i;
#pragma gpu_autopar for
  for (int i = 2; i < n; i += 3)
    a[i] = -a[i] * 2;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    b[2 * i] = b[2 * i + 1] + 1;
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i % 7);
  for (int i = 0; i < 2 * n + 2; ++i)
    s += b[i] * (i % 3);
  std::printf("s=%ld a[5]=%ld a[6]=%ld b[4]=%ld b[5]=%ld\n", s, a[5], a[6], b[4], b[5]);
}
// CHECK: cpu: strided.cpp:14 mode=kernel backend=cpu iterations=30000 devices=1
// CHECK: cpu: strided.cpp:17 mode=kernel backend=cpu iterations=90001 devices=1
// CHECK: sim:3: strided.cpp:14 mode=kernel backend=sim iterations=30000 devices=3
// CHECK: sim:3: strided.cpp:17 mode=kernel backend=sim iterations=90001 devices=3
