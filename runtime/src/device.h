// The runtime's devices, behind one interface: simulated devices and CUDA GPUs.
// (The CPU path is not a device: it is the host pool.)
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "device_counters.h"
#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {
namespace detail {

// One lease's view of a device: what a chunk's body uses, plus the hooks the
// runtime calls around chunks and when the lease goes back.
class device;

class slot_context : public device_context {
public:
  // Called before each chunk; may throw device_error (fault injection).
  virtual void begin_chunk() {}
  // After the body ran a chunk: waits for all the device work the chunk
  // started; throws device_error if it failed.
  virtual void finish_chunk() { synchronize(); }
  virtual void end_chunk() noexcept {}
  // The last chunk's time measured on the device itself (CUDA: events on
  // the lease's stream around the chunk's work), or a negative number where
  // it was not: the device loop then takes the host's clock. Free of the
  // host's scheduling noise (other processes, the CUDA stand-in emulating
  // kernels on the host), so devices of one kind measure alike.
  virtual double chunk_device_seconds() const { return -1; }
  // Before a loop's chunks on this lease: the loop's number (loops started
  // later have larger ones) and whether a chunk of it may finish with its
  // work still queued, the host not waiting for it (docs/runtime.md,
  // "Queued loops in a data region"): a device that cannot ignores it.
  // `timed`: the schedule sizes chunks from their measured times (adaptive);
  // a device that measures them on itself (chunk_device_seconds) does so
  // only then.
  virtual void enter_loop(std::uint64_t loop, bool may_leave_queued, bool alone_on_device, bool timed) {
    loop_ = loop;
    alone_ = alone_on_device;
    (void)may_leave_queued, (void)timed;
  }
  std::uint64_t loop() const { return loop_; }
  // Whether this lease's chunks may leave their work queued and it is its
  // loop's only lease on its device: what a chunk copies into the device's
  // part of a region need not land before the chunk goes on (no other
  // stream of the loop reads it there, and later loops are ordered after the
  // chunk's work). data_region.cpp keeps such bytes from being copied on to
  // a third device within the loop, and the parts copied from alive.
  bool queues_alone() const { return queues_ && alone_; }
  // Keeps `p` until the host has waited for what the loops left queued
  // (device::drain): a device part that this lease's queued copies read.
  virtual void keep_until_drained(std::shared_ptr<void> p) { (void)p; }
  // After a chunk failed (whatever it threw): clears what the failure left
  // on this thread (CUDA: the last error, which the next launch's check would
  // otherwise take for its own) and finds out whether the device itself is
  // lost (CUDA: a sticky error); then it retires the device. Never throws.
  virtual void after_failure() noexcept {}
  // Bytes one chunk may allocate on this lease now (free device memory), so
  // that chunks are sized to fit instead of failing; max() if unknown.
  // `sharing` is how many slots of this device the loop runs: they size
  // their chunks at the same time, some before the others have opened.
  virtual std::uint64_t memory_budget(int sharing) {
    (void)sharing;
    return std::numeric_limits<std::uint64_t>::max();
  }
  // Around a loop nested in a task-mode body on this lease: the body may have
  // made another device current; the nested loop runs on the lease's device
  // and the body's choice is restored afterwards.
  virtual int enter_nested() { return -1; }
  virtual void leave_nested(int /*token from enter_nested*/) noexcept {}
  // Queues a copy of `bytes` from `peer`'s memory at `src` to this device's
  // at `dst`, ordered like copy_to_device (only where the device's
  // can_copy_from(peer) said yes).
  virtual void copy_from_peer(void* dst, device& peer, const void* src, std::size_t bytes) {
    (void)dst, (void)peer, (void)src, (void)bytes;
    throw device_error("gpu_autopar: this device cannot copy from another device");
  }
  // Queues a copy of `bytes` within this device's memory, ordered like
  // copy_to_device; false (nothing queued) where the device cannot.
  virtual bool copy_within(void* dst, const void* src, std::size_t bytes) {
    (void)dst, (void)src, (void)bytes;
    return false;
  }
  // Host memory a chunk stages data in that its copies read or write (a
  // compare-and-copy-back section's snapshot and results, reduction
  // partials): page-locked on a CUDA GPU. Given back like device memory,
  // once the copies queued before no longer use it. nullptr: the device has
  // none to offer, the caller uses ordinary memory.
  virtual void* allocate_staging(std::size_t bytes) {
    (void)bytes;
    return nullptr;
  }
  virtual void deallocate_staging(void* p) noexcept { (void)p; }
  // Before the slot goes back to the pool: wait for the device's work and free
  // what the lease left allocated. Never throws; on failure too.
  virtual void end_lease() noexcept = 0;

  void launched() noexcept override {
    ++counted_.launches;
    queued_ = true;
  }
  // What this slot did since the last take (the counts start again at 0).
  device_counters take_counters() {
    device_counters c = counted_;
    counted_ = device_counters();
    return c;
  }
  // An allocation made for this slot's chunk outside it (a data region's
  // resident copy, which outlives the lease) still counts as this chunk's.
  void count_allocation() noexcept { ++counted_.allocations; }
  // What it did since the last take, without taking it (a nested loop's share).
  const device_counters& counters() const { return counted_; }

