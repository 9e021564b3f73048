// Task mode in a CUDA source: kernel launches written without a stream get
// the stream of the lease the iteration holds; launches that name a stream
// keep it. The rewritten file compiles with nvcc.
// REQUIRES: cuda
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null | FileCheck %s --match-full-lines
// RUN: %gpu-autopar %s -o %t.cu -- -std=c++17
// RUN: %nvcc -c %t.cu -o %t.o
#include <cuda_runtime.h>

__global__ void scale(float *p, int n, float f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    p[t] *= f;
}

void process(float **channels, int count, int n, cudaStream_t mine) {
#pragma gpu_autopar for
  for (int c = 0; c < count; ++c) {
    scale<<<(n + 255) / 256, 256>>>(channels[c], n, 2.0f);
    scale<<<(n + 255) / 256, 256, 0>>>(channels[c], n, 0.5f);
    scale<<<1, 32, 0, mine>>>(channels[c], 32, 1.0f);
    cudaStreamSynchronize(mine);
  }
}
// CHECK:      ::gpu_autopar::task_loop(::gpu_autopar::loop_site{"task-launch.cu", 17},
// CHECK:          scale<<<(n + 255) / 256, 256, 0, ::gpu_autopar::cuda_stream()>>>(channels[c], n, 2.0f);
// CHECK-NEXT:     scale<<<(n + 255) / 256, 256, 0, ::gpu_autopar::cuda_stream()>>>(channels[c], n, 0.5f);
// CHECK-NEXT:     scale<<<1, 32, 0, mine>>>(channels[c], 32, 1.0f);
