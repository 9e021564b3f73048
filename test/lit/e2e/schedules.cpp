// Every schedule, with and without a chunk size, gives the serial result and
// accounts for every iteration.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 45007;
  std::vector<long> v(n, 0);
#pragma gpu_autopar for schedule(static)
  for (int i = 0; i < n; ++i)
    v[i] += i;
#pragma gpu_autopar for schedule(dynamic, 1000)
  for (int i = 0; i < n; ++i)
    v[i] += 2 * i;
#pragma gpu_autopar for schedule(guided)
  for (int i = 0; i < n; ++i)
    v[i] += 3 * i;
#pragma gpu_autopar for schedule(adaptive, 500)
  for (int i = 0; i < n; ++i)
    v[i] *= (i % 3) + 1;
#pragma gpu_autopar for schedule(static, 7)
  for (int i = 0; i < n; ++i)
    v[i] -= 1;
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] % 1009;
  std::printf("s=%ld\n", s);
}
// CHECK: sim:3: schedules.cpp:10 mode=kernel backend=sim iterations=45007 devices=3
// CHECK: sim:3: schedules.cpp:13 mode=kernel backend=sim iterations=45007 devices=3
// CHECK: sim:3: schedules.cpp:16 mode=kernel backend=sim iterations=45007 devices=3
// CHECK: sim:3: schedules.cpp:19 mode=kernel backend=sim iterations=45007 devices=3
// CHECK: sim:3: schedules.cpp:22 mode=kernel backend=sim iterations=45007 devices=3
