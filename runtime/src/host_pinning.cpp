#include "host_pinning.h"

#include <algorithm>
#include <cstdint>

namespace gpu_autopar {
namespace detail {

pinned_host_ranges::pinned_host_ranges(const cuda_api* api, std::vector<std::pair<const void*, std::size_t>> ranges)
    : api_(api) {
  if (!api_ || !api_->host_register || !api_->host_unregister)
    return;
  using bounds = std::pair<std::uintptr_t, std::uintptr_t>;
  std::vector<bounds> merged;
  for (const auto& r : ranges)
    if (r.second)
      merged.emplace_back(reinterpret_cast<std::uintptr_t>(r.first), reinterpret_cast<std::uintptr_t>(r.first) + r.second);
  std::sort(merged.begin(), merged.end());
  std::vector<bounds> disjoint;
  for (const bounds& b : merged)
    if (!disjoint.empty() && b.first <= disjoint.back().second)
      disjoint.back().second = std::max(disjoint.back().second, b.second);
    else
      disjoint.push_back(b);
  for (const bounds& b : disjoint) {
    void* p = reinterpret_cast<void*>(b.first);
    if (api_->host_register(p, b.second - b.first) == 0)
      registered_.push_back(p);
    else
      api_->get_last_error(); // not a later call's error; the range stays pageable
  }
}

pinned_host_ranges::~pinned_host_ranges() {
  for (void* p : registered_)
    if (api_->host_unregister(p) != 0)
      api_->get_last_error();
}

} // namespace detail
} // namespace gpu_autopar
