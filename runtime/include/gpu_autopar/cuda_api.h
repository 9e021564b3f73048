// The CUDA runtime functions the gpu-autopar runtime needs, as a table of
// plain function pointers. The runtime library does not link the CUDA
// runtime (host-only programs link just the runtime): a file compiled as CUDA
// includes this header, which fills the table from the CUDA runtime it links
// and registers it before main(). Without a registration there are no CUDA
// devices ("no CUDA runtime linked").
#pragma once

#include <cstddef>

namespace gpu_autopar {

// Error codes are cudaError_t values (0 = success); streams are cudaStream_t.
struct cuda_api {
  int (*get_device_count)(int* count);
  // name: at least 256 bytes.
  int (*get_device_properties)(int device, char* name, std::size_t* total_memory, int* major, int* minor);
  int (*set_device)(int device);
  int (*malloc)(void** p, std::size_t bytes);
  int (*free)(void* p);
  int (*memcpy_to_device_async)(void* dst, const void* src, std::size_t bytes, void* stream);
  int (*memcpy_to_host_async)(void* dst, const void* src, std::size_t bytes, void* stream);
  // A blocking stream (cudaStreamDefault): ordered with the legacy default
  // stream, so a task-mode body's own cudaMemcpy/cudaMemset/library calls and
  // the launches of functions it calls (all on the default stream) stay
  // ordered with the launches moved onto the lease's stream.
  int (*stream_create)(void** stream);
  int (*stream_synchronize)(void* stream);
  int (*stream_destroy)(void* stream);
  int (*mem_get_info)(std::size_t* free, std::size_t* total);
  const char* (*error_string)(int error);
  int (*get_device)(int* device);
  // cudaGetLastError: returns and clears the calling thread's last error (a
  // sticky error is returned and stays).
  int (*get_last_error)();
  int (*device_synchronize)();
  // Waits for the current device's default streams (the legacy one and the
  // calling thread's per-thread one): work a task-mode body or the functions
  // it calls put there without a stream.
  int (*default_streams_synchronize)();
  // cudaHostRegister (portable: for every device) and cudaHostUnregister; may
  // be null (a table filled by hand), then host memory stays pageable.
  int (*host_register)(void* p, std::size_t bytes);
  int (*host_unregister)(void* p);
  // Copies between GPUs (a data region's halo rows): cudaDeviceCanAccessPeer,
  // cudaDeviceEnablePeerAccess from the current device (already enabled is
  // success), cudaMemcpyPeerAsync. May be null: such copies go through the host.
  int (*can_access_peer)(int* can, int device, int peer);
  int (*enable_peer_access)(int peer);
  int (*memcpy_peer_async)(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                           void* stream);
  // cudaPointerGetAttributes: *type is a cudaMemoryType (0 unregistered host
  // memory, 1 registered host, 2 device, 3 managed), *device the GPU's
  // ordinal. May be null: every pointer is then taken for host memory.
  int (*pointer_attributes)(const void* p, int* type, int* device);
  // cudaMemcpyAsync from device memory to device memory of the current GPU
  // (a data region's part of a section moving to a larger allocation). May
  // be null: the part then goes through the host.
  int (*memcpy_on_device_async)(void* dst, const void* src, std::size_t bytes, void* stream);
  // Chunks timed on the GPU (the adaptive schedule's measure of a device's
  // speed, free of the host's scheduling noise): cudaEventCreate,
  // cudaEventRecord on a stream, cudaEventElapsedTime once the host waited
  // for the later event, cudaEventDestroy. May be null: chunks are then
  // timed on the host's clock.
  int (*event_create)(void** event);
  int (*event_record)(void* event, void* stream);
  int (*event_elapsed_ms)(float* ms, void* start, void* end);
  int (*event_destroy)(void* event);
  // Loops in a data region that return without the host waiting for their
  // kernels: cudaStreamWaitEvent (a later loop's stream waits for them) and
  // cudaEventSynchronize (the host waits where it needs their results). May
  // be null: every loop waits for its chunks.
  int (*stream_wait_event)(void* stream, void* event);
  int (*event_synchronize)(void* event);
  // cudaMallocHost and cudaFreeHost: the few page-locked words a slot's
  // copies write to say how far its stream got (cuda_backend.cpp,
  // landing_marks). May be null (a table filled by hand): then a chunk whose
  // wait failed after its results may have reached the program's memory
  // is an error, not run again.
  int (*malloc_host)(void** p, std::size_t bytes);
  int (*free_host)(void* p);
  // cudaMemsetAsync (the landing marks' device word; stream null: the
  // legacy default stream). May be null, as the two above.
  int (*memset_async)(void* p, int value, std::size_t bytes, void* stream);
};
constexpr int kCudaMemoryTypeDevice = 2;
constexpr int kCudaMemoryTypeManaged = 3;

// CUDA error codes the runtime treats specially.
constexpr int kCudaErrorMemoryAllocation = 2;
constexpr int kCudaErrorNotSupported = 801;
constexpr int kCudaErrorInsufficientDriver = 35;
constexpr int kCudaErrorNoDevice = 100;

// Makes the CUDA backend use `api` (the last registration wins). Takes effect
// for a runtime that has not started yet (the first loop starts it).
void register_cuda_api(const cuda_api& api);

#if defined(__CUDACC__) && defined(CUDART_VERSION)
namespace detail {
namespace cuda_runtime_functions {
inline int get_device_count(int* n) { return int(cudaGetDeviceCount(n)); }
inline int get_device_properties(int d, char* name, std::size_t* mem, int* major, int* minor) {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, d);
  if (e != cudaSuccess)
    return int(e);
  for (std::size_t i = 0; i < 256; ++i) {
    name[i] = i < sizeof p.name ? p.name[i] : '\0';
    if (!name[i])
      break;
  }
  name[255] = '\0';
  *mem = p.totalGlobalMem;
  *major = p.major;
  *minor = p.minor;
  return 0;
}
inline int set_device(int d) { return int(cudaSetDevice(d)); }
inline int malloc(void** p, std::size_t n) { return int(cudaMalloc(p, n)); }
inline int free(void* p) { return int(cudaFree(p)); }
inline int to_device(void* dst, const void* src, std::size_t n, void* s) {
  return int(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, static_cast<cudaStream_t>(s)));
}
inline int to_host(void* dst, const void* src, std::size_t n, void* s) {
  return int(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, static_cast<cudaStream_t>(s)));
}
inline int stream_create(void** s) {
  cudaStream_t st = nullptr;
  cudaError_t e = cudaStreamCreateWithFlags(&st, cudaStreamDefault);
  *s = st;
  return int(e);
}
inline int stream_synchronize(void* s) { return int(cudaStreamSynchronize(static_cast<cudaStream_t>(s))); }
inline int stream_destroy(void* s) { return int(cudaStreamDestroy(static_cast<cudaStream_t>(s))); }
inline int mem_get_info(std::size_t* f, std::size_t* t) { return int(cudaMemGetInfo(f, t)); }
inline const char* error_string(int e) { return cudaGetErrorString(static_cast<cudaError_t>(e)); }
inline int get_device(int* d) { return int(cudaGetDevice(d)); }
inline int get_last_error() { return int(cudaGetLastError()); }
inline int device_synchronize() { return int(cudaDeviceSynchronize()); }
inline int default_streams_synchronize() {
  cudaError_t e = cudaStreamSynchronize(cudaStreamLegacy);
  return int(e != cudaSuccess ? e : cudaStreamSynchronize(cudaStreamPerThread));
}
inline int host_register(void* p, std::size_t n) { return int(cudaHostRegister(p, n, cudaHostRegisterPortable)); }
inline int host_unregister(void* p) { return int(cudaHostUnregister(p)); }
inline int can_access_peer(int* can, int d, int peer) { return int(cudaDeviceCanAccessPeer(can, d, peer)); }
inline int enable_peer_access(int peer) {
  const cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError(); // not an error for the next call to find
    return 0;
  }
  return int(e);
}
inline int memcpy_peer_async(void* dst, int dd, const void* src, int sd, std::size_t n, void* s) {
  return int(cudaMemcpyPeerAsync(dst, dd, src, sd, n, static_cast<cudaStream_t>(s)));
}
inline int pointer_attributes(const void* p, int* type, int* device) {
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); // not an error for the next call to find
    return int(e);
  }
  *type = int(a.type);
  *device = a.device;
  return 0;
}
inline int on_device(void* dst, const void* src, std::size_t n, void* s) {
  return int(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(s)));
}
inline int event_create(void** e) {
  cudaEvent_t ev = nullptr;
  const cudaError_t r = cudaEventCreate(&ev);
  *e = ev;
  return int(r);
}
inline int event_record(void* e, void* s) {
  return int(cudaEventRecord(static_cast<cudaEvent_t>(e), static_cast<cudaStream_t>(s)));
}
inline int event_elapsed_ms(float* ms, void* a, void* b) {
  return int(cudaEventElapsedTime(ms, static_cast<cudaEvent_t>(a), static_cast<cudaEvent_t>(b)));
}
inline int event_destroy(void* e) { return int(cudaEventDestroy(static_cast<cudaEvent_t>(e))); }
inline int stream_wait_event(void* s, void* e) {
  return int(cudaStreamWaitEvent(static_cast<cudaStream_t>(s), static_cast<cudaEvent_t>(e), 0));
}
inline int event_synchronize(void* e) { return int(cudaEventSynchronize(static_cast<cudaEvent_t>(e))); }
inline int malloc_host(void** p, std::size_t n) { return int(cudaMallocHost(p, n)); }
inline int free_host(void* p) { return int(cudaFreeHost(p)); }
inline int memset_async(void* p, int v, std::size_t n, void* s) {
  return int(cudaMemsetAsync(p, v, n, static_cast<cudaStream_t>(s)));
}

// One definition across the program (an inline variable): registers the
// table while static objects are initialised, before any loop runs.
inline const bool registered = (register_cuda_api(cuda_api{
                                    get_device_count, get_device_properties, set_device, malloc, free, to_device,
                                    to_host, stream_create, stream_synchronize, stream_destroy, mem_get_info,
                                    error_string, get_device, get_last_error, device_synchronize,
                                    default_streams_synchronize, host_register, host_unregister, can_access_peer,
                                    enable_peer_access, memcpy_peer_async, pointer_attributes, on_device,
                                    event_create, event_record, event_elapsed_ms, event_destroy,
                                    stream_wait_event, event_synchronize, malloc_host, free_host,
                                    memset_async}),
                                true);
} // namespace cuda_runtime_functions
} // namespace detail
#endif

} // namespace gpu_autopar
