// The work that CUDA chunks left queued when they finished (asynchronous
// loops in a data region, docs/runtime.md): for each slot whose last chunk
// finished so, an event recorded on its stream behind that chunk's work, with
// the GPU and the loop it belonged to.
//
// Ordering, without the host waiting: a chunk of a later loop, on any slot of
// any GPU, first makes its stream wait for every fence of an earlier loop, so
// that a sweep reads what the previous sweep wrote (on its own GPU, or a halo
// copied from another's) and does not overwrite what a copy of the previous
// sweep still reads. Chunks of one loop do not wait for one another: the
// tool proved its iterations independent. Where the host needs the results
// (it reads or writes data a region holds, a resident part is freed, the
// region ends), it waits for the fences: drain().
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "device.h"
#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {
namespace detail {

class queued_fences {
public:
  static queued_fences& global();

  // The API can queue loops: events and stream waits on them.
  static bool supported(const cuda_api& api) {
    return api.event_create && api.event_record && api.stream_wait_event && api.event_synchronize;
  }
  // `slot`'s last chunk, of `loop` on GPU `gpu`, left its work queued
  // behind `event`, recorded on the slot's stream (replacing what `event`
  // stood for before). A slot records its chunks of one loop on one event
  // and those of the next loop on another, in turn: a chunk of loop L must
  // still wait for the slot's fence of loop L - 1 after the slot recorded
  // one for loop L, which it must not wait for.
  void set(const void* slot, void* event, device& gpu, std::uint64_t loop);
  // Makes `stream` wait for the fences of loops before `loop`; the first
  // error of a wait (0 if none).
  int order_after(const cuda_api& api, void* stream, std::uint64_t loop);
  // The slot's stream was waited for (or is gone): its fence has passed.
  void forget(const void* slot);
  // Waits for every fence (a GPU's memory is also read by other GPUs' copies
  // from it, queued on their streams) and drops them. Returns the GPUs whose
  // fence reported an error, with it (their contexts are lost).
  struct failure {
    device* gpu;
    int error;
  };
  std::vector<failure> drain(const cuda_api& api);
  // Keeps `p` (a region's device part that queued copies read) until the
  // next drain: released then, after the fences were waited for.
  void keep(std::shared_ptr<void> p);
  // Checked before each chunk: without a lock where nothing was ever queued.
  bool empty() const {
    if (!used_.load(std::memory_order_acquire))
      return true;
    std::lock_guard<std::mutex> lock(m_);
    return fences_.empty() && kept_.empty();
  }

private:
  struct fence {
    const void* slot;
    void* event;
    device* gpu;
    std::uint64_t loop;
  };
  std::atomic<bool> used_{false}; // a fence or a kept part was ever set
  mutable std::mutex m_;
  std::vector<fence> fences_;
  std::vector<std::shared_ptr<void>> kept_;
};

} // namespace detail
} // namespace gpu_autopar
