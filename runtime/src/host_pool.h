// A persistent pool of CPU worker threads running fork-join loops.
//
// Workers are created once and reused by every loop (creating threads per loop
// costs tens of microseconds; a loop dispatch here costs about one). The calling
// thread takes part in the work. Exceptions thrown by the work reach the caller
// after every worker has stopped touching the loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

namespace gpu_autopar {

// Type-erased work over a range of iteration indices [begin, end).
struct range_fn {
  void (*call)(void* ctx, std::uint64_t begin, std::uint64_t end);
  void* ctx;
  void operator()(std::uint64_t begin, std::uint64_t end) const { call(ctx, begin, end); }
};

template <class F>
range_fn make_range_fn(F& f) {
  return range_fn{[](void* ctx, std::uint64_t b, std::uint64_t e) { (*static_cast<F*>(ctx))(b, e); }, &f};
}

class host_pool {
public:
  // `threads` counts the calling thread: a pool of 2 has one worker thread.
  explicit host_pool(unsigned threads);
  ~host_pool();
  host_pool(const host_pool&) = delete;
  host_pool& operator=(const host_pool&) = delete;

  unsigned size() const;

  // Runs fn over [0, count) in pieces of at most `grain` indices, handed out
  // dynamically, on the workers and the calling thread; returns when all have run.
  // If fn throws, no new pieces are started, and the first exception is rethrown
  // here once every worker has left the loop. Runs everything on the calling
  // thread when called from inside one of this pool's loops (no nested
  // oversubscription) or while another thread's loop holds the pool.
  void run(std::uint64_t count, std::uint64_t grain, range_fn fn);

  // True on a thread that is currently executing work of some pool's loop.
  static bool inside_loop();

  // How long the idle worker that spins longest now spins for the next loop
  // before it sleeps (it adapts: host_pool.cpp, spin_budget). For tests.
  std::chrono::nanoseconds longest_idle_spin() const;

  // The process-wide pool, sized by GPU_AUTOPAR_THREADS (default: hardware
  // threads). A child process created by fork() gets a fresh pool of its own.
  static host_pool& global();

private:
  struct state;
  std::unique_ptr<state> s_;
};

} // namespace gpu_autopar
