// std::array objects (sizes known at compile time) in kernel mode, including
// a const one read through a neighbour offset.
// RUN: %e2e --out %t %s | FileCheck %s
#include <array>
#include <cstdio>

static std::array<double, 20000> out;

int main() {
  static std::array<double, 20001> coeff;
  for (std::size_t i = 0; i < coeff.size(); ++i)
    coeff[i] = double(i % 10) * 0.25;
  const std::array<double, 20001> &c = coeff;
#pragma gpu_autopar for
  for (int i = 0; i < 20000; ++i)
    out[i] = c[i] + c[i + 1] * 2.0;
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    s += out[i] * double(i % 3);
  std::printf("s=%.2f\n", s);
}
// CHECK: cpu: std-array.cpp:14 mode=kernel backend=cpu iterations=20000 devices=1
// CHECK: sim:3: std-array.cpp:14 mode=kernel backend=sim iterations=20000 devices=3
