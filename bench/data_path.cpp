// What a kernel-mode loop moves between host and devices, from the runtime's
// per-device counts (docs/runtime.md): a reduction(+: double) over 10^8
// iterations, saxpy over 2^24 floats and a 512x512 matmul with collapse(2),
// each written as the tool rewrites it (docs/generated-code.md). Run it with
// bench/data_path.sh, which sets the devices and prints the report's counts.
#include <gpu_autopar/gpu_autopar.h>

#include <cstdio>
#include <vector>

namespace ga = gpu_autopar;

int main() {
  const long long n = 100000000;
  double sum = 0;
  ga::kernel_loop(ga::loop_site{"reduction", 1}, ga::iterations<long long>(0, ga::less, n, 1), ga::options(),
                  ga::data(), ga::reductions(ga::reduce<ga::op::plus>(sum)),
                  [=] GPU_AUTOPAR_HD(long long i, double& sum) { sum += 1.0 / double(i + 1); });

  const int m = 1 << 24;
  std::vector<float> x(m, 1.0f), y(m, 2.0f);
  const float a = 3.0f;
  ga::kernel_loop(ga::loop_site{"saxpy", 2}, ga::iterations<int>(0, ga::less, m, 1), ga::options(),
                  ga::data(ga::to(x, ga::affine(1, 0, 1)), ga::tofrom(y, ga::affine(1, 0, 1))), ga::reductions(),
                  [=] GPU_AUTOPAR_HD(int i, ga::view<decltype(x)> x, ga::view<decltype(y)> y) {
                    y[i] = a * x[i] + y[i];
                  });

  const int k = 512;
  std::vector<double> A(k * k, 1.0), B(k * k, 2.0), C(k * k);
  ga::kernel_loop(ga::loop_site{"matmul-collapse2", 3},
                  ga::collapse(ga::iterations<int>(0, ga::less, k, 1), ga::iterations<int>(0, ga::less, k, 1)),
                  ga::options(),
                  ga::data(ga::to(A, ga::affine(k, 0, k)), ga::to(B, ga::whole()), ga::from(C, ga::affine(k, 0, k))),
                  ga::reductions(),
                  [=] GPU_AUTOPAR_HD(int i, int j, ga::view<decltype(A)> A, ga::view<decltype(B)> B,
                                     ga::view<decltype(C)> C) {
                    double acc = 0;
                    for (int l = 0; l < k; ++l)
                      acc += A[i * k + l] * B[l * k + j];
                    C[i * k + j] = acc;
                  });
  std::printf("sum=%.6f y[0]=%.1f C[0]=%.1f\n", sum, double(y[0]), C[0]);
}
