#define PAR(loop) _Pragma("gpu_autopar for") loop
void zero(int *a, int n) {
  PAR(for (int i = 0; i < n; ++i) a[i] = 0;)
}
