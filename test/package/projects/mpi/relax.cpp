// A relaxation sweep and a residual: one loop whose writes are slabs, one
// that writes through a stencil's hull, and reductions of both kinds.
#include <cstdio>
#include <vector>

int main() {
  const int n = 50000;
  std::vector<double> u(n), v(n);
  for (int i = 0; i < n; ++i)
    u[i] = (i * 7919) % 1009;
  long changed = 0;
  double residual = 0;
  for (int step = 0; step < 3; ++step) {
#pragma gpu_autopar for reduction(+: changed)
    for (int i = 1; i < n - 1; ++i) {
      v[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
      changed += v[i] != u[i];
    }
#pragma gpu_autopar for reduction(max: residual)
    for (int i = 1; i < n - 1; ++i) {
      double d = v[i] - u[i];
      residual = d > residual ? d : residual;
      u[i] = v[i];
    }
  }
  std::printf("changed=%ld residual=%.9f u[7]=%.9f u[n/2]=%.9f\n", changed, residual, u[7], u[n / 2]);
}
