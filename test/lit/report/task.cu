// CUDA sources are parsed host-side (--cuda-host-only); kernel launches and
// CUDA runtime calls make a loop a task, __host__ __device__ calls keep it a
// kernel. Loops of a file that is written are "rewritten" in the report.
// REQUIRES: cuda
// RUN: rm -f %t.json
// RUN: %gpu-autopar %s --report=%t.json -o %t.out.cu -- -std=c++17 -Wno-unknown-cuda-version
// RUN: FileCheck %s --input-file %t.json
#include <cuda_runtime.h>
__global__ void scale(float *p, int n) {
  int i = threadIdx.x;
  if (i < n)
    p[i] *= 2;
}
__host__ __device__ float twice(float x) { return 2 * x; }
void run(float **channels, float *__restrict__ out, int n) {
#pragma gpu_autopar for
  for (int c = 0; c < 3; ++c)
    scale<<<1, 256>>>(channels[c], n);
#pragma gpu_autopar for
  for (int c = 0; c < 3; ++c)
    cudaMemset(channels[c], 0, n * sizeof(float));
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = twice(out[i]);
}
// CHECK:      "decision": "rewritten",
// CHECK:      "line": 16
// CHECK:      "mode": "task",
// CHECK:      "message": "the body launches kernel 'scale'"
// CHECK:      "decision": "rewritten",
// CHECK:      "line": 19
// CHECK:      "mode": "task",
// CHECK:      "message": "the body calls CUDA function 'cudaMemset'"
// CHECK:      "decision": "rewritten",
// CHECK:      "line": 22
// CHECK:      "mode": "kernel",
