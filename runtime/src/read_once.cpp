#include "read_once.h"

#include <gpu_autopar/compiled_loop.h>

#include "device.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {
namespace {

// The pool's device behind a lease: the copy must outlive the lease.
device* device_of(const device_context& dev) {
  const lease_pool& pool = *runtime().pool;
  for (int d = 0; d < pool.device_count(); ++d)
    if (pool.get(d).id() == dev.id() && pool.get(d).kind() == dev.kind())
      return &pool.get(d);
  return nullptr;
}

} // namespace

bool read_once(const erased_map& m) { return m.kind == map_kind::to && (m.whole || m.scale == 0); }

read_once_sections::~read_once_sections() {
  for (auto& [key, c] : copies_)
    if (c->mem)
      c->owner->resident_free(c->mem);
}

void* read_once_sections::get(device_context& dev, std::size_t k, const unsigned char* host, std::size_t bytes) {
  auto* lease = dynamic_cast<slot_context*>(&dev);
  if (!lease || bytes == 0)
    return nullptr; // a nested loop on a task's lease runs one chunk: nothing to share
  copy* c = nullptr;
  {
    std::lock_guard<std::mutex> lock(m_);
    std::unique_ptr<copy>& slot = copies_[{dev.id(), k}];
    if (!slot)
      slot = std::make_unique<copy>();
    c = slot.get();
  }
  std::lock_guard<std::mutex> lock(c->m);
  if (c->mem || c->unusable)
    return c->mem;
  device* owner = device_of(dev);
  if (!owner)
    return nullptr;
  bool allocated = false;
  try {
    c->mem = owner->resident_allocate(bytes, &allocated);
  } catch (const device_out_of_memory&) {
    c->unusable = true;
    return nullptr;
  }
  c->owner = owner;
  if (allocated)
    lease->count_allocation();
  try {
    dev.copy_to_device(c->mem, host, bytes);
    // Landed before any slot of the device reads it, not just this lease's stream.
    dev.synchronize();
  } catch (...) {
    owner->resident_free(c->mem); // the next chunk on this device tries again
    c->mem = nullptr;
    throw;
  }
  return c->mem;
}

} // namespace detail
} // namespace gpu_autopar
