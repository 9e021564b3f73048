#include "cuda_memory_pool.h"

#include <cstdlib>
#include <vector>

namespace gpu_autopar {
namespace detail {
namespace {

// Every live pool, for the exit handler. Never destroyed: the handler may run
// after static destructors of this library.
std::mutex& registry_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::vector<cuda_memory_pool*>& registry() {
  static auto* pools = new std::vector<cuda_memory_pool*>;
  return *pools;
}

// The runtime is never torn down at exit (workers may still hold leases), so
// its pools are emptied here. Registered at the first pool's creation, after
// the CUDA runtime initialised (a device was queried), so it runs before the
// CUDA runtime's own exit handlers.
void release_all_at_exit() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (cuda_memory_pool* p : registry())
    p->release_at_exit();
}

} // namespace

cuda_memory_pool::cuda_memory_pool(const cuda_api& api, int ordinal) : staging(api), api_(api), ordinal_(ordinal) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  static const bool registered = std::atexit(release_all_at_exit) == 0;
  (void)registered;
  registry().push_back(this);
}

cuda_memory_pool::~cuda_memory_pool() {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto& r = registry();
    for (auto it = r.begin(); it != r.end(); ++it)
      if (*it == this) {
        r.erase(it);
        break;
      }
  }
  release_at_exit();
}

void cuda_memory_pool::release_at_exit() {
  release_idle();
  staging.release_idle();
  void* word = nullptr;
  {
    std::lock_guard<std::mutex> lock(m_);
    std::swap(word, landing_word_);
  }
  if (!word)
    return;
  int previous = -1;
  if (api_.get_device(&previous) != 0)
    previous = -1;
  api_.set_device(ordinal_);
  api_.free(word);
  api_.get_last_error();
  if (previous >= 0 && previous != ordinal_)
    api_.set_device(previous);
}

int cuda_memory_pool::landing_word(void** word, bool* allocated) {
  *allocated = false;
  std::lock_guard<std::mutex> lock(m_);
  if (!landing_word_) {
    if (!api_.memset_async)
      return kCudaErrorNotSupported;
    void* p = nullptr;
    if (int e = api_.malloc(&p, sizeof(int)))
      return e;
    *allocated = true;
    if (int e = api_.memset_async(p, 1, sizeof(int), nullptr)) {
      api_.free(p);
      return e;
    }
    landing_word_ = p;
  }
  *word = landing_word_;
  return 0;
}

std::size_t cuda_memory_pool::size_class(std::size_t bytes) {
  if (bytes <= 512)
    return 512;
  std::size_t top = 1; // the largest power of two <= bytes
  while (top <= bytes / 2)
    top <<= 1;
  const std::size_t step = top / 4;
  return (bytes + step - 1) / step * step;
}

void* cuda_memory_pool::take(std::size_t bytes, std::size_t* size) {
  const std::size_t want = size_class(bytes);
  std::lock_guard<std::mutex> lock(m_);
  auto it = idle_.lower_bound(want);
  if (it == idle_.end() || it->first > 2 * want)
    return nullptr;
  void* p = it->second;
  *size = it->first;
  idle_bytes_ -= it->first;
  idle_.erase(it);
  return p;
}

void cuda_memory_pool::give_back(void* p, std::size_t size) {
  std::lock_guard<std::mutex> lock(m_);
  idle_.emplace(size, p);
  idle_bytes_ += size;
}

std::size_t cuda_memory_pool::release_idle() {
  std::multimap<std::size_t, void*> gone;
  {
    std::lock_guard<std::mutex> lock(m_);
    gone.swap(idle_);
    idle_bytes_ = 0;
  }
  if (gone.empty())
    return 0;
  int previous = -1;
  if (api_.get_device(&previous) != 0)
    previous = -1;
  api_.set_device(ordinal_);
  std::size_t freed = 0;
  for (const auto& [size, p] : gone) {
    api_.free(p); // at exit CUDA may already be unloading: nothing to do about it
    freed += size;
  }
  api_.get_last_error(); // not the next call's error
  if (previous >= 0 && previous != ordinal_)
    api_.set_device(previous);
  return freed;
}

std::size_t cuda_memory_pool::idle_bytes() const {
  std::lock_guard<std::mutex> lock(m_);
  return idle_bytes_;
}

} // namespace detail
} // namespace gpu_autopar
