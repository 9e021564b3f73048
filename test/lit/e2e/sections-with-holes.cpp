// Loops that write only part of each iteration's section: every 4th column
// of a row, every other element, the first and last of three, a descending
// inner loop with step -3. What they do not write keeps its value: the maps
// copy the old values in (`from` sent back whatever the device held, which
// a randomized run found). A full row written right to left is the control.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 301, w = 63;
  std::vector<int> p(n * w, 5), q(n * 16, 6), r(n * 3, 7), s(n * w, 8), t(n * w, 9);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < w; j += 4)
      p[i * w + j] = i + j;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      q[i * 16 + 2 * j] = i - j;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    r[3 * i] = i;
    r[3 * i + 2] = -i;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = w - 1; j >= 0; j -= 3)
      s[i * w + w - 1 - j] = 2 * i + j;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = w - 1; j >= 0; --j)
      t[i * w + j] = i * j;
  long sum = 0;
  for (int k = 0; k < n * w; ++k)
    sum += long(p[k]) * (k % 7) + long(s[k]) * (k % 5) + long(t[k]) * (k % 3);
  for (int k = 0; k < n * 16; ++k)
    sum += long(q[k]) * (k % 11);
  for (int k = 0; k < n * 3; ++k)
    sum += long(r[k]) * (k % 13);
  std::printf("sum=%ld p1=%d q1=%d r1=%d s1=%d\n", sum, p[1], q[1], r[1], s[1]);
}
// CHECK: sim:3: sections-with-holes.cpp:13 mode=kernel backend=sim iterations=301 devices=3
// CHECK: sim:3: sections-with-holes.cpp:17 mode=kernel backend=sim iterations=301 devices=3
// CHECK: sim:3: sections-with-holes.cpp:21 mode=kernel backend=sim iterations=301 devices=3
// CHECK: sim:3: sections-with-holes.cpp:26 mode=kernel backend=sim iterations=301 devices=3
// CHECK: sim:3: sections-with-holes.cpp:30 mode=kernel backend=sim iterations=301 devices=3
