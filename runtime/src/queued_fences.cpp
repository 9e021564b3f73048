#include "queued_fences.h"

#include <algorithm>

namespace gpu_autopar {
namespace detail {

queued_fences& queued_fences::global() {
  static auto* f = new queued_fences; // never destroyed: slots forget their fences at exit
  return *f;
}

void queued_fences::set(const void* slot, void* event, device& gpu, std::uint64_t loop) {
  std::lock_guard<std::mutex> lock(m_);
  used_.store(true, std::memory_order_release);
  for (fence& f : fences_)
    if (f.event == event) {
      f = {slot, event, &gpu, loop};
      return;
    }
  fences_.push_back({slot, event, &gpu, loop});
}

int queued_fences::order_after(const cuda_api& api, void* stream, std::uint64_t loop) {
  if (!used_.load(std::memory_order_acquire)) // no loop ever left work queued: every chunk of every loop asks
    return 0;
  std::lock_guard<std::mutex> lock(m_);
  int error = 0;
  for (const fence& f : fences_)
    if (f.loop < loop)
      if (const int e = api.stream_wait_event(stream, f.event); e && !error)
        error = e;
  return error;
}

void queued_fences::forget(const void* slot) {
  std::lock_guard<std::mutex> lock(m_);
  fences_.erase(std::remove_if(fences_.begin(), fences_.end(), [&](const fence& f) { return f.slot == slot; }),
                fences_.end());
}

void queued_fences::keep(std::shared_ptr<void> p) {
  std::lock_guard<std::mutex> lock(m_);
  used_.store(true, std::memory_order_release);
  kept_.push_back(std::move(p));
}

std::vector<queued_fences::failure> queued_fences::drain(const cuda_api& api) {
  std::vector<std::shared_ptr<void>> release; // let go after the lock: freeing a part drains again
  std::vector<failure> failed;
  {
    // Held while waiting: a slot that would record a new fence meanwhile
    // waits, and the events' work needs nothing of the host to end.
    std::lock_guard<std::mutex> lock(m_);
    for (const fence& f : fences_)
      if (const int e = api.event_synchronize(f.event))
        failed.push_back({f.gpu, e});
    fences_.clear();
    release.swap(kept_);
  }
  return failed;
}

} // namespace detail
} // namespace gpu_autopar
