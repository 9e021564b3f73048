// The main() of the CPU-path benchmarks: gpu_autopar and OpenMP both get two
// threads, and gpu_autopar the CPU path, so figures compare like for like.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdlib>

inline int run_benchmarks_on_two_threads(int argc, char **argv) {
  setenv("GPU_AUTOPAR_THREADS", "2", 0);
  setenv("GPU_AUTOPAR_DEVICES", "cpu", 0);
  setenv("OMP_NUM_THREADS", "2", 0);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
