/* The harness's self-test, written for gpu-autopar (not from AutoParBench): loops of the shapes the
   harness must place and classify, in AutoParBench's layout. The reference source carries the
   OpenMP directives the ground truth (shapes.c.json) was written from. */
#include <stdio.h>

void copy(double *x, const double *y, int n)
{
  int i;
  #pragma omp parallel for
  for (i = 0; i < n; i++)
    x[i] = y[i];
}

int main(void)
{
  int i, j, n = 100;
  double a[100], m[100][100], s = 0.0;

  #pragma omp parallel for
  for (i = 0; i < n; i++)
    a[i] = i;
  for (i = 1; i < n; i++)
    a[i] = a[i - 1] + 1;
  #pragma omp parallel for reduction(+:s)
  for (i = 0; i < n; i++)
    s += a[i];
  #pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 1; j < n; j++)
      m[i][j] = m[i][j - 1] + a[i];
  if (n > 0) for (i = 0; i < n; i++)
    printf("%f\n", a[i]);
  #pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      m[i][j] = a[j];
  copy(a, a, n);
  return s > 0 ? 0 : 1;
}
