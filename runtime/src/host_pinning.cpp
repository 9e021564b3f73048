#include "host_pinning.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>

#include "cuda_backend.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {

struct registration_cache::impl {
  const cuda_api& api;
  std::size_t idle_limit;
  // One registered range (or one the CUDA runtime refused, while held).
  struct entry {
    std::uintptr_t hi;
    unsigned refs = 0;
    bool pinned = false;
    std::uint64_t last_use = 0;
  };
  mutable std::mutex m;
  std::map<std::uintptr_t, entry> ranges; // by start; disjoint
  std::size_t idle = 0, registered = 0;   // bytes
  std::uint64_t calls = 0, tick = 0;

  explicit impl(const cuda_api& a, std::size_t limit) : api(a), idle_limit(limit) {}

  void unregister(std::map<std::uintptr_t, entry>::iterator it) {
    if (it->second.pinned) {
      if (api.host_unregister(reinterpret_cast<void*>(it->first)) != 0)
        api.get_last_error();
      registered -= it->second.hi - it->first;
      if (it->second.refs == 0)
        idle -= it->second.hi - it->first;
    }
    ranges.erase(it);
  }

  // Unregisters idle ranges, the least recently used first, until at most
  // `keep` idle bytes remain.
  void evict_idle(std::size_t keep) {
    while (idle > keep) {
      auto oldest = ranges.end();
      for (auto it = ranges.begin(); it != ranges.end(); ++it)
        if (it->second.pinned && it->second.refs == 0 &&
            (oldest == ranges.end() || it->second.last_use < oldest->second.last_use))
          oldest = it;
      if (oldest == ranges.end())
        return;
      unregister(oldest);
    }
  }

  // A new held entry for [lo, hi), registered if the CUDA runtime agrees.
  void add(std::uintptr_t lo, std::uintptr_t hi, std::vector<std::uintptr_t>& held) {
    void* p = reinterpret_cast<void*>(lo);
    ++calls;
    int e = api.host_register(p, hi - lo);
    if (e == kCudaErrorMemoryAllocation && idle > 0) { // page-locked memory is short: give back what is idle
      api.get_last_error();
      evict_idle(0);
      ++calls;
      e = api.host_register(p, hi - lo);
    }
    if (e != 0)
      api.get_last_error(); // not a later call's error; the range stays pageable
    entry& n = ranges[lo];
    n.hi = hi;
    n.refs = 1;
    n.pinned = e == 0;
    n.last_use = ++tick;
    if (n.pinned)
      registered += hi - lo;
    held.push_back(lo);
  }

  // Holds every byte of [lo, hi): references the entries that cover part of
  // it, registers the gaps between them.
  void hold(std::uintptr_t lo, std::uintptr_t hi, std::vector<std::uintptr_t>& held) {
    std::uintptr_t at = lo;
    auto it = ranges.upper_bound(lo);
    if (it != ranges.begin() && std::prev(it)->second.hi > lo)
      --it;
    while (at < hi) {
      if (it == ranges.end() || it->first >= hi) {
        add(at, hi, held);
        return;
      }
      if (it->first > at)
        add(at, it->first, held);
      entry& e = it->second;
      // An idle registration whose memory was unmapped meanwhile (freed) no
      // longer describes this memory: registered again below.
      if (e.refs == 0 && ::msync(reinterpret_cast<void*>(it->first), e.hi - it->first, MS_ASYNC) != 0) {
        const std::uintptr_t start = it->first, end = e.hi;
        unregister(it);
        it = ranges.upper_bound(start);
        at = std::max(at, start);
        add(at, std::min(end, hi), held);
        at = std::min(end, hi);
        continue;
      }
      if (e.refs++ == 0 && e.pinned)
        idle -= e.hi - it->first;
      e.last_use = ++tick;
      held.push_back(it->first);
      at = e.hi;
      ++it;
    }
  }
};

registration_cache::registration_cache(const cuda_api& api, std::size_t idle_limit) : s_(new impl(api, idle_limit)) {}

registration_cache::~registration_cache() {
  release_all();
  delete s_;
}

namespace {

std::size_t page_size() {
  static const std::size_t p = std::size_t(::sysconf(_SC_PAGESIZE) > 0 ? ::sysconf(_SC_PAGESIZE) : 4096);
  return p;
}

// Idle registered memory kept for later loops: a quarter of the machine's.
std::size_t default_idle_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  return pages > 0 ? std::size_t(pages) * page_size() / 4 : std::size_t(1) << 30;
}

