// Data maps of a kernel-mode loop as generated code spells them:
//   ::gpu_autopar::data(::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1)),
//                       ::gpu_autopar::tofrom(y, 0, n, ::gpu_autopar::affine(2, 0, 1)))
// Each map names the user's object, optionally the range of it that exists
// (`lo, len`, required for raw pointers), and the section one chunk touches.
// A chunk of a loop running on a device gets a device copy of exactly that
// section; on the CPU path views point at the host data and nothing is copied.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <vector>

#include <gpu_autopar/options.h>
#include <gpu_autopar/view.h>

namespace gpu_autopar {

enum class map_kind { to, from, tofrom, alloc };

// The section of the object's outermost dimension that iteration with
// induction value i touches: [scale*i + offset, scale*i + offset + extent).
struct affine {
  long long scale, offset, extent;
  affine(long long s, long long o, long long e) : scale(s), offset(o), extent(e) {}
};
// The hull of several sections with the same scale whose offsets differ by
// run-time values (a[(i-1)*n + j] and a[(i+1)*n + j]): the smallest affine
// section containing them all, whatever the sign of n.
inline affine hull(affine first) { return first; }
template <class... Rest>
affine hull(affine first, affine second, Rest... rest) {
  long long lo = std::min(first.offset, second.offset);
  long long hi = std::max(first.offset + first.extent, second.offset + second.extent);
  return hull(affine(first.scale, lo, hi - lo), rest...);
}

// The whole object (its known size, or `len` elements for a raw pointer).
struct whole_section {
  long long len = -1;
};
inline whole_section whole() { return {}; }
inline whole_section whole(long long len) { return {len}; }

namespace detail {

template <class Obj>
struct object_access; // data pointer and size of a user object
template <class T>
struct object_access<T*> {
  static T* data(T* p) { return p; }
  static long long size(T*) { return -1; }
};
template <class T>
struct object_access<T* const> : object_access<T*> {};
template <class T>
struct object_access<T* __restrict__> : object_access<T*> {};
template <class T>
struct object_access<T* const __restrict__> : object_access<T*> {};
template <class T, std::size_t N>
struct object_access<T[N]> {
  static T* data(T (&a)[N]) { return a; }
  static long long size(const T (&)[N]) { return static_cast<long long>(N); }
};
template <class T, class A>
struct object_access<std::vector<T, A>> {
  static T* data(std::vector<T, A>& v) { return v.data(); }
  static long long size(const std::vector<T, A>& v) { return static_cast<long long>(v.size()); }
};
template <class T, class A>
struct object_access<const std::vector<T, A>> {
  static const T* data(const std::vector<T, A>& v) { return v.data(); }
  static long long size(const std::vector<T, A>& v) { return static_cast<long long>(v.size()); }
};
template <class T, std::size_t N>
struct object_access<std::array<T, N>> {
  static T* data(std::array<T, N>& a) { return a.data(); }
  static long long size(const std::array<T, N>&) { return static_cast<long long>(N); }
};
template <class T, std::size_t N>
struct object_access<const std::array<T, N>> {
  static const T* data(const std::array<T, N>& a) { return a.data(); }
  static long long size(const std::array<T, N>&) { return static_cast<long long>(N); }
};

template <class Obj>
using object_access_t = object_access<Obj>;

// An element range [lo, hi) of an object.
struct element_range {
  long long lo = 0, hi = 0;
  bool empty() const { return hi <= lo; }
  long long size() const { return hi > lo ? hi - lo : 0; }
};

} // namespace detail

// One map: the object's elements, the part of it that exists ([lo, lo + len);
// len < 0: unknown), and the section a chunk needs (affine or whole). Each section kind says
// which elements a chunk needs (chunk_range) and whether neighbouring chunks'
// sections may overlap (then a chunk copies back only the elements it changed).
template <class E, class Section>
struct map_spec;

namespace detail {
inline element_range clamp(element_range r, long long lo, long long len) {
  if (len >= 0) {
    r.lo = std::max(r.lo, lo);
    r.hi = std::min(r.hi, lo + len);
  }
  if (r.hi < r.lo)
    r.hi = r.lo;
  return r;
}
} // namespace detail

// What every map holds: the direction, the object's element 0 and the
// elements that exist. The kind says what is copied where the section is
// not present; on present data (a data region, enter data) nothing is
// copied and what the body does decides: `written_too` marks a `to` or
// `alloc` map whose elements the body writes, `read_too` a `from` or `alloc`
// map whose elements it reads (also_written, also_read below).
template <class E>
struct map_object {
  using element_type = E;
  map_kind kind;
  E* host;
  long long lo, len;
  bool read_too = false, written_too = false;
  // A raw pointer's `[lo, lo + len)` as a map clause gave it, and the clause's
  // text: a section that must be absent or wholly present (OpenMP's rule).
  bool clause_extent = false;
  const char* name = nullptr;

  // The object's size as a view reports it (0 when unknown).
  std::size_t size() const { return len < 0 ? 0 : static_cast<std::size_t>(lo + len); }
  basic_view<E> host_view() const { return basic_view<E>(host, size()); }
};

template <class E>
struct map_spec<E, affine> : map_object<E> {
  affine section;

