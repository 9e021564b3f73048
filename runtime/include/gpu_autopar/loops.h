// The three entry points rewritten loops call (docs/generated-code.md):
//   host_loop   — no GPU work: CPU threads only
//   task_loop   — the body does GPU work itself: runs on a worker holding a lease
//   kernel_loop — the body can run on a GPU: one GPU thread per iteration of a
//                 chunk, with the chunk's data sections copied in and out
// Each wraps the loop in a loop_body and hands it to the runtime's run_loop,
// which splits the iteration indices over devices and CPU threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gpu_autopar/data_map.h>
#include <gpu_autopar/device_slice.h>
#include <gpu_autopar/hd_tuple.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/launch_shape.h>
#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loop_effects.h>
#include <gpu_autopar/options.h>
#include <gpu_autopar/reductions.h>
#if defined(__CUDACC__)
#include <gpu_autopar/standin_hook.h>
#endif

namespace gpu_autopar {
namespace detail {

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

// Host and task modes: the body runs iteration by iteration on whichever
// thread runs the chunk (a CPU pool thread, or a worker holding a lease).
template <class T, class Body, class Reds>
class per_iteration_body final : public loop_body {
public:
  per_iteration_body(loop_mode mode, const iterations<T>& space, Body& body, Reds& reds)
      : mode_(mode), space_(space), body_(body), reds_(reds) {}

  void run_host(std::uint64_t begin, std::uint64_t end) override { run(begin, end); }
  void run_device(device_context&, std::uint64_t begin, std::uint64_t end) override { run(begin, end); }
  // What `map(from: ...)` clauses say the loop produces (docs/mpi.md); the
  // runtime knows nothing else of what the body changes.
  void produces(const loop_effects* fx) { effects_ = fx; }
  const loop_effects* effects() const override { return effects_; }

  bool can_run_on(device_kind kind, const char** why_not) const override {
    if (mode_ == loop_mode::host && kind != device_kind::cpu) {
      if (why_not)
        *why_not = "host-mode loop: the body does no GPU work";
      return false;
    }
    return true;
  }

private:
  void run(std::uint64_t begin, std::uint64_t end) {
    auto partials = reds_.identities();
    std::apply(
        [&](auto&... p) {
          for_each_value(space_, begin, end, [&](T i) { body_(i, p...); });
        },
        partials);
    reds_.combine(partials);
  }

  loop_mode mode_;
  iterations<T> space_;
  Body& body_;
  Reds& reds_;
  const loop_effects* effects_ = nullptr;
};

#if defined(__CUDACC__)
// One GPU thread per iteration of a chunk; each thread reduces into its own
// partials, which the host folds once the chunk is back.
template <class Body, class T, class Views, class Partials, std::size_t... V, std::size_t... P>
GPU_AUTOPAR_HD void invoke_on_device(Body& body, T i, Views& views, Partials& partials, std::index_sequence<V...>,
                                     std::index_sequence<P...>) {
  body(i, hd_get<V>(views)..., hd_get<P>(partials)...);
}

// The work of thread t of the `threads` in kernel_chunk's grid: a
// grid-stride loop over the chunk's n iterations (launch_shape.h); the
// thread's partials go to out[t] (no `out` without reductions). A host
// function too, so that the CUDA stand-in of the tests (standin_hook.h) runs
// the very same code on the host.
template <class Body, class T, class Views, class Partials, std::size_t NV, std::size_t NP>
GPU_AUTOPAR_HD void chunk_thread(std::uint64_t t, std::uint64_t threads, Body& body, iterations<T>& space,
                                 std::uint64_t begin, std::uint64_t n, Views& views, Partials& identity,
                                 Partials* out) {
  if (t >= n)
    return;
  Partials partials = identity;
  for (std::uint64_t u = t; u < n; u += threads)
    invoke_on_device(body, space.at(begin + u), views, partials, std::make_index_sequence<NV>{},
                     std::make_index_sequence<NP>{});
  if (out)
    out[t] = partials;
}

template <class Body, class T, class Views, class Partials, std::size_t NV, std::size_t NP>
__global__ void kernel_chunk(Body body, iterations<T> space, std::uint64_t begin, std::uint64_t n, Views views,
                             Partials identity, Partials* out) {
  chunk_thread<Body, T, Views, Partials, NV, NP>(std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x,
                                                 std::uint64_t(gridDim.x) * blockDim.x, body, space, begin, n,
                                                 views, identity, out);
}
#endif

// Kernel mode.
template <class T, class Body, class Maps, class Reds>
class kernel_body final : public loop_body {
  static constexpr std::size_t map_count = std::tuple_size<Maps>::value;
  using map_index = std::make_index_sequence<map_count>;

public:
  kernel_body(const iterations<T>& space, Body& body, Maps& maps, Reds& reds)
      : space_(space), body_(body), maps_(maps), reds_(reds), effects_(space, maps, reds) {}

