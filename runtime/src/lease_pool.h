// The pool of device slots that loops lease. Each slot of a device has its own
// worker thread (the first one started with the pool, the others on first
// use), kept for the pool's life; holding a lease means being
// the job that slot's worker runs. A job posted for a device waits in the
// device's queue until one of its slots is free, so two leases never share a
// slot, and loops posted from several threads simply queue. The lease goes
// back (device synchronised, leftover memory freed) after the job returns,
// whether it ended normally or after a failure.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "device.h"

namespace gpu_autopar {
namespace detail {

// At most this many slots (and worker threads) per device, whatever slots(k) asks.
constexpr int kMaxSlotsPerDevice = 8;

class lease_job {
public:
  // Runs on the slot's worker while it holds the lease; must not throw.
  virtual void run(slot_context& lease) noexcept = 0;
  // The lease is back (or the job was never started). The last call the
  // pool makes on the job: the job's owner may destroy it from here on.
  virtual void finished() noexcept = 0;

protected:
  ~lease_job() = default;
};

class lease_pool {
public:
  explicit lease_pool(std::vector<std::unique_ptr<device>> devices);
  ~lease_pool(); // waits for running jobs, stops the workers
  lease_pool(const lease_pool&) = delete;
  lease_pool& operator=(const lease_pool&) = delete;

  int device_count() const { return int(devices_.size()); }
  device& get(int d) const { return *devices_[d]->dev; }

  // Queues `job` for one slot of device d; the device gets at least
  // min(slots, kMaxSlotsPerDevice) slots.
  void post(int d, lease_job* job, int slots);
  // Takes `job` out of device d's queue if no slot has started it; then the
  // pool will not call it again (not even finished()). False if it started.
  bool cancel(int d, lease_job* job);

  // Leases held right now (jobs running), on one device or on all.
  int leases_in_use(int d) const;
  int leases_in_use() const;
  // Slots (worker threads) a device has.
  int slot_count(int d) const;

private:
  struct device_slots {
    std::unique_ptr<device> dev;
    mutable std::mutex m;
    std::condition_variable cv;
    std::deque<lease_job*> queue;
    std::vector<std::thread> workers;
    int busy = 0;
    int opened = 0; // slots whose context is open
    bool stopping = false;
  };
  void start_worker(device_slots& s); // under s.m
  void worker_main(device_slots& s, int slot);

  std::vector<std::unique_ptr<device_slots>> devices_;
};

// The lease the calling thread holds (it is a slot worker running a job), or null.
slot_context* current_lease();

} // namespace detail
} // namespace gpu_autopar
