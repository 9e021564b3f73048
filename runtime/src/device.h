// The runtime's devices, behind one interface: simulated devices and CUDA GPUs.
// (The CPU path is not a device: it is the host pool.)
#pragma once

#include <memory>
#include <string>

#include "gpu_autopar/loop_body.h"

namespace gpu_autopar {
namespace detail {

// One lease's view of a device: what a chunk's body uses, plus the hooks the
// runtime calls around chunks and when the lease goes back.
class slot_context : public device_context {
public:
  // Called before each chunk; may throw device_error (fault injection).
  virtual void begin_chunk() {}
  virtual void end_chunk() noexcept {}
  // Before the slot goes back to the pool: wait for the device's work and free
  // what the lease left allocated. Never throws; on failure too.
  virtual void end_lease() noexcept = 0;
};

class device {
public:
  virtual ~device() = default;
  virtual device_kind kind() const = 0;
  // Index among the runtime's devices (what device_context::id() returns).
  virtual int id() const = 0;
  // "sim0", "cuda1"; the log names devices so.
  virtual std::string name() const = 0;
  // For the debug log: the name and what the device is.
  virtual std::string describe() const { return name(); }
  // Time model: a chunk that ran t seconds is stretched to t * stretch().
  virtual double stretch() const { return 1.0; }
  // Opens one slot's context, on the slot's own worker thread (CUDA needs the
  // device current there).
  virtual std::unique_ptr<slot_context> open_slot(int slot) = 0;
};

} // namespace detail
} // namespace gpu_autopar
