// The three entry points rewritten loops call (docs/generated-code.md):
//   host_loop   — no GPU work: CPU threads only
//   task_loop   — the body does GPU work itself: runs on a worker holding a lease
//   kernel_loop — the body can run on a GPU: one GPU thread per iteration of a
//                 chunk, with the chunk's data sections copied in and out
// Each wraps the loop in a loop_body and hands it to the runtime's run_loop,
// which splits the iteration indices over devices and CPU threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <gpu_autopar/collapsed.h>
#include <gpu_autopar/data_map.h>
#include <gpu_autopar/device_slice.h>
#include <gpu_autopar/hd_tuple.h>
#include <gpu_autopar/iteration_space.h>
#include <gpu_autopar/launch_shape.h>
#include <gpu_autopar/loop_body.h>
#include <gpu_autopar/loop_effects.h>
#include <gpu_autopar/loop_problem.h>
#include <gpu_autopar/options.h>
#include <gpu_autopar/reductions.h>
// The test suite's CUDA stand-in (test/standin) runs each kernel through a
// host twin the program registers: only a test build, which defines
// GPU_AUTOPAR_STANDIN_HOOK and puts the stand-in's include directory on the
// path, compiles that registration in. A user's program holds no trace of it.
#if defined(__CUDACC__) && defined(GPU_AUTOPAR_STANDIN_HOOK)
#include <gpu_autopar_standin/hook.h>
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
// collapsed nest: the indices are decoded once, then the innermost value is
// walked (for_each_value) up to the end of its loop, and so on.
template <class T, class F>
inline void for_each_index(const iterations<T>& space, std::uint64_t begin, std::uint64_t end, F&& f) {
  for_each_value(space, begin, end, f);
}
template <class... T, class F>
inline void for_each_index(const collapsed<T...>& space, std::uint64_t begin, std::uint64_t end, F&& f) {
  for (std::uint64_t k = begin; k < end; ++k)
    space.call(k, f);
}

// Host and task modes: the body runs iteration by iteration on whichever
// thread runs the chunk (a CPU pool thread, or a worker holding a lease).
template <class Space, class Body, class Reds>
class per_iteration_body final : public loop_body {
public:
  per_iteration_body(loop_mode mode, const Space& space, Body& body, Reds& reds)
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
          for_each_index(space_, begin, end, [&](auto... i) { body_(i..., p...); });
        },
        partials);
    reds_.combine(partials);
  }

  loop_mode mode_;
  Space space_;
  Body& body_;
  Reds& reds_;
  const loop_effects* effects_ = nullptr;
};

// The partials of one GPU thread (or of one simulated block) as the kernel
// holds them: a device-usable tuple of the reductions' values.
template <class Reds>
using device_partials = decltype(to_hd_tuple(std::declval<typename Reds::partials>()));

// into = into op v, for each reduction.
template <class Reds, class P, std::size_t... I>
GPU_AUTOPAR_HD void fold_partials(P& into, const P& v, std::index_sequence<I...>) {
  ((hd_get<I>(into) = Reds::template combine_one<I>(hd_get<I>(into), hd_get<I>(v))), ...);
}

#if defined(__CUDACC__)
template <class Body, class Space, class Views, class Partials, std::size_t... V, std::size_t... P>
GPU_AUTOPAR_HD void invoke_on_device(Body& body, const Space& space, std::uint64_t k, Views& views,
                                     Partials& partials, std::index_sequence<V...>, std::index_sequence<P...>) {
  call_at(space, k, [&](auto... i) { body(i..., hd_get<V>(views)..., hd_get<P>(partials)...); });
}

// What thread t of the `threads` in kernel_chunk's grid computes: a
// grid-stride loop over the chunk's n iterations (launch_shape.h), reducing
// into its own partials (empty without reductions).
template <class Body, class Space, class Views, class Partials, std::size_t NV, std::size_t NP>
GPU_AUTOPAR_HD Partials thread_partials(std::uint64_t t, std::uint64_t threads, Body& body, Space& space,
                                        std::uint64_t begin, std::uint64_t n, Views& views,
                                        const Partials& identity) {
  Partials partials = identity;
  for (std::uint64_t u = t; u < n; u += threads)
    invoke_on_device(body, space, begin + u, views, partials, std::make_index_sequence<NV>{},
                     std::make_index_sequence<NP>{});
  return partials;
}

