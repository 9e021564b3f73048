#include "cuda_backend.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <unordered_map>

#include "cuda_memory_pool.h"
#include "host_pinning.h"
#include "landing_marks.h"
#include "gpu_autopar/cuda_api.h"
#include "queued_fences.h"

namespace gpu_autopar {

namespace detail {
namespace {

std::mutex g_api_mutex;
bool g_api_registered = false;
cuda_api g_api;

std::string error_text(const cuda_api& api, int e) {
  const char* s = api.error_string ? api.error_string(e) : nullptr;
  std::string text = "CUDA error " + std::to_string(e) + (s ? std::string(": ") + s : std::string());
  // What the codes a user meets first mean on their machine.
  if (e == kCudaErrorInsufficientDriver)
    return "no GPU driver on this machine, or one older than the CUDA runtime (" + text + ")";
  if (e == kCudaErrorNoDevice)
    return "no CUDA GPU on this machine (" + text + ")";
  return text;
}

class cuda_device final : public device {
public:
  cuda_device(const cuda_api& api, int id, int ordinal, std::string model, std::size_t memory, int major, int minor)
      : pool(api, ordinal), api_(api), id_(id), ordinal_(ordinal), model_(std::move(model)), memory_(memory),
        major_(major), minor_(minor) {}
  device_kind kind() const override { return device_kind::cuda; }
  int cuda_ordinal() const override { return ordinal_; }
  int id() const override { return id_; }
  std::string name() const override { return "cuda" + std::to_string(id_); }
  std::string describe() const override {
    return name() + " (CUDA device " + std::to_string(ordinal_) + ": " + model_ + ", " +
           std::to_string(memory_ >> 20) + " MiB, compute capability " + std::to_string(major_) + "." +
           std::to_string(minor_) + ")";
  }
  std::unique_ptr<slot_context> open_slot(int) override;

  // Data regions' resident copies (and loops' read-only sections copied
  // once per device), from whichever thread needs them: this GPU is made
  // current for the call, and the caller's device restored. They come from
  // the GPU's pool, as chunks' buffers do, and go back to it when freed: a
  // program that enters a region over the same arrays again (a time step's
  // region, a warm-up before a timed one) pays cudaMalloc and cudaFree (each
  // a wait for the whole GPU, ~100 and ~50 us) once, not every time. They
  // are freed idle (a region's end waited for its copies back, a part is
  // given up with no chunk or peer copy using it), as the pool requires.
  void* resident_allocate(std::size_t bytes, bool* allocated) override {
    std::size_t size = 0;
    void* p = pool.take(bytes, &size);
    *allocated = !p;
    if (!p) {
      size = cuda_memory_pool::size_class(bytes);
      int e = on_this_device([&] { return api_.malloc(&p, size); });
      if (e == kCudaErrorMemoryAllocation) {
        // What the pool keeps idle may be just what is missing; then the
        // exact size, without the pool's rounding up.
        pool.release_idle();
        for (std::size_t again : {size, bytes})
          if ((e = on_this_device([&] { return api_.malloc(&p, again); })) != kCudaErrorMemoryAllocation) {
            size = again;
            break;
          }
      }
      if (e == kCudaErrorMemoryAllocation)
        throw device_out_of_memory(name() + ": out of memory for " + std::to_string(bytes) + " bytes of resident data");
      if (e != 0)
        throw device_error(name() + ": cudaMalloc failed: " + error_text(api_, e));
    }
    std::lock_guard<std::mutex> lock(resident_mutex_);
    resident_sizes_[p] = size;
    return p;
  }
  void resident_free(void* p) noexcept override {
    drain(); // chunks left queued may still use it: the pool hands it out again
    std::size_t size = 0;
    {
      std::lock_guard<std::mutex> lock(resident_mutex_);
      auto it = resident_sizes_.find(p);
      if (it == resident_sizes_.end())
        return;
      size = it->second;
      resident_sizes_.erase(it);
    }
    pool.give_back(p, size);
  }
  void resident_to_host(void* dst, const void* src, std::size_t bytes) override {
    resident_to_host_async(dst, src, bytes);
    resident_wait();
  }
  // On the device's legacy default stream, which is ordered after every
  // slot's blocking stream: the chunks that wrote the data are done.
  void resident_to_host_async(void* dst, const void* src, std::size_t bytes) override {
    std::vector<std::size_t> cuts;
    by_registration(registration_cache::global(), dst, bytes, cuts, [&](std::size_t at, std::size_t n) {
      const int e = on_this_device([&] {
        return api_.memcpy_to_host_async(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, n, nullptr);
      });
      if (e != 0)
        throw device_error(name() + ": copy of resident data to the host failed: " + error_text(api_, e));
    });
  }
  void resident_wait() override {
    const int e = on_this_device([&] { return api_.stream_synchronize(nullptr); });
    if (e != 0)
      throw device_error(name() + ": copy of resident data to the host failed: " + error_text(api_, e));
  }

