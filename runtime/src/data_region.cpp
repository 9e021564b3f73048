// The data environment (gpu_autopar/data_region.h, docs/runtime.md): the
// table of present sections with their structured and dynamic reference
// counts, which copy of each byte of a present section is up to date — the
// host's and each device's resident copy — and the copies that keep chunks
// and the host supplied.
//
// The model, per present section: `host_valid` and each device's `valid` are
// sets of byte ranges that hold the newest values; every byte is newest in
// at least one place. A chunk that writes bytes makes its device the only
// place where they are newest; a chunk that reads bytes its device does not
// hold copies them in from the host, after bringing them to the host from
// the device that holds them (a Jacobi sweep's halo rows). Nothing is copied
// when a section becomes present: each device copies what its chunks use,
// once. Present sections never overlap one another: a section mapped again
// lies inside one (it only adds a reference) or the mapping is an error.
#include "gpu_autopar/data_region.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.h"
#include "distributor.h"
#include "interval_set.h"
#include "loop_report.h"
#include "present_table.h"
#include "region_copy_back.h"
#include "region_loss.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {

std::mutex& table_mutex() {
  static auto* m = new std::mutex; // never destroyed: see table()
  return *m;
}
// Never destroyed: data entered and not exited outlives the devices at
// program end, and must not be copied back or freed then (but see below).
std::vector<std::unique_ptr<present_entry>>& table() {
  static auto* t = new std::vector<std::unique_ptr<present_entry>>;
  return *t;
}

namespace {

// At exit, the GPUs' copies of data entered and never exited go back to their
// pools. Registered (atexit) at the first section present on CUDA GPUs, after
// the pools' own handler, so it runs first, and the pools free the memory.
void free_present_at_exit() {
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& e : table()) {
    std::lock_guard<std::mutex> entry_lock(e->m);
    for (device_copy& c : e->on)
      c.block.reset();
  }
}

std::atomic<int> g_live{0}; // present sections

std::string where(const loop_site& site) { return std::string(site.file) + ":" + std::to_string(site.line); }

// Where [p, p + n) meets a present section: the section and the byte range
// of it, relative to its start.
struct overlap {
  present_entry* entry;
  byte_range range;
  bool whole_chunk; // the section holds all of [p, p + n)
};

std::vector<overlap> overlaps(const void* p, std::size_t n) {
  std::vector<overlap> out;
  const auto* b = static_cast<const unsigned char*>(p);
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& e : table()) {
    const unsigned char* lo = std::max(b, static_cast<const unsigned char*>(e->host));
    const unsigned char* hi = std::min(b + n, static_cast<const unsigned char*>(e->host) + e->bytes);
    if (lo < hi)
      out.push_back({e.get(), {std::uint64_t(lo - e->host), std::uint64_t(hi - e->host)}, lo == b && hi == b + n});
  }
  return out;
}

device& pool_device(int index) { return runtime().pool->get(index); }

// The device's index in this process's pool, which m.on is indexed by. Not
// its id(): under MPI the ranks of a node divide its devices, and rank 1's
// pool holds sim2 and sim3 (ids that name them on the node) at indices 0, 1.
std::size_t pool_index(const device_context& dev) {
  const lease_pool& pool = *runtime().pool;
  for (int d = 0; d < pool.device_count(); ++d)
    if (pool.get(d).id() == dev.id())
      return std::size_t(d);
  throw std::logic_error("gpu-autopar: data region: device " + std::to_string(dev.id()) + " is not in the pool");
}

void ensure_devices(present_entry& m) {
  const int n = runtime().pool ? runtime().pool->device_count() : 0;
  if (int(m.on.size()) < n)
    m.on.resize(std::size_t(n));
}

void host_wrote(present_entry& m, byte_range range) {
  loss_repaired(m, range);
  m.host_valid.add(range);
  for (device_copy& c : m.on)
    c.valid.remove(range);
}

void sync_host(const void* p, std::size_t n) {
  for (overlap& o : overlaps(p, n)) {
    std::lock_guard<std::mutex> lock(o.entry->m);
    bring_to_host(*o.entry, o.range);
  }
}

