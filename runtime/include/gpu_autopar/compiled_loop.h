// A loop as the compiled runtime sees it: its iteration space, data maps and
// reductions described by values (type-erased), the body reached through one
// function pointer per loop. Everything that does not need the body's type
// (device slices, copies, overlap checks, reductions' folding, what MPI
// exchanges) lives in runtime/src/compiled_loop.cpp, compiled once, instead of
// being instantiated by every annotated loop of a program: the templates in
// loops.h only fill these descriptions and instantiate the chunk runner,
// which calls the body (docs/contributing.md, what the generated code costs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gpu_autopar/data_map.h>
#include <gpu_autopar/launch_shape.h>
#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loop_effects.h>
#include <gpu_autopar/options.h>

namespace gpu_autopar {
namespace detail {

class staging_buffer;      // runtime/src/map_slice.h
class map_slice;           // runtime/src/map_slice.h
class read_once_sections; // runtime/src/read_once.h

// The iteration space: the index count and the outermost loop's value at an
// index, as a long long (what data maps are sections of).
struct loop_space {
  std::uint64_t count = 0;
  std::uint64_t inner = 1;   // iterations per outermost value (a collapsed nest), else 1
  std::uint64_t first = 0;   // the outermost loop's first value, its bits
  long long step = 1;        // the outermost loop's step
  unsigned bits = 64;        // the width of the outermost induction variable
  bool is_signed = true;
  bool collapsed = false;

  // static_cast<long long>(the outermost value at index k), computed as
  // iterations<T>::at computes it, modulo 2^bits.
  long long outer_at(std::uint64_t k) const {
    std::uint64_t v = first + (k / inner) * static_cast<std::uint64_t>(step);
    if (bits < 64) {
      const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
      v &= mask;
      if (is_signed && (v >> (bits - 1)) != 0)
        v |= ~mask;
    }
    return static_cast<long long>(v);
  }
  // Whether a chunk [begin, end) starts or ends inside one outermost value.
  bool splits_outer(std::uint64_t begin, std::uint64_t end) const {
    return collapsed && (begin % inner != 0 || end % inner != 0);
  }
};

template <class T>
loop_space space_of(const iterations<T>& s, std::uint64_t inner = 1, bool collapsed = false) {
  loop_space l;
  l.count = s.count(); // a collapsed nest's caller sets the nest's count
  l.inner = inner;
  l.first = static_cast<std::uint64_t>(static_cast<typename std::make_unsigned<T>::type>(s.first()));
  l.step = s.step();
  l.bits = unsigned(sizeof(T) * 8);
  l.is_signed = std::is_signed<T>::value;
  l.collapsed = collapsed;
  return l;
}

// One data map, whatever its object's type.
struct erased_map {
  map_kind kind = map_kind::to;
  unsigned char* host = nullptr; // the object's element 0
  std::size_t element_size = 1;
  // What changes are found in (map_slice.h): a scalar of the element, or
  // single bytes of a class type.
  std::size_t unit = 1;
  bool copyable = false; // trivially copyable elements
  long long lo = 0, len = -1;
  bool read_too = false, written_too = false, clause_extent = false;
  const char* name = nullptr;
  bool whole = false; // whole(); otherwise affine(scale, offset, extent)
  long long scale = 0, offset = 0, extent = 0;

