// Page-locked ("pinned") host memory for the CUDA path, registered once.
//
// A copy from or to pageable memory goes through the driver's own staging
// buffer and holds the calling thread until it is done: the copies of one
// slot cannot run while the host queues the next, and a GPU's copy engines
// get a fraction of the link. So the host memory a kernel-mode loop's chunks
// copy from and to (loop_body::host_ranges), and the sections of data
// regions, are registered with cudaHostRegister.
//
// Registering costs about as much as copying the memory once, so it is done
// once: the process keeps one cache of registered ranges (page-aligned,
// disjoint). A use holds references to the ranges it needs (pin_hold); a
// range another use registered is shared, not registered again, and a range
// nothing holds any more stays registered for the next loop over the same
// memory. Ranges are unregistered only when nothing holds them: when the
// cache holds more idle registered memory than its limit (a quarter of the
// machine's memory; the oldest first), when a registration fails for want of
// memory (then every idle one), before a range is registered again because
// its memory was unmapped meanwhile, and at process exit. GPU_AUTOPAR_PIN=loop
// keeps nothing idle: a range is unregistered when its last use ends. So two threads
// looping over one array share its registration and neither unpins it while
// the other's copies read it. A range the CUDA runtime refuses (registered
// by the program itself, no support) stays pageable: copies work the same,
// slower.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gpu_autopar/cuda_api.h"

namespace gpu_autopar {
namespace detail {

class registration_cache;

// The references one use holds; released when it goes (the ranges stay
// registered for the next use).
class pin_hold {
public:
  pin_hold() = default;
  pin_hold(pin_hold&& o) noexcept : cache_(o.cache_), held_(std::move(o.held_)) { o.cache_ = nullptr; }
  pin_hold& operator=(pin_hold&& o) noexcept;
  pin_hold(const pin_hold&) = delete;
  pin_hold& operator=(const pin_hold&) = delete;
  ~pin_hold() { release(); }
  void release() noexcept;

private:
  friend class registration_cache;
  registration_cache* cache_ = nullptr;
  std::vector<std::uintptr_t> held_; // the cache entries' starts
};

class registration_cache {
public:
  // The process's cache for the registered CUDA runtime (null: none).
  static registration_cache* global();

  registration_cache(const cuda_api& api, std::size_t idle_limit);
  ~registration_cache(); // unregisters everything
  registration_cache(const registration_cache&) = delete;
  registration_cache& operator=(const registration_cache&) = delete;

  // Registers what of `ranges` is not registered yet and holds all of them.
  // Ranges may overlap or touch (two maps of one array).
  pin_hold hold(std::vector<std::pair<const void*, std::size_t>> ranges);
  // Unregisters every range, held or not (process exit).
  void release_all() noexcept;
  // Where [p, p + n) passes from one registered range (or unregistered
  // memory) into another: the offsets, 0 < offset < n, in order. A copy
  // across two registrations is not one from page-locked memory (two arrays
  // sharing a page are registered as two ranges that touch), so the CUDA
  // backend copies each piece on its own.
  void boundaries(const void* p, std::size_t n, std::vector<std::size_t>& out) const;

  // For tests and the docs: calls made, bytes registered now, idle bytes.
  std::uint64_t registrations() const;
  std::size_t registered_bytes() const;
  std::size_t idle_bytes() const;

private:
  friend class pin_hold;
  void drop(const std::vector<std::uintptr_t>& held) noexcept;
  struct impl;
  impl* s_;
};

// Calls copy(offset, bytes) for each piece of host memory [host, host +
// bytes) that lies in one registration of `cache` (boundaries()): one call
// where the copy is all in one, as it nearly always is. `cuts` is scratch.
template <class Copy>
void by_registration(const registration_cache* cache, const void* host, std::size_t bytes,
                     std::vector<std::size_t>& cuts, Copy copy) {
  cuts.clear();
  if (cache)
    cache->boundaries(host, bytes, cuts);
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    copy(at, cut - at);
    at = cut;
  }
  copy(at, bytes - at);
}

} // namespace detail
} // namespace gpu_autopar