  const loop_effects* effects() const override { return &effects_; }
  // All its device work goes through the device_context (and run_device waits for it).
  bool leaves_untracked_work() const override { return false; }
  // Each map's host section over the whole loop.
  void host_ranges(std::vector<std::pair<const void*, std::size_t>>& out) const override {
    if (space_.count() > 0)
      host_ranges(out, map_index{});
  }

  // The CPU path: views over the host data, no copies. Inside a data region
  // the host's copy is brought up to date first, and the devices' copies of
  // what the chunk wrote are stale after it.
  void run_host(std::uint64_t begin, std::uint64_t end) override {
    const bool region = begin < end && regions_live();
    if (region)
      host_sync(begin, end, map_index{});
    auto views = host_views(map_index{});
    reds_.combine(run_views(views, begin, end));
    if (region)
      host_written(begin, end, map_index{});
  }

  void run_device(device_context& dev, std::uint64_t begin, std::uint64_t end) override {
    if (begin >= end)
      return;
    auto slices = make_slices(map_index{});
    const long long first = static_cast<long long>(space_.at(begin));
    const long long last = static_cast<long long>(space_.at(end - 1));
    prepare(slices, dev, first, last, map_index{});
    launched(slices, map_index{});
    auto views = device_views(slices, map_index{});
    typename Reds::partials partials;
    if (dev.kind() == device_kind::cuda) {
      partials = run_cuda(dev, views, begin, end);
    } else {
      partials = run_views(views, begin, end);
      dev.launched();
    }
    fetch(slices, map_index{}); // every map's results, before any reaches the host
    dev.synchronize();          // the chunk's one wait: its copies in, kernel and copies out
    commit(slices, map_index{});
    reds_.combine(partials); // only once the chunk's results are back
  }

  // What prepare() and run_cuda() allocate: each map's section of the chunk,
  // and the reduction partials (one per GPU thread).
  std::uint64_t device_bytes(std::uint64_t begin, std::uint64_t end) const override {
    if (begin >= end)
      return 0;
    const long long first = static_cast<long long>(space_.at(begin));
    const long long last = static_cast<long long>(space_.at(end - 1));
    std::uint64_t bytes = std::tuple_size<typename Reds::partials>::value
                              ? std::min<std::uint64_t>(end - begin, kMaxChunkBlocks * 256) *
                                    sizeof(typename Reds::partials)
                              : 0;
    section_bytes(bytes, first, last, map_index{});
    return bytes;
  }

