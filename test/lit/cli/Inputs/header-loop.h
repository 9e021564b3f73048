inline void zero_in_header(int *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}
