// OpenMP's API without OpenMP: what `#include <omp.h>` finds in gpu-autopar's
// parse when no compiler's omp.h is found first, and what a program that
// gpu-autopar rewrote from OpenMP calls when it is built without OpenMP
// (<gpu_autopar/openmp.h> includes it; docs/migration.md, "_OPENMP and
// OpenMP's API"). In a build with OpenMP, the compiler's <omp.h> is used
// instead.
//
// The semantics, for code outside the rewritten loops (which run on the
// runtime's threads and devices, not in OpenMP teams):
// - omp_get_max_threads(), omp_get_num_procs(): the runtime's CPU threads
//   (GPU_AUTOPAR_THREADS if set, else the hardware threads), at least 2: a
//   rewritten loop may run its iterations in parallel on devices even with
//   one CPU thread, so code that asks whether it runs threaded is told yes;
// - omp_get_num_threads() 1, omp_get_thread_num() 0, omp_in_parallel() 0,
//   omp_get_level() 0: the program is outside any OpenMP parallel region.
//   Inside a rewritten loop omp_get_thread_num() is 0 too, the same in every
//   iteration: a loop that indexes per-thread data with it writes one
//   element from every iteration, which the analysis reports as the
//   dependence it is;
// - omp_get_wtime(), omp_get_wtick(): a monotonic clock, in seconds;
// - locks: mutexes (a nestable lock counts its owner's nesting);
// - omp_set_num_threads(), omp_set_dynamic(), omp_set_nested(): no effect
//   (set GPU_AUTOPAR_THREADS); omp_get_num_devices() 0 and
//   omp_is_initial_device() 1: OpenMP target constructs are not used, the
//   runtime finds its devices itself.
#pragma once

#if defined(_OPENMP) && !defined(GPU_AUTOPAR_OPENMP_STANDIN) && __has_include_next(<omp.h>)
#include_next <omp.h> // the compiler's OpenMP
#else

// The compilers' own <omp.h> (GCC's, LLVM's), included after this one,
// would declare the same API for a runtime this build does not link.
#define _OMP_H 1
#define __OMP_H

#include "gpu_autopar/hd.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

typedef struct omp_lock_t {
  std::mutex m;
} omp_lock_t;
typedef struct omp_nest_lock_t {
  std::recursive_mutex m;
  int depth = 0;
} omp_nest_lock_t;

inline int omp_get_max_threads() noexcept {
  int n = 0;
  if (const char *t = std::getenv("GPU_AUTOPAR_THREADS"))
    n = std::atoi(t);
  if (n <= 0)
    n = int(std::thread::hardware_concurrency());
  return n < 2 ? 2 : n;
}
inline int omp_get_num_procs() noexcept { return omp_get_max_threads(); }
GPU_AUTOPAR_HD inline int omp_get_num_threads() noexcept { return 1; }
GPU_AUTOPAR_HD inline int omp_get_thread_num() noexcept { return 0; }
GPU_AUTOPAR_HD inline int omp_in_parallel() noexcept { return 0; }
GPU_AUTOPAR_HD inline int omp_get_level() noexcept { return 0; }
GPU_AUTOPAR_HD inline int omp_get_team_num() noexcept { return 0; }
GPU_AUTOPAR_HD inline int omp_get_num_teams() noexcept { return 1; }
inline void omp_set_num_threads(int) noexcept {}
inline void omp_set_dynamic(int) noexcept {}
inline int omp_get_dynamic() noexcept { return 0; }
inline void omp_set_nested(int) noexcept {}
inline int omp_get_nested() noexcept { return 0; }
inline int omp_get_num_devices() noexcept { return 0; }
inline int omp_get_default_device() noexcept { return 0; }
GPU_AUTOPAR_HD inline int omp_is_initial_device() noexcept { return 1; }
inline double omp_get_wtime() noexcept {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline double omp_get_wtick() noexcept {
  return double(std::chrono::steady_clock::period::num) / std::chrono::steady_clock::period::den;
}

// A constant where it is used, so that a loop indexing per-thread data with
// it (`partial[omp_get_thread_num()] += ...`) shows the analysis the one
// element every iteration writes: a dependence, reported as such.
#define omp_get_thread_num() 0

inline void omp_init_lock(omp_lock_t *) noexcept {}
inline void omp_destroy_lock(omp_lock_t *) noexcept {}
inline void omp_set_lock(omp_lock_t *l) noexcept { l->m.lock(); }
inline void omp_unset_lock(omp_lock_t *l) noexcept { l->m.unlock(); }
inline int omp_test_lock(omp_lock_t *l) noexcept { return l->m.try_lock() ? 1 : 0; }
inline void omp_init_nest_lock(omp_nest_lock_t *) noexcept {}
inline void omp_destroy_nest_lock(omp_nest_lock_t *) noexcept {}
inline void omp_set_nest_lock(omp_nest_lock_t *l) noexcept {
  l->m.lock();
  ++l->depth;
}
inline void omp_unset_nest_lock(omp_nest_lock_t *l) noexcept {
  --l->depth;
  l->m.unlock();
}
inline int omp_test_nest_lock(omp_nest_lock_t *l) noexcept { return l->m.try_lock() ? ++l->depth : 0; }

#endif
