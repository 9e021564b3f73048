// Loops that must be accepted without any diagnostic: stencils that read
// neighbours and write only their own element, strided writes, reductions,
// loops over std::vector and std::array, inner sequential loops, privates,
// every induction type and comparison. Exit status 0, no error, no warning;
// the only remarks are for container references that may be bound to one
// object, whose addresses the rewritten loop compares before it runs.
// RUN: %gpu-autopar %s --check -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

void stencil_1d(float *__restrict__ out, const float *__restrict__ in, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n - 1; ++i)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
}

void stencil_2d(std::vector<float> &out, const std::vector<float> &in, int w, int h) {
#pragma gpu_autopar for
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x)
      out[y * w + x] = in[(y - 1) * w + x] + in[(y + 1) * w + x] + in[y * w + x - 1] + in[y * w + x + 1];
// CHECK: accepted.cpp:[[@LINE-1]]:7: remark: 'out' and 'in' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: accepted.cpp:[[@LINE-2]]:24: note: read of 'in' here
}

float grid[64][64], next[64][64];
void stencil_2d_array() {
#pragma gpu_autopar for
  for (int i = 1; i < 63; ++i)
    for (int j = 1; j < 63; ++j)
      next[i][j] = 0.25f * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
}

void in_place_row(std::vector<double> &m, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[i * n + j] = m[i * n + j] * 2 + 1;
}

void strided(int *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2) {
    a[i] = 1;
    a[i + 1] = a[i + 1] * 2;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n / 2; ++i)
    a[2 * i] = a[2 * i + 1];
}

void reductions(const std::vector<double> &x, int n, double &out_sum) {
  double sum = 0, prod = 1, hi = -1e300, lo = 1e300;
  unsigned bits = 0, mask = ~0u, parity = 0;
  bool any = false, all = true;
  long count = 0;
#pragma gpu_autopar for reduction(+: sum, count) reduction(*: prod) reduction(max: hi) reduction(min: lo)
  for (int i = 0; i < n; ++i) {
    sum += x[i];
    prod = prod * x[i];
    hi = std::max(hi, x[i]);
    if (x[i] < lo)
      lo = x[i];
    ++count;
  }
#pragma gpu_autopar for reduction(|: bits) reduction(&: mask) reduction(^: parity) reduction(||: any) reduction(&&: all)
  for (int i = 0; i < n; ++i) {
    bits |= unsigned(i);
    mask &= unsigned(i) | 1u;
    parity ^= unsigned(i);
    any = any || x[i] > 0;
    all = all && x[i] > 0;
  }
  out_sum = sum + prod + hi + lo + bits + mask + parity + any + all + count;
}

void containers(std::vector<float> &v, std::array<int, 16> &a, const std::vector<float> &w) {
#pragma gpu_autopar for
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = std::sqrt(w[i]) + std::fabs(v[i]);
// CHECK: accepted.cpp:[[@LINE-1]]:5: remark: 'v' and 'w' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: accepted.cpp:[[@LINE-2]]:22: note: read of 'w' here
#pragma gpu_autopar for
  for (auto &x : v)
    x = x * 2;
#pragma gpu_autopar for
  for (int &e : a)
    e += 1;
}

void inner_sequential(std::vector<double> &y, const std::vector<double> &m, const std::vector<double> &x, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    double acc = 0;
    for (int j = 0; j < n; ++j)
      acc += m[i * n + j] * x[j];
    y[i] = acc;
  }
// CHECK: accepted.cpp:[[@LINE-2]]:5: remark: 'y' and 'm' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: accepted.cpp:[[@LINE-4]]:14: note: read of 'm' here
// CHECK: accepted.cpp:[[@LINE-4]]:5: remark: 'y' and 'x' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// CHECK: accepted.cpp:[[@LINE-6]]:29: note: read of 'x' here
}

void privates(std::vector<float> &a, int n) {
  float t;
#pragma gpu_autopar for private(t)
  for (int i = 0; i < n; ++i) {
    t = a[i] * a[i];
    a[i] = t + 1;
  }
}

void induction_forms(std::vector<int> &v, std::int8_t lo, unsigned long long big, short hi) {
#pragma gpu_autopar for
  for (std::int8_t i = lo; i < 100; i++)
    v[i] = 0;
#pragma gpu_autopar for
  for (unsigned long long k = big; k > 0; k -= 3)
    v[k] = 0;
#pragma gpu_autopar for
  for (short i = hi; i >= 0; --i)
    v[i] = 1;
#pragma gpu_autopar for
  for (int i = 0; i != 64; ++i)
    v[i] = 2;
#pragma gpu_autopar for
  for (long i = 0; i <= 63; i += 1)
    v[i] = 3;
}

// Each iteration hands its own channel to a function the tool sees, which a GPU
// could run, but the channels are pointers held in an array: CPU threads.
void process_channel(float *channel, int n) {
  for (int k = 0; k < n; ++k)
    channel[k] *= 2;
}
void channels(float **planes, int n) {
#pragma gpu_autopar for
  for (int c = 0; c < 3; ++c)
    process_channel(planes[c], n);
// CHECK: accepted.cpp:[[@LINE-1]]:21: remark: loop runs on CPU threads only: the body indexes 'planes', whose elements are pointers to further data, which a data map does not copy
}