  std::size_t size() const { return len < 0 ? 0 : static_cast<std::size_t>(lo + len); }
  element_range chunk_range(long long first, long long last) const {
    if (whole)
      return {lo, lo + len};
    long long a = scale * first + offset, b = scale * last + offset;
    return clamp({std::min(a, b), std::max(a, b) + extent}, lo, len);
  }
  bool sections_may_overlap() const { return whole || extent > (scale < 0 ? -scale : scale); }
  // Whether the sections of consecutive iterations tile the chunk's hull
  // without holes (a `from` map then need not copy the old values in).
  bool covers_densely(long long step) const {
    if (whole)
      return false;
    const long long stride = scale * step;
    return extent == (stride < 0 ? -stride : stride);
  }
  bool body_writes() const { return kind == map_kind::from || kind == map_kind::tofrom || written_too; }
};

template <class E, class S>
erased_map erase_map(const map_spec<E, S>& m) {
  using Mutable = typename std::remove_const<E>::type;
  using scalar = typename std::remove_all_extents<Mutable>::type;
  erased_map e;
  e.kind = m.kind;
  e.host = reinterpret_cast<unsigned char*>(const_cast<Mutable*>(m.host));
  e.element_size = sizeof(E);
  e.unit = std::is_arithmetic<scalar>::value || std::is_pointer<scalar>::value ? sizeof(scalar) : 1;
  e.copyable = std::is_trivially_copyable<E>::value;
  e.lo = m.lo;
  e.len = m.len;
  e.read_too = m.read_too;
  e.written_too = m.written_too;
  e.clause_extent = m.clause_extent;
  e.name = m.name;
  if constexpr (std::is_same<S, affine>::value) {
    e.scale = m.section.scale;
    e.offset = m.section.offset;
    e.extent = m.section.extent;
  } else {
    e.whole = true;
  }
  return e;
}

// A map's view for a chunk: where global index 0 would be, and the object's size.
struct erased_view {
  unsigned char* origin = nullptr;
  std::size_t size = 0;
};

// The reductions (and lastprivate variables) of a loop: a chunk's partials
// are one record (typed_parts.h: in kernel mode a device_partials, which a
// GPU's threads and blocks hold too), handled through these functions of its type.
struct reduction_table {
  std::size_t count = 0;        // reductions and lastprivate variables
  std::size_t record_bytes = 0; // sizeof(one record)
  // Writes each operator's identity into `record` (uninitialised bytes).
  void (*identity)(const void* reds, void* record) = nullptr;
  // Ends the life of a record identity() began.
  void (*destroy)(void* record) = nullptr;
  // into = into op from, for each reduction (kernel mode's records only).
  void (*fold)(void* into, const void* from) = nullptr;
  // Folds a successful chunk's record into the user's variables.
  void (*store)(const void* reds, const void* record) = nullptr;
  // The variables, type-erased for a runtime that splits loops across processes.
  void (*describe)(const void* reds, reduction_variable* out) = nullptr;
};

// Runs the body over iteration indices [begin, end) with the maps' views
// (kernel mode) and one record of partials (null without reductions).
using chunk_runner = void (*)(void* body, const void* space, std::uint64_t begin, std::uint64_t end,
                              const erased_view* views, void* record);

// A kernel-mode loop's CUDA kernel (loops.h, with a CUDA compiler only).
struct cuda_kernel {
  // The threads a block of this kernel may have on `device`; throws
  // device_error when the program holds no code for it.
  unsigned (*max_threads)(int device) = nullptr;
  // Launches the chunk [begin, begin + n) on `stream`; with reductions, each
  // block's record goes to out[block]. Throws device_error when the launch fails.
  void (*launch)(void* body, const void* space, const void* reds, int device, void* stream,
                 launch_shape shape, std::uint64_t begin, std::uint64_t n, const erased_view* views,
                 void* out) = nullptr;
};

// Everything a loop call hands the compiled runtime.
struct loop_parts {
  loop_mode mode = loop_mode::kernel;
  loop_space space;
  // Kernel mode: the data maps. Host and task mode: the objects the loop's
  // map(from:) clauses say it produces (effects only, never copied).
  const erased_map* maps = nullptr;
  std::size_t map_count = 0;
  reduction_table reductions;
  const void* reds = nullptr; // the reduction_set
  void* body = nullptr;
  const void* typed_space = nullptr; // the iterations<T> or collapsed<T...>
  chunk_runner run = nullptr;
  const cuda_kernel* cuda = nullptr; // null: compiled without a CUDA compiler
};

// What a loop writes and reduces (loop_effects.h), from its maps.
class erased_effects final : public loop_effects {
public:
  erased_effects(const loop_space& space, const erased_map* maps, std::size_t map_count,
                 const reduction_table* reductions, const void* reds);
  std::size_t written_count() const override { return written_.size(); }
  written_section written(std::size_t k, std::uint64_t begin, std::uint64_t end) const override;
  std::size_t reduction_count() const override { return reductions_.size(); }
  reduction_variable reduction(std::size_t k) const override { return reductions_[k]; }
  std::size_t read_count() const override { return read_.size(); }
  written_section read(std::size_t k, std::uint64_t begin, std::uint64_t end) const override;

private:
  written_section section_of(const erased_map& m, std::uint64_t begin, std::uint64_t end) const;
  loop_space space_;
  const erased_map* maps_;
  std::vector<std::size_t> written_, read_;
  std::vector<reduction_variable> reductions_;
};

// The loop_body of every annotated loop.
class compiled_loop final : public loop_body {
public:
  // `produces`: host and task mode, whether the maps are the objects the
  // loop produces (then it may be split across processes). `parts` must
  // outlive the loop: it is read, not copied (a copy of what the caller has
  // just written stalls on the store, which a short loop's dispatch shows).
  compiled_loop(const loop_parts& parts, bool produces = false);
  ~compiled_loop() override; // frees what the devices hold for the loop