  bool can_run_on(device_kind kind, const char** why_not) const override {
#if !defined(__CUDACC__)
    if (kind == device_kind::cuda) {
      if (why_not)
        *why_not = "the file with this kernel-mode loop was compiled without a CUDA compiler";
      return false;
    }
#endif
    (void)kind;
    (void)why_not;
    return true;
  }

private:
  template <std::size_t... I>
  auto host_views(std::index_sequence<I...>) const {
    return std::make_tuple(std::get<I>(maps_).host_view()...);
  }
  template <std::size_t... I>
  auto make_slices(std::index_sequence<I...>) const {
    return std::tuple<device_slice<typename std::tuple_element<I, Maps>::type>...>();
  }
  template <class Slices, std::size_t... I>
  void prepare(Slices& s, device_context& dev, long long first, long long last, std::index_sequence<I...>) const {
    (std::get<I>(s).prepare(dev, std::get<I>(maps_), first, last, space_.step()), ...);
  }
  template <class Slices, std::size_t... I>
  static void launched(Slices& s, std::index_sequence<I...>) {
    (std::get<I>(s).launched(), ...);
  }
  template <std::size_t... I>
  void host_ranges(std::vector<std::pair<const void*, std::size_t>>& out, std::index_sequence<I...>) const {
    (host_range(std::get<I>(maps_), 0, space_.count(),
                [&](const void* p, std::size_t n, bool) { out.emplace_back(p, n); }),
     ...);
  }
  template <std::size_t... I>
  void host_sync(std::uint64_t begin, std::uint64_t end, std::index_sequence<I...>) const {
    (host_range(std::get<I>(maps_), begin, end, [](const void* p, std::size_t n, bool) { region_host_sync(p, n); }),
     ...);
  }
  template <std::size_t... I>
  void host_written(std::uint64_t begin, std::uint64_t end, std::index_sequence<I...>) const {
    (host_range(std::get<I>(maps_), begin, end,
                [](const void* p, std::size_t n, bool w) {
                  if (w)
                    region_host_written(p, n);
                }),
     ...);
  }
  // Calls f(first host byte, bytes, writes) for a map's section of [begin, end).
  template <class Map, class F>
  void host_range(const Map& m, std::uint64_t begin, std::uint64_t end, F f) const {
    const auto r = m.chunk_range(static_cast<long long>(space_.at(begin)), static_cast<long long>(space_.at(end - 1)));
    if (!r.empty())
      f(m.host + r.lo, std::size_t(r.size()) * sizeof(typename Map::element_type), writes(m.kind));
  }
  template <class Slices, std::size_t... I>
  auto device_views(const Slices& s, std::index_sequence<I...>) const {
    return std::make_tuple(std::get<I>(s).view(std::get<I>(maps_))...);
  }
  template <std::size_t... I>
  void section_bytes(std::uint64_t& bytes, long long first, long long last, std::index_sequence<I...>) const {
    ((bytes += std::uint64_t(std::get<I>(maps_).chunk_range(first, last).size()) *
               sizeof(typename std::tuple_element<I, Maps>::type::element_type)),
     ...);
  }
  template <class Slices, std::size_t... I>
  void fetch(Slices& s, std::index_sequence<I...>) const {
    (std::get<I>(s).fetch(std::get<I>(maps_)), ...);
  }
  template <class Slices, std::size_t... I>
  void commit(Slices& s, std::index_sequence<I...>) const {
    (std::get<I>(s).commit(std::get<I>(maps_)), ...);
  }

  template <class Views>
  typename Reds::partials run_views(const Views& views, std::uint64_t begin, std::uint64_t end) {
    // Local copies of the body (its captures), the views and the space: the
    // compiler then knows stores through a view cannot change them, and can
    // keep them in registers and vectorise the loop.
    Body body = body_;
    auto partials = reds_.identities();
    std::apply(
        [&](auto&... p) {
          std::apply(
              [&](auto... v) {
                for_each_value(space_, begin, end, [&](T i) { body(i, v..., p...); });
              },
              views);
        },
        partials);
    return partials;
  }

  template <class Views>
  typename Reds::partials run_cuda(device_context& dev, const Views& views, std::uint64_t begin, std::uint64_t end) {
#if defined(__CUDACC__)
    using P = decltype(to_hd_tuple(reds_.identities()));
    constexpr std::size_t np = std::tuple_size<typename Reds::partials>::value;
    using V = decltype(to_hd_tuple(views));
    const auto kernel = kernel_chunk<Body, T, V, P, map_count, np>;
    static const bool twin = register_standin_twin<&chunk_thread<Body, T, V, P, map_count, np>>(kernel);
    (void)twin;
    const std::string where = "gpu_autopar: CUDA device " + std::to_string(dev.id());
    // Whether the program holds code this GPU can run (a binary built for
    // other architectures only would fail at the launch with a less telling
    // error), and how many threads a block of this kernel may have.
    cudaFuncAttributes attributes;
    cudaError_t e = cudaFuncGetAttributes(&attributes, kernel);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw device_error(where + " has no code for this loop's kernel (" + cudaGetErrorString(e) +
                         "): the program was not compiled for this GPU's architecture (nvcc -gencode or "
                         "-arch for its compute capability)");
    }
    const std::uint64_t n = end - begin;
    const launch_shape shape = chunk_launch_shape(n, unsigned(attributes.maxThreadsPerBlock));
    const std::uint64_t threads = std::min<std::uint64_t>(n, shape.total());
    device_allocation partials_memory(dev, np ? threads * sizeof(P) : 0);
    P* out = static_cast<P*>(partials_memory.get());
    // An error an earlier call left on this thread (a task-mode body's own
    // CUDA calls, around a nested loop) is not this launch's.
    (void)cudaGetLastError();
    kernel<<<shape.blocks, shape.threads, 0, static_cast<cudaStream_t>(dev.stream())>>>(
        body_, space_, begin, n, to_hd_tuple(views), to_hd_tuple(reds_.identities()), out);
    e = cudaGetLastError();
    if (e != cudaSuccess)
      throw device_error(where + ": kernel launch failed: " + cudaGetErrorString(e));
    dev.launched();
    auto partials = reds_.identities();
    if (np) {
      std::vector<P> each(threads);
      dev.copy_to_host(each.data(), out, threads * sizeof(P));
      fold_all(partials, each, std::make_index_sequence<np>{});
    }
    return partials; // run_device waits for the kernel with the maps' copies back
#else
    (void)views;
    (void)begin;
    (void)end;
    throw device_error("gpu_autopar: kernel-mode loop compiled without a CUDA compiler cannot run on CUDA device " +
                       std::to_string(dev.id()));
#endif
  }

