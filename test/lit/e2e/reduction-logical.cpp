// reduction(&&) and reduction(||): "are all positive", "is any a multiple of
// 9973", on bool and int variables; and flags set by a plain store
// (`found = 1`, NPB CG's `set = TRUE`), which are such reductions when they
// hold 0 or 1 before the loop.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 30011;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = 1 + (i * 17) % 20000;
  bool all_positive = true;
  int any_multiple = 0;
  bool none_zero = true;
#pragma gpu_autopar for reduction(&&: all_positive, none_zero) reduction(||: any_multiple)
  for (int i = 0; i < n; ++i) {
    all_positive = all_positive && v[i] > 0;
    none_zero = none_zero && v[i] != 19999;
    any_multiple = any_multiple || v[i] % 9973 == 0;
  }
  std::printf("all_positive=%d none_zero=%d any_multiple=%d\n", all_positive, none_zero, any_multiple);
  int found = 0, clean = 1;
#pragma gpu_autopar for reduction(||: found) reduction(&&: clean)
  for (int i = 0; i < n; ++i) {
    if (v[i] == 19999) {
      v[i] = -1;
      found = 1;
    }
    if (v[i] == 7)
      clean = 0;
  }
  std::printf("found=%d clean=%d v[4705]=%d\n", found, clean, v[4705]);
}
// CHECK: cpu: reduction-logical.cpp:17 mode=kernel backend=cpu iterations=30011 devices=1
// CHECK: cpu: reduction-logical.cpp:25 mode=kernel backend=cpu iterations=30011 devices=1
// CHECK: sim:3: reduction-logical.cpp:17 mode=kernel backend=sim iterations=30011 devices=3
// CHECK: sim:3: reduction-logical.cpp:25 mode=kernel backend=sim iterations=30011 devices=3
