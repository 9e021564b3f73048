#include "cuda_backend.h"

namespace gpu_autopar {
namespace detail {

std::string discover_cuda_devices(const devices_config&, int, std::vector<std::unique_ptr<device>>&) {
  return "no CUDA runtime linked (no file was compiled as CUDA)";
}

} // namespace detail
} // namespace gpu_autopar
