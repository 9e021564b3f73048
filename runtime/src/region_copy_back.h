// Copies that bring a present section's host copy up to date from the
// devices holding its newest values (docs/runtime.md, "Data regions"):
// `update host`, a host loop over region data, a resident part given up,
// `exit data` and a region's end.
//
// A round's copies are queued on every device first and then waited for, so
// that the GPUs copy side by side. A device whose wait fails (its context
// lost while the copies ran) leaves the pool, and the bytes it was bringing
// back are not taken for the host's: they come again from the newest copies
// left, or, where only that device held them, they are lost and the error
// names them. Never the device's raw error, and never a host copy marked
// current that may hold half a copy.
#pragma once

#include <cstddef>
#include <vector>

#include "interval_set.h"

namespace gpu_autopar {
namespace detail {

struct present_entry;

class host_copies {
public:
  // Queues the copies of `range` of `m` from the devices holding its newest
  // values, under m's lock. Throws loop_error where some of it is newest
  // nowhere (region_loss.h).
  void bring(present_entry& m, byte_range range);
  // Queues the copy of `range` of `m` from device `d` (its pool index),
  // which holds its newest values, under m's lock.
  void copy_from(present_entry& m, std::size_t d, byte_range range);
  // Waits for every device the copies went to. `locked`: the caller holds
  // the lock of every entry copied to (else each is taken to repair it).
  // Throws the first loop_error of what was lost.
  void wait(bool locked);

private:
  struct issued {
    present_entry* m;
    std::size_t device;
    byte_range range;
  };
  std::vector<issued> issued_;
};

// bring() and wait() at once, under m's lock: landed when it returns.
void bring_to_host(present_entry& m, byte_range range);

} // namespace detail
} // namespace gpu_autopar
