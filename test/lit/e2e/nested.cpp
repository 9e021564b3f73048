// Nested annotated loops: an outer task-mode loop over batches whose body
// runs an annotated kernel-mode loop. The inner loop runs on the lease its
// outer iteration holds (no oversubscription), and every inner iteration runs
// exactly once.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void scale_batch(std::vector<double> &v, double f) {
#pragma gpu_autopar for
  for (int i = 0; i < (int)v.size(); ++i)
    v[i] = v[i] * f + 1;
}

int main() {
  std::vector<std::vector<double>> batches(5, std::vector<double>(3000));
  for (int b = 0; b < 5; ++b)
    for (int i = 0; i < 3000; ++i)
      batches[b][i] = (b * 3000 + i) % 101;
#pragma gpu_autopar for
  for (int b = 0; b < 5; ++b)
    scale_batch(batches[b], b + 1.5);
  double s = 0;
  for (auto &v : batches)
    for (int i = 0; i < 3000; ++i)
      s += v[i] * (i % 4);
  std::printf("s=%.2f\n", s);
}
// CHECK-DAG: cpu: nested.cpp:20 mode=task backend=cpu iterations=5 devices=1
// CHECK-DAG: sim:3: nested.cpp:20 mode=task backend=sim iterations=5 devices=3
