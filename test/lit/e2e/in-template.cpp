// An annotated loop in a function template, instantiated for float and int:
// the generated views follow the element type (view<decltype(x)>). Another
// one reads through a `const U *` and writes through a `T *`, which look
// unrelated as the template is written; instantiated with double for both and
// given overlapping arrays, the rewritten loop compares them and runs serially.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

template <class T>
T axpy_sum(T a, const std::vector<T> &x, std::vector<T> &y) {
  T total = 0;
  const int n = static_cast<int>(x.size());
#pragma gpu_autopar for reduction(+: total)
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i] + y[i];
    total += y[i];
  }
  return total;
}

template <class T, class U> void add_one(T *dst, const U *src, int n) {
#pragma gpu_autopar for map(from: dst[0:n]) map(to: src[0:n])
  for (int i = 0; i < n; ++i)
    dst[i] = src[i] + 1;
}

int main() {
  std::vector<float> xf(3001, 0.5f), yf(3001, 1.0f);
  std::vector<int> xi(7003), yi(7003, 2);
  for (int i = 0; i < 7003; ++i)
    xi[i] = i % 10;
  float tf = axpy_sum(4.0f, xf, yf);
  int ti = axpy_sum(3, xi, yi);
  std::printf("tf=%.1f ti=%d y=%.1f %d\n", tf, ti, yf[7], yi[7]);
  std::vector<double> d(4001);
  std::vector<float> f(4000);
  for (int i = 0; i < 4000; ++i)
    f[i] = static_cast<float>(i % 9);
  add_one(d.data(), f.data(), 4000);
  add_one(d.data() + 1, d.data(), 4000); // d[i + 1] = d[i] + 1, in order
  double sum = 0;
  for (int i = 0; i < 4001; ++i)
    sum += d[i] * (i % 13);
  std::printf("sum=%.1f last=%.1f\n", sum, d[4000]);
}
// CHECK-COUNT-2: cpu: in-template.cpp:14 mode=kernel backend=cpu iterations={{3001|7003}} devices=1
// CHECK-NEXT: cpu: in-template.cpp:23 mode=kernel backend=cpu iterations=4000 devices=1{{$}}
// CHECK-NEXT: cpu: in-template.cpp:23 mode=kernel backend=cpu iterations=4000 devices=1 serial='dst' and 'src' overlap in memory
// CHECK-COUNT-2: sim:3: in-template.cpp:14 mode=kernel backend=sim iterations={{3001|7003}} devices=3
// CHECK-NEXT: sim:3: in-template.cpp:23 mode=kernel backend=sim iterations=4000 devices=3{{$}}
// CHECK-NEXT: sim:3: in-template.cpp:23 mode=kernel backend=cpu iterations=4000 devices=1 serial='dst' and 'src' overlap in memory
