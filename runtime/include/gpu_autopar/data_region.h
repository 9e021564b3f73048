// Data regions (docs/runtime.md, "Data regions"): generated code for
//   #pragma gpu_autopar data map(to: a[0:n]) map(tofrom: b[0:n])
//   { ... }
// is a block holding one region object:
//   { ::gpu_autopar::data_region gpu_autopar_data_12(::gpu_autopar::loop_site{"f.cpp", 12},
//         {::gpu_autopar::section(::gpu_autopar::map_kind::to, a, 0, n, "a[0:n]"),
//          ::gpu_autopar::section(::gpu_autopar::map_kind::tofrom, b, 0, n, "b[0:n]")});
//     ... }
// One data environment serves data regions, enter/exit data and loops, with
// OpenMP's rules: a table of present sections, each with a structured
// reference count (the regions that map it) and a dynamic one (enter data
// less exit data). A section mapped while present (wholly inside a present
// one) only adds a reference: nothing is copied, and loops use the present
// copy whatever their own maps say. A section is copied back, if the
// construct that lets it go says `from`/`tofrom`, when both counts reach zero;
// then the devices' copies are freed. A section that overlaps a present one
// without lying inside it is an error naming it.
//
// While a section is present, each device keeps the parts of it that its
// chunks used (resident), and a chunk copies in only what its device does not
// already hold up to date; results reach the host at
// `::gpu_autopar::update_host(b, lo, len)` or when the section leaves (also
// when a region's block is left by an exception). `update_device(b, lo, len)`
// says the host's copy is the newest: devices fetch it again when they need
// it. A section is found by its host address, so loops in functions called
// from the block use the region too (OpenMP's "present" data).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <vector>

#include <gpu_autopar/data_map.h>
#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {

// One mapped section, type-erased: its first element's host address and
// size, and how the program names it (for errors; may be null): its
// elements' size and the first one's index, so that an error can name
// elements of it (`b[512:256]`) rather than bytes.
struct region_section {
  map_kind kind;
  const void* host;
  std::size_t bytes;
  const char* name = nullptr;
  std::size_t element = 1;
  long long first = 0;
};

namespace detail {
template <class Obj>
const void* element_address(Obj& obj, long long index) {
  using A = object_access_t<typename std::remove_cv<Obj>::type>;
  return A::data(const_cast<typename std::remove_cv<Obj>::type&>(obj)) + index;
}
template <class Obj>
std::size_t element_bytes(Obj& obj) {
  using A = object_access_t<typename std::remove_cv<Obj>::type>;
  return sizeof(*A::data(const_cast<typename std::remove_cv<Obj>::type&>(obj)));
}
std::size_t checked_section_bytes(long long lo, long long len, std::size_t element);
template <class Obj>
long long known_size(Obj& obj) {
  using A = object_access_t<typename std::remove_cv<Obj>::type>;
  return A::size(const_cast<typename std::remove_cv<Obj>::type&>(obj));
}
} // namespace detail

namespace detail {
// Whether a data map names elements of the object (a pointer, std::vector,
// std::array, built-in array) or the object itself (a scalar, a struct).
template <class T>
struct is_array_like : std::is_array<T> {};
template <class T>
struct is_array_like<T*> : std::true_type {};
template <class T, class A>
struct is_array_like<std::vector<T, A>> : std::true_type {};
template <class T, std::size_t N>
struct is_array_like<std::array<T, N>> : std::true_type {};
} // namespace detail

// Elements [lo, lo + len) of an array-like object (pointer, std::vector,
// std::array, built-in array). A zero-length section maps nothing.
template <class Obj>
region_section section(map_kind kind, Obj& obj, long long lo, long long len, const char* name = nullptr) {
  const std::size_t e = detail::element_bytes(obj);
  return {kind, detail::element_address(obj, lo), detail::checked_section_bytes(lo, len, e), name, e, lo};
}
// The whole of a container or built-in array, or a scalar or struct itself
// (`acc data copy(max)`: loops capture it by value and combine reductions on
// the host, so the host's copy stays the newest one).
template <class Obj>
region_section section(map_kind kind, Obj& obj, const char* name = nullptr) {
  using O = typename std::remove_cv<Obj>::type;
  static_assert(!std::is_pointer<O>::value, "a pointer mapped by a data region needs a section: map(kind: p[lo:len])");
  if constexpr (detail::is_array_like<O>::value) {
    const long long n = detail::known_size(obj);
    return section(kind, obj, 0, n, name);
  } else {
    return {kind, static_cast<const void*>(&obj), sizeof(Obj), name, sizeof(Obj), 0};
  }
}

