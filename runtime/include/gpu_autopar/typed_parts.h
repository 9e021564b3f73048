// The typed pieces of a loop call (loops.h): what the compiled runtime
// (compiled_loop.h) cannot do without the types of the loop's body, maps and
// reductions. The reductions' functions and the maps' descriptions depend on
// those types only, so loops of a program that share them share one copy;
// the chunk runner is the one piece each loop body instantiates.
#pragma once

#include <cstdint>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include <gpu_autopar/collapsed.h>
#include <gpu_autopar/compiled_loop.h>
#include <gpu_autopar/hd_tuple.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/loop_effects.h>
#include <gpu_autopar/reductions.h>
#include <gpu_autopar/view.h>

namespace gpu_autopar {
namespace detail {

// The partials of one chunk, one GPU thread or one block, as the kernel
// holds them: a device-usable tuple of the reductions' values.
template <class Reds>
using device_partials = decltype(to_hd_tuple(std::declval<typename Reds::partials>()));

// into = into op v, for each reduction.
template <class Reds, class P, std::size_t... I>
GPU_AUTOPAR_HD void fold_partials(P& into, const P& v, std::index_sequence<I...>) {
  ((hd_get<I>(into) = Reds::template combine_one<I>(hd_get<I>(into), hd_get<I>(v))), ...);
}

// The element type of map I of a data(...) tuple.
template <class Maps, std::size_t I>
using map_element_t = typename std::tuple_element<I, Maps>::type::element_type;

// Reduction I's partial in a record: a kernel-mode loop's is a
// device_partials (a GPU's threads and blocks hold it), a host- or task-mode
// loop's the reductions' std::tuple, which may hold what no device code may
// touch (a lastprivate std::string).
template <std::size_t I, class... T>
auto& partial_at(std::tuple<T...>& r) {
  return std::get<I>(r);
}
template <std::size_t I, class... T>
auto& partial_at(const std::tuple<T...>& r) {
  return std::get<I>(r);
}
template <std::size_t I, class R>
auto& partial_at(R& r) {
  return hd_get<I>(r);
}

// reduction_table (compiled_loop.h) for a reduction_set type and its record.
template <class Reds, class Record,
          class Seq = std::make_index_sequence<std::tuple_size<typename Reds::partials>::value>>
struct reduction_functions;
template <class Reds, class Record, std::size_t... I>
struct reduction_functions<Reds, Record, std::index_sequence<I...>> {
  static void identity(const void* reds, void* out) {
    const auto& refs = static_cast<const Reds*>(reds)->refs();
    Record* r = new (out) Record;
    ((partial_at<I>(*r) = std::get<I>(refs).identity()), ...);
    (void)refs;
    (void)r;
  }
  static void destroy(void* record) { static_cast<Record*>(record)->~Record(); }
  static void fold(void* into, const void* from) {
    fold_partials<Reds>(*static_cast<Record*>(into), *static_cast<const Record*>(from), std::index_sequence<I...>{});
  }
  static void store(const void* reds, const void* partials) {
    const auto& refs = static_cast<const Reds*>(reds)->refs();
    (std::get<I>(refs).store(partial_at<I>(*static_cast<const Record*>(partials))), ...);
    (void)refs;
    (void)partials;
  }
  static void describe_all(const void* reds, reduction_variable* out) {
    const auto& refs = static_cast<const Reds*>(reds)->refs();
    ((out[I] = describe(std::get<I>(refs))), ...);
    (void)refs;
    (void)out;
  }
  // Only a device record is folded (the blocks' records of a chunk): the
  // operators are device functions, which a host record's types need not allow.
  static constexpr auto fold_function() {
    if constexpr (std::is_same<Record, device_partials<Reds>>::value)
      return &fold;
    else
      return static_cast<void (*)(void*, const void*)>(nullptr);
  }
  // Built where a loop call describes its loop, not a static table: nvcc
  // compiles what a constant table points to for the device too, and a host
  // record's functions need not compile there (a lastprivate std::string's).
  static reduction_table table() {
    return {sizeof...(I), sizeof(Record), &identity, &destroy, fold_function(), &store, &describe_all};
  }
};

template <class Maps, std::size_t... I>
std::array<erased_map, sizeof...(I)> erase_maps(const Maps& maps, std::index_sequence<I...>) {
  (void)maps;
  return {{erase_map(std::get<I>(maps))...}};
}
template <class Maps>
auto erase_maps(const Maps& maps) {
  return erase_maps(maps, std::make_index_sequence<std::tuple_size<Maps>::value>{});
}

// Calls f(i) for the induction values of iteration indices [begin, end),
// computed as the serial loop computes them (`i += step` in the variable's
// own type): a chunk then walks a plain induction variable, which compilers
// vectorise, instead of recomputing first + k*step with wrap-around for every
// index. The unit step, by far the most common, gets a loop of its own so
// that its stride is known at compile time. The value after the chunk's last
// is one the serial loop also computes, so this overflows only where the
// serial loop itself would.
template <class T, class F>
inline void for_each_value(const iterations<T>& space, std::uint64_t begin, std::uint64_t end, F&& f) {
  T i = space.at(begin);
  if (space.step() == 1) {
    for (std::uint64_t k = begin; k < end; ++k, ++i)
      f(i);
    return;
  }
  const T step = static_cast<T>(space.step());
  for (std::uint64_t k = begin; k < end; ++k, i = static_cast<T>(i + step))
    f(i);
}

// Calls f(i, j, ...) for the induction values of indices [begin, end) of a
// collapsed nest.
template <class T, class F>
inline void for_each_index(const iterations<T>& space, std::uint64_t begin, std::uint64_t end, F&& f) {
  for_each_value(space, begin, end, f);
}
// Walked by cursor (collapsed.h): one division where the range starts, none
// per iteration.
template <class... T, class F>
inline void for_each_index(const collapsed<T...>& space, std::uint64_t begin, std::uint64_t end, F&& f) {
  if (begin >= end)
    return;
  auto at = space.position(begin);
  const auto one = space.position(std::uint64_t(1));
  for (std::uint64_t k = begin; k < end; ++k, space.advance(at, one))
    space.call_on_host(at, f);
}

// The chunk runner (chunk_runner, compiled_loop.h) of one loop: the body over
// indices [begin, end), with map V's view (kernel mode) and reduction P's
// partial. Kernel mode runs a local copy of the body (its captures); every
// mode local copies of the views and of the space: the compiler then knows
// stores through a view cannot change them, and can keep them in registers
// and vectorise the loop.
template <bool CopyBody, class Space, class Body, class Maps, class Reds, class Record,
          class Views = std::make_index_sequence<std::tuple_size<Maps>::value>,
          class Partials = std::make_index_sequence<std::tuple_size<typename Reds::partials>::value>>
struct chunk_runner_of;
template <bool CopyBody, class Space, class Body, class Maps, class Reds, class Record, std::size_t... V,
          std::size_t... P>
struct chunk_runner_of<CopyBody, Space, Body, Maps, Reds, Record, std::index_sequence<V...>,
                       std::index_sequence<P...>> {
  static void run(void* body, const void* space, std::uint64_t begin, std::uint64_t end, const erased_view* views,
                  void* record) {
    using B = typename std::conditional<CopyBody, Body, Body&>::type;
    B b = *static_cast<Body*>(body);
    const Space s = *static_cast<const Space*>(space);
    const hd_tuple<basic_view<map_element_t<Maps, V>>...> v{hd_leaf<V, basic_view<map_element_t<Maps, V>>>{
        basic_view<map_element_t<Maps, V>>(reinterpret_cast<map_element_t<Maps, V>*>(views[V].origin),
                                           views[V].size)}...};
    // The partials in a local too, for the same reason, and written back
    // once the chunk's iterations ran.
    Record partials{};
    if constexpr (sizeof...(P) > 0)
      partials = *static_cast<Record*>(record);
    (void)views;
    (void)v;
    for_each_index(s, begin, end, [&](auto... i) { b(i..., hd_get<V>(v)..., partial_at<P>(partials)...); });
    if constexpr (sizeof...(P) > 0)
      *static_cast<Record*>(record) = partials;
  }
};

} // namespace detail
} // namespace gpu_autopar