  void drain() noexcept override {
    queued_fences& fences = queued_fences::global();
    if (!queued_fences::supported(api_) || fences.empty())
      return;
    const std::vector<queued_fences::failure> failed = fences.drain(api_);
    if (failed.empty())
      return;
    api_.get_last_error(); // not the next launch's error (a sticky one stays)
    for (const queued_fences::failure& f : failed)
      f.gpu->retire(error_text(api_, f.error) +
                    " (found waiting for work a loop left queued; the device's CUDA context is lost)");
  }

  // Whether this GPU may copy from `peer`'s memory directly: both CUDA GPUs
  // of one process that cudaDeviceCanAccessPeer pairs, with peer access
  // enabled from this GPU (once, the first time it is asked).
  bool can_copy_from(device& peer) override {
    auto* other = dynamic_cast<cuda_device*>(&peer);
    if (!other || other == this || !api_.can_access_peer || !api_.enable_peer_access || !api_.memcpy_peer_async)
      return false;
    std::lock_guard<std::mutex> lock(peers_mutex_);
    auto known = peers_.find(other->ordinal_);
    if (known != peers_.end())
      return known->second;
    int can = 0;
    bool ok = api_.can_access_peer(&can, ordinal_, other->ordinal_) == 0 && can;
    if (ok)
      ok = on_this_device([&] { return api_.enable_peer_access(other->ordinal_); }) == 0;
    else
      api_.get_last_error();
    peers_[other->ordinal_] = ok;
    return ok;
  }

  const cuda_api& api() const { return api_; }
  int ordinal() const { return ordinal_; }
  // Slots opened on this GPU: they share its free memory.
  std::atomic<int> open_slots{0};
  // The turn to queue a kernel-mode chunk's work on this GPU: a slot holds
  // it from the chunk's start until the chunk first waits, so one chunk's
  // copies in, launch and copies out are queued together, not interleaved
  // with another slot's. Copy engines run in the order work was queued:
  // interleaved, both chunks' kernels would wait for both chunks' inputs,
  // and their results would leave one after the other at the end; whole,
  // the second chunk's copies overlap the first chunk's kernel and results
  // (what two streams of hand-written code do).
  std::mutex issue_turn;
  // Chunks' buffers, reused by every slot of this GPU (cuda_memory_pool.h).
  cuda_memory_pool pool;

private:
  template <class F>
  int on_this_device(F call) const {
    int previous = -1;
    if (api_.get_device(&previous) != 0)
      previous = -1;
    int e = api_.set_device(ordinal_);
    if (e == 0)
      e = call();
    if (e != 0)
      api_.get_last_error(); // not the next launch's error
    if (previous >= 0 && previous != ordinal_)
      api_.set_device(previous);
    return e;
  }