registration_cache* g_cache = nullptr; // never destroyed: released by the exit handler
std::mutex g_cache_mutex;

// Registered at the cache's creation, after the CUDA runtime initialised (a
// device was queried), so it runs before the CUDA runtime's own exit handlers.
void release_at_exit() {
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  if (g_cache)
    g_cache->release_all();
}

} // namespace

registration_cache* registration_cache::global() {
  const cuda_api* api = registered_cuda_api();
  if (!api || !api->host_register || !api->host_unregister)
    return nullptr;
  std::lock_guard<std::mutex> lock(g_cache_mutex);
  if (!g_cache) {
    g_cache = new registration_cache(*api, runtime().config.pin_once ? default_idle_limit() : 0);
    std::atexit(release_at_exit);
  }
  return g_cache;
}

pin_hold registration_cache::hold(std::vector<std::pair<const void*, std::size_t>> ranges) {
  using bounds = std::pair<std::uintptr_t, std::uintptr_t>;
  const std::uintptr_t page = page_size();
  std::vector<bounds> merged;
  for (const auto& r : ranges)
    if (r.second) {
      // Whole pages: the driver locks pages, and two arrays sharing one must
      // not be registered twice.
      const auto lo = reinterpret_cast<std::uintptr_t>(r.first);
      merged.emplace_back(lo / page * page, (lo + r.second + page - 1) / page * page);
    }
  std::sort(merged.begin(), merged.end());
  std::vector<bounds> disjoint;
  for (const bounds& b : merged)
    if (!disjoint.empty() && b.first <= disjoint.back().second)
      disjoint.back().second = std::max(disjoint.back().second, b.second);
    else
      disjoint.push_back(b);
  pin_hold h;
  h.cache_ = this;
  std::lock_guard<std::mutex> lock(s_->m);
  for (const bounds& b : disjoint)
    s_->hold(b.first, b.second, h.held_);
  return h;
}

void registration_cache::drop(const std::vector<std::uintptr_t>& held) noexcept {
  std::lock_guard<std::mutex> lock(s_->m);
  for (std::uintptr_t lo : held) {
    auto it = s_->ranges.find(lo);
    if (it == s_->ranges.end() || it->second.refs == 0)
      continue; // released at exit meanwhile
    if (--it->second.refs > 0)
      continue;
    if (!it->second.pinned) {
      s_->ranges.erase(it); // refused: a later use asks again
      continue;
    }
    s_->idle += it->second.hi - it->first;
  }
  s_->evict_idle(s_->idle_limit);
}

void registration_cache::release_all() noexcept {
  std::lock_guard<std::mutex> lock(s_->m);
  while (!s_->ranges.empty())
    s_->unregister(s_->ranges.begin());
  s_->idle = 0;
}

std::uint64_t registration_cache::registrations() const {
  std::lock_guard<std::mutex> lock(s_->m);
  return s_->calls;
}

std::size_t registration_cache::registered_bytes() const {
  std::lock_guard<std::mutex> lock(s_->m);
  return s_->registered;
}

void registration_cache::boundaries(const void* p, std::size_t n, std::vector<std::size_t>& out) const {
  const auto lo = reinterpret_cast<std::uintptr_t>(p), hi = lo + n;
  std::lock_guard<std::mutex> lock(s_->m);
  auto it = s_->ranges.upper_bound(lo);
  if (it != s_->ranges.begin() && std::prev(it)->second.hi > lo && std::prev(it)->second.hi < hi)
    out.push_back(std::prev(it)->second.hi - lo); // the range holding p ends inside
  for (; it != s_->ranges.end() && it->first < hi; ++it) {
    if (out.empty() || out.back() != it->first - lo)
      out.push_back(it->first - lo);
    if (it->second.hi < hi)
      out.push_back(it->second.hi - lo);
  }
}

std::size_t registration_cache::idle_bytes() const {
  std::lock_guard<std::mutex> lock(s_->m);
  return s_->idle;
}

pin_hold& pin_hold::operator=(pin_hold&& o) noexcept {
  if (this != &o) {
    release();
    cache_ = o.cache_;
    held_ = std::move(o.held_);
    o.cache_ = nullptr;
  }
  return *this;
}

void pin_hold::release() noexcept {
  if (cache_ && !held_.empty())
    cache_->drop(held_);
  held_.clear();
  cache_ = nullptr;
}

} // namespace detail
} // namespace gpu_autopar
