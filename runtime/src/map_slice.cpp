#include "map_slice.h"

#include "read_once.h"

#include <cstring>

namespace gpu_autopar {
namespace detail {
namespace {

bool writes(map_kind k) { return k == map_kind::from || k == map_kind::tofrom; }

// Copies into dst the units of `after` that differ from `before`, in runs.
void copy_changed(unsigned char* dst, const unsigned char* after, const unsigned char* before, std::size_t bytes,
                  std::size_t unit) {
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

} // namespace

unsigned char* staging_buffer::allocate(device_context& dev, std::size_t bytes) {
  reset();
  slot_ = dynamic_cast<slot_context*>(&dev);
  void* pinned = slot_ ? slot_->allocate_staging(bytes) : nullptr;
  if (pinned) {
    data_ = static_cast<unsigned char*>(pinned);
  } else {
    slot_ = nullptr;
    heap_.resize(bytes);
    data_ = heap_.data();
  }
  size_ = bytes;
  return data_;
}

void staging_buffer::reset() noexcept {
  if (slot_ && data_)
    slot_->deallocate_staging(data_);
  slot_ = nullptr;
  data_ = nullptr;
  size_ = 0;
}

map_slice::~map_slice() {
  if (mem_ && !resident() && !shared_ && !in_place_)
    dev_->deallocate(mem_);
  // A chunk that failed after its kernel started may have written part of
  // its section in the device's resident copy: that copy is stale now.
  if (resident() && launched_ && !committed_ && writes_)
    region_chunk_failed(*dev_, host_, bytes_);
}

void map_slice::prepare(device_context& dev, const erased_map& m, long long first, long long last, long long step,
                        bool shares_outer, read_once_sections* once, std::size_t k) {
  dev_ = &dev;
  range_ = m.chunk_range(first, last);
  // The unit a chunk's changes are found and copied back in. It must be no
  // larger than what one iteration writes: an element of the map's outermost
  // dimension can be a whole row (`double A[n][m]`: E is `double[m]`) or a
  // struct, and chunks sweeping columns or fields write disjoint parts of it,
  // so comparing whole elements would copy a neighbour's stale columns back
  // over its results. Scalars are compared whole; the bytes of a class type
  // one by one, since two chunks may write different fields of one object.
  unit_ = m.unit;
  const std::size_t bytes = static_cast<std::size_t>(range_.size()) * m.element_size;
  if (bytes == 0)
    return;
  const unsigned char* src = host_bytes(m);
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
  // A section the loop only reads and every chunk needs the same of (a
  // lookup table, a matrix every row multiplies): once per device and loop.
  if (once && read_once(m) && copy_in_ && !writes_)
    if (void* copy = once->get(dev, k, src, bytes)) {
      mem_ = copy;
      shared_ = true;
      return;
    }
  mem_ = dev.allocate(bytes);
  if (diff_) {
    // The device gets exactly the snapshot the copy-back compares with:
    // read twice, the host data could change in between (a neighbouring
    // chunk copying back its own elements), and this chunk would then
    // write the older value back over the neighbour's result.
    std::memcpy(before_.allocate(dev, bytes), src, bytes);
    dev.copy_to_device(mem_, before_.data(), bytes);
  } else if (copy_in_) {
    dev.copy_to_device(mem_, src, bytes);
  }
}

void map_slice::in_place(device_context& dev, const erased_map& m, long long first, long long last) {
  dev_ = &dev;
  range_ = m.chunk_range(first, last);
  in_place_ = true;
  mem_ = host_bytes(m); // writes_ stays false: nothing comes back
}

void map_slice::fetch(const erased_map& m, bool direct) {
  if (!writes_ || !mem_ || resident())
    return;
  const std::size_t bytes = static_cast<std::size_t>(range_.size()) * m.element_size;
  if (direct && lands_directly())
    dev_->copy_to_host_last(host_bytes(m), mem_, bytes);
  else if (!diff_ && !rereads())
    dev_->copy_to_host_async(host_bytes(m), mem_, bytes);
  else
    dev_->copy_to_host_async(after_.allocate(*dev_, bytes), mem_, bytes);
}

std::string map_slice::describe(const erased_map& m, std::size_t k) const {
  std::string array = m.name ? std::string(m.name) : std::string();
  array = array.substr(0, array.find('['));
  if (array.empty())
    return "elements [" + std::to_string(range_.lo) + ", " + std::to_string(range_.hi) + ") of the loop's map " +
           std::to_string(k + 1);
  return array + "[" + std::to_string(range_.lo) + ":" + std::to_string(range_.size()) + "]";
}

void map_slice::commit(const erased_map& m) noexcept {
  committed_ = true;
  if (!after_.empty()) {
    if (diff_)
      copy_changed(host_bytes(m), after_.data(), before_.data(), after_.size(), unit_);
    else
      std::memcpy(host_bytes(m), after_.data(), after_.size());
  }
  // The newest values are now on the device (resident) or the host.
  if (writes_ && region_.how != residency::none)
    region_written(*dev_, host_, bytes_, region_.how);
}

// What the chunk copies in and back. Copy back only what changed when
// neighbouring chunks' sections overlap (a stale copy of a neighbour's
// element must not overwrite its result); copy in what the body reads, and
// what must go back unchanged where its writes leave holes.
void map_slice::decide(const erased_map& m, long long step, bool shares_outer, bool present) {
  writes_ = writes(m.kind) || (present && m.written_too);
  const bool reads = m.kind == map_kind::to || m.kind == map_kind::tofrom || (present && m.read_too);
  reads_ = reads;
  diff_ = writes_ && (m.sections_may_overlap() || shares_outer);
  copy_in_ = reads || (writes_ && (diff_ || !m.covers_densely(step)));
}

} // namespace detail
} // namespace gpu_autopar
