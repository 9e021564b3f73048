// More PolyBench/C 4.2 kernels as PolyBench writes them: mvt, gesummv,
// doitgen (a private array per iteration, 3-D data), heat-3d (a 3-D stencil
// over time steps), fdtd-2d (four sweeps per step, one over a row only) and
// correlation (sqrt, a conditional). Global arrays with fixed extents, C89
// counters, loops to run-time sizes: each loop proven (with a bounds check
// where a written array's rows run to a parameter) and run on every device,
// the checksums equal to the serial program's.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning:
#include <cmath>
#include <cstdio>

#define N 64
#define M 72
static double A[N][M], B[N][N], C[N][N], x1[N], x2[N], y1v[N], y2v[N], tmp[N], xx[N], yy[N], mean[M], stddev[M];
static double A3[12][14][16], C4[16][16], sum[16];
static double H[18][18][18], G[18][18][18];
static double ex[N][M], ey[N][M], hz[N][M], fict[8];

static void mvt(int n) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x1[i] = x1[i] + B[i][j] * y1v[j];
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      x2[i] = x2[i] + B[j][i] * y2v[j];
}

static void gesummv(int n, double alpha, double beta) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    yy[i] = 0.0;
    for (j = 0; j < n; j++) {
      tmp[i] = B[i][j] * xx[j] + tmp[i];
      yy[i] = C[i][j] * xx[j] + yy[i];
    }
    yy[i] = alpha * tmp[i] + beta * yy[i];
  }
}

static void doitgen(int nr, int nq, int np) {
  int r, q, p, s;
#pragma gpu_autopar for private(q, p, s, sum)
  for (r = 0; r < nr; r++)
    for (q = 0; q < nq; q++) {
      for (p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (s = 0; s < np; s++)
          sum[p] += A3[r][q][s] * C4[s][p];
      }
      for (p = 0; p < np; p++)
        A3[r][q][p] = sum[p];
    }
}

static void heat_3d(int tsteps, int n) {
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
#pragma gpu_autopar for private(j, k)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          G[i][j][k] = 0.125 * (H[i + 1][j][k] - 2.0 * H[i][j][k] + H[i - 1][j][k]) +
                       0.125 * (H[i][j + 1][k] - 2.0 * H[i][j][k] + H[i][j - 1][k]) +
                       0.125 * (H[i][j][k + 1] - 2.0 * H[i][j][k] + H[i][j][k - 1]) + H[i][j][k];
#pragma gpu_autopar for private(j, k)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        for (k = 1; k < n - 1; k++)
          H[i][j][k] = 0.125 * (G[i + 1][j][k] - 2.0 * G[i][j][k] + G[i - 1][j][k]) +
                       0.125 * (G[i][j + 1][k] - 2.0 * G[i][j][k] + G[i][j - 1][k]) +
                       0.125 * (G[i][j][k + 1] - 2.0 * G[i][j][k] + G[i][j][k - 1]) + G[i][j][k];
  }
}

