// What a device did for the runtime: bytes and copies in each direction,
// allocations, kernel launches and synchronisations. One value type that the
// backends fill (a slot counts its own calls), device_loop adds up per loop
// and device, and the report renders (docs/runtime.md, "Report and log"). On
// the CUDA path each field is one CUDA runtime call the slot made, so the
// counts can be checked against the CUDA stand-in's (test/standin).
#pragma once

#include <cstdint>

namespace gpu_autopar {
namespace detail {

struct device_counters {
  std::uint64_t h2d_bytes = 0, h2d_copies = 0; // host to device
  std::uint64_t d2h_bytes = 0, d2h_copies = 0; // device to host
  std::uint64_t p2p_bytes = 0, p2p_copies = 0; // from another device, not through the host (data regions)
  std::uint64_t allocations = 0;               // successful ones
  std::uint64_t launches = 0;                  // kernel-mode chunks launched (sim: run)
  std::uint64_t synchronizations = 0;          // waits of the host for the device
  double link_seconds = 0; // simulated devices: what their link model charged for the copies
  // Of link_seconds, what the chunks waited for: the rest overlapped the
  // compute of the chunk before (sim_device.cpp). Not in the report.
  double link_wait_seconds = 0;

  void copied_in(std::uint64_t bytes) {
    h2d_bytes += bytes;
    ++h2d_copies;
  }
  void copied_out(std::uint64_t bytes) {
    d2h_bytes += bytes;
    ++d2h_copies;
  }
  void copied_from_peer(std::uint64_t bytes) {
    p2p_bytes += bytes;
    ++p2p_copies;
  }

  device_counters& operator+=(const device_counters& o) {
    h2d_bytes += o.h2d_bytes;
    h2d_copies += o.h2d_copies;
    d2h_bytes += o.d2h_bytes;
    d2h_copies += o.d2h_copies;
    p2p_bytes += o.p2p_bytes;
    p2p_copies += o.p2p_copies;
    allocations += o.allocations;
    launches += o.launches;
    synchronizations += o.synchronizations;
    link_seconds += o.link_seconds;
    link_wait_seconds += o.link_wait_seconds;
    return *this;
  }
  // What was counted since `before` (an earlier value of the same counters).
  device_counters since(const device_counters& before) const {
    device_counters d;
    d.h2d_bytes = h2d_bytes - before.h2d_bytes;
    d.h2d_copies = h2d_copies - before.h2d_copies;
    d.d2h_bytes = d2h_bytes - before.d2h_bytes;
    d.d2h_copies = d2h_copies - before.d2h_copies;
    d.p2p_bytes = p2p_bytes - before.p2p_bytes;
    d.p2p_copies = p2p_copies - before.p2p_copies;
    d.allocations = allocations - before.allocations;
    d.launches = launches - before.launches;
    d.synchronizations = synchronizations - before.synchronizations;
    d.link_seconds = link_seconds - before.link_seconds;
    d.link_wait_seconds = link_wait_seconds - before.link_wait_seconds;
    return d;
  }
};

} // namespace detail
} // namespace gpu_autopar