#if defined(GPU_AUTOPAR_STANDIN_HOOK)
// The host twin of kernel_chunk for the CUDA stand-in of the tests
// (test/standin/include/gpu_autopar_standin/hook.h), called for each thread t
// in order: the same iterations per thread, and with reductions one partial
// per block of `block` threads, which the stand-in (no shared memory, threads
// run one after another) computes at the block's first thread.
template <class Body, class Space, class Views, class Partials, class Reds, std::size_t NV, std::size_t NP>
GPU_AUTOPAR_HD void chunk_thread(std::uint64_t t, std::uint64_t threads, Body& body, Space& space,
                                 std::uint64_t begin, std::uint64_t n, Views& views, Partials& identity,
                                 Partials* out, unsigned block) {
  if (NP == 0) {
    if (t < n)
      thread_partials<Body, Space, Views, Partials, NV, NP>(t, threads, body, space, begin, n, views, identity);
    return;
  }
  if (t % block != 0)
    return;
  Partials sum = identity;
  for (std::uint64_t u = t; u < t + block && u < threads; ++u)
    fold_partials<Reds>(sum, thread_partials<Body, Space, Views, Partials, NV, NP>(u, threads, body, space, begin, n,
                                                                                  views, identity),
                        std::make_index_sequence<NP>{});
  out[t / block] = sum;
}
#endif

// A chunk's kernel. With reductions each block combines its threads'
// partials in shared memory (a tree, log2(block) steps) and its thread 0
// writes the block's one partial to out[blockIdx.x]: the host copies back
// and folds one partial per block, not one per iteration or thread. `block`
// is blockDim.x (the twin needs it); `out` is null without reductions.
template <class Body, class Space, class Views, class Partials, class Reds, std::size_t NV, std::size_t NP>
__global__ void kernel_chunk(Body body, Space space, std::uint64_t begin, std::uint64_t n, Views views,
                             Partials identity, Partials* out, unsigned block) {
  const std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t threads = std::uint64_t(gridDim.x) * blockDim.x;
  if constexpr (NP == 0) {
    if (t < n)
      thread_partials<Body, Space, Views, Partials, NV, NP>(t, threads, body, space, begin, n, views, identity);
  } else {
    extern __shared__ __align__(16) unsigned char gpu_autopar_block_memory[];
    Partials* shared = reinterpret_cast<Partials*>(gpu_autopar_block_memory);
    shared[threadIdx.x] =
        thread_partials<Body, Space, Views, Partials, NV, NP>(t, threads, body, space, begin, n, views, identity);
    __syncthreads();
    unsigned half = 1;
    while (half * 2 < block)
      half *= 2;
    for (; half > 0; half /= 2) { // any block size: a slot past the block's end is not read
      if (threadIdx.x < half && threadIdx.x + half < block)
        fold_partials<Reds>(shared[threadIdx.x], shared[threadIdx.x + half], std::make_index_sequence<NP>{});
      __syncthreads();
    }
    if (threadIdx.x == 0)
      out[blockIdx.x] = shared[0];
  }
}
#endif

// A map clause's section of a pointer: not present, or inside a present one.
template <class Map>
void require_map_present_or_absent(const loop_site& site, const Map& m) {
  if (m.clause_extent)
    require_not_partly_present(site, region_section{m.kind, m.host + m.lo,
                                                     std::size_t(m.len) * sizeof(typename Map::element_type), m.name});
}

// Kernel mode.
// Kernel mode. T is the type of the (outermost) induction variable; Space
// the loop's iterations, or a collapsed nest's (collapsed.h).
template <class T, class Body, class Maps, class Reds, class Space = iterations<T>>
class kernel_body final : public loop_body {
  static constexpr std::size_t map_count = std::tuple_size<Maps>::value;
  using map_index = std::make_index_sequence<map_count>;
  static constexpr std::size_t reduction_count = std::tuple_size<typename Reds::partials>::value;
  using partials_on_device = device_partials<Reds>;

public:
  kernel_body(const Space& space, Body& body, Maps& maps, Reds& reds)
      : space_(space), body_(body), maps_(maps), reds_(reds), effects_(outermost(space), maps, reds) {}