  const cuda_api& api_; // the registered table, kept for the process
  std::mutex resident_mutex_;
  std::unordered_map<void*, std::size_t> resident_sizes_; // resident memory handed out -> its size in the pool
  int id_, ordinal_;
  std::mutex peers_mutex_;
  std::map<int, bool> peers_; // by the peer's ordinal: whether this GPU copies from it directly
  std::string model_;
  std::size_t memory_;
  int major_, minor_;
};

// Buffers a lease took from one of its GPU's pools (device memory, or
// page-locked host staging): given back to the pool only once the lease's
// stream no longer uses them.
template <class Pool>
class lease_buffers {
public:
  explicit lease_buffers(Pool& pool) : pool_(pool) {}
  void took(void* p, std::size_t size) { live_.emplace(p, size); }
  // Work queued before may still use it: then it waits for the stream.
  void release(void* p, bool stream_busy) {
    auto it = live_.find(p);
    if (it == live_.end())
      return;
    if (stream_busy)
      releasing_.push_back(*it);
    else
      pool_.give_back(it->first, it->second);
    live_.erase(it);
  }
  // No buffer taken or waiting to go back.
  bool idle() const { return live_.empty() && releasing_.empty(); }
  // The host waited for everything queued on the stream.
  void stream_idle() {
    for (const auto& b : releasing_)
      pool_.give_back(b.first, b.second);
    releasing_.clear();
  }
  // The lease ends: what a chunk did not free goes back too.
  void lease_ended() {
    stream_idle();
    for (const auto& b : live_)
      pool_.give_back(b.first, b.second);
    live_.clear();
  }

private:
  Pool& pool_;
  std::unordered_map<void*, std::size_t> live_;           // buffer -> its size
  std::vector<std::pair<void*, std::size_t>> releasing_; // given back while the stream may still use them
};

// One lease on a GPU: its own stream, created on the slot's worker thread
// with the device current. Copies and launches are queued on that stream
// without waiting (device_context's contract); the lease waits once a chunk,
// where the chunk needs its results. Buffers come from the GPU's pool and go
// back to it only once the stream has finished with them.
class cuda_slot final : public slot_context {
public:
  explicit cuda_slot(cuda_device& dev) : dev_(dev), api_(dev.api()), ordinal_(dev.ordinal()) {
    if (api_.set_device(ordinal_) == 0)
      opened_ = api_.stream_create(&stream_) == 0;
    if (!opened_)
      api_.get_last_error();
    ++dev_.open_slots;
  }
  ~cuda_slot() override {
    end_lease();
    api_.set_device(ordinal_); // what the slot frees (its landing marks) is on its GPU
    if (fenced_ && stream_) // what the last chunk left queued ends before the stream goes
      api_.stream_synchronize(stream_);
    queued_fences::global().forget(this);
    if (stream_)
      api_.stream_destroy(stream_);
    for (void* e : {started_, ended_, fences_[0], fences_[1]})
      if (e && api_.event_destroy)
        api_.event_destroy(e);
    --dev_.open_slots;
  }

  device_kind kind() const override { return device_kind::cuda; }
  int id() const override { return dev_.id(); }
  void* stream() const override { return stream_; }

