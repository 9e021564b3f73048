// Jacobi-2d in a data region under mpirun (issue 25's "done when"): SWEEPS
// sweeps of two kernel-mode loops (a stencil into b, a copy back into a) over
// a ROWS x COLS grid. Inside the region each rank keeps the rows it writes;
// only halo rows cross between ranks, and the region's end gathers both
// grids. region_bytes.py checks the output against the serial build and the
// bytes of the report against the model of docs/mpi.md.
// Usage: region_jacobi [ROWS COLS SWEEPS]   (default 512 512 50)
#include <cstdio>
#include <cstdlib>
#include <vector>

static void sweeps(std::vector<double> &a, std::vector<double> &b, int rows, int cols, int count) {
  int i, j, s;
  for (s = 0; s < count; ++s) {
#pragma gpu_autopar for private(j)
    for (i = 1; i < rows - 1; ++i)
      for (j = 1; j < cols - 1; ++j)
        b[i * cols + j] = 0.25 * (a[(i - 1) * cols + j] + a[(i + 1) * cols + j] + a[i * cols + j - 1] +
                                  a[i * cols + j + 1]);
#pragma gpu_autopar for private(j)
    for (i = 1; i < rows - 1; ++i)
      for (j = 1; j < cols - 1; ++j)
        a[i * cols + j] = b[i * cols + j];
  }
}

int main(int argc, char **argv) {
  const int rows = argc > 3 ? std::atoi(argv[1]) : 512, cols = argc > 3 ? std::atoi(argv[2]) : 512;
  const int count = argc > 3 ? std::atoi(argv[3]) : 50;
  const long total = long(rows) * cols;
  std::vector<double> a(total), b(total);
  for (long k = 0; k < total; ++k)
    a[k] = b[k] = double((k * 7919) % 1000) / 7.0;
#pragma gpu_autopar data map(tofrom: a[0:total], b[0:total])
  {
    sweeps(a, b, rows, cols, count);
  }
  double sa = 0, sb = 0;
  for (long k = 0; k < total; ++k) {
    sa += a[k] * double(k % 13 + 1);
    sb += b[k] * double(k % 7 + 1);
  }
  std::printf("rows=%d cols=%d sweeps=%d a=%.9e b=%.9e a[mid]=%.12f\n", rows, cols, count, sa, sb,
              a[total / 2 + cols / 2]);
}
