// Range-based for over a std::vector (elements modified through a reference)
// and over a built-in array (read by value) in kernel mode.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

static int table[4096];

int main() {
  std::vector<double> v(33333);
  for (std::size_t k = 0; k < v.size(); ++k)
    v[k] = double(k % 100);
#pragma gpu_autopar for
  for (double &x : v)
    x = x * x - 1;
  for (int k = 0; k < 4096; ++k)
    table[k] = k % 77;
  long total = 0;
#pragma gpu_autopar for reduction(+: total)
  for (int t : table)
    total += t * 3;
  double s = 0;
  for (std::size_t k = 0; k < v.size(); ++k)
    s += v[k] * (k % 3);
  std::printf("s=%.1f total=%ld\n", s, total);
}
// CHECK: cpu: range-for.cpp:13 mode=kernel backend=cpu iterations=33333 devices=1
// CHECK: cpu: range-for.cpp:19 mode=kernel backend=cpu iterations=4096 devices=1
// CHECK: sim:3: range-for.cpp:13 mode=kernel backend=sim iterations=33333 devices=3
// CHECK: sim:3: range-for.cpp:19 mode=kernel backend=sim iterations=4096 devices=3
