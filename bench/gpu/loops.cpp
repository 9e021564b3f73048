// The gpu-autopar half of bench/gpu/run.sh: saxpy, a dot product, Jacobi-2d
// (split on rows, and collapse(2)) and a collapse(2) matrix multiply, written
// as a user would write them, rewritten by the tool and compiled as CUDA.
// bench/gpu/reference.cu is the same work in hand-written CUDA; both run the
// same cases in the same order on the same data:
//   saxpy_oneshot  one saxpy with its copies in and out (after a warm-up one)
//   saxpy_region   a data region around REPS saxpys: entry copies, loops, exit copies (after a warm-up one)
//   dot_region     a data region around REPS dot products of the same vectors (after a warm-up one)
//   jacobi_rows    a data region around SWEEPS sweeps split on rows (stencil into b, copy back into a)
//   jacobi_collapse the same sweeps, each loop collapse(2)
//   matmul         C = A B, collapse(2) over C's elements, with its copies (after a warm-up one)
// Each case is timed twice over: by the wall clock, and by the CUDA stand-in's
// calibrated timeline when the program runs on it (marks `CASE.begin` and
// `CASE.end`, test/standin/README.md); bench/gpu/run.sh says which it prints.
// Every result is compared with the same loops run serially on the host.
// Usage: bench_gpu_loops SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common.h"

