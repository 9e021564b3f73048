#include "sim_device.h"

#include "cuda_memory_pool.h" // size_class
#include "device_loop.h"      // stretch_wait

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

namespace gpu_autopar {
namespace detail {
namespace {

// Host memory behind the chunk buffers of simulated devices, recycled across
// chunks. A buffer of a megabyte or more would otherwise come fresh from mmap
// for every chunk, and the page faults of filling it cost more than the
// chunk's compute, more per iteration for large chunks than for small ones:
// an artefact of the simulation that skewed the adaptive schedule's estimates
// (bench/short_loops.sh). What a device counts (its memory, its allocations)
// does not change; only where the host finds the bytes. Sizes are rounded as
// the CUDA pool rounds them, so that chunks of slightly different sizes share.
class recycled_host_memory {
public:
  void* take(std::size_t bytes, std::size_t* size) {
    *size = cuda_memory_pool::size_class(bytes);
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = idle_.lower_bound(*size);
      if (it != idle_.end() && it->first <= 2 * *size) {
        void* p = it->second;
        *size = it->first;
        idle_bytes_ -= it->first;
        idle_.erase(it);
        return p;
      }
    }
    return std::malloc(*size);
  }
  void give_back(void* p, std::size_t size) noexcept {
    {
      std::lock_guard<std::mutex> lock(m_);
      if (idle_bytes_ + size <= kKeepAtMost) {
        idle_.emplace(size, p);
        idle_bytes_ += size;
        return;
      }
    }
    std::free(p);
  }

private:
  static constexpr std::size_t kKeepAtMost = std::size_t(256) << 20;
  std::mutex m_;
  std::multimap<std::size_t, void*> idle_;
  std::size_t idle_bytes_ = 0;
};

recycled_host_memory& recycled() {
  static auto* r = new recycled_host_memory; // never destroyed: workers may allocate during exit
  return *r;
}

} // namespace

sim_device::sim_device(int id, std::uint64_t memory, double stretch, sim_faults faults, sim_link link, bool p2p)
    : id_(id), memory_(memory), stretch_(stretch), faults_(std::move(faults)), link_(link), p2p_(p2p) {}

// One lease on a simulated device. Allocations are tracked so that whatever a
// chunk left behind is freed (and un-counted) when the lease goes back.
class sim_slot final : public slot_context {
public:
  explicit sim_slot(sim_device& dev) : dev_(dev) {}
  ~sim_slot() override { end_lease(); }

  device_kind kind() const override { return device_kind::sim; }
  int id() const override { return dev_.id_; }
  void* stream() const override { return nullptr; }

  void* allocate(std::size_t bytes) override {
    if (oom_now_)
      throw device_out_of_memory(dev_.name() + ": out of memory (injected on its chunk " + std::to_string(chunk_) +
                                 ")");
    std::uint64_t used = dev_.used_.fetch_add(bytes) + bytes;
    if (used > dev_.memory_) {
      dev_.used_.fetch_sub(bytes);
      throw device_out_of_memory(dev_.name() + ": out of memory: " + std::to_string(bytes) + " bytes requested, " +
                                 std::to_string(dev_.memory_ - std::min(dev_.memory_, used - bytes)) +
                                 " free of " + std::to_string(dev_.memory_));
    }
    std::size_t held = 0;
    void* p = recycled().take(bytes, &held);
    if (!p) {
      dev_.used_.fetch_sub(bytes);
      throw device_out_of_memory(dev_.name() + ": host allocation of " + std::to_string(bytes) + " bytes failed");
    }
    std::memset(p, kSimPoison, bytes);
    live_.emplace(p, allocation{bytes, held});
    ++counted_.allocations;
    return p;
  }

  void deallocate(void* p) noexcept override {
    auto it = live_.find(p);
    if (it == live_.end())
      return;
    dev_.used_.fetch_sub(it->second.bytes);
    recycled().give_back(p, it->second.held);
    live_.erase(it);
  }

  void copy_to_device(void* dst, const void* src, std::size_t bytes) override {
    copy_over_link(dst, src, bytes);
    counted_.copied_in(bytes);
    queued();
  }
  void copy_to_host(void* dst, const void* src, std::size_t bytes) override {
    copy_to_host_async(dst, src, bytes);
    synchronize();
  }
  // Between simulated devices over the same link model as the host's copies.
  void copy_from_peer(void* dst, device&, const void* src, std::size_t bytes) override {
    copy_over_link(dst, src, bytes);
    counted_.copied_from_peer(bytes);
    queued();
  }
  void copy_to_host_async(void* dst, const void* src, std::size_t bytes) override {
    copy_over_link(dst, src, bytes);
    counted_.copied_out(bytes);
    queued();
  }
  // Device memory to device memory: not over the link.
  bool copy_within(void* dst, const void* src, std::size_t bytes) override {
    std::memmove(dst, src, bytes);
    queued();
    return true;
  }
  // Nothing to wait for, but counted as the CUDA backend counts its waits:
  // the same loop shows the same counts on sim and CUDA devices.
  void synchronize() override {
    if (lose_now_) {
      // `lose=`: as a kernel's sticky CUDA error, found at the chunk's wait.
      lose_now_ = false;
      dev_.retire("its context is lost (injected on its chunk " + std::to_string(chunk_) + ")");
      throw device_error(dev_.name() + ": device lost");
    }
    if (!anything_to_wait_for())
      return;
    ++counted_.synchronizations;
    waited();
    settle_link();
  }

