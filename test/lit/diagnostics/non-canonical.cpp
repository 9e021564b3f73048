// Loops that are not canonical are rejected with a note at the offending part;
// the error names the rule, the note what the loop has instead (never the
// error's words again).
// RUN: not %gpu-autopar %s --check -- -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
void f(int *a, int n, double d) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i *= 2)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the increment must be ++, --, += or -= of the induction variable
// CHECK: non-canonical.cpp:[[@LINE-3]]:28: note: the increment is 'i *= 2'

#pragma gpu_autopar for
  for (double x = 0; x < d; x += 1)
    a[0] = 1;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the induction variable must have an integer type
// CHECK: non-canonical.cpp:[[@LINE-3]]:15: note: 'x' has type 'double'

#pragma gpu_autopar for
  for (int i = 0; i < n; --i)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the variable decreases but the condition expects it to grow
// CHECK: non-canonical.cpp:[[@LINE-3]]:26: note: '--i' decreases 'i', but 'i < n' ends the loop only once it has grown
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
// CHECK: non-canonical.cpp:[[@LINE-3]]:17: note: 'l' has type 'std::list<int>'
#pragma gpu_autopar for
  for (int x : make())
    (void)x;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the range must be a variable declared outside the loop
// CHECK: non-canonical.cpp:[[@LINE-3]]:16: note: the range is 'make()'; store it in a variable before the loop
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
// CHECK: non-canonical.cpp:[[@LINE-3]]:7: note: 'n' is the bound; it is changed here
#pragma gpu_autopar for
  for (int i = 0; i < n; i += s)
    s = 2;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the step is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-2]]:5: note: 's' is the step; it is changed here
#pragma gpu_autopar for mode(host)
  for (int &x : v)
    v.push_back(x);
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the range is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-2]]:5: note: 'v' is the range; it is changed here
}

// The other rules, each with its note.
void more(int *a, int n, int m, int k) {
  int i, j;
#pragma gpu_autopar for
  for (; i < n; ++i)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the loop has no initialisation of an induction variable
// CHECK: non-canonical.cpp:[[@LINE-3]]:7: note: declare or assign the induction variable here, as in 'for (int i = 0; ...'
#pragma gpu_autopar for
  for (i = 0; i == n; ++i)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the condition must use <, <=, >, >= or !=
// CHECK: non-canonical.cpp:[[@LINE-3]]:17: note: the comparison is '=='
#pragma gpu_autopar for
  for (i = 0; j < n; ++i)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the condition must compare the induction variable with a bound
// CHECK: non-canonical.cpp:[[@LINE-3]]:17: note: 'j < n' does not compare 'i' itself
#pragma gpu_autopar for
  for (i = 0; i < n; ++j)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the increment must change the induction variable
// CHECK: non-canonical.cpp:[[@LINE-3]]:22: note: '++j' changes 'j', not 'i'
#pragma gpu_autopar for
  for (i = n; i > 0; i += 2)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the variable grows but the condition expects it to decrease
// CHECK: non-canonical.cpp:[[@LINE-3]]:24: note: 'i += 2' increases 'i', but 'i > 0' ends the loop only once it has shrunk
#pragma gpu_autopar for
  for (i = 0; i < n; i += -3)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the step must be a positive amount added or subtracted
// CHECK: non-canonical.cpp:[[@LINE-3]]:27: note: '-3' evaluates to -3; write 'i -= 3' instead
#pragma gpu_autopar for
  for (i = 0; i < n; i += 0)
    a[i] = 0;
// CHECK: non-canonical.cpp:[[@LINE-2]]:3: error: annotated loop is not in canonical form: the step is zero
// CHECK: non-canonical.cpp:[[@LINE-3]]:27: note: '0' evaluates to 0
#pragma gpu_autopar for
  for (i = 0; i < n + m; ++i) {
    a[i] = 0;
    m = k;
  }
// CHECK: non-canonical.cpp:[[@LINE-4]]:3: error: annotated loop is not in canonical form: the bound is changed in the loop body
// CHECK: non-canonical.cpp:[[@LINE-3]]:5: note: 'm' is part of the bound 'n + m'; it is changed here
}
