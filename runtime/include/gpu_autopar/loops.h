// The three entry points rewritten loops call (docs/generated-code.md):
//   host_loop   — no GPU work: CPU threads only
//   task_loop   — the body does GPU work itself: runs on a worker holding a lease
//   kernel_loop — the body can run on a GPU: one GPU thread per iteration of a
//                 chunk, with the chunk's data sections copied in and out
// Each describes the loop to the compiled runtime (compiled_loop.h), which
// splits the iteration indices over devices and CPU threads: a call
// instantiates only its chunk runner (typed_parts.h) and, with a CUDA
// compiler, its kernel (chunk_kernel.h); the rest is compiled once, in the
// runtime library (docs/contributing.md, what the generated code costs).
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <gpu_autopar/collapsed.h>
#include <gpu_autopar/compiled_loop.h>
#include <gpu_autopar/data_map.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/loop_problem.h>
#include <gpu_autopar/options.h>
#include <gpu_autopar/reductions.h>
#include <gpu_autopar/typed_parts.h>
#if defined(__CUDACC__)
#include <gpu_autopar/chunk_kernel.h>
#endif

namespace gpu_autopar {

// The bytes a raw pointer's section covers over every iteration of `space`:
// what a loop without maps compares before it runs, when the tool could not
// prove two pointers apart (options().check_disjoint_objects). Addresses are
// computed as integers: the hull may start before the pointer.
template <class Space, class E>
object_span section_bytes(const Space& space, E* p, affine s) {
  if (space.count() == 0)
    return {};
  const long long first = static_cast<long long>(detail::outer_at(space, 0));
  const long long last = static_cast<long long>(detail::outer_at(space, space.count() - 1));
  // The hull a map of the pointer would copy for one chunk spanning the loop.
  const detail::element_range r = map_spec<E, affine>{{map_kind::to, p, 0, -1}, s}.chunk_range(first, last);
  if (r.empty())
    return {};
  const auto at = reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(r.lo * static_cast<long long>(sizeof(E)));
  return {reinterpret_cast<const void*>(at), static_cast<std::size_t>(r.size()) * sizeof(E)};
}

namespace detail {

// Tells the loop's lastprivate variables which iteration is the last one.
template <class T, class Reds>
void mark_last_iteration(const iterations<T>& space, Reds& reds) {
  if (space.count() > 0)
    reds.set_last(space.at(space.count() - 1));
}

// A collapsed nest has no lastprivate variables (the tool refuses them with
// collapse: keep_last compares one induction value, not a nest's tuple).
template <class... T, class Reds>
void mark_last_iteration(const collapsed<T...>&, Reds&) {}

template <class T>
loop_space shape_of(const iterations<T>& s) {
  return space_of(s);
}
template <class... T>
loop_space shape_of(const collapsed<T...>& s) {
  loop_space l = space_of(s.outer(), s.inner_count(), /*collapsed=*/true);
  l.count = s.count();
  return l;
}

// What the compiled runtime needs of one loop, `maps` erased (erase_maps):
// kernel mode's data maps; in host and task mode the objects the loop's
// map(from:) clauses say it produces. The space, maps, reductions and body
// must outlive the loop.
template <loop_mode Mode, class Space, class Maps, class Reds, class Body>
loop_parts parts_of(const Space& space, const erased_map* maps, std::size_t map_count, Reds& reds, Body& body) {
  loop_parts parts;
  parts.mode = Mode;
  parts.space = shape_of(space);
  parts.maps = maps;
  parts.map_count = map_count;

  parts.reds = &reds;
  parts.body = &body;
  parts.typed_space = &space;
  if constexpr (Mode == loop_mode::kernel) {
    parts.reductions = reduction_functions<Reds, device_partials<Reds>>::table();
    parts.run = &chunk_runner_of<true, Space, Body, Maps, Reds, device_partials<Reds>>::run;
#if defined(__CUDACC__)
    parts.cuda = &cuda_kernel_of<Space, Body, Maps, Reds>::functions;
#endif
  } else {
    parts.reductions = reduction_functions<Reds, typename Reds::partials>::table();
    parts.run = &chunk_runner_of<false, Space, Body, std::tuple<>, Reds, typename Reds::partials>::run;
  }
  return parts;
}

// One loop call: its description for the compiled runtime, and the runtime's
// run. `produces`: host and task mode's `maps` are what the loop produces.
template <loop_mode Mode, class Space, class Maps, class Reds, class Body>
void run_loop_call(const loop_site& site, const Space& space, const loop_options_builder& options, const Maps& maps,
                   bool produces, Reds& reds, Body& body) {
  require_valid_loop(site, space, options);
  mark_last_iteration(space, reds);
  const auto erased = erase_maps(maps);
  const loop_parts parts = parts_of<Mode, Space, Maps>(space, erased.data(), erased.size(), reds, body);
  compiled_loop loop(parts, produces);
  run_compiled_loop(site, options, loop);
}

} // namespace detail

template <class T, class Reds, class Body>
void host_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::run_loop_call<loop_mode::host>(site, space, options, std::tuple<>(), false, reds, body);
}

template <class T, class Reds, class Body>
void task_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::run_loop_call<loop_mode::task>(site, space, options, std::tuple<>(), false, reds, body);
}

// Host and task mode with `map(from: out[0:n])` clauses: `produced` holds the
// objects the clauses say the loop writes (whole() sections), which a runtime
// splitting the loop across processes gathers (docs/mpi.md).
template <class T, class Maps, class Reds, class Body>
void host_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options,
               Maps&& produced, Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::host>(site, space, options, produced, true, reds, body);
}

template <class T, class Maps, class Reds, class Body>
void task_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options,
               Maps&& produced, Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::task>(site, space, options, produced, true, reds, body);
}

template <class T, class Maps, class Reds, class Body>
void kernel_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Maps&& maps,
                 Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::kernel>(site, space, options, maps, false, reds, body);
}

// collapse(n) (collapsed.h): the body takes every collapsed loop's induction
// value, outermost first. A collapsed loop is not split across MPI processes.
template <class... T, class Reds, class Body>
void host_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::run_loop_call<loop_mode::host>(site, space, options, std::tuple<>(), false, reds, body);
}
template <class... T, class Reds, class Body>
void task_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::run_loop_call<loop_mode::task>(site, space, options, std::tuple<>(), false, reds, body);
}
template <class... T, class Maps, class Reds, class Body>
void host_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Maps&&,
               Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::host>(site, space, options, std::tuple<>(), false, reds, body);
}
template <class... T, class Maps, class Reds, class Body>
void task_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Maps&&,
               Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::task>(site, space, options, std::tuple<>(), false, reds, body);
}
template <class... T, class Maps, class Reds, class Body>
void kernel_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options,
                 Maps&& maps, Reds&& reds, Body&& body) {
  detail::run_loop_call<loop_mode::kernel>(site, space, options, maps, false, reds, body);
}

} // namespace gpu_autopar
