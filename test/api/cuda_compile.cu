// Compiled by nvcc in the tests: every entry point instantiated the way the
// tool generates calls of it, including a kernel-mode loop with reductions
// and a task-mode launch on the lease's stream.
#include <gpu_autopar/gpu_autopar.h>

#include <vector>

__global__ void scale(float* p, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    p[t] *= 2.0f;
}

double saxpy(std::vector<float>& y, const std::vector<float>& x, float a, float* raw, int n) {
  double sum = 0;
  int top = 0;
  ::gpu_autopar::kernel_loop(
      ::gpu_autopar::loop_site{"cuda_compile.cu", 1}, ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1),
      ::gpu_autopar::options().schedule(::gpu_autopar::schedule_kind::dynamic, 64),
      ::gpu_autopar::data(::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1)),
                          ::gpu_autopar::tofrom(y, ::gpu_autopar::affine(1, 0, 1)),
                          ::gpu_autopar::from(raw, 0, n, ::gpu_autopar::affine(1, 0, 1))),
      ::gpu_autopar::reductions(::gpu_autopar::reduce<::gpu_autopar::op::plus>(sum),
                                ::gpu_autopar::reduce<::gpu_autopar::op::max>(top)),
      [=] GPU_AUTOPAR_HD(int i, ::gpu_autopar::view<decltype(x)> x, ::gpu_autopar::view<decltype(y)> y,
                         ::gpu_autopar::view<decltype(raw)> raw, double& sum, int& top) {
        y[i] = a * x[i] + y[i];
        raw[i] = y[i];
        sum += y[i];
        top = i > top ? i : top;
      });
  return sum + top;
}

void channels(float** bufs, int count, int n) {
  ::gpu_autopar::task_loop(::gpu_autopar::loop_site{"cuda_compile.cu", 2},
                           ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (count), 1),
                           ::gpu_autopar::options(), ::gpu_autopar::reductions(), [&](int c) {
                             scale<<<(n + 255) / 256, 256, 0, ::gpu_autopar::cuda_stream()>>>(bufs[c], n);
                           });
}