// The part of `m` a device's copy should hold for a chunk that uses `r`.
// At the first use, `r` and a sixteenth of it more on each side: the next
// loop over the same rows usually reads or writes a little around them (a
// stencil's halo rows, which its first loop only wrote), and the part should
// not have to grow for that. When it grows to bytes next to or overlapping
// it, the part it held and `r`, and from the second time on at least half as
// much again, towards the side the chunks moved to, so that chunks that move
// a little at a time make it grow a few times, not at each. Bytes apart from
// it (a schedule that deals each device pieces all over the loop:
// schedule(static, c), dynamic) make it the whole section at once, as the
// device's chunks will come from all over it. Always whole 256-byte blocks of the
// section, so that every element lies as aligned on the device as on the host.
byte_range part_to_hold(const present_entry& m, const device_copy& c, byte_range r) {
  byte_range want;
  if (!c.block) {
    const std::uint64_t margin = r.size() / 16;
    want = {r.begin > margin ? r.begin - margin : 0, std::min<std::uint64_t>(m.bytes, r.end + margin)};
  } else {
    const byte_range was = c.block->window;
    want = {std::min(was.begin, r.begin), std::max(was.end, r.end)};
    const std::uint64_t least = was.size() + was.size() / 2;
    if (r.end < was.begin || r.begin > was.end)
      want = m.whole();
    else if (c.grows > 0 && want.size() < least) {
      if (r.end > was.end)
        want.end = std::min<std::uint64_t>(m.bytes, want.begin + least);
      else
        want.begin = want.end > least ? want.end - least : 0;
    }
  }
  constexpr std::uint64_t kAlign = 256;
  want.begin -= want.begin % kAlign;
  want.end = std::min<std::uint64_t>(m.bytes, (want.end + kAlign - 1) / kAlign * kAlign);
  return want;
}

// Lets go of device d's part of `m`: what only it holds newest goes to the
// host first. Under the entry's lock, with no chunk of the device using the
// part (freed once no copy from it to another device is under way).
void give_up_part(present_entry& m, std::size_t d) {
  device_copy& c = m.on[d];
  host_copies copies;
  for (byte_range held : c.valid.covered(c.block->window))
    for (byte_range have : m.host_valid.missing(held))
      copies.copy_from(m, d, have);
  copies.wait(true);
  c.valid.remove(c.block->window);
  c.used = interval_set();
  c.block.reset();
}

// Device d's part of `m` grows to hold `r` too: a larger allocation, into
// which the device copies what it held (nothing crosses the host). Where
// that cannot be (no room for both at once, a device that cannot copy
// within itself), the part is given up and allocated anew. Under the entry's
// lock, with no chunk of the device using the part.
void grow_part(present_entry& m, std::size_t d, device_context& dev, byte_range r) {
  device_copy& c = m.on[d];
  const byte_range want = part_to_hold(m, c, r);
  auto* lease = dynamic_cast<slot_context*>(&dev);
  std::shared_ptr<resident_block> grown;
  try {
    grown = std::make_shared<resident_block>(pool_device(int(d)), want);
  } catch (const device_out_of_memory&) {
  }
  const byte_range was = c.block->window;
  if (grown && lease && lease->copy_within(grown->at(was.begin), c.block->mem, was.size())) {
    lease->synchronize(); // before another device copies from the new part
    if (grown->allocated)
      lease->count_allocation();
    c.block = std::move(grown);
  } else {
    grown.reset();
    give_up_part(m, d);
    c.block = std::make_shared<resident_block>(pool_device(int(d)), want); // out of memory: the caller's
    if (lease && c.block->allocated)
      lease->count_allocation();
  }
  ++c.grows;
  c.held = std::max<std::uint64_t>(c.held, c.block->window.size());
}

// "'b[0:n]'", or the size where the program's name is not known.
std::string described(const char* name, std::uint64_t bytes) {
  return name && *name ? "'" + std::string(name) + "'" : "a section of " + std::to_string(bytes) + " bytes";
}

} // namespace

resident_block::resident_block(device& d, byte_range w)
    : owner(&d), window(w) {
  // In the body: `allocated` is initialised after `mem`, and would undo what the call set.
  mem = static_cast<unsigned char*>(d.resident_allocate(w.size(), &allocated));
}

