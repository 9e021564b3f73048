// Variable-length arrays as DataRaceBench's C programs declare them: the
// loops run on CPU threads (their lambdas capture the arrays by reference,
// which g++, clang and nvcc's host compiler accept) and print the serial
// output on every device setting. Before, every such loop was an error.
// Arrays of variable-length rows (`double c[len][len]`), which no lambda can
// capture, reach the body as a pointer to rows of their run-time length; the
// dependence test reads their row length as a parameter, so a recurrence
// across rows is proven and a shift inside a row is checked to stay in it.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar %s -- -std=c++17 -Wno-vla-cxx-extension 2>/dev/null | FileCheck %s --check-prefix=REWRITE
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
  int m = len / 10;
  double c[m][m], d[m][m + 1], e[m][3][m];
#pragma gpu_autopar for private(j)
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      c[i][j] = (i * 7 + j) % 11, d[i][j] = j, d[i][m] = i;
// DIAG: vla-host.cpp:[[@LINE-1]]:7: remark: iterations touch distinct elements of 'c' only while its subscripts stay inside its dimensions (sizeof(c[0]) / sizeof(c[0][0]) >= m); the rewritten loop checks this first and runs serially if not
// DIAG: vla-host.cpp:[[@LINE-2]]:35: remark: iterations touch distinct elements of 'd' only while its subscripts stay inside its dimensions (sizeof(d[0]) / sizeof(d[0][0]) >= m + 1); the rewritten loop checks this first and runs serially if not
// DIAG: vla-host.cpp:[[@LINE-3]]:7: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  for (i = 1; i < m; i++) {
#pragma gpu_autopar for
    for (j = 1; j < m; j++)
      c[i][j] = c[i - 1][j - 1] + 1;
// DIAG: vla-host.cpp:[[@LINE-1]]:7: remark: iterations touch distinct elements of 'c' only while its subscripts stay inside its dimensions (sizeof(c[0]) / sizeof(c[0][0]) >= m); the rewritten loop checks this first and runs serially if not
// DIAG: vla-host.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  }
#pragma gpu_autopar for private(j)
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      d[i][j] = d[i][j + 1] * 0.5;
// DIAG: vla-host.cpp:[[@LINE-1]]:7: remark: iterations touch distinct elements of 'd' only while its subscripts stay inside its dimensions (sizeof(d[0]) / sizeof(d[0][0]) >= m + 1); the rewritten loop checks this first and runs serially if not
// DIAG: vla-host.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
#pragma gpu_autopar for private(j)
  for (i = 0; i < m; i++)
    for (j = 0; j < m; j++)
      e[i][j % 3][j] = c[i][j] + d[i][j];
// DIAG: vla-host.cpp:[[@LINE-1]]:7: remark: iterations touch distinct elements of 'e' only while its subscripts stay inside its dimensions (sizeof(e[0][0]) / sizeof(e[0][0][0]) >= m); the rewritten loop checks this first and runs serially if not
// DIAG: vla-host.cpp:[[@LINE-2]]:7: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  double total = 0;
#pragma gpu_autopar for reduction(+: total)
  for (i = 0; i < m; i++)
    total += e[i][i % 3][i] + c[i][m - 1] + d[i][0];
// DIAG: vla-host.cpp:[[@LINE-1]]:14: remark: loop runs on CPU threads only: {{.*}}variable-length array{{.*}}
  std::printf("%ld %.3f\n", sum, total);
}
// REWRITE: [&, c = ::gpu_autopar::rows_of(&c[0][0], sizeof(c[0]) / sizeof(c[0][0]))](int j) {
// REWRITE: [&, e = ::gpu_autopar::rows_of(&e[0][0][0], sizeof(e[0]) / sizeof(e[0][0]), sizeof(e[0][0]) / sizeof(e[0][0][0])), c = ::gpu_autopar::rows_of(&c[0][0], sizeof(c[0]) / sizeof(c[0][0])), d = ::gpu_autopar::rows_of(&d[0][0], sizeof(d[0]) / sizeof(d[0][0]))](int i) {
// CHECK: cpu: vla-host.cpp:19 mode=host backend=cpu iterations=1001 devices=1{{$}}
// CHECK: sim:3: vla-host.cpp:19 mode=host backend=cpu iterations=1001 devices=1{{$}}