  template <class Each, std::size_t... I>
  static void fold_all(typename Reds::partials& into, const Each& each, std::index_sequence<I...>) {
    for (const auto& p : each)
      (Reds::template fold<I>(into, hd_get<I>(p)), ...);
  }

  iterations<T> space_;
  Body& body_;
  Maps& maps_;
  Reds& reds_;
  map_effects<T, Maps, Reds> effects_;
};

// Tells the loop's lastprivate variables which iteration is the last one.
template <class T, class Reds>
void mark_last_iteration(const iterations<T>& space, Reds& reds) {
  if (space.count() > 0)
    reds.set_last(space.at(space.count() - 1));
}

} // namespace detail

namespace detail {
template <class T, class Reds, class Body>
void per_iteration_loop(loop_mode mode, const loop_site& site, const iterations<T>& space,
                        const loop_options_builder& options, Reds& reds, Body& body, const loop_effects* produced) {
  per_iteration_body<T, Body, Reds> loop(mode, space, body, reds);
  loop.produces(produced);
  mark_last_iteration(space, reds);
  run_loop(site, space.count(), options.with_mode(mode), loop);
}
template <class T, class Maps, class Reds>
using produced_effects = map_effects<T, typename std::remove_reference<Maps>::type, typename std::remove_reference<Reds>::type>;
} // namespace detail

template <class T, class Reds, class Body>
void host_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::per_iteration_loop(loop_mode::host, site, space, options, reds, body, nullptr);
}

template <class T, class Reds, class Body>
void task_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::per_iteration_loop(loop_mode::task, site, space, options, reds, body, nullptr);
}

// Host and task mode with `map(from: out[0:n])` clauses: `produced` holds the
// objects the clauses say the loop writes (whole() sections), which a runtime
// splitting the loop across processes gathers (docs/mpi.md).
template <class T, class Maps, class Reds, class Body>
void host_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options,
               Maps&& produced, Reds&& reds, Body&& body) {
  detail::produced_effects<T, Maps, Reds> fx(space, produced, reds);
  detail::per_iteration_loop(loop_mode::host, site, space, options, reds, body, &fx);
}

template <class T, class Maps, class Reds, class Body>
void task_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options,
               Maps&& produced, Reds&& reds, Body&& body) {
  detail::produced_effects<T, Maps, Reds> fx(space, produced, reds);
  detail::per_iteration_loop(loop_mode::task, site, space, options, reds, body, &fx);
}

template <class T, class Maps, class Reds, class Body>
void kernel_loop(const loop_site& site, const iterations<T>& space, const loop_options_builder& options, Maps&& maps,
                 Reds&& reds, Body&& body) {
  detail::kernel_body<T, typename std::remove_reference<Body>::type, typename std::remove_reference<Maps>::type,
                      typename std::remove_reference<Reds>::type>
      loop(space, body, maps, reds);
  detail::mark_last_iteration(space, reds);
  run_loop(site, space.count(), options.with_mode(loop_mode::kernel), loop);
}

} // namespace gpu_autopar