resident_block::~resident_block() { owner->resident_free(mem); }

presence lookup(const region_section& s, present_entry** found) {
  const auto* p = static_cast<const unsigned char*>(s.host);
  for (const auto& e : table())
    if (p < e->host + e->bytes && e->host < p + s.bytes) {
      *found = e.get();
      return p >= e->host && p + s.bytes <= e->host + e->bytes ? presence::inside : presence::partly;
    }
  *found = nullptr;
  return presence::absent;
}

void require_not_partly_present(const loop_site& site, const char* construct, const region_section& s) {
  present_entry* e = nullptr;
  if (s.bytes == 0 || lookup(s, &e) != presence::partly)
    return;
  throw std::invalid_argument("gpu-autopar: " + where(site) + ": " + construct + " maps " +
                              described(s.name, s.bytes) + ", which is only partly present: it overlaps " +
                              described(e->name.empty() ? nullptr : e->name.c_str(), e->bytes) + ", mapped at " +
                              where(e->site) + ", without lying inside it (OpenMP: a section mapped while "
                              "present must lie within the present one)");
}

present_entry* make_present(const loop_site& site, const region_section& s) {
  auto e = std::make_unique<present_entry>();
  e->site = site;
  e->name = s.name ? s.name : "";
  e->host = static_cast<unsigned char*>(const_cast<void*>(s.host));
  e->bytes = s.bytes;
  e->element = s.element;
  e->first = s.first;
  e->host_valid.add(e->whole()); // the host holds every value when a section becomes present
  if (const lease_pool* pool = runtime().pool.get(); pool && pool->device_count() > 0 &&
                                                     pool->get(0).kind() == device_kind::cuda) {
    static const bool freed_at_exit = std::atexit(free_present_at_exit) == 0;
    (void)freed_at_exit;
    if (registration_cache* cache = registration_cache::global())
      e->pinned = cache->hold({{e->host, std::size_t(e->bytes)}});
  }
  table().push_back(std::move(e));
  g_live.fetch_add(1, std::memory_order_release);
  return table().back().get();
}

std::unique_ptr<present_entry> detach(present_entry* e) {
  // Only a section nothing references leaves the table, and only once.
  assert(e->structured == 0 && e->dynamic == 0);
  auto& t = table();
  auto it = std::find_if(t.begin(), t.end(), [&](const auto& x) { return x.get() == e; });
  assert(it != t.end());
  std::unique_ptr<present_entry> out = std::move(*it);
  t.erase(it); // its losses stay recorded until leave() copied it back: its error names them
  g_live.fetch_sub(1, std::memory_order_release);
  return out;
}

void leave(const std::vector<std::unique_ptr<present_entry>>& left,
           const std::vector<std::vector<byte_range>>& copy_back, std::exception_ptr& error) {
  // Every section's copies to the host are queued on every device first,
  // then waited for: the GPUs copy side by side.
  host_copies copies;
  for (std::size_t k = 0; k < left.size(); ++k) {
    std::lock_guard<std::mutex> lock(left[k]->m);
    for (byte_range r : copy_back[k]) {
      try {
        copies.bring(*left[k], r);
      } catch (...) {
        if (!error)
          error = std::current_exception();
      }
    }
  }
  try {
    copies.wait(false);
  } catch (...) {
    if (!error)
      error = std::current_exception();
  }
  for (const auto& e : left) {
    std::lock_guard<std::mutex> lock(e->m);
    for (device_copy& c : e->on)
      c.block.reset(); // freed now, or by the last chunk still holding it
    forget_losses(*e);
  }
}

void unmap_across_ranks(const std::vector<leaving_entry>& leaving, bool unwinding, std::exception_ptr& error) {
  distributor* d = installed_distributor();
  if (!d || runtime().rank < 0)
    return;
  for (const leaving_entry& l : leaving) {
    try {
      const std::uint64_t received =
          d->section_unmapped(l.entry->host, std::size_t(l.entry->bytes), !unwinding && !l.copy_back.empty());
      std::lock_guard<std::mutex> lock(l.entry->m);
      l.entry->from_ranks += received;
    } catch (...) {
      if (!error)
        error = std::current_exception();
    }
  }
}

