// Host twins of CUDA kernels, for the CUDA stand-in of gpu-autopar's test
// suite (test/standin/README.md): a library that replaces libcudart.so.13 for
// programs built with `nvcc -cudart shared` and runs each launched kernel on
// the host through the kernel's twin — the same __host__ __device__ code,
// called once per thread of the grid.
//
// Only test builds include it: gpu_autopar/chunk_kernel.h does when the program is
// compiled with -DGPU_AUTOPAR_STANDIN_HOOK and this directory on the include
// path (test/lit/e2e_check.py, test/standin/CMakeLists.txt, bench/gpu/run.sh);
// it is not installed. The registration function exists only in the stand-in.
// It is looked up once with dlsym; against the real CUDA runtime it is absent
// and registering does nothing, so a test build also runs on real GPUs.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

extern "C" {
typedef struct gpu_autopar_standin_dim3 {
  unsigned x, y, z;
} gpu_autopar_standin_dim3;
// A kernel's twin, as three functions: `copy` copies a launch's arguments
// (args[i] points at the i-th), with their copy constructors — a launch runs
// later, when the caller's arguments are gone, and nvcc's host-side closures
// of extended lambdas own heap memory, so bytes alone would not do; `run`
// runs all threads of a launch on such a copy; `destroy` frees it.
typedef struct gpu_autopar_standin_twin {
  void* (*copy)(void** args);
  void (*run)(void* copy, gpu_autopar_standin_dim3 grid, gpu_autopar_standin_dim3 block);
  void (*destroy)(void* copy);
} gpu_autopar_standin_twin;
// kernel: the kernel's host-side address (what `<<<...>>>` launches);
// arg_sizes: sizeof each parameter (kept for the stand-in's records: it finds what a kernel touches
// while the twin runs, not from argument values).
typedef void (*gpu_autopar_standin_register_twin_fn)(const void* kernel, gpu_autopar_standin_twin twin,
                                                     const unsigned long long* arg_sizes, int arg_count);
}

namespace gpu_autopar {

inline gpu_autopar_standin_register_twin_fn standin_registrar() {
  static const auto fn =
      reinterpret_cast<gpu_autopar_standin_register_twin_fn>(dlsym(RTLD_DEFAULT, "gpu_autopar_standin_register_twin"));
  return fn;
}

// The twin of a kernel whose one thread's work is `Thread(t, threads, args...)`,
// with t the thread's global index and `threads` the grid's thread count
// (1-D launches: the stand-in runs twins only for those): calls it for every
// thread of the launch, in order.
template <auto Thread, class... Args>
struct standin_twin_of {
  using arguments = std::tuple<Args...>;
  static void* copy(void** args) { return copy(args, std::index_sequence_for<Args...>{}); }
  static void run(void* copy, gpu_autopar_standin_dim3 grid, gpu_autopar_standin_dim3 block) {
    const std::uint64_t threads = std::uint64_t(grid.x) * block.x;
    std::apply(
        [threads](auto&... a) {
          for (std::uint64_t t = 0; t < threads; ++t)
            Thread(t, threads, a...);
        },
        *static_cast<arguments*>(copy));
  }
  static void destroy(void* copy) { delete static_cast<arguments*>(copy); }

private:
  template <std::size_t... I>
  static void* copy(void** args, std::index_sequence<I...>) {
    return new arguments(*static_cast<const Args*>(args[I])...);
  }
};

// Registers Thread as the twin of `kernel` with the stand-in, if it is the
// CUDA runtime this process runs with. Returns whether it is.
template <auto Thread, class... Args>
bool register_standin_twin(void (*kernel)(Args...)) {
  const gpu_autopar_standin_register_twin_fn fn = standin_registrar();
  if (!fn)
    return false;
  const unsigned long long sizes[] = {sizeof(Args)..., 0};
  using twin = standin_twin_of<Thread, Args...>;
  fn(reinterpret_cast<const void*>(kernel), gpu_autopar_standin_twin{&twin::copy, &twin::run, &twin::destroy}, sizes,
     int(sizeof...(Args)));
  return true;
}

} // namespace gpu_autopar

#if defined(GPU_AUTOPAR_STANDIN_EXACT_ACCESSES) && defined(__SANITIZE_ADDRESS__) && !defined(__CUDA_ARCH__)
// Exact reads (README.md, "What a kernel touches"). A test build compiled with
//   -DGPU_AUTOPAR_STANDIN_EXACT_ACCESSES
//   -Xcompiler=-fsanitize=kernel-address,--param=asan-instrumentation-with-call-threshold=0,
//   --param=asan-stack=0,--param=asan-globals=0
// calls these before every load and store of its host code, kernels' twins
// included (GCC's kernel-address mode leaves the checks to the program, and
// needs no sanitizer run-time). They hand each access to the stand-in, which
// keeps those a kernel's twin makes to device memory; against the real
// libcudart they do nothing. Weak: every file that includes this header
// defines them, the program keeps one.
extern "C" {
typedef void (*gpu_autopar_standin_access_fn)(const void* address, unsigned long bytes, int write);
__attribute__((no_sanitize_address)) inline gpu_autopar_standin_access_fn gpu_autopar_standin_access_hook() {
  static const auto fn =
      reinterpret_cast<gpu_autopar_standin_access_fn>(dlsym(RTLD_DEFAULT, "gpu_autopar_standin_access"));
  return fn;
}
#define GPU_AUTOPAR_STANDIN_ACCESS(kind, write, n)                                                              \
  __attribute__((weak, no_sanitize_address)) void __asan_##kind##n##_noabort(unsigned long address) {           \
    if (const gpu_autopar_standin_access_fn fn = gpu_autopar_standin_access_hook())                             \
      fn(reinterpret_cast<const void*>(address), n, write);                                                     \
  }
GPU_AUTOPAR_STANDIN_ACCESS(load, 0, 1)
GPU_AUTOPAR_STANDIN_ACCESS(load, 0, 2)
GPU_AUTOPAR_STANDIN_ACCESS(load, 0, 4)
GPU_AUTOPAR_STANDIN_ACCESS(load, 0, 8)
GPU_AUTOPAR_STANDIN_ACCESS(load, 0, 16)
GPU_AUTOPAR_STANDIN_ACCESS(store, 1, 1)
GPU_AUTOPAR_STANDIN_ACCESS(store, 1, 2)
GPU_AUTOPAR_STANDIN_ACCESS(store, 1, 4)
GPU_AUTOPAR_STANDIN_ACCESS(store, 1, 8)
GPU_AUTOPAR_STANDIN_ACCESS(store, 1, 16)
#undef GPU_AUTOPAR_STANDIN_ACCESS
__attribute__((weak, no_sanitize_address)) void __asan_loadN_noabort(unsigned long address, unsigned long bytes) {
  if (const gpu_autopar_standin_access_fn fn = gpu_autopar_standin_access_hook())
    fn(reinterpret_cast<const void*>(address), bytes, 0);
}
__attribute__((weak, no_sanitize_address)) void __asan_storeN_noabort(unsigned long address, unsigned long bytes) {
  if (const gpu_autopar_standin_access_fn fn = gpu_autopar_standin_access_hook())
    fn(reinterpret_cast<const void*>(address), bytes, 1);
}
// Also called by such code; nothing to do here.
__attribute__((weak, no_sanitize_address)) void __asan_handle_no_return() {}
__attribute__((weak, no_sanitize_address)) void __asan_before_dynamic_init(const char*) {}
__attribute__((weak, no_sanitize_address)) void __asan_after_dynamic_init() {}
}
#endif
