// Values a failed device took with it (docs/runtime.md, "Data regions",
// Failures). A device whose context is lost keeps nothing: what it alone
// held newest of a present section is gone, and the loops go on from the
// newest copies left (the host's, the other devices'). A chunk that failed
// after its kernel ran leaves its device's copy of what it writes stale, the
// same way. Such bytes are newest nowhere: they are recorded here, with the
// device that lost them, until new values replace them (a chunk writes them,
// `update device`); a loop that needs them, `update host` or the region's end
// throws loop_error naming every section lost.
#pragma once

#include <cstddef>
#include <vector>

#include "interval_set.h"

namespace gpu_autopar {
namespace detail {

struct present_entry;

// With the entry's lock held, for each of the functions below.
//
// Devices retired since the last call give up their copies of `m`: what only
// they held newest is recorded as lost, and they are never read again.
void settle_retired_devices(present_entry& m);
// Device `device`'s (pool index) copy of `r` is no longer newest: what it
// alone held newest there is recorded as lost.
void drop_copy(present_entry& m, std::size_t device, byte_range r);
// New values replaced these bytes: they are lost no more.
void loss_repaired(const present_entry& m, byte_range r);
// The entry leaves the table.
void forget_losses(const present_entry& m);
// Bytes `piece` of `m` are newest nowhere: throws loop_error naming every
// section lost, the devices that lost them, and that `update host` points
// bound such a loss.
[[noreturn]] void throw_lost(const present_entry& m, byte_range piece);

} // namespace detail
} // namespace gpu_autopar
