// What the analysis cannot rule out is a warning naming the access; the loop
// is still rewritten (exit status 0). With --strict each one is an error,
// the loop is rejected (exit status 1) and nothing is written.
// RUN: %gpu-autopar %s -o %t.out -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
// RUN: grep -v "OUT[-A-Z]*:" %t.out | FileCheck %s --check-prefix=OUT
// OUT: ::gpu_autopar::
// RUN: rm -f %t.strict.out
// RUN: %expect-exit 1 %gpu-autopar --strict %s -o %t.strict.out -- -std=c++17 2> %t.strict
// RUN: sed -e 's/: warning: /: error: /' -e '/: remark: loop runs on CPU threads only: /,+2d' %t.err > %t.expected-strict
// RUN: grep -v -e 'generated' -e 'Error while processing' %t.strict > %t.strict.diags
// RUN: grep -v 'generated' %t.expected-strict | diff - %t.strict.diags
// RUN: not test -e %t.strict.out
#include <vector>

void opaque(float *p);

void indirect(std::vector<float> &out, const std::vector<int> &idx, const std::vector<double> &in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[idx[i]] = in[i];
// CHECK: unknown.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'out': subscript 'idx[i]' is not affine in the loop variables
}

void shifted(std::vector<float> &a, int n, int k) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i + k] = a[i] * 2;
// CHECK: unknown.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'a': iterations conflict only for some values of the loop's parameters (with n = 2, k = 1, iteration i=0 writes a[1] and iteration i=1 reads it)
// CHECK: unknown.cpp:[[@LINE-2]]:16: note: read of 'a' here
}

void may_alias(float *x, float *y, int *flags, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    y[i] = 2 * x[i];
    flags[i] = 1;
  }
// Pointers both mapped: their addresses are compared before the loop runs.
// CHECK: unknown.cpp:[[@LINE-4]]:5: remark: 'y' and 'x' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: unknown.cpp:[[@LINE-5]]:16: note: read of 'x' here
}

void unseen(float *y, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    opaque(y + i);
// CHECK: unknown.cpp:[[@LINE-1]]:5: warning: call to 'opaque' may have effects the analysis cannot see; it must not touch data that other iterations use
}

void through_locals(std::vector<float> &a, std::vector<float> &m, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float *row = &m[i * n];
    for (int j = 0; j < n; ++j)
      row[j] = 0;
// CHECK: unknown.cpp:[[@LINE-1]]:7: warning: cannot prove that iterations access distinct elements of 'm': it is written through 'row', which the analysis does not follow
  }
// A reference bound to an element is that element: writing it may write
// a[i + 1], which the next iteration reads.
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float &r = a[i + 1];
// CHECK: unknown.cpp:[[@LINE-1]]:16: warning: cannot prove that iterations access distinct elements of 'a': it may be written through a reference or a member call
    r = a[i];
// CHECK: unknown.cpp:[[@LINE-1]]:9: note: read of 'a' here
  }
// Each iteration's own element through a reference: nothing to warn about.
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float &r = a[i];
    if (r < 0)
      r = -r;
  }
// Reading through a const reference is fine.
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    const float &r = a[i];
    m[i] = r;
  }
// CHECK: unknown.cpp:[[@LINE-2]]:5: remark: 'm' and 'a' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: unknown.cpp:[[@LINE-4]]:22: note: read of 'a' here
}

void clear_row(float *p, int n) {
  for (int k = 0; k < n; ++k)
    p[k] = 0;
}
void escapes(float *__restrict__ m, std::vector<float> &a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    clear_row(&m[i * n], n);
// CHECK: unknown.cpp:[[@LINE-1]]:15: warning: cannot prove that iterations access distinct elements of 'm': it is passed to 'clear_row', which the analysis does not follow
// CHECK: unknown.cpp:[[@LINE-2]]:16: remark: loop runs on CPU threads only: the body indexes 'm', a pointer whose length the analysis cannot tell; add 'map(tofrom: m[0:n])' with its length to run it on a GPU
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    clear_row(a.data(), i);
// CHECK: unknown.cpp:[[@LINE-1]]:17: warning: cannot prove that iterations access distinct elements of 'a': it is passed to 'clear_row', which the analysis does not follow
}
