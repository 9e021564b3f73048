// What bench/gpu's two programs (loops.cpp, reference.cu) share: how a case
// is timed — the wall clock, and marks in the CUDA stand-in's modelled
// timeline (`CASE.begin`, `CASE.end`; test/standin/timeline.h) when the
// program runs on it (the mark function exists only in the stand-in, found
// with dlsym) — and the serial Jacobi sweeps both start their grids from.
#pragma once

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <vector>

namespace bench_gpu {

inline void mark(const char *name, const char *what) {
  using mark_fn = void (*)(const char *);
  static const auto fn = reinterpret_cast<mark_fn>(dlsym(RTLD_DEFAULT, "gpu_autopar_standin_mark"));
  if (fn) {
    char label[96];
    std::snprintf(label, sizeof label, "%s.%s", name, what);
    fn(label);
  }
}

// A case being timed: marks its begin when made, its end (and returns the wall seconds) at end().
struct timed {
  using clock_type = std::chrono::steady_clock;
  const char *name;
  clock_type::time_point t0;
  explicit timed(const char *n) : name(n) {
    mark(name, "begin");
    t0 = clock_type::now();
  }
  double end() {
    const double s = std::chrono::duration<double>(clock_type::now() - t0).count();
    mark(name, "end");
    return s;
  }
};

// SWEEPS serial Jacobi-2d sweeps of an n x n grid: stencil into b, copy back into a.
inline void serial_sweeps(std::vector<double> &a, std::vector<double> &b, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        a[i * n + j] = b[i * n + j];
  }
}

} // namespace bench_gpu
