// Data regions (gpu_autopar/data_region.h, docs/runtime.md): which copy of
// each byte of a mapped section is up to date — the host's and each device's
// resident copy — and the copies that keep chunks and the host supplied.
//
// The model, per mapped section: `host_valid` and each device's `valid` are
// sets of byte ranges that hold the newest values; every byte is newest in
// at least one place. A chunk that writes bytes makes its device the only
// place where they are newest; a chunk that reads bytes its device does not
// hold copies them in from the host, after bringing them to the host from
// the device that holds them (a Jacobi sweep's halo rows). Nothing is copied
// when the region starts: each device copies what its chunks use, once.
#include "gpu_autopar/data_region.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.h"
#include "distributor.h"
#include "interval_set.h"
#include "loop_report.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace detail {
namespace {

struct device_copy {
  unsigned char* mem = nullptr; // the whole section's size, allocated at the device's first use
  interval_set used;            // the parts a chunk has used (resident_first_use() done or under way)
  int preparing = 0;            // resident_first_use() calls under way
  interval_set valid;
  bool unusable = false;        // could not allocate: its chunks copy through the host
  std::uint64_t to_device = 0, to_host = 0; // bytes, for the report
  std::uint64_t from_peers = 0;             // bytes copied in from other devices' copies
};

struct mapped {
  map_kind kind;
  unsigned char* host;
  std::uint64_t bytes;
  interval_set host_valid;
  std::vector<device_copy> on; // by the runtime's device index

