// One file, two annotated loops: a kernel-mode transform of a signal and a
// reduction over it. Prints values that do not depend on how the iterations
// were split, so every device configuration prints what the serial build does.
#include <cstdio>
#include <vector>

int main() {
  const int n = 1 << 20;
  std::vector<int> signal(n), level(n);
  for (int i = 0; i < n; ++i)
    signal[i] = (i * 2654435761u) % 1000;

  // Quantise every sample to one of 10 levels (kernel mode: arithmetic only).
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    level[i] = signal[i] / 100;

  // Integer reductions: exact, whatever the split.
  long long sum = 0;
  int peak = 0;
#pragma gpu_autopar for reduction(+: sum) reduction(max: peak)
  for (int i = 0; i < n; ++i) {
    sum += level[i];
    peak = level[i] > peak ? level[i] : peak;
  }
  std::printf("samples %d, level sum %lld, peak level %d\n", n, sum, peak);
  return 0;
}
