// Dispatch overhead: an empty parallel loop on the CPU path with 2 threads,
// against an empty `omp parallel for` (libgomp) in the same process. What is
// measured is the cost of starting and joining a loop, not of its body.
#include <gpu_autopar/gpu_autopar.h>

#include <benchmark/benchmark.h>

#include "two_threads_main.h"


namespace {

constexpr int kIterations = 64; // a few per thread: the body costs nothing

void BM_openmp_empty(benchmark::State &state) {
  int sink[kIterations];
  for (auto _ : state) {
#pragma omp parallel for
    for (int i = 0; i < kIterations; ++i)
      sink[i] = i;
    benchmark::DoNotOptimize(sink);
  }
}

void BM_gpu_autopar_empty(benchmark::State &state) {
  int sink[kIterations];
  // What the tool generates for the same loop in host mode, with
  // min_iterations(0) so that the pool runs it instead of the calling thread.
  for (auto _ : state) {
    ::gpu_autopar::host_loop(::gpu_autopar::loop_site{"dispatch.cpp", 1},
                             ::gpu_autopar::iterations<int>(0, ::gpu_autopar::less, kIterations, 1),
                             ::gpu_autopar::options().min_iterations(0), ::gpu_autopar::reductions(),
                             [&](int i) { sink[i] = i; });
    benchmark::DoNotOptimize(sink);
  }
}

BENCHMARK(BM_openmp_empty)->Name("dispatch/openmp")->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_gpu_autopar_empty)->Name("dispatch/gpu_autopar")->UseRealTime()->MinTime(1.0);

} // namespace

int main(int argc, char **argv) { return run_benchmarks_on_two_threads(argc, argv); }
