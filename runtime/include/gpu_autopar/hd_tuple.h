// A minimal tuple usable in device code (std::tuple's members are not
// __device__ functions), for passing a chunk's views and reduction partials
// to a CUDA kernel.
#pragma once

#include <cstddef>
#include <tuple>
#include <utility>

#include <gpu_autopar/hd.h>

namespace gpu_autopar {
namespace detail {

template <std::size_t I, class T>
struct hd_leaf {
  T value;
};

template <class Seq, class... T>
struct hd_tuple_impl;
template <std::size_t... I, class... T>
struct hd_tuple_impl<std::index_sequence<I...>, T...> : hd_leaf<I, T>... {};

template <class... T>
using hd_tuple = hd_tuple_impl<std::index_sequence_for<T...>, T...>;

template <std::size_t I, class T>
GPU_AUTOPAR_HD T& hd_get(hd_leaf<I, T>& leaf) {
  return leaf.value;
}
template <std::size_t I, class T>
GPU_AUTOPAR_HD const T& hd_get(const hd_leaf<I, T>& leaf) {
  return leaf.value;
}

template <class... T, std::size_t... I>
hd_tuple<T...> to_hd_tuple(const std::tuple<T...>& t, std::index_sequence<I...>) {
  return hd_tuple<T...>{hd_leaf<I, T>{std::get<I>(t)}...};
}
template <class... T>
hd_tuple<T...> to_hd_tuple(const std::tuple<T...>& t) {
  return to_hd_tuple(t, std::index_sequence_for<T...>{});
}
template <class... T, std::size_t... I>
std::tuple<T...> from_hd_tuple(const hd_tuple<T...>& t, std::index_sequence<I...>) {
  return std::tuple<T...>(hd_get<I>(t)...);
}

} // namespace detail
} // namespace gpu_autopar
