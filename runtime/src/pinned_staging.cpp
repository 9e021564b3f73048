#include "pinned_staging.h"

#include <cstdlib>

#include "cuda_memory_pool.h"

namespace gpu_autopar {
namespace detail {
namespace {

// Idle staging kept per GPU beyond which a buffer given back is freed.
constexpr std::size_t kIdleLimit = std::size_t(256) << 20;
constexpr std::size_t kAlign = 4096;

} // namespace

pinned_staging::pinned_staging(const cuda_api& api) : api_(api) {}

pinned_staging::~pinned_staging() { release_idle(); }

void* pinned_staging::take(std::size_t bytes, std::size_t* size) {
  const std::size_t want = (cuda_memory_pool::size_class(bytes) + kAlign - 1) / kAlign * kAlign;
  {
    std::lock_guard<std::mutex> lock(m_);
    auto it = idle_.lower_bound(want);
    if (it != idle_.end() && it->first <= 2 * want) {
      void* p = it->second;
      *size = it->first;
      idle_bytes_ -= it->first;
      idle_.erase(it);
      return p;
    }
  }
  if (!api_.host_register || !api_.host_unregister)
    return nullptr;
  void* p = std::aligned_alloc(kAlign, want);
  if (!p)
    return nullptr;
  if (api_.host_register(p, want) != 0) {
    api_.get_last_error(); // not a later call's error
    std::free(p);
    return nullptr;
  }
  *size = want;
  return p;
}

void pinned_staging::give_back(void* p, std::size_t size) {
  {
    std::lock_guard<std::mutex> lock(m_);
    if (idle_bytes_ + size <= kIdleLimit) {
      idle_.emplace(size, p);
      idle_bytes_ += size;
      return;
    }
  }
  api_.host_unregister(p);
  std::free(p);
}

void pinned_staging::release_idle() {
  std::multimap<std::size_t, void*> gone;
  {
    std::lock_guard<std::mutex> lock(m_);
    gone.swap(idle_);
    idle_bytes_ = 0;
  }
  for (const auto& b : gone) {
    if (api_.host_unregister(b.second) != 0)
      api_.get_last_error();
    std::free(b.second);
  }
}

} // namespace detail
} // namespace gpu_autopar