  std::uint64_t memory_budget(int /*sharing: one device memory, counted as allocated*/) override {
    const std::uint64_t used = dev_.used_.load();
    return used < dev_.memory_ ? dev_.memory_ - used : 0;
  }

  void begin_chunk() override {
    chunk_started_ = std::chrono::steady_clock::now();
    chunk_waited_ = 0;
    chunk_ = dev_.chunks_started_.fetch_add(1) + 1;
    const sim_faults& f = dev_.faults_;
    if (std::find(f.fail.begin(), f.fail.end(), chunk_) != f.fail.end())
      throw device_error(dev_.name() + ": device failure (injected on its chunk " + std::to_string(chunk_) + ")");
    oom_now_ = std::find(f.oom.begin(), f.oom.end(), chunk_) != f.oom.end();
    lose_now_ = std::find(f.lose.begin(), f.lose.end(), chunk_) != f.lose.end();
  }
  // What this chunk computed (its time model's stretch included) is the
  // time during which the next chunk's copies run beside it.
  void end_chunk() noexcept override {
    oom_now_ = lose_now_ = false;
    pending_link_ = 0;
    const double ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - chunk_started_).count();
    overlap_credit_ = std::max(0.0, ran - chunk_waited_) * dev_.stretch_;
  }

  void end_lease() noexcept override {
    oom_now_ = false;
    pending_link_ = overlap_credit_ = 0; // the next lease starts with an idle link
    lease_ended();
    while (!live_.empty())
      deallocate(live_.begin()->first);
  }

private:
  // With a link model a copy takes as long as the model says, as on a GPU
  // whose copy engines work beside its kernels: a chunk's copies run while
  // the chunk before it computes (two streams, the CUDA backend's two slots
  // per GPU). So the copies are charged when the chunk waits for them, less
  // the previous chunk's compute time not yet used for that.
  void copy_over_link(void* dst, const void* src, std::size_t bytes) {
    std::memcpy(dst, src, bytes);
    if (!dev_.link_.on())
      return;
    const double cost = dev_.link_.seconds(bytes);
    counted_.link_seconds += cost;
    pending_link_ += cost;
  }
  void settle_link() {
    if (pending_link_ <= 0)
      return;
    const double overlapped = std::min(pending_link_, overlap_credit_);
    overlap_credit_ -= overlapped;
    const double wait = pending_link_ - overlapped;
    pending_link_ = 0;
    counted_.link_wait_seconds += wait;
    chunk_waited_ += wait;
    stretch_wait(wait);
  }

  sim_device& dev_;
  struct allocation {
    std::size_t bytes; // what the device counts
    std::size_t held;  // what the host holds behind it
  };
  std::unordered_map<void*, allocation> live_;
  std::uint64_t chunk_ = 0;
  bool oom_now_ = false, lose_now_ = false;
  double pending_link_ = 0;   // link time of copies not waited for yet
  double overlap_credit_ = 0; // compute time of the chunk before, during which copies overlap
  double chunk_waited_ = 0;   // link time this chunk waited for
  std::chrono::steady_clock::time_point chunk_started_{};
};

void* sim_device::resident_allocate(std::size_t bytes, bool* allocated) {
  *allocated = true;
  const std::uint64_t used = used_.fetch_add(bytes) + bytes;
  if (used > memory_) {
    used_.fetch_sub(bytes);
    throw device_out_of_memory(name() + ": out of memory for resident data: " + std::to_string(bytes) +
                               " bytes requested");
  }
  // Not filled here: a resident copy holds whole sections, of which each
  // device uses its part; resident_first_use() poisons each part before its
  // first use (large allocations come as untouched pages, which cost nothing
  // until then).
  void* p = std::malloc(bytes ? bytes : 1);
  if (!p) {
    used_.fetch_sub(bytes);
    throw device_out_of_memory(name() + ": host allocation of " + std::to_string(bytes) + " bytes failed");
  }
  std::lock_guard<std::mutex> lock(resident_mutex_);
  resident_.emplace(p, bytes);
  return p;
}

void sim_device::resident_free(void* p) noexcept {
  std::lock_guard<std::mutex> lock(resident_mutex_);
  auto it = resident_.find(p);
  if (it == resident_.end())
    return;
  used_.fetch_sub(it->second);
  resident_.erase(it);
  std::free(p);
}

void sim_device::resident_first_use(void* p, std::size_t bytes) { std::memset(p, kSimPoison, bytes); }

// A region's copies to the host (halo rows on their way to a neighbour, the
// results at its end) cross the link as chunks' copies do.
void sim_device::resident_to_host(void* dst, const void* src, std::size_t bytes) {
  std::memcpy(dst, src, bytes);
  if (link_.on())
    stretch_wait(link_.seconds(bytes));
}

std::string sim_device::describe() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s (simulated: %llu MiB, chunks stretched x%.2f, %zu injected failures",
                name().c_str(), static_cast<unsigned long long>(memory_ >> 20), stretch_,
                faults_.fail.size() + faults_.oom.size() + faults_.lose.size());
  std::string s = buf;
  if (link_.on()) {
    if (link_.bytes_per_second > 0)
      std::snprintf(buf, sizeof buf, ", link %.3g GB/s, %.3g us per copy", link_.bytes_per_second / 1e9,
                    link_.latency * 1e6);
    else
      std::snprintf(buf, sizeof buf, ", %.3g us per copy", link_.latency * 1e6);
    s += buf;
  }
  if (!p2p_)
    s += ", no copies from other devices";
  return s + ")";
}

std::unique_ptr<slot_context> sim_device::open_slot(int) { return std::make_unique<sim_slot>(*this); }

} // namespace detail
} // namespace gpu_autopar
