// A loop with no GPU work that cannot be offloaded (it builds strings): host
// mode, CPU threads only, whatever devices there are.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <string>
#include <vector>

int main() {
  const int n = 5000;
  std::vector<std::string> names(n);
  std::vector<std::size_t> lengths(n);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    names[i] = "item-" + std::to_string(i * 7);
    lengths[i] = names[i].size();
  }
  std::size_t total = 0;
  for (std::size_t l : lengths)
    total += l;
  std::printf("total=%zu last=%s\n", total, names[n - 1].c_str());
}
// CHECK: cpu: host-mode.cpp:12 mode=host backend=cpu iterations=5000 devices=1
// CHECK: sim:3: host-mode.cpp:12 mode=host backend=cpu iterations=5000 devices=1
