#include "lease_pool.h"

#include <algorithm>
#include <cassert>

#include "timeline_handoff.h"

namespace gpu_autopar {
namespace detail {
namespace {
thread_local slot_context* t_lease = nullptr;
} // namespace

slot_context* current_lease() { return t_lease; }

lease_pool::lease_pool(std::vector<std::unique_ptr<device>> devices) {
  for (auto& d : devices) {
    devices_.push_back(std::make_unique<device_slots>());
    devices_.back()->dev = std::move(d);
  }
  // Every device's first slot opens now, all at once, and the pool is ready
  // when they all are: opened lazily by the first loop, the devices whose
  // context took longest to create (CUDA: hundreds of milliseconds each)
  // would start late and the first loop's split would favour device 0.
  for (auto& s : devices_) {
    std::lock_guard<std::mutex> lock(s->m);
    start_worker(*s);
  }
  for (auto& s : devices_) {
    std::unique_lock<std::mutex> lock(s->m);
    s->cv.wait(lock, [&] { return s->opened > 0; });
  }
}

lease_pool::~lease_pool() {
  for (auto& s : devices_) {
    {
      std::lock_guard<std::mutex> lock(s->m);
      s->stopping = true;
    }
    s->cv.notify_all();
  }
  for (auto& s : devices_) {
    for (auto& t : s->workers)
      t.join();
    // Every job ran (a worker drains its queue before it stops) and gave its lease back.
    assert(s->busy == 0 && s->queue.empty());
  }
}

void lease_pool::post(int d, lease_job* job, int slots) {
  device_slots& s = *devices_[d];
  std::lock_guard<std::mutex> lock(s.m);
  const int want = std::max(1, std::min(slots, kMaxSlotsPerDevice));
  while (int(s.workers.size()) < want)
    start_worker(s);
  handoff_publish(job, 0); // the worker starts it no earlier than now
  s.queue.push_back(job);
  s.cv.notify_one();
}

bool lease_pool::cancel(int d, lease_job* job) {
  device_slots& s = *devices_[d];
  std::lock_guard<std::mutex> lock(s.m);
  auto it = std::find(s.queue.begin(), s.queue.end(), job);
  if (it == s.queue.end())
    return false;
  s.queue.erase(it);
  return true;
}

int lease_pool::leases_in_use(int d) const {
  std::lock_guard<std::mutex> lock(devices_[d]->m);
  return devices_[d]->busy;
}

int lease_pool::leases_in_use() const {
  int n = 0;
  for (int d = 0; d < device_count(); ++d)
    n += leases_in_use(d);
  return n;
}

int lease_pool::slot_count(int d) const {
  std::lock_guard<std::mutex> lock(devices_[d]->m);
  return int(devices_[d]->workers.size());
}

void lease_pool::start_worker(device_slots& s) {
  const int slot = int(s.workers.size());
  s.workers.emplace_back([this, &s, slot] { worker_main(s, slot); });
}

void lease_pool::worker_main(device_slots& s, int slot) {
  // The slot's context lives as long as its worker; each lease ends with
  // end_lease(), so nothing of one job's memory survives into the next.
  std::unique_ptr<slot_context> ctx = s.dev->open_slot(slot);
  std::unique_lock<std::mutex> lock(s.m);
  ++s.opened;
  s.cv.notify_all();
  for (;;) {
    s.cv.wait(lock, [&] { return s.stopping || !s.queue.empty(); });
    if (s.queue.empty()) // stopping, nothing left
      return;
    lease_job* job = s.queue.front();
    s.queue.pop_front();
    ++s.busy;
    lock.unlock();
    t_lease = ctx.get();
    handoff_adopt(job, 0);
    job->run(*ctx);
    ctx->end_lease();
    handoff_publish(job, 1); // the poster waits for this
    t_lease = nullptr;
    lock.lock();
    assert(s.busy > 0);
    --s.busy;
    // Counted back before the owner hears of it: once the owner's loop
    // returns, the pool is full again.
    lock.unlock();
    job->finished();
    lock.lock();
  }
}

} // namespace detail
} // namespace gpu_autopar