  void* allocate(std::size_t bytes) override {
    std::size_t size = 0;
    void* p = dev_.pool.take(bytes, &size);
    if (!p) {
      size = cuda_memory_pool::size_class(bytes);
      int e = api_.malloc(&p, size);
      // The failed cudaMalloc also left its error in this thread's last-error
      // slot: the next launch's cudaGetLastError() would take it for a failed
      // launch and drop the device, where a smaller chunk would fit.
      if (e == kCudaErrorMemoryAllocation) {
        api_.get_last_error();
        // What the pool keeps idle may be just what is missing.
        if (dev_.pool.release_idle() > 0 && (e = api_.malloc(&p, size)) == kCudaErrorMemoryAllocation)
          api_.get_last_error();
      }
      if (e == kCudaErrorMemoryAllocation)
        throw device_out_of_memory(name() + ": out of memory allocating " + std::to_string(bytes) + " bytes");
      check(e, "cudaMalloc");
      ++counted_.allocations;
    }
    buffers_.took(p, size);
    return p;
  }
  void deallocate(void* p) noexcept override { buffers_.release(p, work_queued()); }
  void* allocate_staging(std::size_t bytes) override {
    std::size_t size = 0;
    void* p = dev_.pool.staging.take(bytes, &size);
    if (p)
      staging_.took(p, size);
    return p;
  }
  void deallocate_staging(void* p) noexcept override { staging_.release(p, work_queued()); }
  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    queued();
    by_registration(src, bytes, [&](std::size_t at, std::size_t n) {
      counted_.copied_in(n);
      check(api_.memcpy_to_device_async(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, n, stream_),
            "copy to device");
    });
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    copy_to_host_async(dst, src, bytes);
    synchronize();
  }
  void copy_from_peer(void* dst, device& peer, const void* src, std::size_t bytes) override {
    counted_.copied_from_peer(bytes);
    queued();
    check(api_.memcpy_peer_async(dst, ordinal_, src, static_cast<cuda_device&>(peer).ordinal(), bytes, stream_),
          "copy from another GPU");
  }
  void copy_to_host_async(void* dst, const void* src, std::size_t bytes) override {
    bool started = false;
    queue_to_host(dst, src, bytes, started);
  }
  // Between two landing marks (landing_marks.h). Until a piece of the copy
  // (by_registration) is queued, a failure leaves it not started; after
  // that, last_copy() reads the marks. The second mark's failure is left for
  // the chunk's wait to find, as the copy's own would be.
  void copy_to_host_last(void* dst, const void* src, std::size_t bytes) override {
    last_started_ = after_marked_ = false;
    const bool marked = prepare_marks();
    if (marked) {
      counted_.copied_out(landing_marks::kMarkBytes);
      check(marks_.mark_before(stream_), "copy to host");
    }
    queue_to_host(dst, src, bytes, last_started_);
    if (!marked)
      return;
    counted_.copied_out(landing_marks::kMarkBytes);
    after_marked_ = marks_.mark_after(stream_) == 0;
    if (!after_marked_)
      api_.get_last_error(); // the wait reports it, if it is the context's
  }
  copy_outcome last_copy() override {
    if (!last_started_)
      return copy_outcome::not_run;
    if (!marks_ready_)
      return copy_outcome::unknown;
    // Whatever of the device's work is still to run or stop, before the marks are read.
    api_.set_device(ordinal_);
    ++counted_.synchronizations;
    if (api_.device_synchronize() != 0)
      api_.get_last_error();
    if (after_marked_ && marks_.after())
      return copy_outcome::ran;
    return marks_.before() ? copy_outcome::unknown : copy_outcome::not_run;
  }
  bool copy_within(void* dst, const void* src, std::size_t bytes) override {
    if (!api_.memcpy_on_device_async)
      return false;
    queued();
    check(api_.memcpy_on_device_async(dst, src, bytes, stream_), "copy within the GPU");
    return true;
  }
  void synchronize() override {
    release_turn(); // the other slots queue their chunks while this one waits
    if (!anything_to_wait_for())
      return;
    check(stream_synchronize(), "stream synchronize");
    stream_idle();
  }

  void keep_until_drained(std::shared_ptr<void> p) override { queued_fences::global().keep(std::move(p)); }

  void enter_loop(std::uint64_t loop, bool may_leave_queued, bool alone_on_device, bool timed) override {
    slot_context::enter_loop(loop, may_leave_queued, alone_on_device, timed);
    timing_wanted_ = timed;
    queues_ = may_leave_queued && queued_fences::supported(api_);
  }

  void begin_chunk() override {
    if (!opened_)
      throw device_error(name() + ": could not make the device current or create its stream");
    // The body may have switched devices in an earlier chunk (task mode).
    check(api_.set_device(ordinal_), "cudaSetDevice");
    device_seconds_ = -1;
    timed_ = false;
    left_queued_ = false;
    // A task-mode body queues work this lease does not see (and may run
    // loops of its own on this GPU): it neither takes the turn nor is timed
    // on the stream; what earlier loops left queued ends before it starts.
    if (untracked_work()) {
      dev_.drain();
      return;
    }
    turn_ = std::unique_lock<std::mutex>(dev_.issue_turn);
    // After what earlier loops' chunks left queued, on any slot and GPU.
    check(queued_fences::global().order_after(api_, stream_, loop_), "cudaStreamWaitEvent");
    timed_ = timing_wanted_ && record(started_);
  }