  bool sections_may_overlap() const {
    long long s = section.scale < 0 ? -section.scale : section.scale;
    return section.extent > s;
  }
  detail::element_range chunk_range(long long first, long long last) const {
    long long a = section.scale * first + section.offset, b = section.scale * last + section.offset;
    return detail::clamp({std::min(a, b), std::max(a, b) + section.extent}, this->lo, this->len);
  }
};

template <class E>
struct map_spec<E, whole_section> : map_object<E> {
  whole_section section;

  bool sections_may_overlap() const { return true; }
  detail::element_range chunk_range(long long, long long) const { return {this->lo, this->lo + this->len}; }
};

namespace detail {
// Elements from `p` to the end of the present section that holds `p`
// (data_region.cpp); 0 when none does.
long long present_elements(const void* p, std::size_t element_bytes);

template <class Obj, class Section>
auto make_map(map_kind kind, Obj& obj, long long lo, long long len, Section s, const char* name = nullptr) {
  using A = object_access_t<Obj>;
  using E = typename std::remove_reference<decltype(*A::data(obj))>::type;
  map_object<E> target{kind, A::data(obj), lo, len};
  target.clause_extent = A::size(obj) < 0 && len > 0;
  target.name = name;
  if (A::size(obj) >= 0) { // containers and built-in arrays know their size
    target.lo = 0;
    target.len = A::size(obj);
  }
  if constexpr (std::is_same<Section, whole_section>::value) {
    if (target.len < 0 && s.len >= 0) {
      target.lo = 0;
      target.len = s.len;
    }
  }
  // `p[lo:0]`, OpenMP's zero-length section of a pointer: the present
  // section `p` points into, if any; otherwise the elements the chunks touch
  // (the tool's section), or an error where the loop's section is unknown.
  if (A::size(obj) < 0 && len == 0) {
    const long long present = present_elements(target.host, sizeof(E));
    target.lo = 0;
    target.len = present > 0 ? present : -1;
    if (present == 0 && !std::is_same<Section, affine>::value)
      throw std::invalid_argument("gpu-autopar: a zero-length section of a pointer that points into no present "
                                  "section maps nothing, and the loop uses the whole object; map its elements");
  }
  if (target.len < 0 && !std::is_same<Section, affine>::value)
    throw std::invalid_argument("gpu_autopar: a raw pointer mapped without an extent; add map(kind: p[lo:len])");
  return map_spec<E, Section>{target, s};
}
} // namespace detail

// to / from / tofrom / alloc (object, section) for containers and built-in
// arrays, and (pointer, lo, len, section[, "p[lo:len]"]) for raw pointers.
#define GPU_AUTOPAR_MAP_KIND(name)                                                                                 \
  template <class Obj, class Section>                                                                             \
  auto name(Obj& obj, Section s) {                                                                                \
    return detail::make_map(map_kind::name, obj, 0, -1, s);                                                       \
  }                                                                                                               \
  template <class Obj, class Section>                                                                             \
  auto name(Obj& obj, long long lo, long long len, Section s, const char* text = nullptr) {                       \
    return detail::make_map(map_kind::name, obj, lo, len, s, text);                                               \
  }
GPU_AUTOPAR_MAP_KIND(to)
GPU_AUTOPAR_MAP_KIND(from)
GPU_AUTOPAR_MAP_KIND(tofrom)
GPU_AUTOPAR_MAP_KIND(alloc)
#undef GPU_AUTOPAR_MAP_KIND

// A `to` or `alloc` map whose elements the body writes; a `from` or `alloc`
// map whose elements it reads. Where the section is present they decide what
// the loop does with the present copy (its writes stay there); elsewhere the
// kind alone decides what is copied.
template <class Map>
Map also_written(Map m) {
  m.written_too = true;
  return m;
}
template <class Map>
Map also_read(Map m) {
  m.read_too = true;
  return m;
}
namespace detail {
// Whether the body may write a map's elements.
template <class Map>
bool body_writes(const Map& m) {
  return m.kind == map_kind::from || m.kind == map_kind::tofrom || m.written_too;
}
} // namespace detail

// The bytes of a container or built-in array, or of one number (a reference
// that may name an element the loop writes), for options().check_disjoint_objects.
template <class Obj>
object_span object_bytes(const Obj& obj) {
  if constexpr (std::is_arithmetic<Obj>::value) {
    return {static_cast<const void*>(&obj), sizeof(Obj)};
  } else {
    using A = detail::object_access_t<Obj>;
    Obj& o = const_cast<Obj&>(obj); // only its address is taken
    const long long n = A::size(o);
    return {static_cast<const void*>(A::data(o)), n > 0 ? std::size_t(n) * sizeof(*A::data(o)) : 0};
  }
}

template <class... Maps>
std::tuple<Maps...> data(Maps... maps) {
  return std::tuple<Maps...>(maps...);
}

} // namespace gpu_autopar