std::vector<std::unique_ptr<present_entry>> detach_unreferenced(const std::vector<leaving_entry>& leaving,
                                                                std::vector<std::vector<byte_range>>& copy_back) {
  std::vector<std::unique_ptr<present_entry>> left;
  for (const leaving_entry& l : leaving)
    if (l.entry->structured == 0 && l.entry->dynamic == 0) {
      left.push_back(detach(l.entry));
      copy_back.push_back(l.copy_back);
    }
  return left;
}

void report_left(const loop_site& site, const std::vector<std::unique_ptr<present_entry>>& left) {
  runtime_state& rt = runtime();
  if (rt.report_fd < 0)
    return;
  std::uint64_t in = 0, out = 0, between = 0, from_ranks = 0;
  for (const auto& m : left)
    from_ranks += m->from_ranks; // detached: no other thread sees it
  std::string devices;
  const int n = rt.pool ? rt.pool->device_count() : 0;
  for (int d = 0; d < n; ++d) {
    std::uint64_t di = 0, dout = 0, dpeer = 0, held = 0;
    for (const auto& m : left)
      if (std::size_t(d) < m->on.size()) {
        di += m->on[d].to_device;
        dout += m->on[d].to_host;
        dpeer += m->on[d].from_peers;
        held += m->on[d].held;
      }
    in += di;
    out += dout;
    between += dpeer;
    if (di || dout || dpeer || held)
      devices += std::string(devices.empty() ? "" : ",") + "{\"device\":\"" + rt.pool->get(d).name() +
                 "\",\"bytes_to_device\":" + std::to_string(di) + ",\"bytes_to_host\":" + std::to_string(dout) +
                 ",\"bytes_from_devices\":" + std::to_string(dpeer) + ",\"bytes_held\":" + std::to_string(held) +
                 "}";
  }
  write_report_line(rt, "{\"region\":\"" + json_escape(where(site)) + "\"" +
                            (rt.rank >= 0 ? ",\"rank\":" + std::to_string(rt.rank) : std::string()) +
                            (rt.rank >= 0 ? ",\"bytes_from_ranks\":" + std::to_string(from_ranks) : std::string()) +
                            ",\"bytes_to_devices\":" +
                            std::to_string(in) + ",\"bytes_to_host\":" + std::to_string(out) +
                            ",\"bytes_between_devices\":" + std::to_string(between) + ",\"devices\":[" +
                            devices + "]}\n");
}

void require_not_partly_present(const loop_site& site, const region_section& s) {
  std::lock_guard<std::mutex> lock(table_mutex());
  require_not_partly_present(site, "the loop", s);
}

long long present_elements(const void* p, std::size_t element_bytes) {
  if (!regions_live() || element_bytes == 0)
    return 0;
  const auto* b = static_cast<const unsigned char*>(p);
  std::lock_guard<std::mutex> lock(table_mutex());
  for (const auto& e : table())
    if (b >= e->host && b < e->host + e->bytes)
      return static_cast<long long>(std::uint64_t(e->host + e->bytes - b) / element_bytes);
  return 0;
}

std::size_t checked_section_bytes(long long lo, long long len, std::size_t element) {
  if (lo < 0 || len < 0)
    throw std::invalid_argument("gpu-autopar: data region section [" + std::to_string(lo) + ":" +
                                std::to_string(len) + "] has a negative start or length");
  return std::size_t(len) * element;
}

bool regions_live() { return g_live.load(std::memory_order_acquire) > 0; }

bool region_section_of(const void* host, std::size_t bytes, region_section* section) {
  if (!regions_live() || bytes == 0)
    return false;
  std::vector<overlap> found = overlaps(host, bytes);
  if (found.size() != 1 || !found.front().whole_chunk)
    return false;
  const present_entry& e = *found.front().entry;
  // The kind is not the entry's (several constructs may count on it); the
  // callers ask where the section lies only.
  *section = {map_kind::tofrom, e.host, std::size_t(e.bytes)};
  return true;
}

