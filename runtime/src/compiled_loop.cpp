// The part of every annotated loop that does not depend on its body's type
// (compiled_loop.h): one compiled copy for all loops of a program.
#include <gpu_autopar/compiled_loop.h>

#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <stdexcept>

#include <gpu_autopar/data_region.h>

#include "in_place.h"
#include "map_slice.h"
#include "read_once.h"

namespace gpu_autopar {
namespace detail {

erased_effects::erased_effects(const loop_space& space, const erased_map* maps, std::size_t map_count,
                               const reduction_table* reductions, const void* reds)
    : space_(space), maps_(maps), reductions_(reductions->count) {
  for (std::size_t k = 0; k < map_count; ++k) {
    const erased_map& m = maps[k];
    if (m.body_writes())
      written_.push_back(k);
    // What a range of iterations needs before it runs: what it reads, and
    // what must go back unchanged where its writes leave holes or overlap.
    const bool reads = m.kind == map_kind::to || m.kind == map_kind::tofrom || m.read_too;
    if (reads || (m.body_writes() && (m.sections_may_overlap() || !m.covers_densely(space.step))))
      read_.push_back(k);
  }
  if (reductions->count)
    reductions->describe(reds, reductions_.data());
}

// The hull a map's sections cover for [begin, end), and whether the hulls of
// disjoint ranges are disjoint: an affine section whose extent fits in the
// distance between consecutive iterations' sections.
written_section erased_effects::section_of(const erased_map& m, std::uint64_t begin, std::uint64_t end) const {
  const element_range r = m.chunk_range(space_.outer_at(begin), space_.outer_at(end - 1));
  written_section w;
  w.host = m.host;
  w.element_size = m.element_size;
  w.copyable = m.copyable;
  w.unit = m.unit;
  w.lo = r.lo;
  w.hi = r.hi;
  if (!m.whole) {
    const long long stride = m.scale * space_.step;
    w.disjoint = m.scale != 0 && m.extent <= (stride < 0 ? -stride : stride);
  }
  return w;
}

written_section erased_effects::written(std::size_t k, std::uint64_t begin, std::uint64_t end) const {
  return section_of(maps_[written_[k]], begin, end);
}

written_section erased_effects::read(std::size_t k, std::uint64_t begin, std::uint64_t end) const {
  written_section w = section_of(maps_[read_[k]], begin, end);
  w.disjoint = false;
  return w;
}

namespace {

// One record of partials on the stack where it fits.
class record_buffer {
public:
  explicit record_buffer(std::size_t bytes) {
    if (bytes > sizeof(local_))
      heap_.reset(new std::max_align_t[(bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)]);
  }
  void* get() { return heap_ ? static_cast<void*>(heap_.get()) : static_cast<void*>(local_); }

private:
  alignas(std::max_align_t) unsigned char local_[256];
  std::unique_ptr<std::max_align_t[]> heap_;
};

// A chunk's record of partials, from the reductions' identities, ended with
// the chunk (its partials may own memory: a lastprivate std::string).
class chunk_record {
public:
  chunk_record(const reduction_table& table, const void* reds) : table_(table), buffer_(table.record_bytes) {
    table.identity(reds, buffer_.get());
  }
  ~chunk_record() { table_.destroy(buffer_.get()); }
  chunk_record(const chunk_record&) = delete;
  chunk_record& operator=(const chunk_record&) = delete;
  void* get() { return buffer_.get(); }

private:
  const reduction_table& table_;
  record_buffer buffer_;
};

// n objects, on the stack for the few maps loops have: the CPU path of a
// short loop runs a chunk per thread, and an allocation per chunk shows in
// its dispatch time.
template <class T, std::size_t N = 8>
class small_array {
public:
  explicit small_array(std::size_t n) {
    if (n > N)
      heap_.reset(new T[n]);
  }
  T* get() { return heap_ ? heap_.get() : local_; }
  T& operator[](std::size_t k) { return get()[k]; }

private:
  T local_[N];
  std::unique_ptr<T[]> heap_;
};

} // namespace

compiled_loop::compiled_loop(const loop_parts& parts, bool produces) : parts_(parts) {
  assert(parts.run && parts.reductions.identity && (parts.map_count == 0 || parts.maps));
  // A collapsed nest is not split across processes (its indices are not the
  // outermost loop's, which the effects describe).
  const bool described = parts.mode == loop_mode::kernel || produces;
  if (described && !parts.space.collapsed)
    effects_.emplace(parts.space, parts.maps, parts.map_count, &parts.reductions, parts.reds);
  if (parts.mode == loop_mode::kernel) {
    std::vector<placement> places;
    if (locate_in_place(parts.maps, parts.map_count, places, in_place_))
      for (placement p : places)
        places_.push_back(static_cast<signed char>(p));
  }
  if (parts.mode == loop_mode::kernel)
    for (std::size_t k = 0; k < parts.map_count; ++k)
      if (read_once(parts.maps[k])) {
        once_ = std::make_unique<read_once_sections>();
        break;
      }
}

compiled_loop::~compiled_loop() = default;

bool compiled_loop::can_run_on(device_kind kind, const char** why_not) const {
  const char* why = nullptr;
  if (parts_.mode == loop_mode::host && kind != device_kind::cpu)
    why = "host-mode loop: the body does no GPU work";
  else if (parts_.mode == loop_mode::kernel && kind == device_kind::cuda && !parts_.cuda)
    why = "the file with this kernel-mode loop was compiled without a CUDA compiler";
  if (why && why_not)
    *why_not = why;
  return why == nullptr;
}

void compiled_loop::run_reduced(std::uint64_t begin, std::uint64_t end, const erased_view* views) {
  chunk_record record(parts_.reductions, parts_.reds);
  parts_.run(parts_.body, parts_.typed_space, begin, end, views, record.get());
  combine(record.get());
}

void compiled_loop::combine(const void* record) {
  std::lock_guard<std::mutex> lock(combine_mutex_);
  parts_.reductions.store(parts_.reds, record);
}

element_range compiled_loop::host_range(const erased_map& m, std::uint64_t begin, std::uint64_t end) const {
  return m.chunk_range(parts_.space.outer_at(begin), parts_.space.outer_at(end - 1));
}

// The CPU path: views over the host data, no copies. Inside a data region
// the host's copy is brought up to date first, and the devices' copies of
// what the chunk wrote are stale after it. Host and task mode: the body alone.
void compiled_loop::run_host(std::uint64_t begin, std::uint64_t end) {
  if (parts_.mode != loop_mode::kernel) {
    run_range(begin, end, nullptr);
    return;
  }
  if (in_place_.host_cannot) // run_loop says so before: a last guard
    throw loop_error("gpu-autopar: " + in_place_.what + ", which CPU threads cannot read");
  const bool region = begin < end && regions_live();
  const std::size_t n = parts_.map_count;
  if (region)
    for (std::size_t k = 0; k < n; ++k) {
      const erased_map& m = parts_.maps[k];
      const element_range r = host_range(m, begin, end);
      if (!r.empty())
        region_host_sync(m.host + r.lo * static_cast<long long>(m.element_size), std::size_t(r.size()) * m.element_size);
    }
  small_array<erased_view> views(n);
  for (std::size_t k = 0; k < n; ++k)
    views[k] = {parts_.maps[k].host, parts_.maps[k].size()};
  run_range(begin, end, views.get());
  if (region)
    for (std::size_t k = 0; k < n; ++k) {
      const erased_map& m = parts_.maps[k];
      const element_range r = host_range(m, begin, end);
      if (!r.empty() && m.body_writes())
        region_host_written(m.host + r.lo * static_cast<long long>(m.element_size),
                            std::size_t(r.size()) * m.element_size);
    }
}

void compiled_loop::run_device(device_context& dev, std::uint64_t begin, std::uint64_t end) {
  if (parts_.mode != loop_mode::kernel) {
    run_range(begin, end, nullptr); // on the worker holding the lease
    return;
  }
  if (begin >= end)
    return;
  const std::size_t n = parts_.map_count;
  small_array<map_slice> slices(n);
  const long long first = parts_.space.outer_at(begin);
  const long long last = parts_.space.outer_at(end - 1);
  const bool shares_outer = parts_.space.splits_outer(begin, end);
  // A chunk that is the whole loop (a loop nested in a task, one device) has
  // nothing to share its read-only sections with.
  read_once_sections* shared = end - begin < parts_.space.count ? once_.get() : nullptr;
  for (std::size_t k = 0; k < n; ++k)
    // Managed memory is copied as host memory where it cannot be used in place.
    if (const signed char p = place(k); p && (dev.kind() == device_kind::cuda || placement(p) == placement::device)) {
      const std::string why = in_place_refusal(dev, placement(p), in_place_);
      if (!why.empty()) // not a device failure: no device but one can run it
        throw loop_error("gpu-autopar: " + why);
      slices[k].in_place(dev, parts_.maps[k], first, last);
    } else {
      slices[k].prepare(dev, parts_.maps[k], first, last, parts_.space.step, shares_outer, shared, k);
    }
  for (std::size_t k = 0; k < n; ++k)
    slices[k].launched();
  small_array<erased_view> views(n);
  for (std::size_t k = 0; k < n; ++k)
    views[k] = slices[k].view(parts_.maps[k]);
  // With reductions: the blocks' records in device memory (freed when the
  // chunk ends, after its wait) and their host copy, queued behind the kernel.
  std::optional<device_allocation> memory;
  staging_buffer records; // page-locked on a GPU
  if (dev.kind() == device_kind::cuda)
    run_cuda(dev, views.get(), begin, end, records, memory);
  else
    run_sim(dev, views.get(), begin, end, records, memory);
  // Every map's results are queued before any reaches the host, all or
  // nothing (map_slice::fetch): of the sections the chunk reads and writes
  // back, one lands directly, queued last; the others are staged.
  std::size_t direct = n;
  for (std::size_t k = 0; k < n; ++k)
    if (slices[k].rereads())
      direct = k;
  for (std::size_t k = 0; k < n; ++k)
    if (k != direct)
      slices[k].fetch(parts_.maps[k], false);
  const bool landing = direct < n && slices[direct].lands_directly();
  try {
    if (direct < n)
      slices[direct].fetch(parts_.maps[direct], true);
    dev.chunk_wait(); // the chunk's one wait: copies in, kernel, partials and copies out
  } catch (const device_error& e) {
    // Run again unless the one copy that cannot be undone may have landed.
    if (!landing)
      throw;
    switch (dev.last_copy()) {
    case device_context::copy_outcome::not_run:
      throw;
    case device_context::copy_outcome::unknown:
      throw loop_error("gpu-autopar: " + std::string(e.what()) + ", while the results of iterations [" +
                       std::to_string(begin) + ", " + std::to_string(end) + ") were being copied into " +
                       slices[direct].describe(parts_.maps[direct], direct) +
                       ": that copy may have landed in part, so they can neither be run again nor kept");
    case device_context::copy_outcome::ran:
      complete_chunk(slices.get(), records); // every result is back: the chunk is done
      throw device_failed_after_chunk(e.what());
    }
  }
  complete_chunk(slices.get(), records);
}

// Writes what the chunk staged to the host and combines its partials, once
// all its results are back.
void compiled_loop::complete_chunk(map_slice* slices, const staging_buffer& records) {
  for (std::size_t k = 0; k < parts_.map_count; ++k)
    slices[k].commit(parts_.maps[k]);
  const reduction_table& r = parts_.reductions;
  if (r.count == 0)
    return;
  // The chunk's partials, the blocks' folded with the clause's operators.
  chunk_record chunk(r, parts_.reds);
  for (std::size_t at = 0; at < records.size(); at += r.record_bytes)
    r.fold(chunk.get(), records.data() + at);
  combine(chunk.get());
}

// A simulated device runs the chunk on the host, but keeps the device's
// contract for reductions: one record per block of the CUDA launch shape,
// stored in device memory and copied back, so the report's counts are
// those a GPU would show.
void compiled_loop::run_sim(device_context& dev, const erased_view* views, std::uint64_t begin, std::uint64_t end,
                            staging_buffer& records, std::optional<device_allocation>& memory) {
  const reduction_table& r = parts_.reductions;
  if (r.count == 0) {
    parts_.run(parts_.body, parts_.typed_space, begin, end, views, nullptr);
    dev.launched();
    return;
  }
  const std::uint64_t n = end - begin;
  const launch_shape shape = chunk_launch_shape(n, kSimBlockThreads);
  memory.emplace(dev, shape.blocks * r.record_bytes);
  auto* out = static_cast<unsigned char*>(memory->get());
  for (std::uint64_t b = 0; b < shape.blocks; ++b) { // the blocks' iterations, contiguous here
    void* record = out + b * r.record_bytes;
    r.identity(parts_.reds, record);
    parts_.run(parts_.body, parts_.typed_space, begin + n * b / shape.blocks, begin + n * (b + 1) / shape.blocks,
               views, record);
  }
  dev.launched();
  records.allocate(dev, shape.blocks * r.record_bytes);
  dev.copy_to_host_async(records.data(), out, records.size());
}

void compiled_loop::run_cuda(device_context& dev, const erased_view* views, std::uint64_t begin, std::uint64_t end,
                             staging_buffer& records, std::optional<device_allocation>& memory) {
  if (!parts_.cuda)
    throw device_error("gpu_autopar: kernel-mode loop compiled without a CUDA compiler cannot run on CUDA device " +
                       std::to_string(dev.id()));
  const reduction_table& r = parts_.reductions;
  // How many threads a block of this kernel may have (throws when the
  // program holds no code this GPU can run); a block's records live in
  // shared memory, at most kBlockReductionBytes of it.
  unsigned max_threads = parts_.cuda->max_threads(dev.id());
  if (r.count)
    max_threads = std::min<unsigned>(max_threads, unsigned(kBlockReductionBytes / r.record_bytes));
  const std::uint64_t n = end - begin;
  const launch_shape shape = chunk_launch_shape(n, max_threads);
  memory.emplace(dev, r.count ? shape.blocks * r.record_bytes : 0);
  parts_.cuda->launch(parts_.body, parts_.typed_space, parts_.reds, dev.id(), dev.stream(), shape, begin, n, views,
                      memory->get());
  dev.launched();
  // The blocks' records come back behind the kernel, on the same stream
  // as the maps' results: run_device waits once for all of them.
  if (r.count) {
    records.allocate(dev, shape.blocks * r.record_bytes);
    dev.copy_to_host_async(records.data(), memory->get(), records.size());
  }
}

// What run_device allocates: each map's section of the chunk, and the
// reduction records (one per block).
std::uint64_t compiled_loop::device_bytes(std::uint64_t begin, std::uint64_t end) const {
  if (parts_.mode != loop_mode::kernel || begin >= end)
    return 0;
  const reduction_table& r = parts_.reductions;
  std::uint64_t bytes = r.count ? std::uint64_t(chunk_launch_shape(end - begin, 32).blocks) * r.record_bytes : 0;
  const bool in_region = regions_live();
  for (std::size_t k = 0; k < parts_.map_count; ++k) {
    if (placement(place(k)) == placement::device)
      continue;
    const erased_map& m = parts_.maps[k];
    const element_range range = host_range(m, begin, end);
    const std::size_t n = std::size_t(range.size()) * m.element_size;
    // Inside a data region's section the chunk allocates nothing for itself:
    // its device holds its part of the section (data_region.cpp), counted
    // there; a chunk cut to what is left beside it would leave that part and
    // move to other rows, on this device or another.
    region_section section;
    if (in_region && n && region_section_of(m.host + range.lo * static_cast<long long>(m.element_size), n, &section))
      continue;
    bytes += n;
  }
  return bytes;
}

// Each map's host section over the whole loop (kernel mode: what is copied).
void compiled_loop::host_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const {
  add_host_ranges(out, false);
}

// A map is read where it brings its old values in (`to`, `tofrom`) or, on
// present data, where the body reads it (map_slice::decide).
void compiled_loop::host_read_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const {
  add_host_ranges(out, true);
}

void compiled_loop::add_host_ranges(std::vector<std::pair<const void*, std::size_t>>& out, bool read_only) const {
  if (parts_.mode != loop_mode::kernel || parts_.space.count == 0)
    return;
  for (std::size_t k = 0; k < parts_.map_count; ++k) {
    const erased_map& m = parts_.maps[k];
    if (read_only && !(m.kind == map_kind::to || m.kind == map_kind::tofrom || m.read_too))
      continue;
    const element_range r = host_range(m, 0, parts_.space.count);
    if (!r.empty() && !place(k)) // memory used in place is not the host's to register
      out.emplace_back(m.host + r.lo * static_cast<long long>(m.element_size), std::size_t(r.size()) * m.element_size);
  }
}

std::string compiled_loop::overlap(const std::vector<loop_options_builder::disjoint_check>& checks) const {
  if (checks.empty())
    return {};
  const std::size_t n = parts_.map_count;
  std::vector<object_span> sections(n);
  if (parts_.space.count > 0)
    for (std::size_t k = 0; k < n; ++k) {
      const erased_map& m = parts_.maps[k];
      const element_range r = host_range(m, 0, parts_.space.count);
      if (!r.empty())
        sections[k] = {m.host + r.lo * static_cast<long long>(m.element_size), std::size_t(r.size()) * m.element_size};
    }
  for (const auto& c : checks) {
    if (c.written >= n || c.other >= n)
      throw std::invalid_argument("gpu_autopar: check_disjoint names a map that data(...) does not have");
    if (sections[c.written].overlaps(sections[c.other]))
      return overlap_reason(c.written_name, c.other_name);
  }
  return {};
}

void compiled_loop::require_present_or_absent(const loop_site& site) const {
  for (std::size_t k = 0; k < parts_.map_count; ++k) {
    const erased_map& m = parts_.maps[k];
    if (m.clause_extent)
      require_not_partly_present(site, region_section{m.kind, m.host + m.lo * static_cast<long long>(m.element_size),
                                                      std::size_t(m.len) * m.element_size, m.name});
  }
}

void run_compiled_loop(const loop_site& site, const loop_options_builder& options, compiled_loop& loop) {
  std::string serial; // why the loop must run serially, if it must
  if (loop.mode() == loop_mode::kernel) {
    if (regions_live())
      loop.require_present_or_absent(site);
    serial = loop.overlap(options.disjoint_checks());
  }
  if (serial.empty())
    serial = options.checks_failed(); // check_disjoint_objects, check_within, run_serially
  loop_options o = options.with_mode(loop.mode());
  if (!serial.empty())
    o.serial_reason = serial.c_str();
  run_loop(site, loop.count(), o, loop);
}

} // namespace detail
} // namespace gpu_autopar
