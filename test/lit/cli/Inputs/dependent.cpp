void shift(float *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1];
}
