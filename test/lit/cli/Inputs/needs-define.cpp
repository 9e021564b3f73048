#ifndef FROM_DATABASE
#error compile flags did not come from compile_commands.json
#endif
void twice(double *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
