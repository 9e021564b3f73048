// The boundary between the header-side loop templates (which know the loop's
// types, data maps and reductions) and the compiled runtime (which knows the
// devices, leases and schedules). Generated code never uses this directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpu_autopar {

// Where an annotated loop stands in the original source.
struct loop_site {
  const char* file;
  unsigned line;
};

enum class loop_mode { kernel, task, host };
enum class schedule_kind { static_, dynamic, guided, adaptive };
enum class fallback_policy { auto_, gpu, cpu, none };
enum class device_kind { cpu, sim, cuda };

// The clauses of one annotated loop (docs/analysis.md, clause reference), with the spec's defaults.
struct loop_options {
  loop_mode mode = loop_mode::kernel;
  schedule_kind schedule = schedule_kind::adaptive;
  std::uint64_t chunk = 0;           // 0: the schedule chooses
  int max_devices = 0;               // 0: all
  int slots = 0;                     // chunks in flight per GPU; 0: the runtime chooses
  fallback_policy fallback = fallback_policy::auto_;
  std::int64_t min_iterations = -1;  // -1: the runtime's heuristic (task mode: 2)
  // Set when the loop must run serially on the calling thread, and why: two
  // objects the tool could not prove distinct overlap in memory
  // (options.h, check_disjoint). Null: the loop may run in parallel.
  const char* serial_reason = nullptr;
};

// A device failed a chunk; the scheduler retries the chunk elsewhere.
struct device_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A device failed once the chunk's results had all reached the host (the
// context was lost by another stream's work after the chunk's copies ran):
// the chunk is done and must not run again; the device leaves the loop.
struct device_failed_after_chunk : device_error {
  using device_error::device_error;
};
// A device could not allocate; the scheduler retries the chunk split smaller.
struct device_out_of_memory : device_error {
  using device_error::device_error;
};
// The loop could not run where its fallback policy allows (fallback(none|gpu)).
struct loop_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The leased device a chunk runs on, as the header templates see it. For a
// simulated device, memory is a separate host allocation; for CUDA it is
// device memory and the copies are ordered on stream().
//
// Copies to the device and launches are queued: they run in order on the
// lease, and the host learns they finished only at synchronize(). So the
// host source of copy_to_device must stay as it is until then, and memory
// handed to deallocate() is reused only once the work queued before is done.
class device_context {
public:
  virtual ~device_context() = default;
  virtual device_kind kind() const = 0;
  virtual int id() const = 0;          // index among the runtime's devices
  virtual void* stream() const = 0;    // cudaStream_t for CUDA, nullptr otherwise
  virtual void* allocate(std::size_t bytes) = 0; // throws device_out_of_memory
  virtual void deallocate(void* p) noexcept = 0;
  virtual void copy_to_device(void* dst, const void* src, std::size_t bytes) = 0;
  // Returns once dst holds the data (after all work queued before).
  virtual void copy_to_host(void* dst, const void* src, std::size_t bytes) = 0;
  // Queues the copy: dst holds the data after the next synchronize(), so
  // that a chunk's results come back with one wait however many maps it has.
  virtual void copy_to_host_async(void* dst, const void* src, std::size_t bytes) { copy_to_host(dst, src, bytes); }
  // The chunk's last copy to the host, queued like copy_to_host_async, into
  // the program's own memory, which it overwrites with values a second run
  // of the chunk would read (y += ...: map_slice::fetch). When the wait
  // after it fails, last_copy() says whether it ran, so that the chunk is
  // neither applied twice nor lost.
  enum class copy_outcome {
    not_run, // never started: the program's memory is as it was; the chunk may run again
    ran,     // done, and everything queued before it: the chunk's results are all back
    unknown, // may have run in part
  };
  virtual void copy_to_host_last(void* dst, const void* src, std::size_t bytes) {
    last_copy_returned_ = false;
    copy_to_host_async(dst, src, bytes);
    last_copy_returned_ = true;
  }
  // Only after copy_to_host_last threw or a wait after it failed. Here: a
  // device that copies when asked (a simulated one) copied once the call
  // returned, and not at all where it threw.
  virtual copy_outcome last_copy() { return last_copy_returned_ ? copy_outcome::ran : copy_outcome::not_run; }
  // Waits for everything queued on this lease.
  virtual void synchronize() = 0;
  // A kernel-mode chunk's one wait, once its last copy out is queued. A
  // lease may return without waiting where nothing of the host depends on
  // the chunk's work (queued loops in a data region, docs/runtime.md):
  // the work is then still queued, and later loops are ordered after it.
  virtual void chunk_wait() { synchronize(); }
  // Kernel mode tells the device about each kernel it launched (on a
  // simulated device: each chunk it ran), for the report's counts.
  virtual void launched() noexcept {}

private:
  bool last_copy_returned_ = false;
};

