// The gpu-autopar half of bench/gpu/run.sh: saxpy, a 2-D Jacobi sweep and a
// dot product, written as a user would write them, rewritten by the tool and
// compiled as CUDA. Each loop is timed twice, as bench/gpu/reference.cu
// times its hand-written CUDA twin:
//   copies_s   one loop outside any data region: its chunks copy their
//              sections in and out (after one untimed warm-up loop);
//   resident_s one loop inside a data region whose sections are already on
//              the devices (the mean of REPS loops after the first).
// The result is compared with the same loop run serially on the host.
// Usage: bench_gpu_loops saxpy|jacobi|dot [SIZE] [REPS]
//   saxpy: SIZE elements (default 2^28); jacobi: SIZE x SIZE grid (default
//   4096), one rep = one sweep (stencil into b, copy back into a); dot: SIZE
//   elements (default 2^28).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, long n) {
#pragma gpu_autopar for map(to: x[0:n]) map(tofrom: y[0:n])
  for (long i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void jacobi_sweep(double *__restrict__ a, double *__restrict__ b, int n) {
#pragma gpu_autopar for collapse(2) map(to: a[0:n*n]) map(tofrom: b[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma gpu_autopar for collapse(2) map(to: b[0:n*n]) map(tofrom: a[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      a[i * n + j] = b[i * n + j];
}

double dot(const float *x, const float *y, long n) {
  double sum = 0;
#pragma gpu_autopar for reduction(+: sum) map(to: x[0:n], y[0:n])
  for (long i = 0; i < n; ++i)
    sum += double(x[i]) * double(y[i]);
  return sum;
}

// The largest difference relative to the values' size; 0 when equal.
template <class T> double mismatch(const std::vector<T> &got, const std::vector<T> &want) {
  double worst = 0, scale = 1e-30;
  for (std::size_t k = 0; k < got.size(); ++k) {
    worst = std::fmax(worst, std::fabs(double(got[k]) - double(want[k])));
    scale = std::fmax(scale, std::fabs(double(want[k])));
  }
  return worst / scale;
}

int report(const char *loop, long size, int reps, double copies, double resident, double checksum, double error,
           double tolerance) {
  std::printf("%s size=%ld reps=%d copies_s=%.6f resident_s=%.6f checksum=%.9g max_rel_error=%.3g\n", loop, size,
              reps, copies, resident, checksum, error);
  if (error > tolerance) {
    std::fprintf(stderr, "%s: result differs from the serial loop (relative error %.3g > %.3g)\n", loop, error,
                 tolerance);
    return 1;
  }
  return 0;
}

// The GPU contracts a * x + y into one fused multiply-add, the host may not:
// float results agree to a few ulps, not bit for bit.
int run_saxpy(long n, int reps) {
  std::vector<float> x(n), y(n), want(n);
  for (long k = 0; k < n; ++k) {
    x[k] = 1.0f + float(k % 17);
    y[k] = want[k] = 0.5f * float(k % 5);
  }
  const float a = 0.5f;
  float *xp = x.data(), *yp = y.data();
  saxpy(yp, xp, a, n); // warm-up: contexts, pools, kernels loaded
  auto t0 = clock_type::now();
  saxpy(yp, xp, a, n);
  const double copies = since(t0);
  double resident;
#pragma gpu_autopar data map(to: xp[0:n]) map(tofrom: yp[0:n])
  {
    saxpy(yp, xp, a, n); // brings the sections to the devices
    t0 = clock_type::now();
    for (int r = 0; r < reps; ++r)
      saxpy(yp, xp, a, n);
    resident = since(t0) / reps;
  }
  for (int r = 0; r < reps + 3; ++r)
    for (long k = 0; k < n; ++k)
      want[k] = a * x[k] + want[k];
  double sum = 0;
  for (long k = 0; k < n; ++k)
    sum += y[k];
  return report("saxpy", n, reps, copies, resident, sum, mismatch(y, want), 1e-5);
}

int run_jacobi(int n, int reps) {
  const long total = long(n) * n;
  std::vector<double> a(total), b(total);
  for (long k = 0; k < total; ++k)
    a[k] = b[k] = double(k % 1000) / 7.0;
  std::vector<double> wa = a, wb = b;
  double *ap = a.data(), *bp = b.data();
  jacobi_sweep(ap, bp, n); // warm-up
  auto t0 = clock_type::now();
  jacobi_sweep(ap, bp, n);
  const double copies = since(t0);
  double resident;
#pragma gpu_autopar data map(tofrom: ap[0:total], bp[0:total])
  {
    jacobi_sweep(ap, bp, n);
    t0 = clock_type::now();
    for (int r = 0; r < reps; ++r)
      jacobi_sweep(ap, bp, n);
    resident = since(t0) / reps;
  }
  for (int r = 0; r < reps + 3; ++r) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        wb[i * n + j] = 0.25 * (wa[(i - 1) * n + j] + wa[(i + 1) * n + j] + wa[i * n + j - 1] + wa[i * n + j + 1]);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        wa[i * n + j] = wb[i * n + j];
  }
  double sum = 0;
  for (long k = 0; k < total; k += 97)
    sum += a[k];
  return report("jacobi", n, reps, copies, resident, sum, mismatch(a, wa), 1e-12);
}

int run_dot(long n, int reps) {
  std::vector<float> x(n), y(n);
  for (long k = 0; k < n; ++k) {
    x[k] = float(k % 13) - 6.0f;
    y[k] = 0.25f * float(k % 7);
  }
  const float *xp = x.data(), *yp = y.data();
  dot(xp, yp, n); // warm-up
  auto t0 = clock_type::now();
  double got = dot(xp, yp, n);
  const double copies = since(t0);
  double resident;
#pragma gpu_autopar data map(to: xp[0:n], yp[0:n])
  {
    got = dot(xp, yp, n);
    t0 = clock_type::now();
    for (int r = 0; r < reps; ++r)
      got = dot(xp, yp, n);
    resident = since(t0) / reps;
  }
  double want = 0;
  for (long k = 0; k < n; ++k)
    want += double(x[k]) * double(y[k]);
  // Every product and partial sum is exact in a double here (small integers
  // times quarters), so any order of summation gives the serial value.
  return report("dot", n, reps, copies, resident, got, std::fabs(got - want) / std::fmax(1.0, std::fabs(want)), 0);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: %s saxpy|jacobi|dot [SIZE] [REPS]\n", argv[0]);
    return 2;
  }
  const char *loop = argv[1];
  const long size = argc > 2 ? std::atol(argv[2]) : 0;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  if (size < 0 || reps < 1) {
    std::fprintf(stderr, "%s: SIZE must be positive and REPS at least 1\n", argv[0]);
    return 2;
  }
  if (!std::strcmp(loop, "saxpy"))
    return run_saxpy(size ? size : 1L << 28, reps);
  if (!std::strcmp(loop, "jacobi"))
    return run_jacobi(size ? int(size) : 4096, reps);
  if (!std::strcmp(loop, "dot"))
    return run_dot(size ? size : 1L << 28, reps);
  std::fprintf(stderr, "%s: unknown loop '%s' (saxpy, jacobi or dot)\n", argv[0], loop);
  return 2;
}