  double chunk_device_seconds() const override { return device_seconds_; }
  void end_chunk() noexcept override { release_turn(); }

  void chunk_wait() override {
    if (!leave_queued())
      synchronize();
  }

  // The chunk is done only when the work a task-mode body left on the default
  // streams is (its own cudaMemcpyAsync, launches in functions it calls that
  // the tool did not move onto the lease's stream), not just the lease's. A
  // kernel-mode chunk has waited for its own work already.
  void finish_chunk() override {
    if (left_queued_) // nothing to time or wait for: later loops wait for its fence
      return;
    const bool timed = timed_ && record(ended_);
    synchronize();
    float ms = 0;
    if (timed && api_.event_elapsed_ms(&ms, started_, ended_) == 0)
      device_seconds_ = 1e-3 * double(ms);
    else if (timed)
      api_.get_last_error(); // not the next launch's error
    if (!untracked_work())
      return;
    check(api_.set_device(ordinal_), "cudaSetDevice");
    check(default_streams_synchronize(), "default stream synchronize");
  }

  void after_failure() noexcept override {
    release_turn();
    fenced_ = false;
    queued_fences::global().forget(this); // the synchronisation below covers the stream
    api_.get_last_error();
    // A sticky error (an illegal address, a kernel that trapped) is returned
    // by every later call on the device's context: a synchronisation tells
    // it from an error that only concerned the failed call.
    api_.set_device(ordinal_);
    ++counted_.synchronizations;
    const int e = api_.device_synchronize();
    if (e == 0) {
      stream_idle();
      return;
    }
    api_.get_last_error();
    dev_.retire(error_text(api_, e) + " (the device's CUDA context is lost)");
  }

  std::uint64_t memory_budget(int sharing) override {
    std::size_t free = 0, total = 0;
    if (api_.mem_get_info(&free, &total) != 0) {
      api_.get_last_error();
      return slot_context::memory_budget(sharing);
    }
    // Room for the allocator's rounding and what other slots of this GPU
    // allocate meanwhile: each gets an equal share of 90% of what is free
    // (the pool's idle buffers included), less the pool's rounding up of
    // sizes (at most a quarter).
    const std::uint64_t available = std::uint64_t(free) + dev_.pool.idle_bytes();
    return available / 10 * 9 / 5 * 4 / std::uint64_t(std::max({1, sharing, dev_.open_slots.load()}));
  }

  int enter_nested() override {
    int previous = -1;
    if (api_.get_device(&previous) != 0)
      previous = -1;
    check(api_.set_device(ordinal_), "cudaSetDevice");
    return previous;
  }
  void leave_nested(int previous) noexcept override {
    if (previous >= 0 && previous != ordinal_)
      api_.set_device(previous);
  }

