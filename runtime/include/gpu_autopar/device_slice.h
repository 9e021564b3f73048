// The device copy of one map's section for one chunk: allocated and filled on
// `prepare`, copied back on `fetch` and `commit`, freed when the slice goes
// away — also when the chunk fails, so a failed chunk never leaks device memory.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include <gpu_autopar/data_map.h>
#include <gpu_autopar/data_region.h>
#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {
namespace detail {

inline bool writes(map_kind k) { return k == map_kind::from || k == map_kind::tofrom; }

// Whether the sections of a chunk's iterations tile its hull without holes,
// so that a `from` map need not copy the old values in: consecutive
// iterations (the induction variable advancing by `step`) touch adjacent
// ranges (x[i] with step 1, x[2*i] with x[2*i+1], a[i*n + j] over all j).
// With holes between them the untouched elements must come in so that they
// go back unchanged.
template <class E, class S>
bool covers_densely(const map_spec<E, S>&, long long) { return false; }
template <class E>
bool covers_densely(const map_spec<E, affine>& m, long long step) {
  long long stride = m.section.scale * step;
  return m.section.extent == (stride < 0 ? -stride : stride);
}

template <class Map>
class device_slice {
  using E = typename Map::element_type;
  using Mutable = typename std::remove_const<E>::type;

public:
  device_slice() = default;
  device_slice(const device_slice&) = delete;
  device_slice& operator=(const device_slice&) = delete;
  ~device_slice() {
    if (mem_ && !resident())
      dev_->deallocate(mem_);
    // A chunk that failed after its kernel started may have written part of
    // its section in the device's resident copy: that copy is stale now.
    if (resident() && launched_ && !committed_ && writes_)
      region_chunk_failed(*dev_, host_, bytes_);
  }

  // Allocates the section for a chunk whose first and last induction values
  // are given (the loop's step between them) and copies in what the body may
  // read, or what must go back unchanged. Inside a data region
  // (data_region.h) the section is the device's resident copy instead, and
  // only what the device does not hold yet is copied in. `shares_outer`: the
  // chunk shares its first or last induction value with a neighbouring chunk
  // (a collapsed nest cut inside a row), so their sections overlap.
  void prepare(device_context& dev, const Map& m, long long first, long long last, long long step,
               bool shares_outer = false) {
    dev_ = &dev;
    range_ = m.chunk_range(first, last);
    const std::size_t bytes = static_cast<std::size_t>(range_.size()) * sizeof(E);
    if (bytes == 0)
      return;
    const E* src = m.host + range_.lo;
    host_ = src;
    bytes_ = bytes;
    if (regions_live()) {
      // On present data the map's kind copies nothing: what the body reads
      // and writes decides (a `to` map the body writes keeps its writes in
      // the present copy, for the construct that mapped it to bring back).
      decide(m, step, shares_outer, /*present=*/true);
      region_ = region_prepare(dev, src, bytes, copy_in_, writes_, !diff_);
      if (resident()) {
        mem_ = region_.device;
        return;
      }
      if (region_.how == residency::none)
        decide(m, step, shares_outer, /*present=*/false);
    } else {
      decide(m, step, shares_outer, /*present=*/false);
    }
    mem_ = dev.allocate(bytes);
    if (diff_) {
      // The device gets exactly the snapshot the copy-back compares with:
      // read twice, the host data could change in between (a neighbouring
      // chunk copying back its own elements), and this chunk would then
      // write the older value back over the neighbour's result.
      const auto* p = reinterpret_cast<const unsigned char*>(src);
      before_.assign(p, p + bytes);
      dev.copy_to_device(mem_, before_.data(), bytes);
    } else if (copy_in_) {
      dev.copy_to_device(mem_, src, bytes);
    }
  }

  // The chunk's kernel is about to run: from here a failure may leave the
  // resident copy half written.
  void launched() { launched_ = true; }

  // The view the body indexes with global indices.
  basic_view<E> view(const Map& m) const {
    return basic_view<E>(static_cast<E*>(mem_) - range_.lo, m.size());
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
  void fetch(const Map& m) {
    if (!writes_ || !mem_ || resident())
      return;
    const std::size_t bytes = static_cast<std::size_t>(range_.size()) * sizeof(E);
    if (!diff_ && !copy_in_) {
      dev_->copy_to_host_async(host_bytes(m), mem_, bytes);
      return;
    }
    after_.resize(bytes);
    dev_->copy_to_host_async(after_.data(), mem_, bytes);
  }

  // commit: writes what fetch() staged to the host object. No device call:
  // it cannot fail.
  void commit(const Map& m) noexcept {
    committed_ = true;
    if (!after_.empty()) {
      if (diff_)
        copy_changed(host_bytes(m), after_.data(), before_.data(), after_.size());
      else
        std::memcpy(host_bytes(m), after_.data(), after_.size());
    }
    // The newest values are now on the device (resident) or the host.
    if (writes_ && region_.how != residency::none)
      region_written(*dev_, host_, bytes_, region_.how);
  }

private:
  // What the chunk copies in and back. Copy back only what changed when
  // neighbouring chunks' sections overlap (a stale copy of a neighbour's
  // element must not overwrite its result); copy in what the body reads, and
  // what must go back unchanged where its writes leave holes.
  void decide(const Map& m, long long step, bool shares_outer, bool present) {
    writes_ = writes(m.kind) || (present && m.written_too);
    const bool reads = m.kind == map_kind::to || m.kind == map_kind::tofrom || (present && m.read_too);
    diff_ = writes_ && (m.sections_may_overlap() || shares_outer);
    copy_in_ = reads || (writes_ && (diff_ || !covers_densely(m, step)));
  }

  // The unit a chunk's changes are found and copied back in. It must be no
  // larger than what one iteration writes: an element of the map's outermost
  // dimension can be a whole row (`double A[n][m]`: E is `double[m]`) or a
  // struct, and chunks sweeping columns or fields write disjoint parts of it,
  // so comparing whole elements would copy a neighbour's stale columns back
  // over its results. Scalars are compared whole; the bytes of a class type
  // one by one, since two chunks may write different fields of one object.
  using scalar = typename std::remove_all_extents<Mutable>::type;
  static constexpr std::size_t unit =
      std::is_arithmetic<scalar>::value || std::is_pointer<scalar>::value ? sizeof(scalar) : 1;

  // Copies into dst the units of `after` that differ from `before`, in runs.
  static void copy_changed(unsigned char* dst, const unsigned char* after, const unsigned char* before,
                           std::size_t bytes) {
    std::size_t at = 0;
    while (at < bytes) {
      while (at < bytes && std::memcmp(after + at, before + at, unit) == 0)
        at += unit;
      std::size_t end = at;
      while (end < bytes && std::memcmp(after + end, before + end, unit) != 0)
        end += unit;
      if (end > at)
        std::memcpy(dst + at, after + at, end - at);
      at = end;
    }
  }

  unsigned char* host_bytes(const Map& m) const {
    return reinterpret_cast<unsigned char*>(const_cast<Mutable*>(m.host + range_.lo));
  }

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
  std::vector<unsigned char> before_, after_;
};

} // namespace detail
} // namespace gpu_autopar
