// The smallest use of gpu-autopar: one annotated loop.
//
//   gpu-autopar saxpy.cpp -o saxpy.par.cpp -- -std=c++17
//   c++ -std=c++17 saxpy.par.cpp $(pkg-config --cflags --libs gpu-autopar)
//
// Without the tool, the pragma is ignored and the loop runs serially.
#include <cstdio>
#include <vector>

int main() {
  const int n = 1 << 22;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f + (i % 17);
    y[i] = 0.5f * (i % 5);
  }
  const float a = 2.0f;

#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];

  double checksum = 0;
  for (int i = 0; i < n; ++i)
    checksum += y[i];
  std::printf("saxpy over %d elements: checksum %.1f\n", n, checksum);
  return 0;
}
