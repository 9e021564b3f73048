// Element-wise map kernels calling math functions and a constexpr helper:
// device-compilable, so kernel mode.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cmath>
#include <cstdio>
#include <vector>

constexpr float clamp01(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

int main() {
  const int n = 65537;
  std::vector<float> in(n), out(n), gamma(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 256) / 255.0f;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = clamp01(std::sqrt(in[i]) * 1.1f - 0.05f);
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    gamma[i] = std::pow(out[i], 2.2f) + std::fabs(in[i] - 0.5f);
  long check = 0;
  for (int i = 0; i < n; ++i)
    check += long(gamma[i] * 1000.0f) * (i % 3);
  std::printf("check=%ld\n", check);
}
// CHECK: cpu: map-kernels.cpp:15 mode=kernel backend=cpu iterations=65537 devices=1
// CHECK: cpu: map-kernels.cpp:18 mode=kernel backend=cpu iterations=65537 devices=1
// CHECK: sim:3: map-kernels.cpp:15 mode=kernel backend=sim iterations=65537 devices=3
// CHECK: sim:3: map-kernels.cpp:18 mode=kernel backend=sim iterations=65537 devices=3
