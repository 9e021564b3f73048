// CUDA GPUs as runtime devices, through the function table that files
// compiled as CUDA register (gpu_autopar/cuda_api.h): the runtime itself never
// links the CUDA runtime, so host-only programs do not need it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "device.h"
#include "gpu_autopar/cuda_api.h"
#include "runtime_config.h"

namespace gpu_autopar {
namespace detail {

// Appends the CUDA devices the configuration selects (ids from `first_id`).
// Returns why there are none ("" if some were found); never throws for a
// machine without a GPU or driver. What the user should hear about (an
// ordinal named twice) goes to `warnings`.
std::string discover_cuda_devices(const devices_config& config, int first_id,
                                  std::vector<std::unique_ptr<device>>& out, std::vector<std::string>& warnings);

// The registered CUDA runtime table, or null (no file was compiled as CUDA).
const cuda_api* registered_cuda_api();

// Tests only: forget the registered table (no CUDA runtime linked).
void unregister_cuda_api_for_testing();

} // namespace detail
} // namespace gpu_autopar