  // Set before each chunk from loop_body::leaves_untracked_work(): whether
  // the chunk's body may put work on the device that this context does not
  // see (task mode), so that finishing it must wait for the whole device's
  // default streams rather than only for what the lease queued.
  void expect_untracked_work(bool yes) noexcept {
    untracked_ = yes;
    lease_untracked_ = lease_untracked_ || yes;
  }

protected:
  bool untracked_work() const { return untracked_; }
  std::uint64_t loop_ = 0; // enter_loop
  bool alone_ = false;
  bool queues_ = false; // set by a backend whose chunks of this loop may leave their work queued
  bool lease_had_untracked_work() const { return lease_untracked_; }
  void lease_ended() noexcept {
    lease_untracked_ = false;
    queued_ = false;
  }
  // Work queued on the device since the host last waited for it (copies,
  // launches): synchronize() waits, and counts a wait, only when there is
  // something to wait for — what the lease queued, or a task-mode body's own
  // work, which it does not see.
  void queued() noexcept { queued_ = true; }
  bool work_queued() const { return queued_; }
  bool anything_to_wait_for() const { return queued_ || untracked_; }
  void waited() noexcept { queued_ = false; }

  device_counters counted_; // the backend counts each call it makes here

private:
  bool untracked_ = true, lease_untracked_ = false;
  bool queued_ = false;
};

class device {
public:
  virtual ~device() = default;
  virtual device_kind kind() const = 0;
  // The device's number on the node (what device_context::id() returns, and
  // its name's: sim2). Not always its index in the pool: the ranks of an MPI
  // job on one node divide its devices, and rank 1 may hold sim2 and sim3.
  virtual int id() const = 0;
  // "sim0", "cuda1"; the log names devices so.
  virtual std::string name() const = 0;
  // A CUDA GPU's ordinal (what cudaPointerGetAttributes names); -1 for others.
  virtual int cuda_ordinal() const { return -1; }
  // For the debug log: the name and what the device is.
  virtual std::string describe() const { return name(); }
  // Time model: a chunk that ran t seconds is stretched to t * stretch().
  virtual double stretch() const { return 1.0; }
  // Opens one slot's context, on the slot's own worker thread (CUDA needs the
  // device current there).
  virtual std::unique_ptr<slot_context> open_slot(int slot) = 0;

  // Memory that outlives leases: the resident copies of data regions
  // (data_region.cpp). Callable from any thread; CUDA makes its device
  // current for the call and restores the caller's. The defaults say the
  // device keeps nothing resident.
  // *allocated: whether the device allocated anew (a call the loop reports
  // as an allocation), not reused memory it kept.
  virtual void* resident_allocate(std::size_t bytes, bool* allocated) {
    (void)bytes, (void)allocated;
    throw device_error(name() + ": keeps no data resident");
  }
  virtual void resident_free(void* p) noexcept { (void)p; }
  // Called once for each part of a resident copy before a chunk first uses
  // it, outside the region's lock (a simulated device fills it with poison
  // then, so that a region pays only for the parts its devices use).
  virtual void resident_first_use(void* p, std::size_t bytes) { (void)p, (void)bytes; }
  virtual void resident_to_host(void* dst, const void* src, std::size_t bytes) {
    (void)dst, (void)src, (void)bytes;
    throw device_error(name() + ": keeps no data resident");
  }
  // The same, queued: dst holds the data once resident_wait() returned, so
  // that the copies of several devices run at once.
  virtual void resident_to_host_async(void* dst, const void* src, std::size_t bytes) {
    resident_to_host(dst, src, bytes);
  }
  virtual void resident_wait() {}
  // Waits for the work chunks on this device left queued when they finished
  // (enter_loop): before the host reads or writes data a region holds, frees
  // a resident part, or the region ends. A device whose queued work failed
  // is retired (its context is lost); never throws.
  virtual void drain() noexcept {}
  // Whether a lease on this device can copy from `peer`'s resident memory
  // directly, not through the host (slot_context::copy_from_peer): a data
  // region's halos then go device to device. No by default.
  virtual bool can_copy_from(device& peer) {
    (void)peer;
    return false;
  }

  // A device whose context is lost (a sticky CUDA error: every later call on
  // it fails) leaves the pool for the rest of the process; no loop plans it
  // again. The first reason is kept.
  void retire(const std::string& why) {
    std::lock_guard<std::mutex> lock(retired_mutex_);
    if (retired_.load())
      return;
    retired_why_ = why;
    retired_.store(true);
  }
  bool retired() const { return retired_.load(); }
  std::string retired_why() const {
    std::lock_guard<std::mutex> lock(retired_mutex_);
    return retired_why_;
  }

private:
  std::atomic<bool> retired_{false};
  mutable std::mutex retired_mutex_;
  std::string retired_why_;
};

} // namespace detail
} // namespace gpu_autopar
