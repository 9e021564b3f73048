#line 100 "user.gen.cpp"
void zero(int *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  int after = 1;
  (void)after;
}
