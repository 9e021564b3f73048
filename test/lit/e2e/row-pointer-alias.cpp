// A `double *` and a pointer to rows `double (*)[M]` may point into one array
// (only different scalar types are kept apart by C++'s strict aliasing):
// PolyBench's covariance mean loop, called with its mean vector inside the
// data (`&d[0][1]`), must compare the two before it runs and run serially,
// and print what the serial program prints; called with separate arrays it
// runs on the devices. (The pair was once assumed apart: wrong on sim:1 and
// sim:3, with no diagnostic even under --strict.) The section of `data` is
// told by its first subscript, which holds while `j < m` stays in a row:
// checked too.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=REWRITE --input-file %t/row-pointer-alias.par.cpp
// RUN: %gpu-autopar --strict --check %s -- -std=c++17 2> %t.err
// RUN: FileCheck %s --check-prefix=DIAG --input-file %t.err --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=note: --implicit-check-not=remark:
#include <cstdio>

#define M 64
static double d[80][M], e[80][M], mean[M];

static void cov_mean(int m, int n, double float_n, const double (*data)[M], double *mu) {
  int i, j;
#pragma gpu_autopar for private(i)
  for (j = 0; j < m; j++) {
    mu[j] = 0.0;
    for (i = 0; i < n; i++)
      mu[j] += data[i][j];
    mu[j] /= float_n;
  }
}

static double sum(const double *v, int len) {
  double t = 0;
  for (int i = 0; i < len; i++)
    t += v[i] * (i % 7 + 1);
  return t;
}

int main() {
  for (int i = 0; i < 80; i++)
    for (int j = 0; j < M; j++)
      d[i][j] = e[i][j] = (double)((i * j + 1) % 80) / 80;
  cov_mean(M, 80, 80.0, e, mean);         // apart: on the devices
  cov_mean(M - 1, 80, 80.0, d, &d[0][1]); // mu[j] is d[0][j + 1], read by iteration j + 1
  std::printf("mean=%.9e d=%.9e\n", sum(mean, M), sum(&d[0][0], 80 * M));
}
// CHECK: sim:1: row-pointer-alias.cpp:21 mode=kernel backend=sim iterations=64 devices=1{{$}}
// CHECK: sim:1: row-pointer-alias.cpp:21 mode=kernel backend=cpu iterations=63 devices=1 serial='mu' and 'data' overlap in memory
// CHECK: sim:3: row-pointer-alias.cpp:21 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: row-pointer-alias.cpp:21 mode=kernel backend=cpu iterations=63 devices=1 serial='mu' and 'data' overlap in memory

// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"row-pointer-alias.cpp", 21},
// REWRITE-NEXT: ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (m), 1), ::gpu_autopar::options().check_disjoint({{[01]}}, "mu", {{[01]}}, "data").check_within((long long)(m) <= 64LL, "data", "m <= 64"),

// DIAG: row-pointer-alias.cpp:25:16: remark: the elements of 'data' the loop touches are told by its first subscript only while the others stay inside its dimensions (m <= 64); the rewritten loop checks this first and runs serially if not
// DIAG: row-pointer-alias.cpp:23:5: remark: 'mu' and 'data' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// DIAG: row-pointer-alias.cpp:25:16: note: read of 'data' here
