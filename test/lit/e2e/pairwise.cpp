// Pairwise interactions over raw pointers, as n-body codes write them: each
// iteration reads every x[j] and its own x[i]. The two coefficients of i
// (0 and 1) share one section, the hull of what the whole loop reads
// (`affine(0, 0, n)`), so no length clause is needed. The second loop reads
// a window of `w` beside its own element, which a pointer into the middle of
// the array names with negative offsets.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void forces(const float *x, const float *y, float *fx, float *fy, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float ax = 0, ay = 0;
    for (int j = 0; j < n; ++j) {
      float dx = x[j] - x[i], dy = y[j] - y[i];
      float r = dx * dx + dy * dy + 0.5f;
      ax += dx / r;
      ay += dy / r;
    }
    fx[i] = ax;
    fy[i] = ay;
  }
}

void window(const int *mid, int *out, int n, int w) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    int s = 3 * mid[i];
    for (int j = -w; j < 0; ++j)
      s += mid[j] * (j + i);
    out[i] = s;
  }
}

int main() {
  const int n = 301, w = 7;
  std::vector<float> x(n), y(n), fx(n, -1), fy(n, -1);
  for (int k = 0; k < n; ++k) {
    x[k] = float(k % 13) - 6;
    y[k] = float(k % 7) * 0.5f;
  }
  forces(x.data(), y.data(), fx.data(), fy.data(), n);
  std::vector<int> base(n + w), out(n, -1);
  for (int k = 0; k < n + w; ++k)
    base[k] = k % 9 - 4;
  window(base.data() + w, out.data(), n, w);
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += double(fx[k]) * (k % 5) + double(fy[k]) * (k % 3) + out[k] * (k % 7);
  std::printf("s=%.3f fx1=%.4f fy1=%.4f out1=%d\n", s, fx[1], fy[1], out[1]);
}
// CHECK: sim:3: pairwise.cpp:12 mode=kernel backend=sim iterations=301 devices=3
// CHECK: sim:3: pairwise.cpp:27 mode=kernel backend=sim iterations=301 devices=3
