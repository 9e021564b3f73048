void zero(int *a, int n) {
#pragma gpu_autopr for
  for (int i = 0; i < n; ++i)
    a[i] = 0;
#pragma GPU_AUTOPAR for
  for (int i = 0; i < n; ++i)
    a[i] = 1;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 2;
}
