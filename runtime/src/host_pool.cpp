#include "host_pool.h"
#include "runtime_config.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
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

using clock = std::chrono::steady_clock;

// How long an idle worker (or a waiting caller) spins before it blocks. Loops
// issued back to back then find the workers awake, which is what keeps
// dispatch near a microsecond. The bound is a time, not a count of pause
// instructions (whose cost varies tenfold between processors): on a machine
// whose cores other processes need, a worker must not burn a timeslice
// waiting for work that may be long in coming.
constexpr auto kSpinTime = std::chrono::microseconds(40);
// An idle worker's spin adapts between these (spin_budget below).
constexpr auto kMinSpin = std::chrono::microseconds(2);

// Spins with a CPU pause until done() or `budget` has passed; reads the clock
// only every few pauses.
template <class Done>
bool spin_until(Done done, clock::duration budget = kSpinTime) {
  const auto until = clock::now() + budget;
  for (;;) {
    for (int i = 0; i < 32; ++i) {
      if (done())
        return true;
      GPU_AUTOPAR_PAUSE();
    }
    if (clock::now() >= until)
      return done();
  }
}

// How long one idle worker spins for the next loop before it sleeps, learnt
// from what its spins bought. A spin that the next loop ended, and in which
// the worker then got work, pays: the next spin may be twice as long (up to
// kSpinTime). A spin that ran out (the gaps between loops are longer than it),
// or a loop the worker joined too late to get any of its work (the loops are
// so short, or the cores so taken, that the caller did it all alone) halves
// it, down to kMinSpin: a program of many short loops with serial work
// between them, or on a machine whose cores are busy, then has its workers
// asleep instead of spinning on cores the caller needs.
class spin_budget {
public:
  clock::duration now() const { return budget_; }
  void paid() { budget_ = std::min<clock::duration>(budget_ * 2, kSpinTime); }
  void wasted() { budget_ = std::max<clock::duration>(budget_ / 2, kMinSpin); }

private:
  clock::duration budget_ = kSpinTime;
};

thread_local int t_loop_depth = 0;

struct depth_guard {
  depth_guard() { ++t_loop_depth; }
  ~depth_guard() { --t_loop_depth; }
};

// The gate word: which loop workers may join, whether it is closed, and how
// many workers are inside it.
constexpr std::uint64_t kInsideMask = (1ull << 31) - 1;
constexpr std::uint64_t kClosed = 1ull << 31;
inline std::uint32_t loop_of(std::uint64_t gate) { return static_cast<std::uint32_t>(gate >> 32); }

} // namespace

struct host_pool::state {
  unsigned threads = 1;
  std::vector<std::thread> workers;

  // The current loop. Written by the caller before it opens the gate, read by
  // workers after they joined it (release/acquire on `gate`).
  range_fn fn{};
  std::uint64_t count = 0;
  std::uint64_t grain = 1;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<std::uint64_t> ran{0}; // indices whose piece returned (checked in debug builds)
  std::exception_ptr error;
  std::mutex error_mutex;

  // Joining (a worker) and closing (the caller, once it ran out of indices)
  // happen on one word, so they cannot cross: a worker that arrives after the
  // close never touches the finished loop, and the caller waits only for the
  // workers that are inside, which are running. It never waits for a worker
  // that was asleep or descheduled while the loop ran: on a busy machine such
  // a worker can take a whole timeslice to come back, and the caller (which
  // takes part in the work) has done it all by then.
  std::atomic<std::uint64_t> gate{0};
  std::atomic<bool> stopping{false};

  // Sleeping, for workers that spun without work and a caller that waits long.
  std::mutex sleep_mutex;
  std::condition_variable work_cv;
  std::condition_variable done_cv;
  std::atomic<int> sleeping_workers{0};
  std::atomic<bool> caller_sleeping{false};

  std::mutex busy; // one loop at a time; a second caller runs inline

  // Each worker's spin budget now, in nanoseconds (longest_idle_spin()).
  std::unique_ptr<std::atomic<std::int64_t>[]> spins;

