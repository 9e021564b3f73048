/* A C99 source as XSBench, RSBench and PolyBench write it (issue 28, item 6):
 * `restrict` parameters, a variable-length array, malloc's `void *`
 * assigned without a cast, OpenMP loop directives. `gpu-autopar file.c`
 * without compiler flags parses it as C++-compatible C and writes C++: the
 * casts made explicit (the lines keep their numbers), `restrict` defined as
 * `__restrict__`. The output builds without OpenMP and prints what the serial
 * C program prints, on every device setting and on the CUDA stand-in.
 * RUN: %e2e --out %t --accept omp,acc %s | FileCheck %s
 * RUN: FileCheck %s --check-prefix=REWRITE --input-file %t/e2e-c-source.par.cpp
 * The tool's own diagnostics, without flags: nothing but remarks.
 * RUN: %gpu-autopar --accept=omp,acc --check %s 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
 * Running the tool on its output changes nothing more.
 * RUN: %gpu-autopar --accept=omp,acc %t/e2e-c-source.par.cpp -o %t/again.cpp -- -std=c++17
 * RUN: diff %t/e2e-c-source.par.cpp %t/again.cpp
 */
#include <stdio.h>
#include <stdlib.h>

/* REWRITE: {{^}}#define restrict __restrict__{{$}}
 * REWRITE-NEXT: {{^}}#line 1 "{{.*}}e2e-c-source.c"{{$}}
 * REWRITE-NEXT: {{^}}#include <gpu_autopar/gpu_autopar.h>{{$}}
 */
static void saxpy(int n, double a, const double *restrict x, double *restrict y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static double dot(int n, const double *restrict x, const double *restrict y) {
  double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; i++)
    sum += x[i] * y[i];
  return sum;
}

/* A C89-style counter declared before the loop, as NPB writes it. */
static void scale_rows(int rows, int cols, double *restrict m, const double *restrict f) {
  int i, j;
#pragma omp parallel for private(j)
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++)
      m[i * cols + j] *= f[i];
}

int main(void) {
  int n = 4000, rows = 40, cols = 100, i;
  double *x = malloc(n * sizeof(double));
  double *y = malloc(n * sizeof *y);
  double *m, *f;
  /* REWRITE: {{^}}  double *x = (double *)malloc(n * sizeof(double));{{$}}
   * REWRITE: {{^}}  double *y = (double *)malloc(n * sizeof *y);{{$}}
 */
  m = calloc(rows * cols, sizeof(double));
  f = malloc(rows * sizeof(double));
  /* REWRITE: {{^}}  m = (double *)calloc(rows * cols, sizeof(double));{{$}}
 */
  {
    double weights[rows]; /* a variable-length array, outside the loops */
    for (i = 0; i < rows; i++)
      weights[i] = 1.0 + 0.01 * i;
    for (i = 0; i < rows; i++)
      f[i] = weights[i];
  }
  for (i = 0; i < n; i++) {
    x[i] = 0.001 * i;
    y[i] = 1.0 - 0.0005 * (i % 17);
  }
  for (i = 0; i < rows * cols; i++)
    m[i] = (double)(i % 13);
  saxpy(n, 2.5, x, y);
  scale_rows(rows, cols, m, f);
  printf("dot %.6f\n", dot(n, x, y));
  printf("m[0] %.4f m[last] %.4f y[7] %.6f\n", m[0], m[rows * cols - 1], y[7]);
  free(x);
  free(y);
  free(m);
  free(f);
  return 0;
}
/* DIAG-NOT: error
 * CHECK: sim:3: {{.*}}e2e-c-source.c:24 mode=kernel backend=sim iterations=4000 devices=3
 * CHECK: sim:3: {{.*}}e2e-c-source.c:40 mode=kernel backend=sim iterations=40 devices=3
 * CHECK: sim:3: {{.*}}e2e-c-source.c:31 mode=kernel backend=sim iterations=4000 devices=3
 * CHECK: nvcc: compiled
 * CHECK: standin devices=2: {{.*}}e2e-c-source.c:24 mode=kernel backend=cuda
 */
