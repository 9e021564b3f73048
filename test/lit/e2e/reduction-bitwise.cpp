// reduction(&), reduction(|) and reduction(^) over unsigned integers.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

int main() {
  const int n = 77777;
  std::vector<unsigned> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (unsigned(i) * 2654435761u) ^ (unsigned(i) >> 3);
  unsigned all = ~0u, any = 0u, parity = 0x5a5a5a5au;
#pragma gpu_autopar for reduction(&: all) reduction(|: any) reduction(^: parity)
  for (int i = 0; i < n; ++i) {
    all &= h[i] | 0x80000001u;
    any |= h[i] & 0x00ff00ffu;
    parity ^= h[i];
  }
  std::printf("all=%08x any=%08x parity=%08x\n", all, any, parity);
}
// CHECK: cpu: reduction-bitwise.cpp:12 mode=kernel backend=cpu iterations=77777 devices=1
// CHECK: sim:3: reduction-bitwise.cpp:12 mode=kernel backend=sim iterations=77777 devices=3
