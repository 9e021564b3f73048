// Kernels in the stand-in: the fat-binary and kernel registration nvcc's
// generated code calls at start-up, the launch configuration stack of
// `<<<...>>>`, the launch itself (checked, counted, queued on its stream),
// and the hook through which a program registers a kernel's host twin
// (include/gpu_autopar_standin/hook.h), which is what runs when the launch does.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model.h"
#include <gpu_autopar_standin/hook.h>

using namespace standin;

namespace {

struct kernel {
  const void* host_fun;
  std::string name; // the device-side (mangled) name
  bool registered = false; // by __cudaRegisterFunction, i.e. the program holds device code for it
  gpu_autopar_standin_twin twin{nullptr, nullptr, nullptr};
  std::vector<unsigned long long> arg_sizes; // as registered; what a kernel touches is found as it runs
};

// By host-side address; records are never freed (cudaKernel_t handles point at them).
std::unordered_map<const void*, kernel*>& kernels() {
  static auto* k = new std::unordered_map<const void*, kernel*>;
  return *k;
}

kernel* find_or_add(const void* host_fun) {
  kernel*& k = kernels()[host_fun];
  if (!k)
    k = new kernel{host_fun, "<kernel at " + describe(host_fun) + ">", false, {nullptr, nullptr, nullptr}, {}};
  return k;
}

struct call_configuration {
  dim3 grid, block;
  std::size_t shared;
  cudaStream_t stream;
};

std::vector<call_configuration>& configurations() {
  thread_local std::vector<call_configuration> stack;
  return stack;
}

cudaError_t launch(kernel* k, dim3 grid, dim3 block, void** args, cudaStream_t s) {
  auto guard = lock();
  state& st = global();
  const int dev = current_device();
  if (cudaError_t e = check_device(dev))
    return fail(e);
  if (!k) {
    violation("unregistered-kernel", "launch of a kernel no __cudaRegisterFunction registered");
    return fail(cudaErrorInvalidDeviceFunction);
  }
  stream* on = resolve_stream(s, "kernel launch");
  if (!on)
    return fail(cudaErrorInvalidResourceHandle);
  if (on->device != dev) {
    violation("foreign-stream", "launch of " + k->name + " on stream " + std::to_string(on->id) + " of device " +
                                    std::to_string(on->device) + " while device " + std::to_string(dev) + " is current");
    return fail(cudaErrorInvalidResourceHandle);
  }
  const unsigned long long threads_per_block = 1ull * block.x * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads_per_block == 0 || threads_per_block > 1024 ||
      grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
    return fail(cudaErrorInvalidConfiguration);
  if (!k->twin.run) {
    violation("no-twin", "launch of " + k->name + ", which has no host twin registered (see test/standin/README.md)");
    return fail(cudaErrorInvalidDeviceFunction);
  }
  if (grid.y != 1 || grid.z != 1 || block.y != 1 || block.z != 1) {
    violation("no-twin", "launch of " + k->name + " with a 2-D or 3-D grid: host twins run 1-D launches only");
    return fail(cudaErrorInvalidConfiguration);
  }
  ++st.devices[dev].n.launches;
  const std::uint64_t number = ++st.launch_calls;
  op o;
  o.what = "kernel " + k->name + " (launch " + std::to_string(number) + ", " + std::to_string(grid.x) + "x" +
           std::to_string(block.x) + " threads)";
  o.kernel = true; // what it reads and writes is found as it runs (touches.cpp)
  // o.cost: the bytes it touches, known once it ran (kernel_ran, from model.cpp's run_kernel)
  // Arguments are copied at launch, as CUDA does: the caller's may be gone when the kernel runs.
  const gpu_autopar_standin_twin twin = k->twin;
  std::shared_ptr<void> copy(twin.copy(args), twin.destroy);
  gpu_autopar_standin_dim3 g{grid.x, grid.y, grid.z}, b{block.x, block.y, block.z};
  o.run = [twin, copy, g, b] { twin.run(copy.get(), g, b); };
  bool faults = false;
  for (std::uint64_t at : st.fault_launches)
    faults = faults || at == number;
  for (const auto& [d, at] : st.fault_device_launches)
    faults = faults || (d == dev && at == st.devices[dev].n.launches);
  if (faults) {
    o.faults = true;
    log_line("note: launch " + std::to_string(number) + " (" + k->name + " on device " + std::to_string(dev) +
             ") will fault");
  }
  enqueue(*on, std::move(o));
  return cudaSuccess;
}

} // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fat_cubin) {
  auto** handle = new void*[1];
  handle[0] = fat_cubin;
  return handle;
}

