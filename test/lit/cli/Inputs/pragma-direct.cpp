void zero(int *a, int n) {
  _Pragma("gpu_autopar for")
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}
