// End to end: rewrite, compile against the runtime, run, and compare with the
// serial program built from this unmodified file.
// RUN: %gpu-autopar %s -o %t.par.cpp -- -std=c++17
// RUN: %cxx %t.par.cpp %runtime -o %t.par
// RUN: %cxx -Wno-unknown-pragmas %s -o %t.ser
// RUN: %t.ser > %t.expected
// RUN: env GPU_AUTOPAR_THREADS=2 %t.par > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: env GPU_AUTOPAR_THREADS=5 %t.par > %t.actual5
// RUN: diff %t.expected %t.actual5
#include <cstdio>
#include <vector>

int main() {
  const int n = 100003; // not a multiple of any thread count
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1.0f + (i % 7);
  }
  const float a = 2.5f;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];

  // A reversed, strided loop that skips some iterations with continue.
#pragma gpu_autopar for
  for (long i = n - 1; i >= 0; i -= 3) {
    if (i % 5 == 0)
      continue;
    x[i] = -x[i];
  }

  double sum = 0, check = 0;
  for (int i = 0; i < n; ++i) {
    sum += y[i];
    check += x[i] * (i % 11);
  }
  std::printf("sum=%.3f check=%.3f first=%.2f last=%.2f\n", sum, check, y[0], y[n - 1]);
  return 0;
}
