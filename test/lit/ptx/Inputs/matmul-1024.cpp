// matmul 1024 x 1024, annotated twice: one GPU thread per row (the inner
// loops run in the thread) and, with collapse(2), one per element of C.
const int n = 1024;

void rows(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C) {
#pragma gpu_autopar for map(to: A[0:n*n], B[0:n*n]) map(from: C[0:n*n])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}

void elements(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C) {
#pragma gpu_autopar for collapse(2) map(to: A[0:n*n], B[0:n*n]) map(from: C[0:n*n])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[i * n + k] * B[k * n + j];
      C[i * n + j] = acc;
    }
}