  byte_range whole() const { return {0, bytes}; }
};

struct region_state {
  loop_site site;
  std::mutex m;
  std::condition_variable prepared; // a device's copy has no first use under way any more
  std::vector<mapped> maps;
};

std::mutex g_registry_mutex;
std::vector<region_state*> g_regions; // live, outermost first
std::atomic<int> g_live{0};

std::string where(const region_state& r) {
  return std::string(r.site.file) + ":" + std::to_string(r.site.line);
}

// Where [p, p + n) meets a mapped section: the section and the byte range
// of it, relative to its start.
struct overlap {
  region_state* region;
  mapped* map;
  byte_range range;
  bool whole_chunk; // the section holds all of [p, p + n)
};

std::vector<overlap> overlaps(const void* p, std::size_t n) {
  std::vector<overlap> out;
  const auto* b = static_cast<const unsigned char*>(p);
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  for (region_state* r : g_regions)
    for (mapped& m : r->maps) {
      const unsigned char* lo = std::max(b, static_cast<const unsigned char*>(m.host));
      const unsigned char* hi = std::min(b + n, static_cast<const unsigned char*>(m.host) + m.bytes);
      if (lo < hi)
        out.push_back({r, &m, {std::uint64_t(lo - m.host), std::uint64_t(hi - m.host)}, lo == b && hi == b + n});
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

void ensure_devices(mapped& m) {
  const int n = runtime().pool ? runtime().pool->device_count() : 0;
  if (int(m.on.size()) < n)
    m.on.resize(std::size_t(n));
}

// Brings the host's copy of `range` up to date from the devices that hold
// the newest values (under the region's lock).
void bring_to_host(region_state& r, mapped& m, byte_range range) {
  for (byte_range piece : m.host_valid.missing(range)) {
    for (std::size_t d = 0; d < m.on.size() && !piece.empty(); ++d) {
      device_copy& c = m.on[d];
      if (!c.mem)
        continue;
      // Bytes newest on several devices (a halo row copied between them)
      // come back once, from the first that holds them.
      for (byte_range held : c.valid.covered(piece))
        for (byte_range have : m.host_valid.missing(held)) {
          pool_device(int(d)).resident_to_host(m.host + have.begin, c.mem + have.begin, have.size());
          c.to_host += have.size();
          m.host_valid.add(have);
        }
    }
    if (!m.host_valid.contains(piece))
      // Held only by a device whose chunk failed after its kernel ran: the
      // newest values are gone. Not a device failure to retry elsewhere.
      throw loop_error("gpu-autopar: " + where(r) + ": data region: bytes [" + std::to_string(piece.begin) + ", " +
                       std::to_string(piece.end) + ") of a mapped section were held only by a device that failed; "
                       "their newest values are lost");
  }
}

void host_wrote(mapped& m, byte_range range) {
  m.host_valid.add(range);
  for (device_copy& c : m.on)
    c.valid.remove(range);
}

void sync_host(const void* p, std::size_t n) {
  for (overlap& o : overlaps(p, n)) {
    std::lock_guard<std::mutex> lock(o.region->m);
    bring_to_host(*o.region, *o.map, o.range);
  }
}

void report_region(const region_state& r) {
  runtime_state& rt = runtime();
  if (rt.report_fd < 0)
    return;
  std::uint64_t in = 0, out = 0, between = 0;
  std::string devices;
  const int n = rt.pool ? rt.pool->device_count() : 0;
  for (int d = 0; d < n; ++d) {
    std::uint64_t di = 0, dout = 0, dpeer = 0;
    for (const mapped& m : r.maps)
      if (std::size_t(d) < m.on.size()) {
        di += m.on[d].to_device;
        dout += m.on[d].to_host;
        dpeer += m.on[d].from_peers;
      }
    in += di;
    out += dout;
    between += dpeer;
    if (di || dout || dpeer)
      devices += std::string(devices.empty() ? "" : ",") + "{\"device\":\"" + rt.pool->get(d).name() +
                 "\",\"bytes_to_device\":" + std::to_string(di) + ",\"bytes_to_host\":" + std::to_string(dout) +
                 ",\"bytes_from_devices\":" + std::to_string(dpeer) + "}";
  }
  write_report_line(rt, "{\"region\":\"" + json_escape(where(r)) + "\"" +
                            (rt.rank >= 0 ? ",\"rank\":" + std::to_string(rt.rank) : std::string()) +
                            ",\"bytes_to_devices\":" +
                            std::to_string(in) + ",\"bytes_to_host\":" + std::to_string(out) +
                            ",\"bytes_between_devices\":" + std::to_string(between) + ",\"devices\":[" +
                            devices + "]}\n");
}

} // namespace

std::size_t checked_section_bytes(long long lo, long long len, std::size_t element) {
  if (lo < 0 || len < 0)
    throw std::invalid_argument("gpu-autopar: data region section [" + std::to_string(lo) + ":" +
                                std::to_string(len) + "] has a negative start or length");
  return std::size_t(len) * element;
}

bool regions_live() { return g_live.load(std::memory_order_acquire) > 0; }

resident_use region_prepare(device_context& dev, const void* host, std::size_t bytes, bool read, bool write,
                            bool exclusive_write) {
  if (!regions_live() || bytes == 0)
    return {};
  std::vector<overlap> found = overlaps(host, bytes);
  if (found.empty())
    return {};
  overlap& o = found.front();
  const bool resident = found.size() == 1 && o.whole_chunk && (!write || exclusive_write) &&
                        dev.kind() != device_kind::cpu;
  if (!resident) {
    sync_host(host, bytes);
    return {residency::through_host, nullptr};
  }
  std::unique_lock<std::mutex> lock(o.region->m);
  mapped& m = *o.map;
  ensure_devices(m); // sized once, to the pool: `c` stays where it is
  const std::size_t me = pool_index(dev);
  device_copy& c = m.on[me];
  if (!c.mem && !c.unusable) {
    try {
      c.mem = static_cast<unsigned char*>(pool_device(int(me)).resident_allocate(m.bytes));
      if (auto* slot = dynamic_cast<slot_context*>(&dev))
        slot->count_allocation();
    } catch (const device_out_of_memory&) {
      c.unusable = true; // this device's chunks copy their sections as outside a region
    }
  }
  if (c.unusable) {
    bring_to_host(*o.region, m, o.range);
    return {residency::through_host, nullptr};
  }
  // The parts of the copy this chunk uses for the first time are prepared
  // without the region's lock, so that devices starting a region do that side
  // by side. Another slot of the same device (slots(n) in a region) waits
  // until they are ready before it copies into them.
  if (std::vector<byte_range> fresh = c.used.missing(o.range); !fresh.empty()) {
    for (byte_range piece : fresh)
      c.used.add(piece);
    ++c.preparing;
    unsigned char* mem = c.mem;
    lock.unlock();
    for (byte_range piece : fresh)
      pool_device(int(me)).resident_first_use(mem + piece.begin, piece.size());
    lock.lock();
    --c.preparing;
    o.region->prepared.notify_all();
  }
  o.region->prepared.wait(lock, [&] { return c.preparing == 0; });
  if (read) {
    bool copied = false;
    // What the host does not hold up to date comes straight from a device
    // that does, where the two can copy between them (a halo row from the
    // neighbour's chunk): one copy instead of two, and none over the host.
    if (auto* lease = dynamic_cast<slot_context*>(&dev))
      for (byte_range piece : c.valid.missing(o.range))
        for (byte_range stale : m.host_valid.missing(piece))
          for (std::size_t d = 0; d < m.on.size(); ++d) {
            device_copy& peer = m.on[d];
            if (d == me || !peer.mem || !pool_device(int(me)).can_copy_from(pool_device(int(d))))
              continue;
            for (byte_range have : peer.valid.covered(stale)) {
              if (c.valid.contains(have))
                continue;
              lease->copy_from_peer(c.mem + have.begin, pool_device(int(d)), peer.mem + have.begin, have.size());
              c.from_peers += have.size();
              c.valid.add(have);
              copied = true;
            }
          }
    for (byte_range piece : c.valid.missing(o.range)) {
      bring_to_host(*o.region, m, piece);
      dev.copy_to_device(c.mem + piece.begin, m.host + piece.begin, piece.size());
      c.to_device += piece.size();
      c.valid.add(piece);
      copied = true;
    }
    // Valid for every slot of the device once it has landed, not just for
    // this lease's stream: another slot's kernel may read these bytes next.
    if (copied)
      dev.synchronize();
  }
  return {residency::resident, c.mem + o.range.begin};
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
    std::lock_guard<std::mutex> lock(o.region->m);
    mapped& m = *o.map;
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
    std::lock_guard<std::mutex> lock(o.region->m);
    if (d < o.map->on.size())
      o.map->on[d].valid.remove(o.range);
  }
}

void region_host_sync(const void* host, std::size_t bytes) {
  if (regions_live() && bytes)
    sync_host(host, bytes);
}

void region_host_written(const void* host, std::size_t bytes) noexcept {
  if (!regions_live() || !bytes)
    return;
  for (overlap& o : overlaps(host, bytes)) {
    std::lock_guard<std::mutex> lock(o.region->m);
    host_wrote(*o.map, o.range);
  }
}

} // namespace detail

