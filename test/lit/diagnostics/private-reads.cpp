// A private copy starts afresh in every iteration: a variable in private(...)
// (or lastprivate, or firstprivate where the body also writes it) that an
// iteration reads before writing it would need what an earlier iteration
// left, and there is no earlier iteration on a GPU. An error at the read, a
// note at the clause. A variable written first stays per iteration. The
// advice for a shared scalar written without a clause says what it is.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <algorithm>

void accumulators(const float *__restrict__ a, float *__restrict__ b, int n) {
  float acc = 0, t = 0, x = 1, last = 0;
  float *p = nullptr;
#pragma gpu_autopar for private(acc)
  for (int i = 0; i < n; ++i) {
    acc += a[i];
    b[i] = acc;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:5: error: 'acc' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads.cpp:[[@LINE-6]]:33: note: 'private' clause is here
#pragma gpu_autopar for private(t)
  for (int i = 0; i < n; ++i) {
    if (i % 8 == 0)
      t = 0;
    t = t + a[i];
    b[i] = t;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:9: error: 't' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads.cpp:[[@LINE-8]]:33: note: 'private' clause is here
#pragma gpu_autopar for firstprivate(x)
  for (int i = 0; i < n; ++i) {
    x = x * 0.5f + a[i];
    b[i] = x;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:9: error: 'x' is read before the iteration writes it; every iteration's firstprivate copy starts from the value before the loop: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads.cpp:[[@LINE-6]]:38: note: 'firstprivate' clause is here
#pragma gpu_autopar for lastprivate(last)
  for (int i = 0; i < n; ++i) {
    b[i] = last;
    last = a[i];
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:12: error: 'last' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads.cpp:[[@LINE-6]]:37: note: 'lastprivate' clause is here
#pragma gpu_autopar for private(p)
  for (int i = 0; i < n; ++i)
    b[i] = *p;
// CHECK: private-reads.cpp:[[@LINE-1]]:13: error: 'p' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads.cpp:[[@LINE-4]]:33: note: 'private' clause is here
#pragma gpu_autopar for private(t)
  for (int i = 0; i < n; ++i) {
    t += a[i];
    b[i] = 0;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:5: error: 't' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over; if it accumulates over the loop, use 'reduction(+: t)'
// CHECK: private-reads.cpp:[[@LINE-6]]:33: note: 'private' clause is here
}

// Written before read on every path: per iteration, as before.
void written_first(const float *__restrict__ a, float *__restrict__ b, int n, int m) {
  float t, x = 2, s;
  float tmp[4];
  int j;
#pragma gpu_autopar for private(t) firstprivate(x)
  for (int i = 0; i < n; ++i) {
    t = a[i] * x;
    b[i] = t + 1;
  }
#pragma gpu_autopar for private(tmp, j)
  for (int i = 0; i < n; ++i) {
    for (j = 0; j < 4; j++)
      tmp[j] = a[i] + j;
    b[i] = tmp[0] * tmp[3];
  }
#pragma gpu_autopar for private(s)
  for (int i = 0; i < n; ++i) {
    if (a[i] > 0)
      s = a[i];
    else
      s = -a[i];
    b[i] = s;
  }
#pragma gpu_autopar for private(s)
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0)
      continue;
    s = a[i];
    b[i] = s * s;
  }
}

// Without a clause, the advice names what the variable is.
void advice(const float *__restrict__ a, float *__restrict__ b, int n, float &out) {
  float m = 1e20f, prev = 0, t = 0;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    m = std::min(m, a[i]);
// CHECK: private-reads.cpp:[[@LINE-1]]:5: error: 'm' is declared outside the loop and written in it; every use updates it with 'min': add it to a 'reduction(min: m)' clause
// CHECK: private-reads.cpp:[[@LINE-5]]:9: note: 'm' is declared here
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    prev = a[i] + prev * 0.5f;
    b[i] = prev;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:5: error: 'prev' is declared outside the loop and written in it; an iteration reads it before writing it, so it needs the value an earlier iteration left: neither private(...) (whose copy would start empty) nor a reduction(...) holds that; the iterations depend on each other
// CHECK: private-reads.cpp:[[@LINE-12]]:20: note: 'prev' is declared here
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    t = a[i] * 2;
    b[i] = t;
  }
// CHECK: private-reads.cpp:[[@LINE-3]]:5: error: 't' is declared outside the loop and written in it; every iteration writes it before reading it: add it to a private(...) clause (lastprivate(...) if its value after the loop is used)
// CHECK: private-reads.cpp:[[@LINE-19]]:30: note: 't' is declared here
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out = a[i];
// CHECK: private-reads.cpp:[[@LINE-1]]:5: error: 'out' is declared outside the loop and written in it; it is a reference, so every iteration writes the object it names, which a private(...) copy would not reach; write a local variable of the body instead, or a reduction(...) if it accumulates
// CHECK: private-reads.cpp:[[@LINE-25]]:79: note: 'out' is declared here
}