bool region_host_newest(const void* host, std::size_t bytes) {
  if (!regions_live() || bytes == 0)
    return true;
  for (const overlap& o : overlaps(host, bytes)) {
    std::lock_guard<std::mutex> lock(o.entry->m);
    if (!o.entry->host_valid.contains(o.range))
      return false;
  }
  return true;
}

resident_use region_prepare(device_context& dev, const void* host, std::size_t bytes, bool read, bool write,
                            bool exclusive_write) {
  if (!regions_live() || bytes == 0)
    return {};
  std::vector<overlap> found = overlaps(host, bytes);
  if (found.empty())
    return {};
  overlap& o = found.front();
  present_entry& m = *o.entry;
  const bool resident = found.size() == 1 && o.whole_chunk && (!write || exclusive_write) &&
                        dev.kind() != device_kind::cpu;
  if (!resident) {
    sync_host(host, bytes);
    return {residency::through_host, nullptr, nullptr};
  }
  std::unique_lock<std::mutex> lock(m.m);
  ensure_devices(m); // sized once, to the pool: `c` stays where it is
  settle_retired_devices(m);
  const std::size_t me = pool_index(dev);
  device_copy& c = m.on[me];
  // The device holds part of the section; this chunk's bytes lie outside it
  // (a loop over another range, a chunk cut to fit): the part grows, unless
  // another chunk of the device uses it now (slots(n): from its
  // region_prepare until it ends), whose kernel may be writing it: this chunk
  // then copies as outside a region.
  try {
    if (c.block && !c.unusable && (o.range.begin < c.block->window.begin || o.range.end > c.block->window.end)) {
      if (c.block->chunks.load() > 0 || c.preparing > 0) {
        bring_to_host(m, o.range);
        return {residency::through_host, nullptr, nullptr};
      }
      grow_part(m, me, dev, o.range);
    }
    if (!c.block && !c.unusable) {
      c.block = std::make_shared<resident_block>(pool_device(int(me)), part_to_hold(m, c, o.range));
      c.held = std::max<std::uint64_t>(c.held, c.block->window.size());
      if (auto* slot = dynamic_cast<slot_context*>(&dev); slot && c.block->allocated)
        slot->count_allocation();
    }
  } catch (const device_out_of_memory&) {
    c.unusable = true; // this device's chunks copy their sections as outside a region
  }
  if (c.unusable) {
    bring_to_host(m, o.range);
    return {residency::through_host, nullptr, nullptr};
  }
  // In use from here: no other chunk of the device makes it grow under this
  // one (until the chunk lets go of `hold`, when its map_slice goes).
  const std::shared_ptr<resident_block> block = c.block;
  block->chunks.fetch_add(1);
  std::shared_ptr<void> hold(block.get(), [block](void*) { block->chunks.fetch_sub(1); });
  // The parts of the copy this chunk uses for the first time are prepared
  // without the region's lock, so that devices starting a region do that side
  // by side. Another slot of the same device (slots(n) in a region) waits
  // until they are ready before it copies into them.
  if (std::vector<byte_range> fresh = c.used.missing(o.range); !fresh.empty()) {
    for (byte_range piece : fresh)
      c.used.add(piece);
    ++c.preparing;
    lock.unlock();
    for (byte_range piece : fresh)
      pool_device(int(me)).resident_first_use(block->at(piece.begin), piece.size());
    lock.lock();
    assert(c.preparing > 0);
    --c.preparing;
    m.prepared.notify_all();
  }
  m.prepared.wait(lock, [&] { return c.preparing == 0; });
  if (read) {
    bool copied = false;
    // The parts of other devices copied from, kept until the copies landed.
    std::vector<std::shared_ptr<resident_block>> sources;
    // A lease that queues alone does not wait for what it copies in: those
    // bytes are landing (no source for another device in this loop).
    auto* lease = dynamic_cast<slot_context*>(&dev);
    const bool queued = lease && lease->queues_alone();
    const std::uint64_t loop = lease ? lease->loop() : 0;
    std::vector<byte_range> landing;
    // What the host does not hold up to date comes straight from a device
    // that does, where the two can copy between them (a halo row from the
    // neighbour's chunk): one copy instead of two, and none over the host.
    if (lease)
      for (byte_range piece : c.valid.missing(o.range))
        for (byte_range stale : m.host_valid.missing(piece))
          for (std::size_t d = 0; d < m.on.size(); ++d) {
            device_copy& peer = m.on[d];
            if (d == me || !peer.block || peer.lost || !pool_device(int(me)).can_copy_from(pool_device(int(d))))
              continue;
            for (byte_range held : peer.valid.covered(stale))
              for (byte_range have : peer.landing_loop == loop && loop ? peer.landing.missing(held)
                                                                        : std::vector<byte_range>{held}) {
                if (c.valid.contains(have))
                  continue;
                lease->copy_from_peer(block->at(have.begin), pool_device(int(d)), peer.block->at(have.begin),
                                      have.size());
                sources.push_back(peer.block);
                c.from_peers += have.size();
                c.valid.add(have);
                landing.push_back(have);
                copied = true;
              }
          }
    for (byte_range piece : c.valid.missing(o.range)) {
      bring_to_host(m, piece);
      dev.copy_to_device(block->at(piece.begin), m.host + piece.begin, piece.size());
      c.to_device += piece.size();
      c.valid.add(piece);
      landing.push_back(piece);
      copied = true;
    }
    if (copied && queued) {
      if (c.landing_loop != loop) {
        c.landing = interval_set();
        c.landing_loop = loop;
      }
      for (byte_range r : landing)
        c.landing.add(r);
      for (auto& s : sources) // the copies read them after this returns
        lease->keep_until_drained(std::move(s));
      copied = false; // no wait: later loops wait for this chunk's fence
    }
    // Valid for every slot of the device once it has landed, not just for
    // this lease's stream: another slot's kernel may read these bytes next,
    // so the device's other slots wait until then. Waited for without the
    // region's lock: the other GPUs copy their parts meanwhile.
    if (copied) {
      ++c.preparing;
      lock.unlock();
      struct landed {
        std::unique_lock<std::mutex>& lock;
        present_entry& m;
        device_copy& c;
        ~landed() {
          lock.lock();
          --c.preparing;
          m.prepared.notify_all();
        }
      } guard{lock, m, c};
      dev.synchronize();
    }
  }
  return {residency::resident, block->at(o.range.begin), std::move(hold)};
}

