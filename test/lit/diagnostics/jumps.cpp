// Iterations of a parallel loop cannot end it early or change its induction
// variable: each such statement is an error at its keyword. Jumps that stay
// inside the body (a nested loop's break, a switch's break, a lambda's
// return, a goto to a label in the body) are fine.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
void jumps(float *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      break;
// CHECK: jumps.cpp:[[@LINE-1]]:7: error: 'break' leaves the annotated loop; the iterations of a parallel loop cannot end it early
    for (int j = 0; j < 4; ++j)
      if (j == 2)
        break;
    switch (i) {
    case 1:
      break;
    }
    auto f = [](int x) { return x + 1; };
    a[i] = f(i);
    if (a[i] > 10)
      return;
// CHECK: jumps.cpp:[[@LINE-1]]:7: error: 'return' leaves the annotated loop; the iterations of a parallel loop cannot end it early
    if (a[i] == 5)
      goto out;
// CHECK: jumps.cpp:[[@LINE-1]]:7: error: 'goto' leaves the annotated loop; the iterations of a parallel loop cannot end it early
    if (a[i] == 6)
      goto next;
    a[i] = 1;
  next:;
  }
out:;
}

void induction(float *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    a[i] = 0;
    i += 1;
// CHECK: jumps.cpp:[[@LINE-1]]:5: error: the loop body writes the induction variable 'i'
  }
  int k;
#pragma gpu_autopar for
  for (k = 0; k < n; k++) {
    a[k] = 1;
    ++k;
// CHECK: jumps.cpp:[[@LINE-1]]:7: error: the loop body writes the induction variable 'k'
  }
}
