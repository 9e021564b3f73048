// Simulated devices (GPU_AUTOPAR_DEVICES=sim:N): separate memory, byte
// accounting against a size, a time model and fault injection, so multi-GPU
// behaviour can be tried and tested on any machine.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "device.h"
#include "runtime_config.h"

namespace gpu_autopar {
namespace detail {

// What fresh simulated-device memory is filled with: reading data that was
// never copied in gives garbage, as it would on a GPU.
constexpr unsigned char kSimPoison = 0xA5;

// The device's injected faults (runtime_config.h): 1-based chunk numbers.
struct sim_faults {
  std::vector<std::uint64_t> fail, oom, lose;
};

class sim_device final : public device {
public:
  // stretch: max speed of all simulated devices / this device's speed.
  sim_device(int id, std::uint64_t memory, double stretch, sim_faults faults, sim_link link = sim_link(),
             bool p2p = true);

  device_kind kind() const override { return device_kind::sim; }
  int id() const override { return id_; }
  std::string name() const override { return "sim" + std::to_string(id_); }
  double stretch() const override { return stretch_; }
  std::string describe() const override;
  std::unique_ptr<slot_context> open_slot(int slot) override;
  // Resident memory counts against the device's memory like a chunk's.
  void* resident_allocate(std::size_t bytes, bool* allocated) override;
  void resident_free(void* p) noexcept override;
  void resident_first_use(void* p, std::size_t bytes) override;
  void resident_to_host(void* dst, const void* src, std::size_t bytes) override;
  // Simulated devices copy from each other over their link (`p2p=off`: never).
  bool can_copy_from(device& peer) override { return p2p_ && peer.kind() == device_kind::sim && &peer != this; }

  std::uint64_t memory() const { return memory_; }
  std::uint64_t bytes_in_use() const { return used_.load(); }

private:
  friend class sim_slot;
  int id_;
  std::uint64_t memory_;
  double stretch_;
  sim_faults faults_;
  sim_link link_;
  bool p2p_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<std::uint64_t> chunks_started_{0};
  std::mutex resident_mutex_;
  std::unordered_map<void*, std::size_t> resident_;
};

} // namespace detail
} // namespace gpu_autopar