  // Runs pieces of the loop until none is left; returns whether it ran any.
  bool work() {
    depth_guard depth;
    bool ran_any = false;
    while (!failed.load(std::memory_order_relaxed)) {
      std::uint64_t b = next.fetch_add(grain, std::memory_order_relaxed);
      if (b >= count)
        return ran_any;
      ran_any = true;
      std::uint64_t e = count - b < grain ? count : b + grain;
      try {
        fn(b, e);
#ifndef NDEBUG
        ran.fetch_add(e - b, std::memory_order_relaxed);
#endif
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error)
          error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
    return ran_any;
  }

  // Waits (spinning for `spin`, then asleep) for a gate of a loop other than
  // `seen`. `*spun`: whether the spin ended it.
  std::uint64_t wait_for_loop(std::uint32_t seen, clock::duration spin, bool* spun) {
    std::uint64_t g = 0;
    auto arrived = [&] {
      g = gate.load(std::memory_order_acquire);
      return loop_of(g) != seen;
    };
    *spun = spin_until(arrived, spin);
    if (*spun)
      return g;
    std::unique_lock<std::mutex> lock(sleep_mutex);
    sleeping_workers.fetch_add(1, std::memory_order_seq_cst);
    work_cv.wait(lock, [&] {
      g = gate.load(std::memory_order_seq_cst);
      return loop_of(g) != seen;
    });
    sleeping_workers.fetch_sub(1, std::memory_order_relaxed);
    return g;
  }

  // Enters loop loop_of(g) unless it is closed (or already replaced).
  bool join(std::uint64_t g) {
    const std::uint32_t loop = loop_of(g);
    while (!(g & kClosed) && loop_of(g) == loop)
      if (gate.compare_exchange_weak(g, g + 1, std::memory_order_acq_rel, std::memory_order_acquire))
        return true;
    return false;
  }

  void leave() {
    const std::uint64_t g = gate.fetch_sub(1, std::memory_order_seq_cst) - 1;
    if ((g & kInsideMask) == 0 && caller_sleeping.load(std::memory_order_seq_cst)) {
      std::lock_guard<std::mutex> lock(sleep_mutex);
      done_cv.notify_one();
    }
  }

  void worker_main(unsigned me) {
    std::uint32_t seen = 0;
    spin_budget spin;
    for (;;) {
      bool spun = false;
      const std::uint64_t g = wait_for_loop(seen, spin.now(), &spun);
      if (stopping.load(std::memory_order_acquire))
        return;
      seen = loop_of(g);
      const bool joined = join(g);
      const bool worked = joined && work();
      if (joined)
        leave();
      if (spun && worked)
        spin.paid();
      else
        spin.wasted();
      spins[me].store(std::chrono::duration_cast<std::chrono::nanoseconds>(spin.now()).count(),
                      std::memory_order_relaxed);
    }
  }

  // Opens the next loop's gate (the previous loop is closed and empty).
  void open_next_loop() {
    const std::uint32_t loop = loop_of(gate.load(std::memory_order_relaxed)) + 1;
    gate.store(std::uint64_t(loop) << 32, std::memory_order_seq_cst);
    if (sleeping_workers.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(sleep_mutex);
      work_cv.notify_all();
    }
  }

  // Closes the gate and waits for the workers inside to leave.
  void close_and_wait() {
    gate.fetch_or(kClosed, std::memory_order_acq_rel);
    auto empty = [&] { return (gate.load(std::memory_order_acquire) & kInsideMask) == 0; };
    if (spin_until(empty))
      return;
    std::unique_lock<std::mutex> lock(sleep_mutex);
    caller_sleeping.store(true, std::memory_order_seq_cst);
    done_cv.wait(lock, [&] { return (gate.load(std::memory_order_seq_cst) & kInsideMask) == 0; });
    caller_sleeping.store(false, std::memory_order_relaxed);
  }
};

host_pool::host_pool(unsigned threads) : s_(new state) {
  s_->threads = threads == 0 ? 1 : threads;
  s_->workers.reserve(s_->threads - 1);
  s_->spins.reset(new std::atomic<std::int64_t>[s_->threads]);
  for (unsigned i = 0; i < s_->threads; ++i)
    s_->spins[i].store(std::chrono::duration_cast<std::chrono::nanoseconds>(kSpinTime).count());
  for (unsigned i = 1; i < s_->threads; ++i)
    s_->workers.emplace_back([st = s_.get(), i] { st->worker_main(i); });
}

host_pool::~host_pool() {
  s_->stopping.store(true, std::memory_order_release);
  s_->open_next_loop(); // wakes every worker, which then sees `stopping`
  for (auto& t : s_->workers)
    t.join();
}

unsigned host_pool::size() const { return s_->threads; }

std::chrono::nanoseconds host_pool::longest_idle_spin() const {
  std::int64_t longest = 0;
  for (unsigned i = 1; i < s_->threads; ++i)
    longest = std::max(longest, s_->spins[i].load(std::memory_order_relaxed));
  return std::chrono::nanoseconds(longest);
}

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
  s.ran.store(0, std::memory_order_relaxed);
  s.error = nullptr;
  s.open_next_loop();
  s.work();
  s.close_and_wait();
  // Every worker has left the loop: without an error each index ran once.
  assert(s.error || s.ran.load(std::memory_order_relaxed) == count);
  if (s.error) {
    std::exception_ptr e = s.error;
    s.error = nullptr;
    std::rethrow_exception(e);
  }
}

namespace {

// An invalid value is reported (once) with the other settings, by
// read_config_from_environment(); here it just means the default.
unsigned threads_from_environment() {
  unsigned n = 0;
  if (const char* v = std::getenv("GPU_AUTOPAR_THREADS"))
    if (detail::parse_threads(v, n))
      return n;
  return detail::default_threads();
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
