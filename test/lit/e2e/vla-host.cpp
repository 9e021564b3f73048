// Variable-length arrays as DataRaceBench's C programs declare them: the
// loops run on CPU threads (their lambdas capture the arrays by reference,
// which g++, clang and nvcc's host compiler accept) and print the serial
// output on every device setting. Before, every such loop was an error.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 -Wno-vla-cxx-extension 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
#include <cstdio>

int main(int argc, char **) {
  int len = 1000 + argc;
  int a[len];
  double b[len][4];
  int i, j;
#pragma gpu_autopar for
  for (i = 0; i < len; i++)
    a[i] = i * 3 % 17;
// DIAG: vla-host.cpp:[[@LINE-1]]:5: remark: loop runs on CPU threads only: the body uses 'a', a variable-length array, which a data map cannot describe
#pragma gpu_autopar for private(j)
  for (i = 0; i < len; i++)
    for (j = 0; j < 4; j++)
      b[i][j] = a[i] * 0.5 + j;
// DIAG: vla-host.cpp:[[@LINE-1]]:7: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  long sum = 0;
#pragma gpu_autopar for reduction(+: sum)
  for (i = 0; i < len; i++)
    sum += a[i] + (long)b[i][3];
// DIAG: vla-host.cpp:[[@LINE-1]]:12: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  std::printf("%ld\n", sum);
}
// CHECK: cpu: vla-host.cpp:14 mode=host backend=cpu iterations=1001 devices=1{{$}}
// CHECK: sim:3: vla-host.cpp:14 mode=host backend=cpu iterations=1001 devices=1{{$}}
