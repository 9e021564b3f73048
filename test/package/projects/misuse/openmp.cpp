// Annotated for OpenMP only: gpu_autopar_target(... ACCEPT omp) rewrites it.
int main() {
  int s = 0, last = -1;
#pragma omp parallel for reduction(+: s) lastprivate(last)
  for (int i = 0; i < 100; ++i) {
    s += i;
    last = i;
  }
  return s == 4950 && last == 99 ? 0 : 1;
}
