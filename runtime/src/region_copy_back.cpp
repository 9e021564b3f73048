#include "region_copy_back.h"

#include <exception>
#include <mutex>
#include <string>

#include "device.h"
#include "present_table.h"
#include "region_loss.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {
namespace {

device& pool_device(std::size_t index) { return runtime().pool->get(int(index)); }

} // namespace

void host_copies::bring(present_entry& m, byte_range range) {
  settle_retired_devices(m);
  byte_range lost{0, 0};
  for (byte_range piece : m.host_valid.missing(range)) {
    for (std::size_t d = 0; d < m.on.size() && !piece.empty(); ++d) {
      device_copy& c = m.on[d];
      if (!c.block)
        continue;
      // Bytes newest on several devices (a halo row copied between them)
      // come back once, from the first that holds them.
      try {
        for (byte_range held : c.valid.covered(piece))
          for (byte_range have : m.host_valid.missing(held))
            copy_from(m, d, have);
      } catch (const device_error& e) {
        // Failed since a loop last used it (its context lost, a chunk's fault
        // not yet seen): what it alone held newest is lost, the rest comes
        // from the others.
        pool_device(d).retire(e.what());
        settle_retired_devices(m);
      }
    }
    if (lost.empty() && !m.host_valid.contains(piece))
      lost = piece;
  }
  // Held only by a device that was lost, or whose chunk failed after its
  // kernel ran: the newest values are gone (what is left came back). Not a
  // device failure to retry elsewhere.
  if (!lost.empty())
    throw_lost(m, lost);
}

void host_copies::copy_from(present_entry& m, std::size_t d, byte_range range) {
  device_copy& c = m.on[d];
  pool_device(d).resident_to_host_async(m.host + range.begin, c.block->at(range.begin), range.size());
  issued_.push_back({&m, d, range});
  c.to_host += range.size();
  m.host_valid.add(range);
}

void host_copies::wait(bool locked) {
  std::exception_ptr lost;
  // A device that fails a round leaves the pool, and what it was bringing
  // comes in a round from the others: at most one more round per device.
  while (!issued_.empty()) {
    std::vector<issued> round;
    round.swap(issued_);
    std::vector<char> waited, failed;
    std::vector<std::string> why;
    for (const issued& i : round) {
      if (i.device >= waited.size()) {
        waited.resize(i.device + 1);
        failed.resize(i.device + 1);
        why.resize(i.device + 1);
      }
      if (waited[i.device])
        continue;
      waited[i.device] = 1;
      try {
        pool_device(i.device).resident_wait();
      } catch (const device_error& e) {
        failed[i.device] = 1;
        why[i.device] = e.what();
      }
    }
    for (std::size_t d = 0; d < failed.size(); ++d)
      if (failed[d])
        pool_device(d).retire(why[d]);
    for (const issued& i : round) {
      if (!failed[i.device])
        continue;
      std::unique_lock<std::mutex> hold;
      if (!locked)
        hold = std::unique_lock<std::mutex>(i.m->m);
      try {
        i.m->host_valid.remove(i.range); // it may hold part of the copy
        bring(*i.m, i.range);
      } catch (...) {
        if (!lost)
          lost = std::current_exception();
      }
    }
  }
  if (lost)
    std::rethrow_exception(lost);
}

void bring_to_host(present_entry& m, byte_range range) {
  host_copies copies;
  try {
    copies.bring(m, range);
  } catch (...) {
    try {
      copies.wait(true);
    } catch (...) {
    }
    throw;
  }
  copies.wait(true);
}

} // namespace detail
} // namespace gpu_autopar