void __cudaRegisterFatBinaryEnd(void**) {}

void __cudaUnregisterFatBinary(void**) {}

char __cudaInitModule(void**) { return 1; }

void __cudaRegisterFunction(void**, const char* host_fun, char*, const char* device_name, int, uint3*, uint3*, dim3*,
                            dim3*, int*) {
  auto guard = lock();
  kernel* k = find_or_add(host_fun);
  k->name = device_name;
  k->registered = true;
}

// __device__ variables: kernels run on the host, where the variable's host
// shadow is the variable.
void __cudaRegisterVar(void**, char*, char*, const char*, int, std::size_t, int, int) {}

// gpu-autopar's run_cuda asks before each launch whether the program holds
// code for the device (and how many threads a block may have): a registered
// kernel has, with CUDA's usual per-block limit, unless GPU_AUTOPAR_STANDIN_IMAGE
// names architectures of which none matches the current device's.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* host_fun) {
  auto guard = lock();
  auto it = kernels().find(host_fun);
  if (!attr)
    return fail(cudaErrorInvalidValue);
  if (it == kernels().end() || !it->second->registered)
    return fail(cudaErrorInvalidDeviceFunction);
  const state& s = global();
  const int dev = current_device();
  if (!s.image_majors.empty() && dev >= 0 && dev < int(s.devices.size()) &&
      std::find(s.image_majors.begin(), s.image_majors.end(), s.devices[dev].major) == s.image_majors.end())
    return fail(cudaErrorNoKernelImageForDevice);
  *attr = cudaFuncAttributes{};
  attr->maxThreadsPerBlock = 1024;
  attr->numRegs = 32;
  attr->ptxVersion = attr->binaryVersion = 80;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* out, const void* host_fun) {
  auto guard = lock();
  auto it = kernels().find(host_fun);
  *out = it == kernels().end() || !it->second->registered ? nullptr : reinterpret_cast<cudaKernel_t>(it->second);
  return *out ? cudaSuccess : fail(cudaErrorInvalidDeviceFunction);
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared, struct CUstream_st* stream) {
  configurations().push_back({grid, block, shared, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared, void* stream) {
  auto& stack = configurations();
  if (stack.empty())
    return cudaErrorMissingConfiguration;
  *grid = stack.back().grid;
  *block = stack.back().block;
  *shared = stack.back().shared;
  *static_cast<cudaStream_t*>(stream) = stack.back().stream;
  stack.pop_back();
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void** args, std::size_t, cudaStream_t s) {
  return launch(reinterpret_cast<kernel*>(k), grid, block, args, s);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void** args, std::size_t shared,
                                   cudaStream_t s) {
  return __cudaLaunchKernel(k, grid, block, args, shared, s);
}

cudaError_t cudaLaunchKernel(const void* host_fun, dim3 grid, dim3 block, void** args, std::size_t, cudaStream_t s) {
  kernel* k = nullptr;
  {
    auto guard = lock();
    auto it = kernels().find(host_fun);
    if (it != kernels().end() && it->second->registered)
      k = it->second;
  }
  return launch(k, grid, block, args, s);
}

void gpu_autopar_standin_register_twin(const void* host_fun, gpu_autopar_standin_twin twin,
                                       const unsigned long long* arg_sizes, int arg_count) {
  auto guard = lock();
  kernel* k = find_or_add(host_fun);
  k->twin = twin;
  k->arg_sizes.assign(arg_sizes, arg_sizes + arg_count);
}

} // extern "C"
