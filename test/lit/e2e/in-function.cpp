// Annotated loops inside functions and a member function, over containers
// passed by reference, called several times.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

static void normalise(std::vector<double> &v, double scale) {
#pragma gpu_autopar for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = v[i] / scale;
}

struct Blend {
  double weight;
  void apply(const std::vector<double> &a, std::vector<double> &b, int n) const {
    const double w = weight;
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i)
      b[i] = w * a[i] + (1 - w) * b[i];
  }
};

int main() {
  std::vector<double> a(12345), b(12345);
  for (int i = 0; i < 12345; ++i) {
    a[i] = i % 64;
    b[i] = 64 - i % 64;
  }
  normalise(a, 2.0);
  normalise(b, 4.0);
  Blend{0.75}.apply(a, b, 12345);
  double s = 0;
  for (int i = 0; i < 12345; ++i)
    s += b[i] * (i % 9);
  std::printf("s=%.4f\n", s);
}
// CHECK-COUNT-2: cpu: in-function.cpp:8 mode=kernel backend=cpu iterations=12345 devices=1
// CHECK: cpu: in-function.cpp:17 mode=kernel backend=cpu iterations=12345 devices=1
// CHECK-COUNT-2: sim:3: in-function.cpp:8 mode=kernel backend=sim iterations=12345 devices=3
// CHECK: sim:3: in-function.cpp:17 mode=kernel backend=sim iterations=12345 devices=3
