// Data regions over raw-pointer sections and a whole std::array: loops in a
// called function use the enclosing region's data ("present"); `update
// device` after host writes; a region left by an exception still copies its
// results back; a nested region of data already mapped adds nothing.
// RUN: %e2e --out %t %s | FileCheck %s
#include <array>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

void scale(float *y, const float *x, int lo, int hi, float a) {
#pragma gpu_autopar for
  for (int i = lo; i < hi; ++i)
    y[i] = a * x[i] + y[i];
}

std::array<int, 4096> counts;

int main() {
  const int n = 30011;
  float *x = static_cast<float *>(std::malloc(n * sizeof(float)));
  float *y = static_cast<float *>(std::malloc(n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 13);
    y[i] = float(i % 7);
  }
#pragma gpu_autopar data map(to: x[0:n]) map(tofrom: y[0:n]) map(tofrom: counts)
  {
    scale(y, x, 0, n, 2.0f);
    scale(y, x, 100, n - 100, 0.5f);
#pragma gpu_autopar update host(x[0:n])
    for (int i = 0; i < n; i += 2)
      x[i] = 1.0f;
#pragma gpu_autopar update device(x[0:n])
#pragma gpu_autopar data map(tofrom: y[0:n])
    {
      scale(y, x, 0, n, 1.0f);
    }
#pragma gpu_autopar for
    for (int k = 0; k < 4096; ++k)
      counts[k] = k % 3 + int(y[k * 7]) % 5;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * (i % 3);
  long c = 0;
  for (int k = 0; k < 4096; ++k)
    c += counts[k] * (k % 11);
  try {
#pragma gpu_autopar data map(tofrom: y[0:n])
    {
      scale(y, x, 0, n, -1.0f);
      throw std::runtime_error("left early");
    }
  } catch (const std::runtime_error &e) {
    std::printf("caught: %s\n", e.what());
  }
  std::printf("s=%.1f c=%ld y[5]=%.1f y[n-1]=%.1f\n", s, c, y[5], y[n - 1]);
  std::free(x), std::free(y);
}
// CHECK: sim:3: data-region-sections.cpp:12 mode=kernel backend=sim iterations=30011 devices=3
// CHECK: sim:3: data-region-sections.cpp:12 mode=kernel backend=sim iterations=29811 devices=3
// CHECK: sim:3: region data-region-sections.cpp:35
// CHECK: sim:3: data-region-sections.cpp:39 mode=kernel backend=sim iterations=4096 devices=3
// CHECK: sim:3: region data-region-sections.cpp:27
// CHECK: sim:3: region data-region-sections.cpp:50
