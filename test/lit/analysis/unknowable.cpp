// Dependence corpus, part 3: loops whose independence depends on values only
// known at run time (indirection, unknown offsets and strides, aliasing,
// calls the tool cannot see into). Each is accepted with a warning naming the
// access; --strict would reject it. Aliasing between two mapped pointers is
// "checked" instead: the rewritten loop compares their addresses first.
// RUN: python3 %S/check_corpus.py %gpu-autopar %s | FileCheck %s
// CHECK: 17 loops: 2 checked, 15 unknown; 0 mismatches
// On data for which they are independent, the rewritten loops give the serial numbers:
// RUN: %run-corpus equal --out %t.e %s %S/Inputs/unknowable.driver.cpp | FileCheck %s --check-prefix=EQUAL
// EQUAL: 16 accepted loops, 13 arrays: equal to serial on cpu and sim:3
// The two messages of rows handed to functions, exactly:
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=ROWS
#include <vector>
using V = std::vector<float>;
using I = std::vector<int>;
struct Geometry {
  int offset;
};
void opaque(float *p);

void unknowable(V &a, const V &b, const I &idx, int n, int k, int m, int s, Geometry g) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[idx[i]] = b[i];                // scatter through an index array
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[idx[i]] += 1;                  // histogram
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i + k] = a[i];                 // unknown distance k
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i * i] = b[i];                 // not affine
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i % m] = b[i];                 // wraps around every m
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; i += s) a[i] = a[i + 1];              // unknown step
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i + g.offset] = a[i];          // offset in a struct
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) a[i * n + j] = 0;              // row length n, but m columns
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= n; ++j) a[i * n + j] = 0;             // one column too many: the next row's first
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { int k = i; if (b[i] > 0) k = n - i; a[k] = 0; } // a local reassigned on a condition
}

void aliasing(float *x, float *y, const float *z, int n) {
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) y[i] = 2 * x[i] + y[i];          // y and x may overlap
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) x[i] = z[i];                     // a pointer to const may still alias
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) opaque(x + i);                   // a call the tool cannot see into
}

void unseen_effects(V &a, int n) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) opaque(&a[i]);                   // effects of the call are unknown
}

// Visible functions followed but not bounded: a row handed to one that
// reaches past it (into the next row), a scratch array written only under a
// condition, so not by every iteration. Neither is proven either way.
float Rw[64][8], Scr[4];
static void smear(float *r) { r[8] += r[0]; }
static float third(const float *r) { return r[3]; }
static void maybe_fill(float *t, float x) {
  if (x > 2)
    t[0] = x;
}

void followed_past_row() { // a race: the driver does not call it
  // expect: unknown race
#pragma gpu_autopar for
  for (int i = 0; i < 63; ++i) smear(Rw[i]);
// ROWS: unknowable.cpp:[[@LINE-1]]:38: warning: cannot prove that iterations access distinct elements of 'Rw': a row of 'Rw' is passed on as a whole
}

void followed_unbounded(V &a, int n) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { maybe_fill(Scr, a[i] - 1e9f); a[i] += 1; }
  // Reads only Rw[i][3], while the loop writes Rw[i + 1][0]: independent,
  // but the call is taken to read all of row i.
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < 63; ++i) { a[i] = third(Rw[i]); Rw[i + 1][0] = a[i]; }
// ROWS: unknowable.cpp:[[@LINE-1]]:55: warning: cannot prove that iterations access distinct elements of 'Rw': a row of 'Rw' is passed to a function that may touch only part of it
}