void region_written(device_context& dev, const void* host, std::size_t bytes, residency how) noexcept {
  if (how == residency::none || bytes == 0)
    return;
  if (how == residency::through_host) {
    region_host_written(host, bytes);
    return;
  }
  const std::size_t d = pool_index(dev);
  for (overlap& o : overlaps(host, bytes)) {
    std::lock_guard<std::mutex> lock(o.entry->m);
    present_entry& m = *o.entry;
    ensure_devices(m);
    loss_repaired(m, o.range);
    for (std::size_t k = 0; k < m.on.size(); ++k)
      if (k != d)
        m.on[k].valid.remove(o.range);
    m.host_valid.remove(o.range);
    m.on[d].valid.add(o.range);
  }
}

void region_chunk_failed(device_context& dev, const void* host, std::size_t bytes) noexcept {
  const std::size_t d = pool_index(dev);
  for (overlap& o : overlaps(host, bytes)) {
    std::lock_guard<std::mutex> lock(o.entry->m);
    present_entry& m = *o.entry;
    if (d >= m.on.size())
      continue;
    // What only this copy held newest is lost (unless a retry writes it anew).
    drop_copy(m, d, o.range);
  }
}

void region_host_sync(const void* host, std::size_t bytes) {
  if (regions_live() && bytes) {
    drain_queued_work();
    sync_host(host, bytes);
  }
}

void region_host_written(const void* host, std::size_t bytes) noexcept {
  if (!regions_live() || !bytes)
    return;
  drain_queued_work(); // a chunk left queued may still read the device's copy of what the host now says is newer
  for (overlap& o : overlaps(host, bytes)) {
    std::lock_guard<std::mutex> lock(o.entry->m);
    host_wrote(*o.entry, o.range);
  }
}

} // namespace detail

