// view<Obj>: what a kernel-mode body sees in place of an array-like object
// (a raw pointer, std::vector, std::array or built-in array) it reads or
// writes. It indexes with the loop's original, global indices: `x[i]` reads
// element i whether x points at the host object (CPU path: no copies) or at
// the slice of it that was copied to a device.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <gpu_autopar/hd.h>

namespace gpu_autopar {

// The element type of an object's outermost dimension, with its constness.
template <class Obj, class = void>
struct element_of;
template <class T>
struct element_of<T*> {
  using type = T;
};
template <class T>
struct element_of<T* const> {
  using type = T;
};
template <class T>
struct element_of<T* __restrict__> {
  using type = T;
};
template <class T>
struct element_of<T* const __restrict__> {
  using type = T;
};
template <class T, std::size_t N>
struct element_of<T[N]> {
  using type = T;
};
template <class T, std::size_t N>
struct element_of<const T[N]> {
  using type = const T;
};
template <class T, class A>
struct element_of<std::vector<T, A>> {
  using type = T;
};
template <class T, class A>
struct element_of<const std::vector<T, A>> {
  using type = const T;
};
template <class T, std::size_t N>
struct element_of<std::array<T, N>> {
  using type = T;
};
template <class T, std::size_t N>
struct element_of<const std::array<T, N>> {
  using type = const T;
};

template <class Obj>
using element_of_t = typename element_of<typename std::remove_reference<Obj>::type>::type;

template <class E>
class basic_view {
public:
  using element_type = E;

  basic_view() = default;
  // `origin` is where global index 0 would be; `size` the object's full size
  // in elements (0 when unknown, for a raw pointer without an extent).
  GPU_AUTOPAR_HD basic_view(E* origin, std::size_t size) : origin_(origin), size_(size) {}

  template <class I, class = typename std::enable_if<std::is_integral<I>::value>::type>
  GPU_AUTOPAR_HD E& operator[](I index) const {
    return origin_[index];
  }
  GPU_AUTOPAR_HD std::size_t size() const { return size_; }
  GPU_AUTOPAR_HD E* data() const { return origin_; }
  // So that pointer-style bodies (`*(x + i)`, `x + off`) keep working.
  GPU_AUTOPAR_HD operator E*() const { return origin_; }

private:
  E* origin_ = nullptr;
  std::size_t size_ = 0;
};

// Generated code writes `::gpu_autopar::view<decltype(x)> x`: the view type
// follows from the object's declared type, also inside templates.
template <class Obj>
using view = basic_view<element_of_t<Obj>>;

namespace detail {
// The element types __ldg loads.
template <class T>
struct loads_read_only
    : std::integral_constant<bool, std::is_same<T, char>::value || std::is_same<T, signed char>::value ||
                                       std::is_same<T, unsigned char>::value || std::is_same<T, short>::value ||
                                       std::is_same<T, unsigned short>::value || std::is_same<T, int>::value ||
                                       std::is_same<T, unsigned>::value || std::is_same<T, long>::value ||
                                       std::is_same<T, unsigned long>::value || std::is_same<T, long long>::value ||
                                       std::is_same<T, unsigned long long>::value ||
                                       std::is_same<T, float>::value || std::is_same<T, double>::value> {};

template <class T>
GPU_AUTOPAR_HD T load_read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  if constexpr (loads_read_only<T>::value)
    return __ldg(p);
#endif
  return *p;
}
} // namespace detail

// What a kernel-mode body sees in place of an object it only reads, element
// by element, by value (the tool checks every use: no reference bound to an
// element, no address taken). Nothing writes the elements while a chunk runs,
// so on a GPU its loads may take the read-only data cache (`ld.global.nc`),
// which nvcc uses only for a `const __restrict__` kernel parameter and a view
// held in the body's closure is not one. Elsewhere it is a plain load.
template <class E>
class basic_read_view {
public:
  using element_type = const E;

  basic_read_view() = default;
  GPU_AUTOPAR_HD basic_read_view(const basic_view<E>& v) : origin_(v.data()), size_(v.size()) {}
  template <class F = E, class = typename std::enable_if<!std::is_const<F>::value>::type>
  GPU_AUTOPAR_HD basic_read_view(const basic_view<const F>& v) : origin_(v.data()), size_(v.size()) {}

  template <class I, class = typename std::enable_if<std::is_integral<I>::value>::type>
  GPU_AUTOPAR_HD E operator[](I index) const {
    return detail::load_read_only(origin_ + index);
  }
  GPU_AUTOPAR_HD std::size_t size() const { return size_; }

private:
  const E* origin_ = nullptr;
  std::size_t size_ = 0;
};

// `::gpu_autopar::read_view<decltype(x)> x`, for an object of arithmetic
// elements the loop only reads by value.
template <class Obj>
using read_view = basic_read_view<typename std::remove_const<element_of_t<Obj>>::type>;

} // namespace gpu_autopar
