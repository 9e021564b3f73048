#define PAR_FOR _Pragma("gpu_autopar for")
void zero(int *a, int n) {
  PAR_FOR
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  PAR_FOR for (int i = 0; i < n; ++i)
    a[i] += 1;
}
