// collapse(n) needs n perfectly nested canonical loops with rectangular
// bounds, and every collapsed loop's iterations must be independent; each
// error is at the statement or expression that breaks it, with a note at the
// clause. A rejected loop makes the exit status 1.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
#include <vector>

void f(double *__restrict__ a, double *__restrict__ b, int n, int m, std::vector<int> &v, double (*__restrict__ g)[64]) {
#pragma gpu_autopar for collapse(0)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: collapse.cpp:[[@LINE-2]]:34: error: argument of 'collapse' must be positive
#pragma gpu_autopar for collapse(n)
  for (int i = 0; i < n; ++i) a[i] = 0;
// CHECK: collapse.cpp:[[@LINE-2]]:34: error: expected a positive integer constant in 'collapse'
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
    for (int j = 0; j < m; ++j)
      b[i * m + j] = 1;
  }
// CHECK: collapse.cpp:[[@LINE-4]]:5: error: 'collapse(2)' needs perfectly nested loops: nothing but the next loop of the nest may stand here
// CHECK: collapse.cpp:[[@LINE-7]]:34: note: collapse clause is here
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j)
      b[i * m + j] = 1;
    a[i] = 0;
  }
// CHECK: collapse.cpp:[[@LINE-2]]:5: error: 'collapse(2)' needs perfectly nested loops: nothing but the next loop of the nest may stand here
// CHECK: collapse.cpp:[[@LINE-7]]:34: note: collapse clause is here
#pragma gpu_autopar for collapse(3)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      b[i * m + j] = 1;
// CHECK: collapse.cpp:[[@LINE-4]]:34: error: 'collapse(3)' needs 3 nested loops, but the nest has 2
// CHECK: collapse.cpp:[[@LINE-3]]:5: note: loop 2 of the collapsed nest is here
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      b[i * n + j] = 1;
// CHECK: collapse.cpp:[[@LINE-2]]:18: error: the lower bound of a collapsed loop depends on 'i', the induction variable of an enclosing collapsed loop; collapse needs rectangular nests (collapse fewer loops)
// CHECK: collapse.cpp:[[@LINE-5]]:34: note: collapse clause is here
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      b[i * n + j] = 1;
// CHECK: collapse.cpp:[[@LINE-2]]:25: error: the bound of a collapsed loop depends on 'i', the induction variable of an enclosing collapsed loop; collapse needs rectangular nests (collapse fewer loops)
// CHECK: collapse.cpp:[[@LINE-5]]:34: note: collapse clause is here
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int &x : v)
      x = i;
// CHECK: collapse.cpp:[[@LINE-2]]:5: error: a range-based for loop cannot be collapsed; use an index loop
// CHECK: collapse.cpp:[[@LINE-5]]:34: note: collapse clause is here
#pragma gpu_autopar for collapse(2)
  for (int i = 0; i < n; ++i)
    for (int j = 1; j < 64; ++j)
      g[i][j] = g[i][j - 1] + 1;
// CHECK: collapse.cpp:[[@LINE-2]]:5: error: loop-carried dependence on 'g': an element written in one iteration is read in another
// CHECK: collapse.cpp:[[@LINE-2]]:7: note: write of 'g' here
// CHECK: collapse.cpp:[[@LINE-3]]:17: note: read of 'g' here
// CHECK: collapse.cpp:[[@LINE-5]]:5: note: for example, with i = 0, iteration j=1 writes g[0][1] and iteration j=2 reads it
  double last = 0;
#pragma gpu_autopar for collapse(2) lastprivate(last)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      last = a[i] + b[j];
// CHECK: collapse.cpp:[[@LINE-4]]:34: error: 'collapse(2)' cannot be combined with 'lastprivate(last)' yet: the last iteration of a collapsed nest is not tracked; collapse fewer loops or assign 'last' after the loop
}
