void fill(float *a, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
#pragma gpu_autopar for
    for (int j = 0; j < m; ++j)
      a[i * m + j] = 1;
  }
}
