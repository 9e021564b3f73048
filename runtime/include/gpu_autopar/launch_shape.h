// The grid a kernel-mode chunk is launched with. The kernel walks its
// iterations with a grid-stride loop, so the grid need not have a thread per
// iteration: it is capped, which keeps any 64-bit chunk size launchable (a
// grid of ceil(n/256) blocks fails to launch at 2^31 blocks and, cast to
// unsigned, silently drops iterations at 2^32) and bounds the reduction
// partials (one per block) the host copies back and folds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpu_autopar {
namespace detail {

// Enough blocks to fill the largest GPUs several times over (an H100 holds
// about 1000 blocks of 256 threads at once).
constexpr std::uint64_t kMaxChunkBlocks = 8192;
// Shared memory a block may use for its threads' reduction partials: what
// every GPU since compute capability 2.0 gives a block without opting in.
constexpr std::size_t kBlockReductionBytes = 48 * 1024;
// The block a simulated device's chunk is cut into for its reductions (one
// partial per block, as a GPU's launch of 256-thread blocks would give).
constexpr unsigned kSimBlockThreads = 256;

struct launch_shape {
  unsigned blocks = 0;  // 0 for an empty chunk
  unsigned threads = 0; // per block
  // Threads in the grid: each runs iterations t, t + total, t + 2*total, ...
  std::uint64_t total() const { return std::uint64_t(blocks) * threads; }
};

// `n` iterations in blocks of at most 256 threads and at most `max_threads`
// (the kernel's limit on the device), rounded down to whole warps.
inline launch_shape chunk_launch_shape(std::uint64_t n, unsigned max_threads) {
  launch_shape s;
  unsigned threads = max_threads < 256 ? max_threads : 256;
  threads = threads >= 32 ? threads / 32 * 32 : (threads ? threads : 1);
  if (n == 0)
    return s;
  const std::uint64_t blocks = n / threads + (n % threads != 0); // no overflow near 2^64
  s.threads = threads;
  s.blocks = unsigned(blocks < kMaxChunkBlocks ? blocks : kMaxChunkBlocks);
  return s;
}

} // namespace detail
} // namespace gpu_autopar
