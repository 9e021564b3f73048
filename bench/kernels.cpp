// Kernel-mode loops on the CPU path against the same loops under OpenMP.
//
// The gpu_autopar_* functions carry `#pragma gpu_autopar for` and are
// rewritten by the tool at build time (bench/CMakeLists.txt); the omp_*
// functions are the same loops with `#pragma omp parallel for`. Both run in
// the same process with 2 threads (GPU_AUTOPAR_THREADS=2, OMP_NUM_THREADS=2,
// GPU_AUTOPAR_DEVICES=cpu), so the comparison is like for like.
#include <benchmark/benchmark.h>

#include "two_threads_main.h"

#include <vector>

namespace {

constexpr int kN = 1 << 20;      // saxpy, reduction
constexpr int kGrid = 1024;      // stencil: kGrid x kGrid
constexpr int kMat = 256;        // matmul: kMat x kMat

void gpu_autopar_saxpy(float a, const std::vector<float> &x, std::vector<float> &y) {
  const int n = static_cast<int>(x.size());
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
void omp_saxpy(float a, const std::vector<float> &x, std::vector<float> &y) {
  const int n = static_cast<int>(x.size());
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}

void gpu_autopar_stencil(const std::vector<float> &a, std::vector<float> &b, int m) {
#pragma gpu_autopar for
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.2f * (a[i * m + j] + a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
}
void omp_stencil(const std::vector<float> &a, std::vector<float> &b, int m) {
#pragma omp parallel for
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i * m + j] = 0.2f * (a[i * m + j] + a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                             a[i * m + j + 1]);
}

void gpu_autopar_matmul(const std::vector<double> &A, const std::vector<double> &B, std::vector<double> &C, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}
void omp_matmul(const std::vector<double> &A, const std::vector<double> &B, std::vector<double> &C, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}

double gpu_autopar_dot(const std::vector<double> &x, const std::vector<double> &y) {
  double sum = 0;
  const int n = static_cast<int>(x.size());
#pragma gpu_autopar for reduction(+: sum)
  for (int i = 0; i < n; ++i)
    sum += x[i] * y[i];
  return sum;
}
double omp_dot(const std::vector<double> &x, const std::vector<double> &y) {
  double sum = 0;
  const int n = static_cast<int>(x.size());
#pragma omp parallel for reduction(+: sum)
  for (int i = 0; i < n; ++i)
    sum += x[i] * y[i];
  return sum;
}

template <void (*F)(float, const std::vector<float> &, std::vector<float> &)>
void BM_saxpy(benchmark::State &state) {
  std::vector<float> x(kN, 1.5f), y(kN, 0.5f);
  for (auto _ : state) {
    F(0.999f, x, y);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kN * 12);
}
template <void (*F)(const std::vector<float> &, std::vector<float> &, int)>
void BM_stencil(benchmark::State &state) {
  std::vector<float> a(kGrid * kGrid, 1.0f), b(kGrid * kGrid, 0.0f);
  for (auto _ : state) {
    F(a, b, kGrid);
    benchmark::ClobberMemory();
  }
}
template <void (*F)(const std::vector<double> &, const std::vector<double> &, std::vector<double> &, int)>
void BM_matmul(benchmark::State &state) {
  std::vector<double> A(kMat * kMat, 1.0), B(kMat * kMat, 2.0), C(kMat * kMat);
  for (auto _ : state) {
    F(A, B, C, kMat);
    benchmark::ClobberMemory();
  }
}
template <double (*F)(const std::vector<double> &, const std::vector<double> &)>
void BM_dot(benchmark::State &state) {
  std::vector<double> x(kN, 0.5), y(kN, 2.0);
  for (auto _ : state)
    benchmark::DoNotOptimize(F(x, y));
}

BENCHMARK(BM_saxpy<omp_saxpy>)->Name("saxpy/openmp")->UseRealTime();
BENCHMARK(BM_saxpy<gpu_autopar_saxpy>)->Name("saxpy/gpu_autopar")->UseRealTime();
BENCHMARK(BM_stencil<omp_stencil>)->Name("stencil2d/openmp")->UseRealTime();
BENCHMARK(BM_stencil<gpu_autopar_stencil>)->Name("stencil2d/gpu_autopar")->UseRealTime();
BENCHMARK(BM_matmul<omp_matmul>)->Name("matmul/openmp")->UseRealTime();
BENCHMARK(BM_matmul<gpu_autopar_matmul>)->Name("matmul/gpu_autopar")->UseRealTime();
BENCHMARK(BM_dot<omp_dot>)->Name("reduction/openmp")->UseRealTime();
BENCHMARK(BM_dot<gpu_autopar_dot>)->Name("reduction/gpu_autopar")->UseRealTime();

} // namespace

int main(int argc, char **argv) { return run_benchmarks_on_two_threads(argc, argv); }
