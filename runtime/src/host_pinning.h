// Page-locked ("pinned") host memory for a kernel-mode loop on CUDA GPUs.
//
// A copy from or to pageable memory goes through the driver's own staging
// buffer and holds the calling thread until it is done: the copies of one
// slot cannot run while the host queues the next, and a GPU's copy engines
// get a fraction of the link. So while a loop runs on CUDA GPUs, the host
// memory its chunks copy from and to (loop_body::host_ranges) is registered
// with cudaHostRegister, and unregistered when the loop is done (every lease
// back, nothing queued). A range the CUDA runtime refuses (already registered
// by the program, no support) stays pageable: copies work the same, slower.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {
namespace detail {

class pinned_host_ranges {
public:
  // Ranges may overlap or touch (two maps of one array): they are merged.
  pinned_host_ranges(const cuda_api* api, std::vector<std::pair<const void*, std::size_t>> ranges);
  ~pinned_host_ranges();
  pinned_host_ranges(const pinned_host_ranges&) = delete;
  pinned_host_ranges& operator=(const pinned_host_ranges&) = delete;

  std::size_t registered() const { return registered_.size(); }

private:
  const cuda_api* api_;
  std::vector<void*> registered_;
};

} // namespace detail
} // namespace gpu_autopar
