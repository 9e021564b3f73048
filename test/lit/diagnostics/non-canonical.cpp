// Loops that are not canonical are rejected with a note at the offending part.
// RUN: not %gpu-autopar %s --check -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
void f(int *a, int n, double d) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i *= 2)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the increment must be ++, --, += or -= of the induction variable
// CHECK: non-canonical.cpp:[[@LINE-3]]:28: note: the increment must be ++, --, += or -= of the induction variable

#pragma gpu_autopar for
  for (double x = 0; x < d; x += 1)
    a[0] = 1;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the induction variable must have an integer type
// CHECK: non-canonical.cpp:[[@LINE-3]]:15: note: the induction variable must have an integer type

#pragma gpu_autopar for
  for (int i = 0; i < n; --i)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the variable decreases but the condition expects it to grow
// CHECK: non-canonical.cpp:[[@LINE-3]]:26: note: the variable decreases but the condition expects it to grow
}