static void fdtd_2d(int tmax, int nx, int ny) {
  int t, i, j;
  for (t = 0; t < tmax; t++) {
#pragma gpu_autopar for
    for (j = 0; j < ny; j++)
      ey[0][j] = fict[t];
#pragma gpu_autopar for private(j)
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
#pragma gpu_autopar for private(j)
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
#pragma gpu_autopar for private(j)
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

static void correlation(int m, int n, double float_n, double eps) {
  int i, j;
#pragma gpu_autopar for private(i)
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += A[i][j];
    mean[j] /= float_n;
  }
#pragma gpu_autopar for private(i)
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (A[i][j] - mean[j]) * (A[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = std::sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      A[i][j] -= mean[j];
      A[i][j] /= std::sqrt(float_n) * stddev[j];
    }
}

static double sum_of(const double *v, int count) {
  double t = 0;
  for (int i = 0; i < count; i++)
    t += v[i] * (i % 7 + 1);
  return t;
}

int main() {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      B[i][j] = (double)((i * j + 3) % N) / N, C[i][j] = (double)((i + 3 * j) % 17) / 17;
    for (int j = 0; j < M; j++)
      A[i][j] = (double)((i * (j + 1)) % 23) / 23 + (j % 3 == 0 ? 0 : 0.5);
    x1[i] = x2[i] = 0;
    y1v[i] = (double)(i % 5) / 5, y2v[i] = (double)(i % 7) / 7, xx[i] = (double)(i % 9) / 9;
  }
  for (int r = 0; r < 12; r++)
    for (int q = 0; q < 14; q++)
      for (int p = 0; p < 16; p++)
        A3[r][q][p] = (double)((r * q + p) % 16) / 16;
  for (int s = 0; s < 16; s++)
    for (int p = 0; p < 16; p++)
      C4[s][p] = (double)(s * p % 16) / 16;
  for (int i = 0; i < 18; i++)
    for (int j = 0; j < 18; j++)
      for (int k = 0; k < 18; k++)
        H[i][j][k] = G[i][j][k] = (double)(i + j + (18 - k)) * 10 / 18;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      ex[i][j] = (double)(i * (j + 1)) / N, ey[i][j] = (double)(i * (j + 2)) / M, hz[i][j] = (double)(i * (j + 3)) / N;
  for (int t = 0; t < 8; t++)
    fict[t] = t;
  mvt(N);
  gesummv(N, 1.5, 1.2);
  doitgen(12, 14, 16);
  heat_3d(5, 18);
  fdtd_2d(8, N, M);
  correlation(M, N, N, 0.1);
  std::printf("x1=%.6e x2=%.6e yy=%.6e A3=%.6e H=%.6e\n", sum_of(x1, N), sum_of(x2, N), sum_of(yy, N),
              sum_of(&A3[0][0][0], 12 * 14 * 16), sum_of(&H[0][0][0], 18 * 18 * 18));
  std::printf("ex=%.6e ey=%.6e hz=%.6e A=%.6e stddev=%.6e\n", sum_of(&ex[0][0], N * M), sum_of(&ey[0][0], N * M),
              sum_of(&hz[0][0], N * M), sum_of(&A[0][0], N * M), sum_of(stddev, M));
}
// Every loop runs on every device, none serially (sim:3 and two CUDA stand-in GPUs):
// CHECK: sim:3: polybench-more.cpp:22 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:26 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:34 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:48 mode=kernel backend=sim iterations=12 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:64 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:71 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:64 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:71 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:64 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:71 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:64 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:71 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:64 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:71 mode=kernel backend=sim iterations=16 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:84 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:87 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:91 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:95 mode=kernel backend=sim iterations=63 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:104 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:111 mode=kernel backend=sim iterations=72 devices=3{{$}}
// CHECK: sim:3: polybench-more.cpp:120 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: standin devices=2: polybench-more.cpp:22 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:26 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:34 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:48 mode=kernel backend=cuda iterations=12 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:64 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:71 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:64 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:71 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:64 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:71 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:64 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:71 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:64 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:71 mode=kernel backend=cuda iterations=16 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:84 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:87 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:91 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:95 mode=kernel backend=cuda iterations=63 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:104 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:111 mode=kernel backend=cuda iterations=72 devices=2{{$}}
// CHECK: standin devices=2: polybench-more.cpp:120 mode=kernel backend=cuda iterations=64 devices=2{{$}}
// One bounds check per written array whose rows run to a parameter, no warning:
// DIAG: polybench-more.cpp:57:9: remark: iterations touch distinct elements of 'A3' only while its subscripts stay inside its dimensions (np <= 16 && nq <= 14); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:68:11: remark: iterations touch distinct elements of 'G' only while its subscripts stay inside its dimensions (n <= 19); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:75:11: remark: iterations touch distinct elements of 'H' only while its subscripts stay inside its dimensions (n <= 19); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:90:9: remark: iterations touch distinct elements of 'ey' only while its subscripts stay inside its dimensions (ny <= 72); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:94:9: remark: iterations touch distinct elements of 'ex' only while its subscripts stay inside its dimensions (ny <= 72); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:98:9: remark: iterations touch distinct elements of 'hz' only while its subscripts stay inside its dimensions (ny <= 73); the rewritten loop checks this first and runs serially if not
// DIAG: polybench-more.cpp:123:7: remark: iterations touch distinct elements of 'A' only while its subscripts stay inside its dimensions (m <= 72); the rewritten loop checks this first and runs serially if not
