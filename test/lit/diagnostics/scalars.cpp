// A scalar declared outside the loop and written in it must be private or a
// reduction, and a reduction variable may only be updated with its operator.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <algorithm>
#include <vector>

void shared(float *__restrict__ a, int n) {
  float last = 0;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    last = a[i];
// CHECK: scalars.cpp:[[@LINE-1]]:5: error: 'last' is declared outside the loop and written in it; every iteration writes it before reading it: add it to a private(...) clause (lastprivate(...) if its value after the loop is used)
// CHECK-NEXT: {{^}}   [[@LINE-2]] |     last = a[i];
// CHECK: scalars.cpp:[[@LINE-6]]:9: note: 'last' is declared here
}

void counters(float *__restrict__ a, int n, int &count) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    if (a[i] > 0)
      ++count;
// CHECK: scalars.cpp:[[@LINE-1]]:9: error: 'count' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: count)' clause
// CHECK: scalars.cpp:[[@LINE-6]]:50: note: 'count' is declared here
}

// A flag set by a plain store is a logical reduction when it holds 0 or 1
// before the loop (NPB CG's `set = TRUE`): private(...) would lose it.
void flags(const std::vector<int> &iv, std::vector<float> &v, int n, int key) {
  int set = 0;
#pragma gpu_autopar for
  for (int k = 0; k < n; ++k)
    if (iv[k] == key) {
      v[k] = 1;
      set = 1;
// CHECK: scalars.cpp:[[@LINE-1]]:7: error: 'set' is declared outside the loop and written in it; every write stores 1, which a 'reduction(||: set)' clause gives when it holds 0 or 1 before the loop: add it to one
// CHECK: scalars.cpp:[[@LINE-7]]:7: note: 'set' is declared here
    }
#pragma gpu_autopar for reduction(||: set)
  for (int k = 0; k < n; ++k)
    if (iv[k] == key)
      set = 1;
#pragma gpu_autopar for reduction(+: set)
  for (int k = 0; k < n; ++k)
    if (iv[k] == key)
      set = 1;
// CHECK: scalars.cpp:[[@LINE-1]]:11: error: reduction(+: set) but 'set' is updated with '= 1'
// CHECK: scalars.cpp:[[@LINE-5]]:38: note: reduction clause is here
}

void mismatched(float *__restrict__ a, int n) {
  float s = 0, p = 1, m = 0, q = 1;
  bool any = false;
#pragma gpu_autopar for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s *= a[i];
// CHECK: scalars.cpp:[[@LINE-1]]:7: error: reduction(+: s) but 's' is updated with '*='
// CHECK: scalars.cpp:[[@LINE-4]]:38: note: reduction clause is here
#pragma gpu_autopar for reduction(min: m)
  for (int i = 0; i < n; ++i)
    m = std::max(m, a[i]);
// CHECK: scalars.cpp:[[@LINE-1]]:9: error: reduction(min: m) but 'm' is updated with 'max'
// CHECK: scalars.cpp:[[@LINE-4]]:40: note: reduction clause is here
#pragma gpu_autopar for reduction(max: m)
  for (int i = 0; i < n; ++i)
    m = a[i] < m ? a[i] : m;
// CHECK: scalars.cpp:[[@LINE-1]]:18: error: reduction(max: m) but 'm' is updated with 'min'
// CHECK: scalars.cpp:[[@LINE-4]]:40: note: reduction clause is here
#pragma gpu_autopar for reduction(||: any)
  for (int i = 0; i < n; ++i)
    any = any && a[i] > 0;
// CHECK: scalars.cpp:[[@LINE-1]]:15: error: reduction(||: any) but 'any' is updated with '&&'
// CHECK: scalars.cpp:[[@LINE-4]]:39: note: reduction clause is here
#pragma gpu_autopar for reduction(*: q)
  for (int i = 0; i < n; ++i)
    q /= a[i];
// CHECK: scalars.cpp:[[@LINE-1]]:7: error: reduction(*: q) but 'q' is updated with '/='
// CHECK: scalars.cpp:[[@LINE-4]]:38: note: reduction clause is here
}

void misused(float *__restrict__ a, int n) {
  float p = 1, s = 0;
#pragma gpu_autopar for reduction(*: p)
  for (int i = 0; i < n; ++i) {
    p *= a[i];
    a[i] = p;
// CHECK: scalars.cpp:[[@LINE-1]]:12: error: reduction variable 'p' is used outside its reduction update; iterations would see partial values
// CHECK: scalars.cpp:[[@LINE-5]]:38: note: reduction clause is here
  }
#pragma gpu_autopar for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s = a[i];
// CHECK: scalars.cpp:[[@LINE-1]]:5: error: reduction variable 's' is used outside its reduction update; iterations would see partial values
// CHECK: scalars.cpp:[[@LINE-4]]:38: note: reduction clause is here
}

// An update whose value is used is no reduction: `tmp[t++]` reads the running
// count, and each iteration's copy of a reduction variable starts at 0 (NPB
// FT's `u0[k][j][i].real = tmp[t++]` was accepted with reduction(+: t), the
// clause the advice offered, and read the wrong elements).
void running_value(const float *__restrict__ tmp, float *__restrict__ u, int n) {
  int t = 0, c = 0;
#pragma gpu_autopar for reduction(+: t) map(to: tmp[0:2 * n]) map(from: u[0:2 * n])
  for (int j = 0; j < n; ++j) {
    u[2 * j] = tmp[t++];
    u[2 * j + 1] = tmp[t++];
  }
// CHECK: scalars.cpp:[[@LINE-3]]:20: error: reduction variable 't' is used outside its reduction update; iterations would see partial values
// CHECK: scalars.cpp:[[@LINE-6]]:38: note: reduction clause is here
#pragma gpu_autopar for map(to: tmp[0:n]) map(from: u[0:n])
  for (int j = 0; j < n; ++j)
    u[j] = tmp[c++];
// CHECK: scalars.cpp:[[@LINE-1]]:16: error: 'c' is declared outside the loop and written in it; an iteration reads it before writing it, so it needs the value an earlier iteration left: neither private(...) (whose copy would start empty) nor a reduction(...) holds that; the iterations depend on each other
// CHECK: scalars.cpp:[[@LINE-12]]:14: note: 'c' is declared here
}
