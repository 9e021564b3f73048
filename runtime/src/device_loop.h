// One loop's run over leased devices: a job per slot pulls chunks from the
// loop's scheduler; a chunk that fails on a device goes back (halved on out of
// memory) and that device leaves the loop (the pool too, if its context is
// lost); the body's exception, or a fault of the same iterations on two GPUs,
// stops the loop. Whatever no device could run is returned for the CPU (or an error).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "chunk_scheduler.h"
#include "device_counters.h"
#include "lease_pool.h"

namespace gpu_autopar {
namespace detail {

struct device_stats {
  std::uint64_t iterations = 0, chunks = 0, retries = 0, failures = 0;
  double seconds = 0; // time the device spent on chunks, time model included
  device_counters counters{}; // the device's calls for this loop, failed chunks' and lease ends' included
};

struct device_failure {
  int device; // the runtime's device index
  index_range range;
  bool out_of_memory;
  bool dropped;     // the device left the loop (else the chunk was split and retried)
  bool lost;        // the device's context is lost: it left the pool for the process
  std::string what;
  bool completed = false; // the chunk's results had all come back: it was not run again
};

struct device_loop_result {
  std::vector<device_stats> stats;         // one per device of the plan, same order
  std::vector<device_failure> failures;
  std::vector<index_range> leftover;       // ranges no device ran
  std::exception_ptr error;                // the body's first exception
  // Not empty when the same iterations lost the context of two GPUs: the
  // body faults; the loop stopped and is an error (docs/runtime.md).
  std::string body_fault;
};

// Called on the calling thread while it waits, about every 100 ms, with the
// iterations done so far; may be empty.
using progress_fn = std::function<void(std::uint64_t done)>;

// Runs [0, count) on the given devices of the pool, `slots` leases each,
// under `schedule` (choose_schedule) with the clause's chunk size.
// stop_on_failure: the first device failure ends the loop (fallback(none)).
// may_leave_queued: its chunks may finish with their work still queued on
// the device (slot_context::enter_loop; queued loops in a data region).
device_loop_result run_on_devices(lease_pool& pool, const std::vector<int>& devices, int slots, loop_body& body,
                                  std::uint64_t count, const schedule_policy& schedule, std::uint64_t chunk,
                                  bool stop_on_failure, const progress_fn& progress, bool may_leave_queued = false);

// Waits `seconds` (the time model's stretch), spinning when it is too short to sleep.
void stretch_wait(double seconds);

} // namespace detail
} // namespace gpu_autopar