namespace {
// A region's references: the present section each of its maps counts on,
// with the map's kind and the part of the section it names.
struct region_hold {
  detail::present_entry* entry;
  map_kind kind;
  detail::byte_range named;
};
struct region_state {
  loop_site site;
  std::vector<region_hold> held;
};
} // namespace

data_region::data_region(const loop_site& site, std::initializer_list<region_section> sections)
    : state_(nullptr), exceptions_at_start_(std::uncaught_exceptions()) {
  using namespace detail;
  auto r = std::make_unique<region_state>();
  r->site = site;
  for (const region_section* s = sections.begin(); s != sections.end(); ++s)
    for (const region_section* t = sections.begin(); t != s; ++t)
      if (s->bytes && t->bytes && static_cast<const unsigned char*>(s->host) < static_cast<const unsigned char*>(t->host) + t->bytes &&
          static_cast<const unsigned char*>(t->host) < static_cast<const unsigned char*>(s->host) + s->bytes)
        throw std::invalid_argument("gpu-autopar: " + where(site) + ": data region maps overlapping sections");
  std::lock_guard<std::mutex> lock(table_mutex());
  // Checked before any count changes, so that a refused region leaves the
  // table as it was.
  for (const region_section& s : sections)
    require_not_partly_present(site, "data region", s);
  for (const region_section& s : sections) {
    if (s.bytes == 0)
      continue; // a zero-length section maps nothing
    present_entry* e = nullptr;
    if (lookup(s, &e) == presence::absent)
      e = make_present(site, s);
    ++e->structured;
    const std::uint64_t at = std::uint64_t(static_cast<const unsigned char*>(s.host) - e->host);
    r->held.push_back({e, s.kind, {at, at + s.bytes}});
  }
  state_ = r.release();
}

data_region::~data_region() noexcept(false) {
  using namespace detail;
  std::unique_ptr<region_state> r(static_cast<region_state*>(state_));
  // What the region's loops left queued ends here; a GPU whose work failed
  // is retired, and what only it held is reported lost below.
  drain_queued_work();
  std::vector<leaving_entry> leaving;
  {
    std::lock_guard<std::mutex> lock(table_mutex());
    for (const region_hold& h : r->held) {
      assert(h.entry->structured > 0); // the region's own reference, taken when it began
      if (--h.entry->structured == 0 && h.entry->dynamic == 0) {
        leaving.push_back({h.entry, {}});
        if (h.kind == map_kind::from || h.kind == map_kind::tofrom)
          leaving.back().copy_back.push_back(h.named);
      }
    }
  }
  std::exception_ptr error;
  // In an MPI job the ranks' parts of what the region's loops wrote come
  // together first (docs/mpi.md); left by an exception, each rank keeps its own.
  unmap_across_ranks(leaving, std::uncaught_exceptions() != exceptions_at_start_, error);
  std::vector<std::vector<byte_range>> copy_back;
  std::vector<std::unique_ptr<present_entry>> left;
  {
    std::lock_guard<std::mutex> lock(table_mutex());
    left = detach_unreferenced(leaving, copy_back);
  }
  leave(left, copy_back, error);
  report_left(r->site, left);
  // Leaving the block by an exception: that exception is the one to see.
  if (error && std::uncaught_exceptions() == exceptions_at_start_)
    std::rethrow_exception(error);
}

void update_host(const region_section& s) {
  using namespace detail;
  drain_queued_work();
  if (distributor* d = installed_distributor(); d && regions_live() && s.bytes) {
    const std::uint64_t received = d->host_needs(s.host, s.bytes);
    if (received)
      for (overlap& o : overlaps(s.host, s.bytes)) {
        std::lock_guard<std::mutex> lock(o.entry->m);
        o.entry->from_ranks += received;
        break; // counted once, by the first section that holds it
      }
  }
  region_host_sync(s.host, s.bytes);
}

void update_device(const region_section& s) {
  using namespace detail;
  drain_queued_work();
  if (distributor* d = installed_distributor(); d && regions_live() && s.bytes)
    d->host_wrote(s.host, s.bytes);
  region_host_written(s.host, s.bytes);
}

} // namespace gpu_autopar
