// The device copy of one map's section for one chunk: allocated and filled on
// `prepare`, copied back on `fetch` and `commit`, freed when the slice goes
// away — also when the chunk fails, so a failed chunk never leaks device memory.
// It works on the map's bytes (compiled_loop.h): one compiled class for the
// maps of every loop.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <gpu_autopar/compiled_loop.h>
#include <gpu_autopar/data_region.h>

#include "device.h"

namespace gpu_autopar {
namespace detail {

// Host memory a chunk stages data in: page-locked, from the lease, on a CUDA
// GPU (slot_context::allocate_staging), ordinary memory elsewhere. Given back
// when it goes, once the copies queued before are done with it.
class read_once_sections;

class staging_buffer {
public:
  staging_buffer() = default;
  staging_buffer(const staging_buffer&) = delete;
  staging_buffer& operator=(const staging_buffer&) = delete;
  ~staging_buffer() { reset(); }
  // `bytes` of staging for a chunk on `dev` (what was held before goes back).
  unsigned char* allocate(device_context& dev, std::size_t bytes);
  void reset() noexcept;
  unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

private:
  class slot_context* slot_ = nullptr;
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  std::vector<unsigned char> heap_;
};

class map_slice {
public:
  map_slice() = default;
  map_slice(const map_slice&) = delete;
  map_slice& operator=(const map_slice&) = delete;
  ~map_slice();

  // Allocates the section for a chunk whose first and last induction values
  // are given (the loop's step between them) and copies in what the body may
  // read, or what must go back unchanged. Inside a data region
  // (data_region.h) the section is the device's resident copy instead, and
  // only what the device does not hold yet is copied in. `shares_outer`: the
  // chunk shares its first or last induction value with a neighbouring chunk
  // (a collapsed nest cut inside a row), so their sections overlap.
  // `once`: where the loop keeps the sections it copies to each device once
  // (read_once.h), this map's index `k` there; null for none.
  void prepare(device_context& dev, const erased_map& m, long long first, long long last, long long step,
               bool shares_outer, read_once_sections* once = nullptr, std::size_t k = 0);

  // Memory the chunk uses where it is (device or managed memory, in_place.h):
  // nothing allocated, copied or written back.
  void in_place(device_context& dev, const erased_map& m, long long first, long long last);

  // The chunk's kernel is about to run: from here a failure may leave the
  // resident copy half written.
  void launched() { launched_ = true; }

  // The view the body indexes with global indices.
  erased_view view(const erased_map& m) const {
    return {static_cast<unsigned char*>(mem_) - range_.lo * static_cast<long long>(m.element_size), m.size()};
  }

  // Copy-back is in two steps so that it is all or nothing: a chunk that
  // fails while its results come back (a later map's copy) is retried, and
  // had an earlier map's `tofrom` results already reached the host, the
  // retry would read them and apply its updates twice (y += ...).
  //
  // fetch: queues the copy of the chunk's results from the device (after
  // its kernel); they are there once the caller has waited
  // (device_context::synchronize). A section that is the chunk's own (no
  // other chunk's section overlaps it) lands straight in the host object when
  // `direct`: for a section the chunk does not read (a retry writes the same
  // values again) always; for one it reads and writes (`tofrom`), the caller
  // lets at most one land directly, queued last
  // (device_context::copy_to_host_last): every earlier one was staged, so
  // when the chunk's wait fails, whether that one copy ran tells a chunk to
  // run again (it did not: every map is as it was) from a chunk that is done
  // (it did: so did everything queued before it, as when another stream's
  // fault lost the context after it). The rest comes back into page-locked
  // staging; a section neighbouring chunks share (compare and copy back)
  // too, and only what changed is written.
  void fetch(const erased_map& m, bool direct);
  // Whether the chunk reads the section's old values and writes it back
  // whole (what fetch() lands directly only when `direct`).
  bool rereads() const { return writes_ && reads_ && !diff_; }
  // Whether fetch(m, true) copies it straight into the host object, last.
  bool lands_directly() const { return rereads() && mem_ && !resident(); }
  // The chunk's section as the program indexes it: "y[4096:4096]" (where
  // the map has no name: "elements [4096, 8192) of the loop's map 2").
  std::string describe(const erased_map& m, std::size_t k) const;
  // commit: writes what fetch() staged to the host object. No device call:
  // it cannot fail.
  void commit(const erased_map& m) noexcept;

private:
  void decide(const erased_map& m, long long step, bool shares_outer, bool present);
  unsigned char* host_bytes(const erased_map& m) const { return m.host + range_.lo * static_cast<long long>(m.element_size); }
  bool resident() const { return region_.how == residency::resident; }

  device_context* dev_ = nullptr;
  void* mem_ = nullptr;
  resident_use region_;
  const void* host_ = nullptr;
  std::size_t bytes_ = 0;
  bool writes_ = false, launched_ = false, committed_ = false;
  bool shared_ = false; // the loop's copy on this device (read_once.h), not the chunk's
  bool in_place_ = false; // the program's own memory (in_place.h), not the chunk's
  element_range range_;
  bool diff_ = false;
  bool copy_in_ = false; // the device needs the section's old values
  bool reads_ = false;   // the body reads them
  std::size_t unit_ = 1;
  staging_buffer before_, after_; // compare and copy back: the snapshot copied in, the results
};

} // namespace detail
} // namespace gpu_autopar