namespace {

using clock_type = std::chrono::steady_clock;

using bench_gpu::serial_sweeps;
using bench_gpu::timed;

int failures = 0;

void report(const char *name, double seconds, double checksum, double error, double tolerance) {
  std::printf("case=%s wall_s=%.6f checksum=%.9g max_rel_error=%.3g\n", name, seconds, checksum, error);
  if (error > tolerance) {
    std::fprintf(stderr, "%s: result differs from the serial loops (relative error %.3g > %.3g)\n", name, error,
                 tolerance);
    ++failures;
  }
}

template <class T> double mismatch(const std::vector<T> &got, const std::vector<T> &want) {
  double worst = 0, scale = 1e-30;
  for (std::size_t k = 0; k < got.size(); ++k) {
    worst = std::fmax(worst, std::fabs(double(got[k]) - double(want[k])));
    scale = std::fmax(scale, std::fabs(double(want[k])));
  }
  return worst / scale;
}

template <class T> double sum_of(const std::vector<T> &v) {
  double s = 0;
  for (T x : v)
    s += double(x);
  return s;
}

void saxpy(float *__restrict__ y, const float *__restrict__ x, float a, long n) {
#pragma gpu_autopar for map(to: x[0:n]) map(tofrom: y[0:n])
  for (long i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

double dot(const float *x, const float *y, long n) {
  double sum = 0;
#pragma gpu_autopar for reduction(+: sum) map(to: x[0:n], y[0:n])
  for (long i = 0; i < n; ++i)
    sum += double(x[i]) * double(y[i]);
  return sum;
}

void sweep_rows(double *__restrict__ a, double *__restrict__ b, int n) {
#pragma gpu_autopar for map(to: a[0:n*n]) map(tofrom: b[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma gpu_autopar for map(to: b[0:n*n]) map(tofrom: a[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      a[i * n + j] = b[i * n + j];
}

void sweep_collapse(double *__restrict__ a, double *__restrict__ b, int n) {
#pragma gpu_autopar for collapse(2) map(to: a[0:n*n]) map(tofrom: b[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
#pragma gpu_autopar for collapse(2) map(to: b[0:n*n]) map(tofrom: a[0:n*n])
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      a[i * n + j] = b[i * n + j];
}

void matmul(double *__restrict__ c, const double *__restrict__ a, const double *__restrict__ b, int n) {
#pragma gpu_autopar for collapse(2) map(to: a[0:n*n], b[0:n*n]) map(from: c[0:n*n])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

void run_saxpy_and_dot(long n, long dn, int reps) {
  std::vector<float> x(n), y(n), want(n);
  for (long k = 0; k < n; ++k) {
    x[k] = 1.0f + float(k % 17);
    y[k] = want[k] = 0.5f * float(k % 5);
  }
  const float a = 0.5f;
  float *xp = x.data(), *yp = y.data();
  saxpy(yp, xp, a, n); // warm-up: contexts, kernels, the vectors registered
  timed one("saxpy_oneshot");
  saxpy(yp, xp, a, n);
  const double oneshot = one.end();
  for (int r = 0; r < 2; ++r)
    for (long k = 0; k < n; ++k)
      want[k] = a * x[k] + want[k];
  report("saxpy_oneshot", oneshot, sum_of(y), mismatch(y, want), 1e-5);

  // Warm-up, as for the other cases: a region of one saxpy, the shape of the
  // timed one. Its GPUs' parts of the vectors come from their pools (cudaMalloc,
  // 100 us each) and go back to them, for the timed region to reuse, as the
  // hand-written program allocates its buffers once at start-up, untimed.
#pragma gpu_autopar data map(to: xp[0:n]) map(tofrom: yp[0:n])
  {
    saxpy(yp, xp, a, n);
  }
  timed region("saxpy_region");
#pragma gpu_autopar data map(to: xp[0:n]) map(tofrom: yp[0:n])
  {
    for (int r = 0; r < reps; ++r)
      saxpy(yp, xp, a, n);
  }
  const double in_region = region.end();
  for (int r = 0; r < reps + 1; ++r)
    for (long k = 0; k < n; ++k)
      want[k] = a * x[k] + want[k];
  report("saxpy_region", in_region, sum_of(y), mismatch(y, want), 1e-5);

  // The dot product of the first dn elements of the (still registered) vectors.
  if (dn == 0)
    return;
  for (long k = 0; k < dn; ++k) { // small integers times quarters: every partial sum is exact
    x[k] = float(k % 13) - 6.0f;
    y[k] = 0.25f * float(k % 7);
  }
  // Warm-up, as for the other cases (a region of one dot product, the shape
  // of the timed one): the first reduction loop of a shape sets up what every
  // later one reuses (the page-locked staging its partial sums come back
  // through, sized by its chunks), which the hand-written program does at
  // start-up, untimed.
  double warm = 0;
#pragma gpu_autopar data map(to: xp[0:dn], yp[0:dn])
  {
    warm = dot(xp, yp, dn);
  }
  double got = 0;
  timed d("dot_region");
#pragma gpu_autopar data map(to: xp[0:dn], yp[0:dn])
  {
    for (int r = 0; r < reps; ++r)
      got += dot(xp, yp, dn);
  }
  const double dot_s = d.end();
  double want_dot = 0;
  for (long k = 0; k < dn; ++k)
    want_dot += double(x[k]) * double(y[k]);
  if (warm != want_dot) {
    std::fprintf(stderr, "dot warm-up: %.17g, serial %.17g\n", warm, want_dot);
    ++failures;
  }
  want_dot *= reps;
  report("dot_region", dot_s, got, std::fabs(got - want_dot) / std::fmax(1.0, std::fabs(want_dot)), 0);
}

// SWEEPS sweeps of one kind in a data region, timed, checked against the serial sweeps.
void jacobi_region(const char *name, void (*sweep)(double *, double *, int), std::vector<double> &a,
                   std::vector<double> &b, std::vector<double> &wa, std::vector<double> &wb, int n, int sweeps) {
  const long total = long(n) * n;
  double *ap = a.data(), *bp = b.data();
  timed t(name);
#pragma gpu_autopar data map(tofrom: ap[0:total], bp[0:total])
  {
    for (int s = 0; s < sweeps; ++s)
      sweep(ap, bp, n);
  }
  const double seconds = t.end();
  serial_sweeps(wa, wb, n, sweeps);
  report(name, seconds, sum_of(a), mismatch(a, wa), 1e-12);
}

void run_jacobi(int n, int sweeps) {
  const long total = long(n) * n;
  std::vector<double> a(total), b(total);
  for (long k = 0; k < total; ++k)
    a[k] = b[k] = double(k % 1000) / 7.0;
  std::vector<double> wa = a, wb = b;
  double *ap = a.data(), *bp = b.data();
  // Warm-up: one region of one sweep of each kind (the grids registered).
#pragma gpu_autopar data map(tofrom: ap[0:total], bp[0:total])
  {
    sweep_rows(ap, bp, n);
    sweep_collapse(ap, bp, n);
  }
  serial_sweeps(wa, wb, n, 2);
  jacobi_region("jacobi_rows", sweep_rows, a, b, wa, wb, n, sweeps);
  jacobi_region("jacobi_collapse", sweep_collapse, a, b, wa, wb, n, sweeps);
}

void run_matmul(int n) {
  const long total = long(n) * n;
  std::vector<double> a(total), b(total), c(total), want(total);
  for (long k = 0; k < total; ++k) { // small integers: every product and sum exact
    a[k] = double(k % 7) - 3.0;
    b[k] = double(k % 5) - 2.0;
  }
  matmul(c.data(), a.data(), b.data(), n); // warm-up (the matrices registered)
  timed t("matmul");
  matmul(c.data(), a.data(), b.data(), n);
  const double seconds = t.end();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += a[i * n + k] * b[k * n + j];
      want[i * n + j] = acc;
    }
  report("matmul", seconds, sum_of(c), mismatch(c, want), 0);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: %s SAXPY_N DOT_N JACOBI_N SWEEPS MATMUL_N REPS\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[1]), dn = std::atol(argv[2]);
  const int jn = std::atoi(argv[3]), sweeps = std::atoi(argv[4]), mn = std::atoi(argv[5]), reps = std::atoi(argv[6]);
  // A size of 0 leaves its cases out (bench/gpu/run.sh runs the 1-D cases and
  // the 2-D ones in separate processes: the stand-in's byte scale is per process).
  if (n < 0 || dn < 0 || dn > n || (jn != 0 && jn < 3) || sweeps < 1 || mn < 0 || reps < 1) {
    std::fprintf(stderr, "%s: sizes must be 0 or positive, DOT_N at most SAXPY_N, JACOBI_N 0 or at least 3\n", argv[0]);
    return 2;
  }
  if (n > 0)
    run_saxpy_and_dot(n, dn, reps);
  if (jn > 0)
    run_jacobi(jn, sweeps);
  if (mn > 0)
    run_matmul(mn);
  return failures ? 1 : 0;
}
