// Memory a kernel-mode loop uses in place (issue 23, item 6; docs/runtime.md,
// "Device memory in a loop's maps"): a map whose memory
// cudaPointerGetAttributes says is a GPU's (cudaMalloc) is never copied
// between host and device — such a copy reads device memory as if it were
// the host's — but used where it is, by chunks on that GPU only; managed
// memory (cudaMallocManaged) is used in place by every CUDA GPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <gpu_autopar/compiled_loop.h>

namespace gpu_autopar {
namespace detail {

// How a chunk uses one map's memory.
enum class placement : signed char { copied, device, managed };

// Each map's placement (`place`, one per map), and what the loop as a whole
// may do (`out`). False when every map is host memory, or no CUDA runtime
// is registered that could say otherwise.
bool locate_in_place(const erased_map* maps, std::size_t count, std::vector<placement>& place,
                     in_place_memory& out);

// Why a chunk on `dev` cannot use memory of placement `p` in place (device
// memory of another GPU, or the device is not a CUDA GPU); empty when it can.
std::string in_place_refusal(const device_context& dev, placement p, const in_place_memory& ip);

} // namespace detail
} // namespace gpu_autopar