class loop_effects; // loop_effects.h

// Memory a loop's maps name that cudaPointerGetAttributes says is not the
// host's: CUDA device memory is used in place on its GPU, never copied
// between host and device; managed memory is used in place on every CUDA GPU.
struct in_place_memory {
  bool written = false;     // the loop writes some of it: a failed chunk cannot be retried
  bool host_cannot = false; // device memory: neither CPU threads nor another GPU can run the loop
  int device = -1;          // then the runtime device (index in its pool) that can; -1: none
  std::string what;         // "'d' is device memory of cuda1"
};

// One loop as the runtime sees it: something that runs ranges of iteration
// indices [begin, end) on the host or on a leased device.
class loop_body {
public:
  virtual ~loop_body() = default;
  // On the calling CPU thread, with the host's data and no copies.
  virtual void run_host(std::uint64_t begin, std::uint64_t end) = 0;
  // On the worker holding a lease on `dev` (the device is current there).
  // Kernel mode copies the chunk's data in, runs it, copies results out; task
  // mode runs the body per iteration. A chunk that throws may be run again
  // elsewhere, so it must not combine partial results before it succeeded.
  virtual void run_device(device_context& dev, std::uint64_t begin, std::uint64_t end) = 0;
  // Whether run_device can use devices of this kind; if not, *why_not says
  // why (e.g. a kernel-mode loop compiled without a CUDA compiler).
  virtual bool can_run_on(device_kind kind, const char** why_not) const = 0;
  // Device memory run_device allocates for [begin, end) (0: unknown or
  // none). The runtime cuts chunks that would not fit in a device's free
  // memory before they run.
  virtual std::uint64_t device_bytes(std::uint64_t begin, std::uint64_t end) const {
    (void)begin;
    (void)end;
    return 0;
  }
  // What the loop writes and reduces, when that is all it does (kernel mode):
  // then it may be split across the processes of an MPI job. Null: unknown.
  virtual const loop_effects* effects() const { return nullptr; }
  // Whether run_device may put work on the device behind the device_context's
  // back (task mode: the body's own CUDA calls and launches). If not (kernel
  // mode), a chunk's end waits only for what the chunk queued, and not again
  // when run_device already did.
  virtual bool leaves_untracked_work() const { return true; }
  // The host memory run_device copies from and to over the whole loop, as
  // (first byte, bytes) pairs, so that it can be page-locked while the loop
  // runs on CUDA GPUs (host_pinning.h). Nothing by default.
  virtual void host_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const { (void)out; }
  // Of those, the ones whose old values the loop reads (all of them by default).
  virtual void host_read_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const { host_ranges(out); }
  // How many consecutive iterations make one indivisible unit of a split
  // across devices: a collapsed nest's rows (the inner loops' iterations per
  // outermost value), so that each chunk's sections are its own and stay
  // resident in a data region. 1: any split.
  virtual std::uint64_t split_unit() const { return 1; }
  // What the loop uses in place (kernel mode), or null: it copies all its data.
  virtual const in_place_memory* in_place() const { return nullptr; }
};

// Runs every index in [0, count) exactly once, on the devices and CPU threads
// the options and the environment allow. Rethrows the body's first exception
// once every chunk has stopped and every lease is back; throws loop_error when
// the fallback policy forbids every place the loop could run.
void run_loop(const loop_site& site, std::uint64_t count, const loop_options& options, loop_body& body);

// In task mode, the lease held by the calling thread: its device (nullptr on
// the CPU path) and its stream (a cudaStream_t, or nullptr).
device_context* current_device();
void* current_stream();

namespace detail {
// Device memory that is freed at the end of the scope, also when the chunk
// fails (no allocation for 0 bytes).
class device_allocation {
public:
  device_allocation(device_context& dev, std::size_t bytes) : dev_(dev), p_(bytes ? dev.allocate(bytes) : nullptr) {}
  ~device_allocation() {
    if (p_)
      dev_.deallocate(p_);
  }
  device_allocation(const device_allocation&) = delete;
  device_allocation& operator=(const device_allocation&) = delete;
  void* get() const { return p_; }

private:
  device_context& dev_;
  void* p_;
};
} // namespace detail

} // namespace gpu_autopar

// Files compiled as CUDA register the CUDA runtime's functions from here.
#include <gpu_autopar/cuda_api.h>
