// The process-wide runtime: configuration read once from the environment, the
// devices and their lease pool, the report file. Created by the first loop.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

#include "lease_pool.h"
#include "runtime_config.h"

namespace gpu_autopar {
namespace detail {

struct runtime_state {
  runtime_config config;
  std::unique_ptr<lease_pool> pool;  // the devices the configuration selected (may be none)
  std::string no_devices_reason;     // why `pool` has no devices
  int report_fd = -1;
  int rank = -1;                     // in a multi-process job (distributor.h); -1: not in one
  std::atomic<bool> said_no_devices{false}; // the "no GPU" warning is printed once

  // True the first time (loop site, device) asks (device -1: the loop itself): a device's failures are
  // warned about once per loop, not once per failed chunk or per run of the loop.
  bool first_warning(const char* file, unsigned line, int device);

  runtime_state();
  ~runtime_state();

private:
  std::mutex warned_mutex_;
  std::set<std::tuple<std::string, unsigned, int>> warned_;
};

// Tests only (the unit tests reach runtime/src): forgets the runtime
// (devices, lease pool, report file, the environment read at the first loop)
// so the next loop reads the environment again. No loop may be running.
void reset_runtime_for_testing();
runtime_state& runtime();
// True in a child forked after the runtime started: the parent's device
// workers do not exist here.
bool in_forked_child();
// Waits for the work that finished chunks left queued on the devices
// (queued loops in a data region, docs/runtime.md): where the host reads
// or writes data a region holds, and where a region ends. Nothing to do (and
// the runtime not started) where none is queued.
void drain_queued_work() noexcept;

} // namespace detail
} // namespace gpu_autopar
