// The device copy of one map's section for one chunk: allocated and filled on
// `prepare`, copied back on `fetch` and `commit`, freed when the slice goes
// away — also when the chunk fails, so a failed chunk never leaks device memory.
// It works on the map's bytes (compiled_loop.h): one compiled class for the
// maps of every loop.
#pragma once

#include <cstddef>
#include <vector>

#include <gpu_autopar/compiled_loop.h>
#include <gpu_autopar/data_region.h>

namespace gpu_autopar {
namespace detail {

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
  void prepare(device_context& dev, const erased_map& m, long long first, long long last, long long step,
               bool shares_outer);

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
  // its kernel) into host staging, leaving the host object as it was; they
  // are there once the caller has waited (device_context::synchronize). Only
  // a `from` map that the chunk overwrites whole and does not read goes
  // straight to the host: a retry writes the same values again.
  void fetch(const erased_map& m);
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
  element_range range_;
  bool diff_ = false;
  bool copy_in_ = false; // the chunk reads the section's old values
  std::size_t unit_ = 1;
  std::vector<unsigned char> before_, after_;
};

} // namespace detail
} // namespace gpu_autopar
