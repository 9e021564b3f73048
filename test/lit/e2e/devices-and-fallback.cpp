// devices(n) caps the devices a loop uses; fallback(cpu) keeps a loop on CPU
// threads; min_iterations(n) runs a small loop serially.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 30000;
  std::vector<int> a(n, 1);
#pragma gpu_autopar for devices(2)
  for (int i = 0; i < n; ++i)
    a[i] += i % 3;
#pragma gpu_autopar for fallback(cpu)
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
#pragma gpu_autopar for min_iterations(100000)
  for (int i = 0; i < n; ++i)
    a[i] -= 1;
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i];
  std::printf("s=%ld\n", s);
}
// CHECK: sim:3: devices-and-fallback.cpp:10 mode=kernel backend=sim iterations=30000 devices=2
// CHECK: sim:3: devices-and-fallback.cpp:13 mode=kernel backend=cpu iterations=30000 devices=1
// CHECK: sim:3: devices-and-fallback.cpp:16 mode=kernel backend=cpu iterations=30000 devices=1
