int total(int n) {
  int s = 0;
#pragma gpu_autopar for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}
