// Induction variables of other widths and signedness: unsigned 64-bit with a
// start far from zero, unsigned short, and long long stepping by 5.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  const std::uint64_t base = 0xFFFFFFFF00000000ull;
  std::vector<std::uint64_t> h(40000);
  std::uint64_t n = h.size();
#pragma gpu_autopar for
  for (std::uint64_t k = base; k < base + n; ++k)
    h[k - base] = (k * 0x9E3779B97F4A7C15ull) >> 17;
  std::vector<int> small(65535);
#pragma gpu_autopar for
  for (unsigned short s = 0; s < 65535; s++)
    small[s] = s % 251;
  std::vector<long long> w(100000, 1);
#pragma gpu_autopar for
  for (long long j = 0; j < 100000; j += 5)
    w[j] = j * j;
  std::uint64_t x = 0;
  long long t = 0;
  for (std::uint64_t k = 0; k < n; ++k)
    x ^= h[k] + k;
  for (int s : small)
    t += s;
  for (long long v : w)
    t += v % 1000003;
  std::printf("x=%llu t=%lld\n", (unsigned long long)x, t);
}
// CHECK: cpu: unsigned-wide.cpp:12 mode=kernel backend=cpu iterations=40000 devices=1
// CHECK: cpu: unsigned-wide.cpp:16 mode=kernel backend=cpu iterations=65535 devices=1
// CHECK: cpu: unsigned-wide.cpp:20 mode=kernel backend=cpu iterations=20000 devices=1
// CHECK: sim:4,speed=1:2:1:1: unsigned-wide.cpp:12 mode=kernel backend=sim iterations=40000 devices=4
// CHECK: sim:4,speed=1:2:1:1: unsigned-wide.cpp:16 mode=kernel backend=sim iterations=65535 devices=4
// CHECK: sim:4,speed=1:2:1:1: unsigned-wide.cpp:20 mode=kernel backend=sim iterations=20000 devices=4
