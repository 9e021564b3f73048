// A kernel-mode loop's CUDA kernel (docs/generated-code.md), compiled only
// by a CUDA compiler: kernel_chunk runs one chunk, and cuda_kernel_of hands
// the compiled runtime (compiled_loop.h) the functions that query and launch it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <tuple>
#include <utility>

#include <gpu_autopar/compiled_loop.h>
#include <gpu_autopar/hd_tuple.h>
#include <gpu_autopar/launch_shape.h>
#include <gpu_autopar/typed_parts.h>
#include <gpu_autopar/view.h>
// The test suite's CUDA stand-in (test/standin) runs each kernel through a
// host twin the program registers: only a test build, which defines
// GPU_AUTOPAR_STANDIN_HOOK and puts the stand-in's include directory on the
// path, compiles that registration in. A user's program holds no trace of it.
#if defined(GPU_AUTOPAR_STANDIN_HOOK)
#include <gpu_autopar_standin/hook.h>
#endif

namespace gpu_autopar {
namespace detail {

template <class Body, class Space, class Views, class Partials, std::size_t... V, std::size_t... P>
GPU_AUTOPAR_HD void invoke_on_device(Body& body, const Space& space, std::uint64_t k, Views& views,
                                     Partials& partials, std::index_sequence<V...>, std::index_sequence<P...>) {
  call_at(space, k, [&](auto... i) { body(i..., hd_get<V>(views)..., hd_get<P>(partials)...); });
}

// A collapsed nest's iterations, walked by cursor: the body's induction
// values come from level indices that the stride is added to, not from a
// division of the index per iteration.
template <class Body, class... T, class K, std::size_t N, class Views, class Partials, std::size_t... V,
          std::size_t... P>
GPU_AUTOPAR_HD void invoke_on_device(Body& body, const collapsed<T...>& space, const nest_cursor<K, N>& at,
                                     Views& views, Partials& partials, std::index_sequence<V...>,
                                     std::index_sequence<P...>) {
  space.call(at, [&](auto... i) { body(i..., hd_get<V>(views)..., hd_get<P>(partials)...); });
}

// The grid-stride loop of thread_partials in index type K: the chunk's
// indices [begin, begin + n) (the nest's, for a collapsed one) all fit in K.
template <class K, class Body, class Space, class Views, class Partials, std::size_t NV, std::size_t NP>
GPU_AUTOPAR_HD void grid_stride(K t, K threads, Body& body, const Space& space, K begin, K n, Views& views,
                                Partials& partials) {
  if constexpr (is_collapsed<Space>::value) {
    if (t >= n)
      return;
    auto at = space.position(K(begin + t));
    const auto by = space.position(threads);
    for (K u = t; u < n; u += threads) { // u + threads never wraps: n + threads fits in K (thread_partials)
      invoke_on_device(body, space, at, views, partials, std::make_index_sequence<NV>{},
                       std::make_index_sequence<NP>{});
      space.advance(at, by);
    }
  } else {
    for (K u = t; u < n; u += threads)
      invoke_on_device(body, space, std::uint64_t(begin + u), views, partials, std::make_index_sequence<NV>{},
                       std::make_index_sequence<NP>{});
  }
}

// What thread t of the `threads` in kernel_chunk's grid computes: a
// grid-stride loop over the chunk's n iterations (launch_shape.h), reducing
// into its own partials (empty without reductions). In 32-bit index
// arithmetic where the chunk's last index and the stride past it fit in 31
// bits (the branch is the same for every thread of the launch).
template <class Body, class Space, class Views, class Partials, std::size_t NV, std::size_t NP>
GPU_AUTOPAR_HD Partials thread_partials(std::uint64_t t, std::uint64_t threads, Body& body, Space& space,
                                        std::uint64_t begin, std::uint64_t n, Views& views,
                                        const Partials& identity) {
  Partials partials = identity;
  if (begin + n + threads <= 0x7FFFFFFFu) // a collapsed level's index plus its stride's stays below 2^32
    grid_stride<std::uint32_t, Body, Space, Views, Partials, NV, NP>(std::uint32_t(t), std::uint32_t(threads), body,
                                                                      space, std::uint32_t(begin), std::uint32_t(n),
                                                                      views, partials);
  else
    grid_stride<std::uint64_t, Body, Space, Views, Partials, NV, NP>(t, threads, body, space, begin, n, views,
                                                                      partials);
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

// What the compiled runtime needs of one loop's kernel: its limit on a
// device's block size, and its launch with the chunk's views (a device-usable
// tuple of views, one per map) and the reductions' identities.
template <class Space, class Body, class Maps, class Reds,
          class Seq = std::make_index_sequence<std::tuple_size<Maps>::value>>
struct cuda_kernel_of;
template <class Space, class Body, class Maps, class Reds, std::size_t... V>
struct cuda_kernel_of<Space, Body, Maps, Reds, std::index_sequence<V...>> {
  using P = device_partials<Reds>;
  using Views = hd_tuple<basic_view<map_element_t<Maps, V>>...>;
  static constexpr std::size_t np = std::tuple_size<typename Reds::partials>::value;
  // A block's partials live in shared memory: at most kBlockReductionBytes of it.
  static_assert(sizeof(P) * 32 <= kBlockReductionBytes, "too many reductions for one block's shared memory");

  static auto kernel() {
    const auto k = kernel_chunk<Body, Space, Views, P, Reds, sizeof...(V), np>;
#if defined(GPU_AUTOPAR_STANDIN_HOOK)
    static const bool twin = register_standin_twin<&chunk_thread<Body, Space, Views, P, Reds, sizeof...(V), np>>(k);
    (void)twin;
#endif
    return k;
  }

  // Whether the program holds code this GPU can run (a binary built for
  // other architectures only would fail at the launch with a less telling
  // error), and how many threads a block of this kernel may have.
  static unsigned max_threads(int device) {
    cudaFuncAttributes attributes;
    const cudaError_t e = cudaFuncGetAttributes(&attributes, kernel());
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw device_error("gpu_autopar: CUDA device " + std::to_string(device) + " has no code for this loop's kernel (" +
                         cudaGetErrorString(e) +
                         "): the program was not compiled for this GPU's architecture (nvcc -gencode or "
                         "-arch for its compute capability)");
    }
    return unsigned(attributes.maxThreadsPerBlock);
  }

  static void launch(void* body, const void* space, const void* reds, int device, void* stream, launch_shape shape,
                     std::uint64_t begin, std::uint64_t n, const erased_view* views, void* out) {
    const Views v{hd_leaf<V, basic_view<map_element_t<Maps, V>>>{basic_view<map_element_t<Maps, V>>(
        reinterpret_cast<map_element_t<Maps, V>*>(views[V].origin), views[V].size)}...};
    P identity;
    reduction_functions<Reds, P>::identity(reds, &identity);
    // An error an earlier call left on this thread (a task-mode body's own
    // CUDA calls, around a nested loop) is not this launch's.
    (void)cudaGetLastError();
    kernel()<<<shape.blocks, shape.threads, np ? shape.threads * sizeof(P) : 0, static_cast<cudaStream_t>(stream)>>>(
        *static_cast<Body*>(body), *static_cast<const Space*>(space), begin, n, v, identity, static_cast<P*>(out),
        shape.threads);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
      throw device_error("gpu_autopar: CUDA device " + std::to_string(device) + ": kernel launch failed: " +
                         cudaGetErrorString(e));
  }

  static constexpr cuda_kernel functions{&max_threads, &launch};
};

} // namespace detail
} // namespace gpu_autopar
