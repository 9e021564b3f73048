// Loops of several kinds in data regions under mpirun (issue 25): a split
// stencil whose halo rows cross ranks, a loop too short to split (run in full
// on every rank, after every rank got what it reads), a loop that calls a
// host function the tool cannot see into (every rank first gets all the
// regions' data), a reduction over kept rows, `update host` in the middle,
// and the same sweeps between `enter data` and `exit data`.
#include <cstdio>
#include <vector>

double scale_of(int k); // defined below: the tool does not see into it from the loop

static void sweep(std::vector<double> &u, std::vector<double> &v, int n) {
  int i;
#pragma gpu_autopar for
  for (i = 1; i < n - 1; ++i)
    v[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
#pragma gpu_autopar for
  for (i = 1; i < n - 1; ++i)
    u[i] = v[i];
}

int main() {
  const int n = 4001;
  std::vector<double> u(n), v(n, 0.0);
  for (int k = 0; k < n; ++k)
    u[k] = double((k * 37) % 101);
  double sum = 0;
  int i;
#pragma gpu_autopar data map(tofrom: u[0:n], v[0:n])
  {
    for (int s = 0; s < 4; ++s)
      sweep(u, v, n);
#pragma gpu_autopar for
    for (i = 0; i < 3; ++i) // too short to split: in full on every rank
      u[i * 1000 + 500] = v[i * 1000 + 499] + v[i * 1000 + 501];
#pragma gpu_autopar for
    for (i = 0; i < n; ++i) // a host function: in full on every rank
      v[i] = v[i] * scale_of(i);
    for (int s = 0; s < 3; ++s)
      sweep(u, v, n);
#pragma gpu_autopar update host(u[0:n])
    std::printf("mid: u[1000]=%.9f u[2000]=%.9f u[3999]=%.9f\n", u[1000], u[2000], u[3999]);
#pragma gpu_autopar for reduction(+: sum)
    for (i = 0; i < n; ++i)
      sum += u[i] * double(i % 7);
  }
  std::printf("region: sum=%.9f v[1234]=%.9f u[4000]=%.9f\n", sum, v[1234], u[4000]);
#pragma gpu_autopar enter data map(to: u[0:n], v[0:n])
  for (int s = 0; s < 5; ++s)
    sweep(u, v, n);
#pragma gpu_autopar exit data map(from: u[0:n], v[0:n])
  double total = 0;
  for (int k = 0; k < n; ++k)
    total += u[k] * double(k % 5) + v[k];
  std::printf("enter/exit: total=%.9f\n", total);
}

double scale_of(int k) { return 1.0 + 0.001 * double(k % 3); }