  void end_lease() noexcept override {
    release_turn();
    if (stream_ && (work_queued() || lease_had_untracked_work())) {
      api_.set_device(ordinal_);
      if (stream_synchronize() == 0)
        stream_idle();
      if (lease_had_untracked_work())
        default_streams_synchronize();
    }
    // What is still queued belongs to a lost context: its buffers are never
    // handed out again (no loop plans a retired GPU).
    buffers_.lease_ended();
    staging_.lease_ended();
    lease_ended();
    api_.get_last_error(); // nothing of this lease's errors reaches the next one
  }

private:
  std::string name() const { return dev_.name(); }
  // The waits, counted as the CUDA calls they are (the stand-in counts those).
  int stream_synchronize() {
    ++counted_.synchronizations;
    return api_.stream_synchronize(stream_);
  }
  int default_streams_synchronize() {
    counted_.synchronizations += 2; // the legacy and the per-thread default stream
    return api_.default_streams_synchronize();
  }
  // The host waited for everything queued on the stream: the buffers given
  // back meanwhile are free for any slot now.
  void stream_idle() {
    waited();
    if (fenced_) { // its fence has passed
      fenced_ = false;
      queued_fences::global().forget(this);
    }
    buffers_.stream_idle();
    staging_.stream_idle();
  }
  void check(int e, const char* what) const {
    if (e != 0)
      throw device_error(name() + ": " + what + " failed: " + error_text(api_, e));
  }
  void release_turn() noexcept {
    if (turn_.owns_lock())
      turn_.unlock();
  }
  // A chunk of a loop that may leave its work queued finishes without
  // waiting where nothing of the host depends on that work: it copied
  // nothing to or from host memory (a copy in of region data reads the
  // user's memory when it runs, and the user may write it once the loop has
  // returned; results coming back are read by the host), and it holds no
  // buffer the pool would hand out again. Its fence, recorded behind its
  // work, orders later loops after it.
  bool leave_queued() {
    if (!queues_ || untracked_work() || !work_queued() || counted_.h2d_bytes != 0 ||
        counted_.d2h_bytes != 0 || !buffers_.idle() || !staging_.idle())
      return false;
    // One event per loop, two in turn: re-recorded for the slot's later
    // chunks of the same loop (the newest record covers them all on its
    // stream), the other one for the next loop, so that the slot's fence of
    // the previous loop stands while chunks of this loop are recorded.
    if (fenced_loop_ != 0 && fenced_loop_ != loop_)
      next_fence_ ^= 1;
    fenced_loop_ = loop_;
    void*& fence = fences_[next_fence_];
    if (!fence && api_.event_create(&fence) != 0) {
      fence = nullptr;
      api_.get_last_error();
      return false;
    }
    check(api_.event_record(fence, stream_), "cudaEventRecord");
    queued_fences::global().set(this, fence, dev_, loop_);
    fenced_ = true;
    left_queued_ = true;
    release_turn();
    waited(); // nothing for the lease's end to wait for: the fence stands for it
    device_seconds_ = -1;
    return true;
  }
  // Queues the copy to host memory, one piece per registration it crosses;
  // `started` turns true once a piece is queued (throws where one fails).
  void queue_to_host(void* dst, const void* src, std::size_t bytes, bool& started) {
    queued();
    by_registration(dst, bytes, [&](std::size_t at, std::size_t n) {
      counted_.copied_out(n);
      check(api_.memcpy_to_host_async(static_cast<char*>(dst) + at, static_cast<const char*>(src) + at, n, stream_),
            "copy to host");
      started = true;
    });
  }
  template <class Copy>
  void by_registration(const void* host, std::size_t bytes, Copy copy) {
    if (!registrations_found_) { // not at construction: the runtime may still be starting then
      registrations_ = registration_cache::global();
      registrations_found_ = true;
    }
    detail::by_registration(registrations_, host, bytes, cuts_, copy);
  }
  // The landing marks, made the first time they are needed: false where the
  // table cannot make them (then a failed wait after the last copy is
  // copy_outcome::unknown). Throws where a CUDA call fails.
  bool prepare_marks() {
    if (marks_ready_ || !marks_.possible())
      return marks_ready_;
    void* word = nullptr;
    bool allocated = false;
    const int e = dev_.pool.landing_word(&word, &allocated);
    counted_.allocations += allocated ? 1 : 0;
    if (e == kCudaErrorMemoryAllocation) { // as for a chunk's buffer: split and retried, the GPU stays
      api_.get_last_error();
      throw device_out_of_memory(name() + ": out of memory allocating the GPU's landing word");
    }
    // Nothing of the copy is queued yet: a failure here (a context lost
    // meanwhile, no page-locked memory) runs the chunk again.
    check(e, "allocating the GPU's landing word");
    check(marks_.prepare(word), "allocating the landing marks");
    marks_ready_ = true;
    return true;
  }
  // Records `event` (created the first time) on the stream; false where the
  // table has no events or a call failed: the chunk is then timed on the
  // host. Never throws: timing is not the chunk's work.
  bool record(void*& event) {
    if (!api_.event_create || !api_.event_record || !api_.event_elapsed_ms)
      return false;
    if (!event && api_.event_create(&event) != 0)
      event = nullptr;
    if (event && api_.event_record(event, stream_) == 0)
      return true;
    api_.get_last_error();
    return false;
  }