  // A collapsed nest is not split across processes (its indices are not the
  // outermost loop's, which the effects describe).
  const loop_effects* effects() const override { return is_collapsed<Space>::value ? nullptr : &effects_; }
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
    const long long first = static_cast<long long>(outer_at(space_, begin));
    const long long last = static_cast<long long>(outer_at(space_, end - 1));
    prepare(slices, dev, first, last, splits_outer(space_, begin, end), map_index{});
    launched(slices, map_index{});
    auto views = device_views(slices, map_index{});
    // With reductions: the blocks' partials in device memory (freed when the
    // chunk ends, after its wait) and their host copy, queued behind the kernel.
    std::optional<device_allocation> partials_memory;
    std::vector<partials_on_device> block_partials;
    if (dev.kind() == device_kind::cuda)
      run_cuda(dev, views, begin, end, partials_memory, block_partials);
    else
      run_sim(dev, views, begin, end, partials_memory, block_partials);
    fetch(slices, map_index{}); // every map's results, before any reaches the host
    dev.synchronize();          // the chunk's one wait: copies in, kernel, partials and copies out
    commit(slices, map_index{});
    reds_.combine(folded(block_partials)); // only once the chunk's results are back
  }

  // What prepare() and the launch allocate: each map's section of the chunk,
  // and the reduction partials (one per block).
  std::uint64_t device_bytes(std::uint64_t begin, std::uint64_t end) const override {
    if (begin >= end)
      return 0;
    const long long first = static_cast<long long>(outer_at(space_, begin));
    const long long last = static_cast<long long>(outer_at(space_, end - 1));
    std::uint64_t bytes =
        reduction_count ? std::uint64_t(chunk_launch_shape(end - begin, 32).blocks) * sizeof(partials_on_device) : 0;
    section_bytes(bytes, first, last, map_index{});
    return bytes;
  }

  // Why the loop must run serially: the first pair of `checks` whose
  // sections over the whole loop share a byte ("'out' and 'in' overlap in
  // memory"); empty when every pair is disjoint.
  std::string overlap(const std::vector<loop_options_builder::disjoint_check>& checks) const {
    if (checks.empty())
      return {};
    const auto sections = loop_sections(map_index{});
    for (const auto& c : checks) {
      if (c.written >= map_count || c.other >= map_count)
        throw std::invalid_argument("gpu_autopar: check_disjoint names a map that data(...) does not have");
      if (sections[c.written].overlaps(sections[c.other]))
        return overlap_reason(c.written_name, c.other_name);
    }
    return {};
  }

  // A map clause's section of a pointer is either not present or wholly
  // inside a present one (OpenMP's rule); throws std::invalid_argument naming it.
  void require_present_or_absent(const loop_site& site) const {
    std::apply([&](const auto&... m) { (require_map_present_or_absent(site, m), ...); }, maps_);
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
  std::array<object_span, map_count> loop_sections(std::index_sequence<I...>) const {
    std::array<object_span, map_count> out{};
    if (space_.count() > 0)
      (host_range(std::get<I>(maps_), 0, space_.count(), [&](const void* p, std::size_t n, bool) { out[I] = {p, n}; }),
       ...);
    return out;
  }
  template <std::size_t... I>
  auto host_views(std::index_sequence<I...>) const {
    return std::make_tuple(std::get<I>(maps_).host_view()...);
  }
  template <std::size_t... I>
  auto make_slices(std::index_sequence<I...>) const {
    return std::tuple<device_slice<typename std::tuple_element<I, Maps>::type>...>();
  }
  template <class Slices, std::size_t... I>
  void prepare(Slices& s, device_context& dev, long long first, long long last, bool shares_outer,
               std::index_sequence<I...>) const {
    (std::get<I>(s).prepare(dev, std::get<I>(maps_), first, last, outer_step(space_), shares_outer), ...);
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
    const auto r = m.chunk_range(static_cast<long long>(outer_at(space_, begin)),
                                 static_cast<long long>(outer_at(space_, end - 1)));
    if (!r.empty())
      f(m.host + r.lo, std::size_t(r.size()) * sizeof(typename Map::element_type), body_writes(m));
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
                for_each_index(space_, begin, end, [&](auto... i) { body(i..., v..., p...); });
              },
              views);
        },
        partials);
    return partials;
  }

  // A simulated device runs the chunk on the host, but keeps the device's
  // contract for reductions: one partial per block of the CUDA launch shape,
  // stored in device memory and copied back, so the report's counts are
  // those a GPU would show.
  template <class Views>
  void run_sim(device_context& dev, const Views& views, std::uint64_t begin, std::uint64_t end,
               std::optional<device_allocation>& memory, std::vector<partials_on_device>& block_partials) {
    if constexpr (reduction_count == 0) {
      run_views(views, begin, end);
      dev.launched();
    } else {
      const std::uint64_t n = end - begin;
      const launch_shape shape = chunk_launch_shape(n, kSimBlockThreads);
      memory.emplace(dev, shape.blocks * sizeof(partials_on_device));
      auto* out = static_cast<partials_on_device*>(memory->get());
      for (std::uint64_t b = 0; b < shape.blocks; ++b) // the blocks' iterations, contiguous here
        out[b] = to_hd_tuple(run_views(views, begin + n * b / shape.blocks, begin + n * (b + 1) / shape.blocks));
      dev.launched();
      queue_block_partials(dev, out, shape.blocks, block_partials);
    }
  }

  // Queues the copy of the blocks' partials to the host: they are there after
  // the chunk's one wait (run_device), with the maps' results.
  static void queue_block_partials(device_context& dev, const partials_on_device* out, std::uint64_t blocks,
                                   std::vector<partials_on_device>& block_partials) {
    block_partials.resize(blocks);
    dev.copy_to_host_async(block_partials.data(), out, blocks * sizeof(partials_on_device));
  }

  // The chunk's partials: the blocks' folded with the clause's operators
  // (the identities without reductions).
  typename Reds::partials folded(const std::vector<partials_on_device>& block_partials) const {
    auto partials = reds_.identities();
    fold_all(partials, block_partials, std::make_index_sequence<reduction_count>{});
    return partials;
  }

  template <class Views>
  void run_cuda(device_context& dev, const Views& views, std::uint64_t begin, std::uint64_t end,
                std::optional<device_allocation>& partials_memory, std::vector<partials_on_device>& block_partials) {
#if defined(__CUDACC__)
    using P = partials_on_device;
    constexpr std::size_t np = reduction_count;
    using V = decltype(to_hd_tuple(views));
    const auto kernel = kernel_chunk<Body, Space, V, P, Reds, map_count, np>;
#if defined(GPU_AUTOPAR_STANDIN_HOOK)
    static const bool twin = register_standin_twin<&chunk_thread<Body, Space, V, P, Reds, map_count, np>>(kernel);
    (void)twin;
#endif
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
    // A block's partials live in shared memory: at most kBlockReductionBytes of it.
    static_assert(sizeof(P) * 32 <= kBlockReductionBytes, "too many reductions for one block's shared memory");
    unsigned max_threads = unsigned(attributes.maxThreadsPerBlock);
    if (np)
      max_threads = std::min<unsigned>(max_threads, unsigned(kBlockReductionBytes / sizeof(P)));
    const std::uint64_t n = end - begin;
    const launch_shape shape = chunk_launch_shape(n, max_threads);
    partials_memory.emplace(dev, np ? shape.blocks * sizeof(P) : 0);
    P* out = static_cast<P*>(partials_memory->get());
    // An error an earlier call left on this thread (a task-mode body's own
    // CUDA calls, around a nested loop) is not this launch's.
    (void)cudaGetLastError();
    kernel<<<shape.blocks, shape.threads, np ? shape.threads * sizeof(P) : 0,
             static_cast<cudaStream_t>(dev.stream())>>>(body_, space_, begin, n, to_hd_tuple(views),
                                                        to_hd_tuple(reds_.identities()), out, shape.threads);
    e = cudaGetLastError();
    if (e != cudaSuccess)
      throw device_error(where + ": kernel launch failed: " + cudaGetErrorString(e));
    dev.launched();
    // The blocks' partials come back behind the kernel, on the same stream
    // as the maps' results: run_device waits once for all of them.
    if constexpr (np != 0)
      queue_block_partials(dev, out, shape.blocks, block_partials);
#else
    (void)views;
    (void)begin;
    (void)end;
    (void)partials_memory;
    (void)block_partials;
    throw device_error("gpu_autopar: kernel-mode loop compiled without a CUDA compiler cannot run on CUDA device " +
                       std::to_string(dev.id()));
#endif
  }

  template <class Each, std::size_t... I>
  static void fold_all(typename Reds::partials& into, const Each& each, std::index_sequence<I...>) {
    for (const auto& p : each)
      (Reds::template fold<I>(into, hd_get<I>(p)), ...);
  }

  template <class S>
  static const S& outermost(const S& s) { return s; }
  template <class... U>
  static const iterations<T>& outermost(const collapsed<U...>& s) { return s.outer(); }

  Space space_;
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

