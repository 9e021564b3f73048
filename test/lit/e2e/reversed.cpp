// Reversed loops: a decrementing induction variable with >= and with !=, and
// a subscript that runs backwards (n - 1 - i).
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 60013;
  std::vector<int> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i)
    a[i] = (i * 11) % 97;
#pragma gpu_autopar for
  for (int i = n - 1; i >= 0; --i)
    b[n - 1 - i] = a[i] * 2;
#pragma gpu_autopar for
  for (int i = n; i != 0; i -= 1)
    c[i - 1] = b[i - 1] + a[n - i];
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += long(c[i]) * (i % 5);
  std::printf("s=%ld b0=%d c0=%d\n", s, b[0], c[0]);
}
// CHECK: cpu: reversed.cpp:12 mode=kernel backend=cpu iterations=60013 devices=1
// CHECK: cpu: reversed.cpp:15 mode=kernel backend=cpu iterations=60013 devices=1
// CHECK: sim:3: reversed.cpp:12 mode=kernel backend=sim iterations=60013 devices=3
// CHECK: sim:3: reversed.cpp:15 mode=kernel backend=sim iterations=60013 devices=3
