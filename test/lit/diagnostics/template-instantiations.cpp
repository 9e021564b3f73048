// A loop in a template is analysed as each instantiation the file makes has
// it: one rewritten loop serves them all, so an instantiation whose loop is
// not parallel (a dependence that only its template arguments make) refuses
// the loop, naming it with its own reasons as notes, and the instantiations
// that are fine, each at the point where the file makes it. A run-time check
// that one instantiation needs (two pointers of one element type) is made for
// all, with a remark naming the instantiation.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <vector>

// As written, `i + K` is not affine (a warning); as shift<1> has it, iteration
// i reads what iteration i + 1 writes.
template <int K> void shift(std::vector<double> &a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] = a[i + K] * 2.0;
}
// CHECK: template-instantiations.cpp:[[@LINE-2]]:5: warning: cannot prove that iterations access distinct elements of 'a': subscript 'i + K' is not affine in the loop variables
// CHECK: template-instantiations.cpp:[[@LINE-3]]:12: note: read of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-5]]:3: error: this template loop is rejected in 'shift<1>', though not in 'shift<0>': one rewritten loop serves every instantiation
// CHECK: template-instantiations.cpp:[[@LINE-6]]:3: note: in 'shift<1>': loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: template-instantiations.cpp:[[@LINE-6]]:5: note: in 'shift<1>': write of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-7]]:12: note: in 'shift<1>': read of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-9]]:3: note: in 'shift<1>': for example, with n = 2, iteration i=1 writes a[1] and iteration i=0 reads it
void use_shift(std::vector<double> &a) {
  shift<0>(a, 100);
  shift<1>(a, 100);
}
// CHECK: template-instantiations.cpp:[[@LINE-2]]:3: note: 'shift<1>' is instantiated here
// CHECK: template-instantiations.cpp:[[@LINE-4]]:3: note: 'shift<0>' is instantiated here

// Rejected in every instantiation: a prefix sum at a distance the template
// argument gives.
template <int K> void lag(std::vector<double> &a) {
#pragma gpu_autopar for
  for (int i = K; i < (int)a.size(); ++i)
    a[i] += a[i - K];
}
// CHECK: template-instantiations.cpp:[[@LINE-2]]:5: warning: cannot prove that iterations access distinct elements of 'a': the start of the annotated loop 'K' is not affine
// CHECK: template-instantiations.cpp:[[@LINE-3]]:13: note: read of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-5]]:3: error: this template loop is rejected in 'lag<1>' and 'lag<2>'{{$}}
// CHECK: template-instantiations.cpp:[[@LINE-6]]:3: note: in 'lag<1>': loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: template-instantiations.cpp:[[@LINE-6]]:5: note: in 'lag<1>': write of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-7]]:13: note: in 'lag<1>': read of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-9]]:3: note: in 'lag<1>': for example, with a.size() = 3, iteration i=1 writes a[1] and iteration i=2 reads it
// CHECK: template-instantiations.cpp:[[@LINE-10]]:3: note: in 'lag<2>': loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: template-instantiations.cpp:[[@LINE-10]]:5: note: in 'lag<2>': write of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-11]]:13: note: in 'lag<2>': read of 'a' here
// CHECK: template-instantiations.cpp:[[@LINE-13]]:3: note: in 'lag<2>': for example, with a.size() = 5, iteration i=2 writes a[2] and iteration i=4 reads it
void use_lag(std::vector<double> &a) {
  lag<1>(a);
  lag<2>(a);
}
// CHECK: template-instantiations.cpp:[[@LINE-3]]:3: note: 'lag<1>' is instantiated here
// CHECK: template-instantiations.cpp:[[@LINE-3]]:3: note: 'lag<2>' is instantiated here

// A member of a class template: the element type decides which element each
// iteration writes (one each for 8-byte types, one per two for 4-byte ones).
template <class T> struct Grid {
  std::vector<long> out;
  void spread(int n) {
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      out[i * sizeof(T) / 8] = i;
  }
};
// CHECK: template-instantiations.cpp:[[@LINE-3]]:7: warning: cannot prove that iterations access distinct elements of 'out': subscript 'i * sizeof(T) / 8' is not affine in the loop variables
// CHECK: template-instantiations.cpp:[[@LINE-5]]:5: error: this template loop is rejected in 'Grid<int>::spread', though not in 'Grid<double>::spread': one rewritten loop serves every instantiation
// CHECK: template-instantiations.cpp:[[@LINE-6]]:5: note: in 'Grid<int>::spread': loop-carried dependence on 'out': an element written in one iteration is written again in another
// CHECK: template-instantiations.cpp:[[@LINE-6]]:7: note: in 'Grid<int>::spread': write of 'out' here
// CHECK: template-instantiations.cpp:[[@LINE-8]]:5: note: in 'Grid<int>::spread': for example, with n = 2, iterations i=0 and i=1 both write out[0]
void use_grid() {
  Grid<double> gd{std::vector<long>(100)};
  gd.spread(100);
  Grid<int> gi{std::vector<long>(100)};
  gi.spread(100);
}
// CHECK: template-instantiations.cpp:[[@LINE-2]]:6: note: 'Grid<int>::spread' is instantiated here
// CHECK: template-instantiations.cpp:[[@LINE-5]]:6: note: 'Grid<double>::spread' is instantiated here

// As written, `T *` and `const U *` look unrelated; as copy<double, double>
// has them, they may overlap: the rewritten loop compares them first.
template <class T, class U> void copy(T *dst, const U *src, int n) {
#pragma gpu_autopar for map(from: dst[0:n]) map(to: src[0:n])
  for (int i = 0; i < n; ++i)
    dst[i] = src[i] + 1;
}
// CHECK: template-instantiations.cpp:[[@LINE-2]]:5: remark: 'dst' and 'src' may overlap; the rewritten loop compares their addresses first and runs serially if they do (in 'copy<double, double>')
void use_copy(double *a, const float *f) {
  copy(a, f, 100);
  copy(a + 1, a, 100);
}