  cuda_device& dev_;
  const cuda_api& api_;
  int ordinal_;
  void* stream_ = nullptr;
  bool opened_ = false;
  lease_buffers<cuda_memory_pool> buffers_{dev_.pool};
  lease_buffers<pinned_staging> staging_{dev_.pool.staging}; // page-locked host buffers, the same way
  std::unique_lock<std::mutex> turn_; // dev_.issue_turn while this slot queues a chunk
  void* started_ = nullptr;           // events around a kernel-mode chunk's work on the stream
  void* ended_ = nullptr;
  bool timed_ = false;
  bool timing_wanted_ = false; // enter_loop: the loop's schedule uses chunks' times
  double device_seconds_ = -1;
  void* fences_[2] = {};           // recorded behind the chunks that did, in turn (queued_fences::set)
  int next_fence_ = 0;              // the event of fenced_loop_'s chunks
  std::uint64_t fenced_loop_ = 0;
  bool fenced_ = false;            // its fence is in queued_fences
  bool left_queued_ = false;       // the current chunk finished without waiting
  registration_cache* registrations_ = nullptr; // registration_cache::global(), once a chunk copies
  bool registrations_found_ = false;
  std::vector<std::size_t> cuts_;   // by_registration's, kept for its capacity
  landing_marks marks_{api_};       // around a chunk's last copy to the host
  bool marks_ready_ = false;
  bool last_started_ = false; // the current chunk's copy_to_host_last queued a piece of its copy
  bool after_marked_ = false; // and the mark after it
};

std::unique_ptr<slot_context> cuda_device::open_slot(int) { return std::make_unique<cuda_slot>(*this); }

} // namespace

std::string discover_cuda_devices(const devices_config& config, int first_id,
                                  std::vector<std::unique_ptr<device>>& out, std::vector<std::string>& warnings) {
  const cuda_api* api = registered_cuda_api();
  if (!api)
    return "no CUDA runtime linked (no file was compiled as CUDA)";
  int count = 0;
  int e = api->get_device_count(&count);
  if (e == kCudaErrorInsufficientDriver || e == kCudaErrorNoDevice)
    return error_text(*api, e);
  if (e != 0)
    return "CUDA device query failed (" + error_text(*api, e) + ")";
  if (count <= 0)
    return "no CUDA GPU visible";
  std::vector<int> ordinals = config.cuda_ids;
  std::string skipped;
  if (ordinals.empty())
    for (int d = 0; d < count; ++d)
      ordinals.push_back(d);
  std::vector<int> seen;
  for (int ordinal : ordinals) {
    if (std::find(seen.begin(), seen.end(), ordinal) != seen.end()) {
      // Two runtime devices on one GPU would share its memory and compete
      // for it, each planned as a whole GPU.
      warnings.push_back("GPU_AUTOPAR_DEVICES names CUDA device " + std::to_string(ordinal) +
                         " more than once; it is used once");
      continue;
    }
    seen.push_back(ordinal);
    if (ordinal >= count) {
      skipped += " cuda:" + std::to_string(ordinal) + " does not exist (" + std::to_string(count) + " visible);";
      continue;
    }
    char name[256] = {0};
    std::size_t memory = 0;
    int major = 0, minor = 0;
    if (int pe = api->get_device_properties(ordinal, name, &memory, &major, &minor)) {
      skipped += " cuda:" + std::to_string(ordinal) + ": " + error_text(*api, pe) + ";";
      continue;
    }
    out.push_back(std::make_unique<cuda_device>(*api, first_id + int(out.size()), ordinal, name, memory, major, minor));
  }
  return out.empty() ? "no usable CUDA GPU:" + skipped : "";
}

const cuda_api* registered_cuda_api() {
  std::lock_guard<std::mutex> lock(g_api_mutex);
  return g_api_registered ? &g_api : nullptr;
}

void unregister_cuda_api_for_testing() {
  std::lock_guard<std::mutex> lock(g_api_mutex);
  g_api_registered = false;
}

} // namespace detail

void register_cuda_api(const cuda_api& api) {
  std::lock_guard<std::mutex> lock(detail::g_api_mutex);
  detail::g_api = api;
  detail::g_api_registered = true;
}

} // namespace gpu_autopar