  void run_host(std::uint64_t begin, std::uint64_t end) override;
  void run_device(device_context& dev, std::uint64_t begin, std::uint64_t end) override;
  bool can_run_on(device_kind kind, const char** why_not) const override;
  std::uint64_t device_bytes(std::uint64_t begin, std::uint64_t end) const override;
  const loop_effects* effects() const override { return effects_ ? &*effects_ : nullptr; }
  bool leaves_untracked_work() const override { return parts_.mode != loop_mode::kernel; }
  void host_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const override;
  void host_read_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const override;
  std::uint64_t split_unit() const override {
    return parts_.mode == loop_mode::kernel && parts_.space.collapsed ? parts_.space.inner : 1;
  }
  const in_place_memory* in_place() const override { return places_.empty() ? nullptr : &in_place_; }

  // Why the loop must run serially: the first pair of `checks` whose
  // sections over the whole loop share a byte; empty when none does.
  std::string overlap(const std::vector<loop_options_builder::disjoint_check>& checks) const;
  // A map clause's section of a pointer is either not present or wholly
  // inside a present one (OpenMP's rule); throws std::invalid_argument naming it.
  void require_present_or_absent(const loop_site& site) const;

  loop_mode mode() const { return parts_.mode; }
  std::uint64_t count() const { return parts_.space.count; }

private:
  // The body over [begin, end) from fresh partials, combined once it
  // succeeded. Without reductions, straight to the runner: a short loop on
  // the CPU path runs pieces of a few iterations, where every call shows.
  void run_range(std::uint64_t begin, std::uint64_t end, const erased_view* views) {
    if (parts_.reductions.count == 0)
      parts_.run(parts_.body, parts_.typed_space, begin, end, views, nullptr);
    else
      run_reduced(begin, end, views);
  }
  void run_reduced(std::uint64_t begin, std::uint64_t end, const erased_view* views);
  void run_sim(device_context& dev, const erased_view* views, std::uint64_t begin, std::uint64_t end,
               staging_buffer& records, std::optional<device_allocation>& memory);
  void run_cuda(device_context& dev, const erased_view* views, std::uint64_t begin, std::uint64_t end,
                staging_buffer& records, std::optional<device_allocation>& memory);
  void complete_chunk(map_slice* slices, const staging_buffer& records);
  void add_host_ranges(std::vector<std::pair<const void*, std::size_t>>& out, bool read_only) const;
  void combine(const void* record);
  element_range host_range(const erased_map& m, std::uint64_t begin, std::uint64_t end) const;

  const loop_parts& parts_;
  std::optional<erased_effects> effects_;
  std::mutex combine_mutex_; // partials reach the user's variables one chunk at a time
  // Read-only sections every chunk needs whole, copied once per device (null: none).
  std::unique_ptr<read_once_sections> once_;
  // Maps used in place (device or managed memory, in_place.h): each map's
  // placement; empty when every map is copied.
  std::vector<signed char> places_;
  in_place_memory in_place_;
  signed char place(std::size_t k) const { return places_.empty() ? 0 : places_[k]; }
};

// Runs the loop (run_loop), serially when a run-time check says so
// (check_disjoint, check_disjoint_objects, check_within, run_serially).
void run_compiled_loop(const loop_site& site, const loop_options_builder& options, compiled_loop& loop);

} // namespace detail
} // namespace gpu_autopar
