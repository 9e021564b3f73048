// Kernels as PolyBench/C 4.2 writes them: global arrays with fixed extents,
// C89 counters at the top of each function with the inner ones private, loops
// to the run-time sizes passed as parameters, triangular and transposed
// sweeps, in-place updates. Each annotated loop is proven independent while
// its subscripts stay inside the arrays' dimensions, which the rewritten loop
// checks before it runs; the sizes here stay inside, so every loop runs in
// parallel and the checksums equal the serial program's.
// RUN: %e2e --out %t %s | FileCheck %s
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning:
#include <cstdio>

#define N 96
#define M 112
static double A[N][M], B[M][N], C[N][N], D[N][N], x[M], y[M], tmp[N], s[M], q[N], p[M], r[N];

static void gemm(int ni, int nj, int nk, double alpha, double beta) {
  int i, j, k;
#pragma gpu_autopar for private(j, k)
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++)
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}

static void atax(int m, int n) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
  }
#pragma gpu_autopar for private(i)
  for (j = 0; j < n; j++) {
    y[j] = 0;
    for (i = 0; i < m; i++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}

static void bicg(int m, int n) {
  int i, j;
#pragma gpu_autopar for private(i)
  for (j = 0; j < m; j++) {
    s[j] = 0;
    for (i = 0; i < n; i++)
      s[j] = s[j] + r[i] * A[i][j];
  }
#pragma gpu_autopar for private(j)
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++)
      q[i] = q[i] + A[i][j] * p[j];
  }
}

static void jacobi_2d(int tsteps, int n) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma gpu_autopar for private(j)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        D[i][j] = 0.2 * (C[i][j] + C[i][j - 1] + C[i][1 + j] + C[1 + i][j] + C[i - 1][j]);
#pragma gpu_autopar for private(j)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        C[i][j] = 0.2 * (D[i][j] + D[i][j - 1] + D[i][1 + j] + D[1 + i][j] + D[i - 1][j]);
  }
}

static void syrk(int n, int m, double alpha, double beta) {
  int i, j, k;
#pragma gpu_autopar for private(j, k)
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}

// B = alpha * L^T B with L the lower triangle of the m x m matrix C.
static void trmm(int m, int n, double alpha) {
  int i, j, k;
#pragma gpu_autopar for private(i, k)
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      for (k = i + 1; k < m; k++)
        B[i][j] += C[k][i] * B[k][j];
      B[i][j] = alpha * B[i][j];
    }
}

static void covariance(int m, int n, double float_n) {
  int i, j, k;
#pragma gpu_autopar for private(i)
  for (j = 0; j < m; j++) {
    x[j] = 0.0;
    for (i = 0; i < n; i++)
      x[j] += A[i][j];
    x[j] /= float_n;
  }
#pragma gpu_autopar for private(j, k)
  for (i = 0; i < m; i++)
    for (j = i; j < m; j++) {
      D[i][j] = 0.0;
      for (k = 0; k < n; k++)
        D[i][j] += A[k][i] * A[k][j];
      D[i][j] /= float_n - 1.0;
      D[j][i] = D[i][j];
    }
}

static double sum2(const double *v, int rows, int cols) {
  double t = 0;
  for (int i = 0; i < rows * cols; i++)
    t += v[i] * (i % 7 + 1);
  return t;
}

int main() {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      A[i][j] = (double)((i * j + 1) % N) / N;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      B[i][j] = (double)(i * (j + 1) % M) / M;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      C[i][j] = (double)((i + 2 * j) % N) / N;
  for (int i = 0; i < M; i++)
    x[i] = p[i] = (double)(i % 13) / 13;
  for (int i = 0; i < N; i++)
    r[i] = (double)(i % 11) / 11;
  gemm(N, N, M, 1.5, 1.2);
  atax(N, M);
  bicg(M, N);
  jacobi_2d(4, N);
  syrk(N, M, 1.5, 1.2);
  trmm(N, N, 1.5);
  covariance(N, N, N);
  std::printf("C=%.6e D=%.6e B=%.6e\n", sum2(&C[0][0], N, N), sum2(&D[0][0], N, N), sum2(&B[0][0], M, N));
  std::printf("x=%.6e y=%.6e s=%.6e q=%.6e tmp=%.6e\n", sum2(x, 1, M), sum2(y, 1, M), sum2(s, 1, M), sum2(q, 1, N),
              sum2(tmp, 1, N));
}
// Every loop runs on every device, none serially (sim:3 and two CUDA stand-in GPUs):
// CHECK: sim:3: polybench.cpp:18 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:30 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:36 mode=kernel backend=sim iterations=112 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:46 mode=kernel backend=sim iterations=112 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:52 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:63 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:67 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:63 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:67 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:63 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:67 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:63 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:67 mode=kernel backend=sim iterations=94 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:76 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:89 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:100 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: sim:3: polybench.cpp:107 mode=kernel backend=sim iterations=96 devices=3{{$}}
// CHECK: standin devices=2: polybench.cpp:18 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:30 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:36 mode=kernel backend=cuda iterations=112 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:46 mode=kernel backend=cuda iterations=112 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:52 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:63 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:67 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:63 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:67 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:63 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:67 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:63 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:67 mode=kernel backend=cuda iterations=94 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:76 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:89 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:100 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// CHECK: standin devices=2: polybench.cpp:107 mode=kernel backend=cuda iterations=96 devices=2{{$}}
// One bounds check per written 2-D array whose rows run to a parameter, no warning:
// DIAG: polybench.cpp:21:7: remark: iterations touch distinct elements of 'C' only while its subscripts stay inside its dimensions (nj <= 96); the rewritten loop checks this first and runs serially if not
// DIAG: polybench.cpp:66:9: remark: iterations touch distinct elements of 'D' only while its subscripts stay inside its dimensions (n <= 97); the rewritten loop checks this first and runs serially if not
// DIAG: polybench.cpp:70:9: remark: iterations touch distinct elements of 'C' only while its subscripts stay inside its dimensions (n <= 97); the rewritten loop checks this first and runs serially if not
// DIAG: polybench.cpp:79:7: remark: iterations touch distinct elements of 'C' only while its subscripts stay inside its dimensions (n <= 96); the rewritten loop checks this first and runs serially if not
// DIAG: polybench.cpp:93:9: remark: iterations touch distinct elements of 'B' only while its subscripts stay inside its dimensions (n <= 96); the rewritten loop checks this first and runs serially if not
// DIAG: polybench.cpp:110:7: remark: iterations touch distinct elements of 'D' only while its subscripts stay inside its dimensions (m <= 96); the rewritten loop checks this first and runs serially if not
