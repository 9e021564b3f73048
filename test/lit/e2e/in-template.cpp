// An annotated loop in a function template, instantiated for float and int:
// the generated views follow the element type (view<decltype(x)>).
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

int main() {
  std::vector<float> xf(3001, 0.5f), yf(3001, 1.0f);
  std::vector<int> xi(7003), yi(7003, 2);
  for (int i = 0; i < 7003; ++i)
    xi[i] = i % 10;
  float tf = axpy_sum(4.0f, xf, yf);
  int ti = axpy_sum(3, xi, yi);
  std::printf("tf=%.1f ti=%d y=%.1f %d\n", tf, ti, yf[7], yi[7]);
}
// CHECK-COUNT-2: cpu: in-template.cpp:11 mode=kernel backend=cpu iterations={{3001|7003}} devices=1
// CHECK-COUNT-2: sim:3: in-template.cpp:11 mode=kernel backend=sim iterations={{3001|7003}} devices=3
