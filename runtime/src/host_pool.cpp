#include "gpu_autopar/host_pool.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GPU_AUTOPAR_PAUSE() _mm_pause()
#else
#define GPU_AUTOPAR_PAUSE() std::this_thread::yield()
#endif

namespace gpu_autopar {
namespace {

// How long an idle worker (or a waiting caller) spins before it blocks. Loops
// issued back to back then find the workers awake, which is what keeps dispatch
// near a microsecond; a worker that found nothing for this long goes to sleep.
constexpr int kSpinRounds = 1 << 14;

thread_local int t_loop_depth = 0;

struct depth_guard {
  depth_guard() { ++t_loop_depth; }
  ~depth_guard() { --t_loop_depth; }
};

} // namespace

struct host_pool::state {
  unsigned threads = 1;
  std::vector<std::thread> workers;

  // The current loop. Written by the caller before `epoch` is bumped, read by
  // workers after they see the new epoch (release/acquire on `epoch`).
  range_fn fn{};
  std::uint64_t count = 0;
  std::uint64_t grain = 1;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;

  std::atomic<std::uint64_t> epoch{0};
  std::atomic<unsigned> pending{0}; // workers that have not yet left the current loop
  std::atomic<bool> stopping{false};

  // Sleeping, for workers that spun without work and a caller that waits long.
  std::mutex sleep_mutex;
  std::condition_variable work_cv;
  std::condition_variable done_cv;
  std::atomic<int> sleeping_workers{0};
  std::atomic<bool> caller_sleeping{false};

  std::mutex busy; // one loop at a time; a second caller runs inline

  void work() {
    depth_guard depth;
    while (!failed.load(std::memory_order_relaxed)) {
      std::uint64_t b = next.fetch_add(grain, std::memory_order_relaxed);
      if (b >= count)
        return;
      std::uint64_t e = count - b < grain ? count : b + grain;
      try {
        fn(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error)
          error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  }

  void worker_main() {
    std::uint64_t seen = 0;
    for (;;) {
      std::uint64_t now = epoch.load(std::memory_order_acquire);
      for (int i = 0; now == seen && i < kSpinRounds; ++i) {
        GPU_AUTOPAR_PAUSE();
        now = epoch.load(std::memory_order_acquire);
      }
      if (now == seen) {
        std::unique_lock<std::mutex> lock(sleep_mutex);
        sleeping_workers.fetch_add(1, std::memory_order_seq_cst);
        work_cv.wait(lock, [&] { return epoch.load(std::memory_order_seq_cst) != seen; });
        sleeping_workers.fetch_sub(1, std::memory_order_relaxed);
        now = epoch.load(std::memory_order_acquire);
      }
      if (stopping.load(std::memory_order_acquire))
        return;
      seen = now;
      work();
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1 && caller_sleeping.load(std::memory_order_seq_cst)) {
        std::lock_guard<std::mutex> lock(sleep_mutex);
        done_cv.notify_one();
      }
    }
  }

  void wake_workers() {
    if (sleeping_workers.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(sleep_mutex);
      work_cv.notify_all();
    }
  }

  void wait_for_workers() {
    for (int i = 0; i < kSpinRounds; ++i) {
      if (pending.load(std::memory_order_acquire) == 0)
        return;
      GPU_AUTOPAR_PAUSE();
    }
    std::unique_lock<std::mutex> lock(sleep_mutex);
    caller_sleeping.store(true, std::memory_order_seq_cst);
    done_cv.wait(lock, [&] { return pending.load(std::memory_order_seq_cst) == 0; });
    caller_sleeping.store(false, std::memory_order_relaxed);
  }
};

host_pool::host_pool(unsigned threads) : s_(new state) {
  s_->threads = threads == 0 ? 1 : threads;
  s_->workers.reserve(s_->threads - 1);
  for (unsigned i = 1; i < s_->threads; ++i)
    s_->workers.emplace_back([st = s_.get()] { st->worker_main(); });
}

host_pool::~host_pool() {
  s_->stopping.store(true, std::memory_order_release);
  s_->epoch.fetch_add(1, std::memory_order_seq_cst);
  {
    std::lock_guard<std::mutex> lock(s_->sleep_mutex);
    s_->work_cv.notify_all();
  }
  for (auto& t : s_->workers)
    t.join();
}

unsigned host_pool::size() const { return s_->threads; }

bool host_pool::inside_loop() { return t_loop_depth > 0; }

void host_pool::run(std::uint64_t count, std::uint64_t grain, range_fn fn) {
  if (count == 0)
    return;
  if (grain == 0)
    grain = 1;
  std::unique_lock<std::mutex> busy(s_->busy, std::defer_lock);
  if (s_->workers.empty() || inside_loop() || !busy.try_lock()) {
    depth_guard depth;
    fn(0, count);
    return;
  }
  state& s = *s_;
  s.fn = fn;
  s.count = count;
  s.grain = grain;
  s.next.store(0, std::memory_order_relaxed);
  s.failed.store(false, std::memory_order_relaxed);
  s.error = nullptr;
  s.pending.store(static_cast<unsigned>(s.workers.size()), std::memory_order_relaxed);
  s.epoch.fetch_add(1, std::memory_order_seq_cst);
  s.wake_workers();
  s.work();
  s.wait_for_workers();
  if (s.error) {
    std::exception_ptr e = s.error;
    s.error = nullptr;
    std::rethrow_exception(e);
  }
}

namespace {

unsigned threads_from_environment() {
  if (const char* v = std::getenv("GPU_AUTOPAR_THREADS")) {
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && n > 0 && n <= 4096)
      return static_cast<unsigned>(n);
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

// The process-wide pool and the process it belongs to. Published with
// release/acquire so that the per-loop fast path takes no lock.
std::mutex g_pool_mutex;
std::atomic<host_pool*> g_pool{nullptr};
std::atomic<pid_t> g_pool_pid{0};
// This process's id, kept up to date by the fork handler (no syscall per loop).
std::atomic<pid_t> g_this_pid{0};

// fork() while another thread holds g_pool_mutex would leave it locked in the
// child forever: hold it across the fork, release it on both sides.
void lock_before_fork() { g_pool_mutex.lock(); }
void unlock_in_parent() { g_pool_mutex.unlock(); }
void unlock_in_child() {
  g_this_pid.store(getpid(), std::memory_order_relaxed);
  g_pool_mutex.unlock();
}

} // namespace

host_pool& host_pool::global() {
  host_pool* pool = g_pool.load(std::memory_order_acquire);
  if (pool && g_pool_pid.load(std::memory_order_relaxed) == g_this_pid.load(std::memory_order_relaxed))
    return *pool;
  static std::once_flag registered;
  std::call_once(registered, [] {
    g_this_pid.store(getpid(), std::memory_order_relaxed);
    pthread_atfork(lock_before_fork, unlock_in_parent, unlock_in_child);
  });
  // A forked child has none of the parent's worker threads: it builds its own
  // pool and leaks the parent's (whose destructor would wait for threads that
  // do not exist in the child).
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  const pid_t pid = g_this_pid.load(std::memory_order_relaxed);
  pool = g_pool.load(std::memory_order_relaxed);
  if (pool == nullptr || g_pool_pid.load(std::memory_order_relaxed) != pid) {
    pool = new host_pool(threads_from_environment());
    g_pool_pid.store(pid, std::memory_order_relaxed);
    g_pool.store(pool, std::memory_order_release);
  }
  return *pool;
}

} // namespace gpu_autopar
