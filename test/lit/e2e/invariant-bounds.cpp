// Bounds as NPB and PolyBench write them: elements of a sizes array the loop
// does not write (`grid_points[1] - 2`) and minima written with `?:` are
// loop-invariant values. The NPB-style nest is independent while its inner
// subscripts stay inside their dimensions, which the rewritten loop checks
// first (grid_points[1] <= 65); the clipped rows get sections and an address
// check. Before, both were warnings ("the bound ... is not affine") and the
// clipped loop could not be mapped at all. A loop that writes the sizes array
// reads its elements as what they are there: data.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null | FileCheck %s --check-prefix=CALL
#include <cstdio>

int grid_points[3];
double u[64][64][5], rhs[64][64][5];

void compute() {
  int i, j, m;
#pragma gpu_autopar for private(j, m)
  for (i = 1; i <= grid_points[0] - 2; i++)
    for (j = 1; j <= grid_points[1] - 2; j++)
      for (m = 0; m < 5; m++)
        u[i][j][m] = u[i][j][m] + rhs[i][j][m] * (i - j);
// DIAG: invariant-bounds.cpp:[[@LINE-1]]:9: remark: iterations touch distinct elements of 'u' only while its subscripts stay inside its dimensions (grid_points[1] <= 65); the rewritten loop checks this first and runs serially if not
}
// CALL: {{^[^/]*}}.check_within({{.*}}grid_points[1]{{.*}}, "u", "grid_points[1] <= 65")

void clip(double *a, const double *b, int n, int m) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < (m < 8 ? m : 8); j++)
      a[i * 8 + j] = b[i * 8 + j] * 2 + j;
// DIAG: invariant-bounds.cpp:[[@LINE-1]]:7: remark: 'a' and 'b' may overlap; the rewritten loop compares their addresses first and runs serially if they do
// DIAG: invariant-bounds.cpp:[[@LINE-2]]:22: note: read of 'b' here
}

// The sizes array written by the loop: sizes[0] is an element it reads,
// not a parameter (the loop writes only from index 1, so it is independent).
void resize(int *sizes, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    sizes[i] = sizes[0] + i;
}

// Tiles as PLuTo writes them: the tile loop runs to floord(n - 1, 16), a
// `?:` that is exact in the dependence test (before, "the bound ... is not
// affine"); the read's offset is a `?:` that is not a minimum, spelled in
// the section the loop maps.
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
void tiles(double *__restrict__ c, const double *__restrict__ b, int n, int m) {
#pragma gpu_autopar for
  for (int t = 0; t <= floord(n - 1, 16); ++t)
    for (int i = 0; i < 16; ++i)
      c[16 * t + i] = b[16 * t + i + (m % 2 == 0 ? m : 0)] + t;
}
// CALL: {{^[^/]*}}::gpu_autopar::to(b, ::gpu_autopar::affine(16, ((((m) % 2)) == 0 ? (m) : (0)), 16))

// Rows handed to a visible function that stays inside them, as NPB's BT
// hands lhs[i][j][k][BB] to binvcrhs: the rows are all the call touches
// there (before, "a row of 'lhs' is passed on as a whole" was a warning), so
// the nest is independent while j stays inside its dimension, and each
// iteration's rows are its section. The function is made device-callable.
double lhs[64][16][2][5][5], rr[64][16][5];
static void binv(double a[5][5], double c[5][5], double r[5]) {
  const double p = 1.0 / (a[0][0] + 2.0);
  for (int m = 0; m < 5; m++) {
    c[0][m] = c[0][m] * p;
    r[m] = r[m] * p + a[m][m];
  }
}
void solve(int nj) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < 64; i++)
    for (j = 0; j < nj; j++)
      binv(lhs[i][j][0], lhs[i][j][1], rr[i][j]);
// DIAG: invariant-bounds.cpp:[[@LINE-1]]:26: remark: iterations touch distinct elements of 'lhs' only while its subscripts stay inside its dimensions (nj <= 16); the rewritten loop checks this first and runs serially if not
// DIAG: invariant-bounds.cpp:[[@LINE-2]]:40: remark: iterations touch distinct elements of 'rr' only while its subscripts stay inside its dimensions (nj <= 16); the rewritten loop checks this first and runs serially if not
}
// CALL: GPU_AUTOPAR_HD static void binv(
// CALL: {{^[^/]*}}::gpu_autopar::tofrom(lhs, ::gpu_autopar::affine(1, 0, 1))