class data_region {
public:
  data_region(const loop_site& site, std::initializer_list<region_section> sections);
  // Copies the results back and frees the devices' copies. When the block is
  // left by an exception, failures to copy back are not thrown (the first
  // exception is the one the caller sees); otherwise they are.
  ~data_region() noexcept(false);
  data_region(const data_region&) = delete;
  data_region& operator=(const data_region&) = delete;

private:
  void* state_;
  int exceptions_at_start_;
};

// `#pragma gpu_autopar update host(b[lo:len])`: the newest values of the
// elements reach the host now. No effect on data no live region maps.
void update_host(const region_section& s);
// `#pragma gpu_autopar update device(b[lo:len])`: the host's values are the
// newest; devices copy them in again when a chunk needs them.
void update_device(const region_section& s);

template <class Obj>
void update_host(Obj& obj, long long lo, long long len) {
  update_host(section(map_kind::tofrom, obj, lo, len));
}
template <class Obj>
void update_host(Obj& obj) {
  update_host(section(map_kind::tofrom, obj));
}
template <class Obj>
void update_device(Obj& obj, long long lo, long long len) {
  update_device(section(map_kind::tofrom, obj, lo, len));
}
template <class Obj>
void update_device(Obj& obj) {
  update_device(section(map_kind::tofrom, obj));
}

// Unstructured data (`#pragma gpu_autopar enter data` / `exit data`, OpenMP's
// `target enter/exit data`, OpenACC's `enter/exit data`): one more dynamic
// reference on each section, across functions. A section not present yet
// becomes present (`to` is copied in when a chunk first needs it, `alloc` is
// not); one present already copies nothing.
void enter_data(const loop_site& site, std::initializer_list<region_section> sections);
// One dynamic reference fewer on each section (none if it has none left);
// when both counts are zero, a `from` (or `tofrom`) section's newest values
// come back to the host and the devices' copies are freed; an `alloc` section
// (OpenMP's `release`) is freed without copying. A section that is not
// present is ignored, as in OpenMP.
void exit_data(const loop_site& site, std::initializer_list<region_section> sections);
// OpenACC's `exit data ... finalize`: the dynamic count drops to zero at once;
// a `from` section is still copied back when no structured reference is left.
struct finalize_t {};
inline constexpr finalize_t finalize{};
void exit_data(const loop_site& site, std::initializer_list<region_section> sections, finalize_t);
// OpenMP's `delete`, OpenACC's `delete ... finalize`: the dynamic count drops
// to zero, and nothing is copied back.
void delete_data(const loop_site& site, std::initializer_list<region_section> sections);
// Data entered and never exited stays mapped until the program ends; its
// values are not copied back then.

namespace detail {

// How a chunk's map meets the live regions.
enum class residency {
  none,        // no region maps it: the chunk copies its section as outside a region
  resident,    // in a region: `device` is the device address of the host bytes given
  through_host // partly mapped, or written by overlapping sections: the host was
               // brought up to date; the chunk copies as outside a region
};
struct resident_use {
  residency how = residency::none;
  void* device = nullptr;
  // Resident: keeps the device's part of the section (data_region.cpp) from
  // moving or going away while the chunk uses it; let go with the chunk.
  std::shared_ptr<void> hold;
};

bool regions_live();
// A loop's map clause section (`p[lo:len]`): throws std::invalid_argument
// naming it when it is only partly present.
void require_not_partly_present(const loop_site& site, const region_section& s);
// The section a live region maps that holds all of [host, host + bytes), if
// one does (false otherwise, also for a range that only overlaps one).
bool region_section_of(const void* host, std::size_t bytes, region_section* section);
// Whether the host holds the newest values of every byte of [host, host +
// bytes) that a live region maps (bytes no region maps count as the host's).
bool region_host_newest(const void* host, std::size_t bytes);
// Before a chunk on `dev` uses host bytes [host, host + bytes): `read` if it
// reads their old values, `exclusive_write` if its writes cover exactly its
// own elements (sections of neighbouring chunks do not overlap).
resident_use region_prepare(device_context& dev, const void* host, std::size_t bytes, bool read, bool write,
                            bool exclusive_write);
// After the chunk succeeded: what it wrote is newest where it was written.
void region_written(device_context& dev, const void* host, std::size_t bytes, residency how) noexcept;
// The chunk failed after its kernel may have run: the device's copy of what
// it writes can no longer be trusted.
void region_chunk_failed(device_context& dev, const void* host, std::size_t bytes) noexcept;
// The CPU path: the host's bytes are brought up to date before a chunk reads
// them, and the devices' copies of what it wrote are stale after.
void region_host_sync(const void* host, std::size_t bytes);
void region_host_written(const void* host, std::size_t bytes) noexcept;

} // namespace detail
} // namespace gpu_autopar
