#include "region_loss.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <string>

#include "device.h"
#include "present_table.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {
namespace {

struct loss {
  const present_entry* entry;
  std::size_t device; // pool index
  interval_set bytes; // of the entry's section
};

// Guards the losses. Taken with an entry's lock held, never the other way round.
std::mutex& losses_mutex() {
  static auto* m = new std::mutex; // never destroyed, as the present table
  return *m;
}
std::vector<loss>& losses() {
  static auto* l = new std::vector<loss>;
  return *l;
}

constexpr byte_range kEverything{0, std::numeric_limits<std::uint64_t>::max()};

// "b[512:256]": the elements of the section the bytes fall in, as the
// program indexes the array (OpenMP's [first:length]).
std::string elements(const present_entry& m, byte_range r) {
  const std::string& name = m.name;
  std::string array = name.substr(0, name.find('['));
  if (array.empty())
    array = "the section of " + std::to_string(m.bytes) + " bytes mapped at " + m.site.file + ":" +
            std::to_string(m.site.line);
  const std::uint64_t e = m.element ? m.element : 1;
  const long long lo = m.first + static_cast<long long>(r.begin / e);
  const long long hi = m.first + static_cast<long long>((r.end + e - 1) / e);
  return array + "[" + std::to_string(lo) + ":" + std::to_string(hi - lo) + "]";
}

std::string device_failure(std::size_t d) {
  const lease_pool* pool = runtime().pool.get();
  if (!pool || int(d) >= pool->device_count())
    return "device " + std::to_string(d);
  const device& dev = pool->get(int(d));
  return dev.name() + ", which failed (" +
         (dev.retired() ? dev.retired_why() : std::string("a chunk failed after its kernel ran")) + ")";
}

std::string listed(const std::vector<std::string>& items) {
  std::string s;
  for (std::size_t k = 0; k < items.size(); ++k)
    s += (k == 0 ? "" : k + 1 == items.size() ? " and " : ", ") + items[k];
  return s;
}

} // namespace

void drop_copy(present_entry& m, std::size_t d, byte_range r) {
  std::vector<byte_range> only_here;
  for (byte_range held : m.on[d].valid.covered(r))
    for (byte_range piece : m.host_valid.missing(held)) {
      interval_set alone;
      alone.add(piece);
      for (std::size_t k = 0; k < m.on.size(); ++k)
        if (k != d && !m.on[k].lost)
          for (byte_range elsewhere : m.on[k].valid.covered(piece))
            alone.remove(elsewhere);
      for (byte_range a : alone.covered(piece))
        only_here.push_back(a);
    }
  m.on[d].valid.remove(r);
  if (only_here.empty())
    return;
  std::lock_guard<std::mutex> lock(losses_mutex());
  auto& all = losses();
  auto it = std::find_if(all.begin(), all.end(), [&](const loss& l) { return l.entry == &m && l.device == d; });
  if (it == all.end())
    it = all.insert(all.end(), loss{&m, d, interval_set()});
  for (byte_range a : only_here)
    it->bytes.add(a);
}

void settle_retired_devices(present_entry& m) {
  const lease_pool* pool = runtime().pool.get();
  for (std::size_t d = 0; d < m.on.size(); ++d) {
    device_copy& c = m.on[d];
    if (c.lost || !pool || int(d) >= pool->device_count() || !pool->get(int(d)).retired())
      continue;
    drop_copy(m, d, m.whole());
    c.lost = true;
  }
}

void loss_repaired(const present_entry& m, byte_range r) {
  std::lock_guard<std::mutex> lock(losses_mutex());
  auto& all = losses();
  for (loss& l : all)
    if (l.entry == &m)
      l.bytes.remove(r);
  all.erase(std::remove_if(all.begin(), all.end(), [](const loss& l) { return l.bytes.empty(); }), all.end());
}

void forget_losses(const present_entry& m) {
  std::lock_guard<std::mutex> lock(losses_mutex());
  auto& all = losses();
  all.erase(std::remove_if(all.begin(), all.end(), [&](const loss& l) { return l.entry == &m; }), all.end());
}

void throw_lost(const present_entry& m, byte_range piece) {
  // Grouped by the device that lost them, in the order the losses happened;
  // the sections of each in the order they were recorded.
  std::vector<std::pair<std::size_t, std::vector<std::string>>> by_device;
  {
    std::lock_guard<std::mutex> lock(losses_mutex());
    for (const loss& l : losses()) {
      auto it = std::find_if(by_device.begin(), by_device.end(), [&](const auto& g) { return g.first == l.device; });
      if (it == by_device.end())
        it = by_device.insert(by_device.end(), {l.device, {}});
      for (byte_range r : l.bytes.covered(kEverything))
        it->second.push_back(elements(*l.entry, r));
    }
  }
  std::string what;
  for (const auto& g : by_device)
    what += (what.empty() ? "the newest values of " + listed(g.second) + " were only on "
                          : "; those of " + listed(g.second) + " only on ") +
            device_failure(g.first);
  if (what.empty()) // not recorded: say which bytes at least
    what = "the newest values of " + elements(m, piece) + " were only on a device that failed";
  throw loop_error("gpu-autopar: " + std::string(m.site.file) + ":" + std::to_string(m.site.line) +
                   ": data region: " + what + ": they are lost. A failed device loses what was written on it "
                   "since a section's last `update host`: `#pragma gpu_autopar update host(...)` points bound "
                   "that loss");
}

} // namespace detail
} // namespace gpu_autopar