// A collapsed nest has no lastprivate variables (the tool refuses them with
// collapse: keep_last compares one induction value, not a nest's tuple).
template <class... T, class Reds>
void mark_last_iteration(const collapsed<T...>&, Reds&) {}

} // namespace detail

namespace detail {
template <class Space, class Reds, class Body>
void per_iteration_loop(loop_mode mode, const loop_site& site, const Space& space,
                        const loop_options_builder& options, Reds& reds, Body& body, const loop_effects* produced) {
  require_valid_loop(site, space, options);
  per_iteration_body<Space, Body, Reds> loop(mode, space, body, reds);
  loop.produces(produced);
  mark_last_iteration(space, reds);
  const std::string overlap = options.checks_failed(); // check_disjoint_objects, check_within
  loop_options o = options.with_mode(mode);
  if (!overlap.empty())
    o.serial_reason = overlap.c_str();
  run_loop(site, space.count(), o, loop);
}
// A kernel-mode loop runs serially when objects the tool asked to compare
// overlap (check_disjoint), or a check_within fails.
template <class KernelBody>
void run_kernel_loop(const loop_site& site, std::uint64_t count, const loop_options_builder& options,
                     KernelBody& loop) {
  if (regions_live())
    loop.require_present_or_absent(site);
  std::string overlap = loop.overlap(options.disjoint_checks());
  if (overlap.empty())
    overlap = options.checks_failed();
  loop_options o = options.with_mode(loop_mode::kernel);
  if (!overlap.empty())
    o.serial_reason = overlap.c_str();
  run_loop(site, count, o, loop);
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
  detail::require_valid_loop(site, space, options);
  detail::kernel_body<T, typename std::remove_reference<Body>::type, typename std::remove_reference<Maps>::type,
                      typename std::remove_reference<Reds>::type>
      loop(space, body, maps, reds);
  detail::mark_last_iteration(space, reds);
  detail::run_kernel_loop(site, space.count(), options, loop);
}

// collapse(n) (collapsed.h): the body takes every collapsed loop's induction
// value, outermost first. A collapsed loop is not split across MPI processes.
template <class... T, class Reds, class Body>
void host_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::per_iteration_loop(loop_mode::host, site, space, options, reds, body, nullptr);
}
template <class... T, class Reds, class Body>
void task_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Reds&& reds,
               Body&& body) {
  detail::per_iteration_loop(loop_mode::task, site, space, options, reds, body, nullptr);
}
template <class... T, class Maps, class Reds, class Body>
void host_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Maps&&,
               Reds&& reds, Body&& body) {
  detail::per_iteration_loop(loop_mode::host, site, space, options, reds, body, nullptr);
}
template <class... T, class Maps, class Reds, class Body>
void task_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options, Maps&&,
               Reds&& reds, Body&& body) {
  detail::per_iteration_loop(loop_mode::task, site, space, options, reds, body, nullptr);
}
template <class... T, class Maps, class Reds, class Body>
void kernel_loop(const loop_site& site, const collapsed<T...>& space, const loop_options_builder& options,
                 Maps&& maps, Reds&& reds, Body&& body) {
  detail::require_valid_loop(site, space, options);
  detail::kernel_body<typename collapsed<T...>::outer_type, typename std::remove_reference<Body>::type,
                      typename std::remove_reference<Maps>::type, typename std::remove_reference<Reds>::type,
                      collapsed<T...>>
      loop(space, body, maps, reds);
  detail::run_kernel_loop(site, space.count(), options, loop);
}

} // namespace gpu_autopar
