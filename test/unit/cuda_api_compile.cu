// Compiled (not run) by the cuda_api_compiles_as_cuda test: including the
// runtime's boundary header as CUDA defines the function table's wrappers
// and its static registration.
#include <gpu_autopar/loop_body.h>

static_assert(sizeof(gpu_autopar::cuda_api) > 0, "");

bool cuda_api_registered() { return gpu_autopar::detail::cuda_runtime_functions::registered; }
