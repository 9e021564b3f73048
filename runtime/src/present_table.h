// The data environment's table of present sections (data_region.cpp), shared
// by data regions (data_region.cpp) and enter/exit data
// (unstructured_data.cpp): OpenMP's present table, each entry with its
// structured and dynamic reference counts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_autopar/data_region.h"
#include "host_pinning.h"
#include "interval_set.h"

namespace gpu_autopar {
namespace detail {

class device;

// The part of a present section one device holds (issue 23, item 4): bytes
// `window` of the section, not a whole copy, so that an array larger than
// one device's memory runs on several. Freed when the last holder lets go:
// its device_copy, a chunk using it (region_prepare's resident_use), or a
// copy from it to another device under way.
struct resident_block {
  device* owner = nullptr;
  unsigned char* mem = nullptr;
  byte_range window;
  std::atomic<int> chunks{0}; // chunks between region_prepare and the end of their use of it
  bool allocated = false;     // the device allocated it anew (not memory it kept from an earlier region)

  resident_block(device& d, byte_range w);
  resident_block(const resident_block&) = delete;
  resident_block& operator=(const resident_block&) = delete;
  ~resident_block();
  // The device address of the section's byte `offset` (inside the window).
  unsigned char* at(std::uint64_t offset) const { return mem + (offset - window.begin); }
};

// One device's copy of a present section.
struct device_copy {
  // The part it holds: at the device's first use, the bytes that chunk uses;
  // a later chunk's bytes outside it make it grow (data_region.cpp). Null
  // before the first use.
  std::shared_ptr<resident_block> block;
  std::uint64_t held = 0;       // the most bytes `block` has held, for the report
  int grows = 0;                // how often the part grew
  interval_set used;            // the parts a chunk has used (resident_first_use() done or under way)
  int preparing = 0;            // resident_first_use() calls under way
  interval_set valid;
  bool unusable = false;        // could not allocate: its chunks copy through the host
  bool lost = false;            // its device was retired: this copy is never read (region_loss.h)
  std::uint64_t to_device = 0, to_host = 0; // bytes, for the report
  std::uint64_t from_peers = 0;             // bytes copied in from other devices' copies
  // Bytes copied into this copy by a chunk of loop `landing_loop` that did
  // not wait for them (slot_context::queues_alone): valid for this device's
  // own stream, not yet a source for other devices in that loop.
  interval_set landing;
  std::uint64_t landing_loop = 0;
};

// One present section.
struct present_entry {
  loop_site site;   // the construct that made it present: its report line and errors name it
  std::string name; // as the program names it ("b[0:n]"); may be empty
  unsigned char* host = nullptr;
  std::uint64_t bytes = 0;
  std::size_t element = 1; // the size of its elements and the first one's index, for errors
  long long first = 0;
  std::uint64_t from_ranks = 0; // bytes other MPI ranks sent at `update host` (guarded by m)
  long structured = 0; // data regions that map it
  long dynamic = 0;    // enter data less exit data
  std::mutex m;        // guards what follows
  std::condition_variable prepared; // a device's copy has no first use under way any more
  interval_set host_valid;
  std::vector<device_copy> on; // by the runtime's device index
  // On CUDA GPUs the section is page-locked while it is present: the copies
  // into and out of the devices' copies run asynchronously, on all GPUs at
  // once (host_pinning.h).
  pin_hold pinned;

  byte_range whole() const { return {0, bytes}; }
};

// The table and its lock. The functions below need the lock held.
std::mutex& table_mutex();
std::vector<std::unique_ptr<present_entry>>& table();

enum class presence { absent, inside, partly };
// Where a section stands: not present, inside a present one, or overlapping
// one without lying inside it; `found` is that one.
presence lookup(const region_section& s, present_entry** found);
// Throws std::invalid_argument naming the section (and the present one it
// overlaps) when it is only partly present.
void require_not_partly_present(const loop_site& site, const char* construct, const region_section& s);
// A new entry for `s`, with both counts zero.
present_entry* make_present(const loop_site& site, const region_section& s);
// Takes an entry whose counts are zero out of the table; leave() must follow
// (what it lost stays recorded until then, for the error that names it).
std::unique_ptr<present_entry> detach(present_entry* e);

// Without the lock, on detached entries: copies each one's `copy_back`
// (ranges of the section) to the host, from all devices at once, and frees
// the devices' copies, and forgets what they lost. The first failure goes to
// `error` (a loop_error when newest values were lost with a failed device).
void leave(const std::vector<std::unique_ptr<present_entry>>& left,
           const std::vector<std::vector<byte_range>>& copy_back, std::exception_ptr& error);
// Sections whose counts reached zero, found under the lock, leave in three
// steps: unmap_across_ranks (without the lock: under a distributor that keeps
// written parts with the MPI rank that wrote them, every rank's host gets the
// newest values of those copied back, a collective on every rank), then
// detach_unreferenced (under the lock: an entry another thread referenced
// again meanwhile stays), then leave().
struct leaving_entry {
  present_entry* entry;
  std::vector<byte_range> copy_back; // ranges of the section
};
// The bytes that came from other ranks add to each entry's from_ranks; the
// first failure goes to `error`.
void unmap_across_ranks(const std::vector<leaving_entry>& leaving, bool unwinding, std::exception_ptr& error);
// Needs the lock. `copy_back` gets each detached entry's ranges.
std::vector<std::unique_ptr<present_entry>> detach_unreferenced(const std::vector<leaving_entry>& leaving,
                                                                std::vector<std::vector<byte_range>>& copy_back);
// The report's line for sections that left at `site` (in an MPI job with
// the bytes they received from other ranks).
void report_left(const loop_site& site, const std::vector<std::unique_ptr<present_entry>>& left);

} // namespace detail
} // namespace gpu_autopar
