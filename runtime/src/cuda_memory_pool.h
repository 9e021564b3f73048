// Device memory that the slots of one GPU reuse across chunks and loops.
//
// cudaMalloc and cudaFree each synchronise the whole device and cost tens of
// microseconds; a chunk that allocates its sections and frees them again
// serialises every stream of the GPU twice. So a buffer a chunk gives back is
// kept here, by size, for the next chunk of any slot of this GPU, and goes
// back to CUDA only when an allocation would otherwise fail, when the device
// goes away, or at process exit (an atexit handler, so that the CUDA runtime
// is still there and a leak checker run after it sees nothing held).
//
// A buffer must be idle when it is given back: no work still queued on any
// stream may use it (the slot gives back only after waiting for its stream).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

#include "gpu_autopar/cuda_api.h"
#include "pinned_staging.h"

namespace gpu_autopar {
namespace detail {

class cuda_memory_pool {
public:
  cuda_memory_pool(const cuda_api& api, int ordinal);
  ~cuda_memory_pool(); // frees what is cached
  cuda_memory_pool(const cuda_memory_pool&) = delete;
  cuda_memory_pool& operator=(const cuda_memory_pool&) = delete;

  // The size a request for `bytes` is served with: rounded up to a quarter of
  // its power of two (at most 25% waste), so that chunks whose sizes differ a
  // little (the adaptive schedule's) reuse the same buffers.
  static std::size_t size_class(std::size_t bytes);

  // An idle buffer of at least `bytes` (and at most twice its class), or
  // nullptr; *size is the buffer's size.
  void* take(std::size_t bytes, std::size_t* size);
  // Keeps an idle buffer of `size` bytes (from take() or cudaMalloc of a size_class()).
  void give_back(void* p, std::size_t size);
  // cudaFree of every idle buffer (this GPU must be current). Returns the bytes freed.
  std::size_t release_idle();
  // Bytes held idle: free to a chunk, though cudaMemGetInfo counts them as used.
  std::size_t idle_bytes() const;
  // Four bytes of this GPU's memory holding 0x01010101 for the process, the
  // source of its slots' landing marks (landing_marks.h). Allocated and set
  // the first time, from the slot's thread with this GPU current: the set is
  // queued on the legacy default stream, which every slot's (blocking)
  // stream is ordered after. Returns a CUDA error; *allocated: this call
  // allocated it.
  int landing_word(void** word, bool* allocated);
  // At exit: what is idle, and the landing word.
  void release_at_exit();

  // The page-locked host buffers this GPU's chunks stage data in; emptied at
  // exit with the device buffers.
  pinned_staging staging;

private:
  const cuda_api& api_;
  int ordinal_;
  mutable std::mutex m_;
  std::multimap<std::size_t, void*> idle_; // by size
  std::size_t idle_bytes_ = 0;
  void* landing_word_ = nullptr;
};

} // namespace detail
} // namespace gpu_autopar