data_region::data_region(const loop_site& site, std::initializer_list<region_section> sections)
    : state_(nullptr), exceptions_at_start_(std::uncaught_exceptions()) {
  using namespace detail;
  auto r = std::make_unique<region_state>();
  r->site = site;
  for (const region_section& s : sections) {
    if (s.bytes == 0)
      continue;
    // Already mapped by an enclosing region: present, nothing to add (as
    // OpenMP's reference count). A partial overlap has no meaning.
    bool present = false;
    for (overlap& o : overlaps(s.host, s.bytes)) {
      if (!o.whole_chunk)
        throw std::invalid_argument("gpu-autopar: " + where(*r) + ": data region maps a section that overlaps "
                                    "another mapped section only in part (mapped by " + where(*o.region) + ")");
      present = true;
    }
    for (const mapped& m : r->maps)
      if (static_cast<const unsigned char*>(s.host) < m.host + m.bytes &&
          m.host < static_cast<const unsigned char*>(s.host) + s.bytes)
        throw std::invalid_argument("gpu-autopar: " + where(*r) + ": data region maps overlapping sections");
    if (present)
      continue;
    mapped m{s.kind, static_cast<unsigned char*>(const_cast<void*>(s.host)), s.bytes, {}, {}};
    m.host_valid.add(m.whole()); // the host holds every value when the region starts
    r->maps.push_back(std::move(m));
  }
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_regions.push_back(r.get());
  g_live.fetch_add(1, std::memory_order_release);
  state_ = r.release();
}

data_region::~data_region() noexcept(false) {
  using namespace detail;
  std::unique_ptr<region_state> r(static_cast<region_state*>(state_));
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(r->m);
    for (mapped& m : r->maps)
      if (m.kind == map_kind::from || m.kind == map_kind::tofrom) {
        try {
          bring_to_host(*r, m, m.whole());
        } catch (...) {
          if (!error)
            error = std::current_exception();
        }
      }
    for (mapped& m : r->maps)
      for (std::size_t d = 0; d < m.on.size(); ++d)
        if (m.on[d].mem)
          pool_device(int(d)).resident_free(m.on[d].mem);
  }
  {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    g_regions.erase(std::find(g_regions.begin(), g_regions.end(), r.get()));
    g_live.fetch_sub(1, std::memory_order_release);
  }
  report_region(*r);
  // Leaving the block by an exception: that exception is the one to see.
  if (error && std::uncaught_exceptions() == exceptions_at_start_)
    std::rethrow_exception(error);
}

void update_host(const region_section& s) { detail::region_host_sync(s.host, s.bytes); }

void update_device(const region_section& s) { detail::region_host_written(s.host, s.bytes); }

} // namespace gpu_autopar