int main() {
  const int n = 4000;
  static double a[8 * n], b[8 * n];
  static int sizes[n];
  static double c[8 * n];
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int m = 0; m < 5; ++m)
        u[i][j][m] = rhs[i][j][m] = ((i * 7 + j * 3 + m) % 13) * 0.25;
  grid_points[0] = 60;
  grid_points[1] = 50;
  compute();
  grid_points[1] = 70; // outside the dimension: serially, as written
  compute();
  for (int i = 0; i < 8 * n; ++i)
    b[i] = (i * 5 % 11) * 0.125;
  clip(a, b, n, 6);
  clip(a, b, n, 12);
  clip(a, a, n / 2, 8); // overlapping: serially
  sizes[0] = 3;
  resize(sizes, n);
  double sum = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      for (int m = 0; m < 5; ++m)
        sum += u[i][j][m] * ((i + j + m) % 5);
  for (int i = 0; i < 8 * n; ++i)
    sum += a[i] * (i % 7);
  tiles(c, b, n - 10, 6);
  tiles(c + 4 * n, b, n + 5, 7);
  for (int i = 0; i < 8 * n; ++i)
    sum += c[i] * (i % 5);
  for (int i = 0; i < n; ++i)
    sum += sizes[i] % 11;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 16; j++)
      for (int m = 0; m < 5; m++) {
        rr[i][j][m] = (i + 2 * j + m) % 7;
        for (int k = 0; k < 5; k++) {
          lhs[i][j][0][m][k] = (i * m + k) % 5;
          lhs[i][j][1][m][k] = (j + k) % 3;
        }
      }
  solve(12);
  solve(16);
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 16; j++)
      for (int m = 0; m < 5; m++) {
        sum += rr[i][j][m] * (m + 1);
        for (int k = 0; k < 5; k++)
          sum += lhs[i][j][1][m][k] * (k + 2);
      }
  std::printf("%.6f\n", sum);
}
// CHECK: cpu: invariant-bounds.cpp:19 mode=kernel backend=cpu iterations=58 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:19 mode=kernel backend=cpu iterations=58 devices=1 serial=the subscripts of 'u' may leave its dimensions: grid_points[1] <= 65 does not hold
// CHECK: cpu: invariant-bounds.cpp:30 mode=kernel backend=cpu iterations=4000 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:30 mode=kernel backend=cpu iterations=4000 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:30 mode=kernel backend=cpu iterations=2000 devices=1 serial='a' and 'b' overlap in memory
// CHECK: cpu: invariant-bounds.cpp:41 mode=kernel backend=cpu iterations=3999 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:52 mode=kernel backend=cpu iterations=250 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:52 mode=kernel backend=cpu iterations=251 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:74 mode=kernel backend=cpu iterations=64 devices=1{{$}}
// CHECK: cpu: invariant-bounds.cpp:74 mode=kernel backend=cpu iterations=64 devices=1{{$}}
// CHECK: sim:3: invariant-bounds.cpp:19 mode=kernel backend=sim iterations=58 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:19 mode=kernel backend=cpu iterations=58 devices=1 serial=the subscripts of 'u' may leave its dimensions: grid_points[1] <= 65 does not hold
// CHECK: sim:3: invariant-bounds.cpp:30 mode=kernel backend=sim iterations=4000 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:30 mode=kernel backend=sim iterations=4000 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:30 mode=kernel backend=cpu iterations=2000 devices=1 serial='a' and 'b' overlap in memory
// CHECK: sim:3: invariant-bounds.cpp:41 mode=kernel backend=sim iterations=3999 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:52 mode=kernel backend=sim iterations=250 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:52 mode=kernel backend=sim iterations=251 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:74 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: invariant-bounds.cpp:74 mode=kernel backend=sim iterations=64 devices=3{{$}}
