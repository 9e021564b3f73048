// Jacobi-2d: SWEEPS sweeps (stencil into b, copy back into a) of an N x N
// grid, inside a data region or without one (issue 11). The sweeps are one
// function either way: loops find the region's data by address, so the only
// difference is the `data` directive around the call. Run through
// bench/jacobi_region.sh, which sets GPU_AUTOPAR_DEVICES and sums the bytes
// the report says were copied.
// Usage: bench_jacobi_region N SWEEPS region|plain
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static void sweeps(std::vector<double> &a, std::vector<double> &b, int n, int count) {
  int i, j, s;
  for (s = 0; s < count; ++s) {
#pragma gpu_autopar for private(j)
    for (i = 1; i < n - 1; ++i)
      for (j = 1; j < n - 1; ++j)
        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma gpu_autopar for private(j)
    for (i = 1; i < n - 1; ++i)
      for (j = 1; j < n - 1; ++j)
        a[i * n + j] = b[i * n + j];
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s N SWEEPS region|plain\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[1]), count = std::atoi(argv[2]);
  const bool region = std::strcmp(argv[3], "region") == 0;
  const long total = long(n) * n;
  std::vector<double> a(total), b(total);
  for (long k = 0; k < total; ++k)
    a[k] = b[k] = double(k % 1000) / 7.0;
  const auto t0 = std::chrono::steady_clock::now();
  if (region) {
#pragma gpu_autopar data map(tofrom: a[0:total], b[0:total])
    {
      sweeps(a, b, n, count);
    }
  } else {
    sweeps(a, b, n, count);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double sum = 0;
  for (long k = 0; k < total; k += 97)
    sum += a[k];
  std::printf("%s n=%d sweeps=%d seconds=%.3f checksum=%.6f\n", region ? "region" : "plain", n, count, seconds, sum);
}
