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

// Range-based loops need a random-access container declared outside the loop.
#include <list>
#include <vector>
std::vector<int> make();
void ranges(std::list<int> &l) {
#pragma gpu_autopar for
  for (int &x : l)
    x = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the range is not a random-access container (it needs size() and operator[])
// CHECK: non-canonical.cpp:[[@LINE-3]]:17: note: the range is not a random-access container (it needs size() and operator[])
#pragma gpu_autopar for
  for (int x : make())
    (void)x;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the range must be a variable declared outside the loop
// CHECK: non-canonical.cpp:[[@LINE-3]]:16: note: the range must be a variable declared outside the loop
}

// The trip count is computed once: a body that changes the bound, the step
// or the range makes the loop non-canonical (with a note at the change).
void moving(std::vector<int> &v, int n, int s) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    v[i] = 0;
    --n;
  }
// CHECK: non-canonical.cpp:[[@LINE-4]]:3: error: annotated loop is not in canonical form: the bound is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-3]]:7: note: the bound is changed in the loop body
#pragma gpu_autopar for
  for (int i = 0; i < n; i += s)
    s = 2;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the step is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-2]]:5: note: the step is changed in the loop body
#pragma gpu_autopar for mode(host)
  for (int &x : v)
    v.push_back(x);
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the range is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-2]]:5: note: the range is changed in the loop body
}
