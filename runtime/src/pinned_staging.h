// Page-locked host buffers a GPU's chunks stage data in: the snapshot and the
// results of a compare-and-copy-back section (map_slice.h), the blocks'
// reduction partials. Copies into pageable memory would go through the
// driver's staging buffer and hold the slot's thread; these run at the link's
// rate. Allocated and registered once, kept by size for the next chunk of any
// slot of the GPU, like its device buffers, by the GPU's cuda_memory_pool,
// which gives them back to the system at process exit with its own.
//
// A buffer must be idle when it is given back: no queued copy may still use
// it (the slot gives back only after waiting for its stream).
#pragma once

#include <cstddef>
#include <map>
#include <mutex>

#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {
namespace detail {

class pinned_staging {
public:
  explicit pinned_staging(const cuda_api& api);
  ~pinned_staging(); // frees what is idle
  pinned_staging(const pinned_staging&) = delete;
  pinned_staging& operator=(const pinned_staging&) = delete;

  // A page-locked buffer of at least `bytes` (*size: its size), or nullptr
  // when the CUDA runtime will not register one (then stage in ordinary memory).
  void* take(std::size_t bytes, std::size_t* size);
  void give_back(void* p, std::size_t size);
  // Unregisters and frees every idle buffer.
  void release_idle();

private:
  const cuda_api& api_;
  std::mutex m_;
  std::multimap<std::size_t, void*> idle_; // by size
  std::size_t idle_bytes_ = 0;
};

} // namespace detail
} // namespace gpu_autopar
