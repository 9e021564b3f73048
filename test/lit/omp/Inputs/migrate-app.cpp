// A small program annotated for OpenMP and OpenACC, migrated by the README's
// three commands in migration-commands.test.
#include <cstdio>
#include <vector>

int main() {
  const int n = 1000;
  std::vector<double> x(n), y(n);
  double *__restrict__ px = x.data();
  double *__restrict__ py = y.data();
  double sum = 0, last = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    px[i] = i * 0.5;
#pragma acc parallel loop copyin(px[0:n]) copyout(py[0:n])
  for (int i = 0; i < n; ++i)
    py[i] = 2 * px[i] + 1;
#pragma omp parallel for reduction(+: sum) lastprivate(last) num_threads(4)
  for (int i = 0; i < n; ++i) {
    last = py[i];
    sum += last;
  }
  std::printf("sum=%.1f last=%.1f\n", sum, last);
}
