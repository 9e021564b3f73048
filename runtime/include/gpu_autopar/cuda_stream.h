// cuda_stream(): the stream of the lease the calling thread holds, for kernel
// launches in task-mode loop bodies. The tool rewrites `k<<<g, b>>>(...)` in
// such a body to `k<<<g, b, 0, ::gpu_autopar::cuda_stream()>>>(...)`.
//
// It returns a small proxy that converts to any pointer type, so it becomes a
// cudaStream_t without this header needing the CUDA headers (whatever order
// the user's file includes them in). Without a lease (CPU path, simulated
// device) it is the null stream, i.e. CUDA's default stream.
#pragma once

#include <gpu_autopar/loop_body.h>

namespace gpu_autopar {

struct stream_handle {
  void* handle;
  template <class T>
  operator T*() const {
    return static_cast<T*>(handle);
  }
};

inline stream_handle cuda_stream() { return stream_handle{current_stream()}; }

} // namespace gpu_autopar
