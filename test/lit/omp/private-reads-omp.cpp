// Under --accept=omp a private or firstprivate variable that an iteration
// reads before writing it relies on OpenMP's copy per thread, which carries
// what the thread's previous iteration left (a per-thread accumulator under
// schedule(static, 8)): an error naming that, at the read, with a note at the
// clause. OpenACC's private is per iteration, as gpu_autopar's. A variable
// written first stays per iteration.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
void per_thread(const float *__restrict__ a, float *__restrict__ b, int n) {
  float acc = 0, x = 1, t;
#pragma omp parallel for schedule(static, 8) private(acc)
  for (int i = 0; i < n; ++i) {
    if (i % 8 == 0)
      acc = 0;
    acc += a[i];
    b[i] = acc;
  }
// CHECK: private-reads-omp.cpp:[[@LINE-3]]:5: error: 'acc' is read before the iteration writes it; the program relies on OpenMP's private copy per thread, which carries what the thread's previous iteration left; gpu-autopar gives every iteration its own uninitialised copy
// CHECK: private-reads-omp.cpp:[[@LINE-8]]:54: note: 'private' clause is here
#pragma omp parallel for firstprivate(x)
  for (int i = 0; i < n; ++i) {
    b[i] = x;
    x = a[i];
  }
// CHECK: private-reads-omp.cpp:[[@LINE-3]]:12: error: 'x' is read before the iteration writes it; the program relies on OpenMP's firstprivate copy per thread, which starts from the value before the loop once per thread and then carries what the thread's previous iteration left; gpu-autopar gives every iteration its own copy of the value before the loop
// CHECK: private-reads-omp.cpp:[[@LINE-6]]:39: note: 'firstprivate' clause is here
#pragma acc parallel loop private(t)
  for (int i = 0; i < n; ++i) {
    b[i] = t;
    t = a[i];
  }
// CHECK: private-reads-omp.cpp:[[@LINE-3]]:12: error: 't' is read before the iteration writes it; every iteration's private copy starts uninitialised: there is no previous iteration on a GPU whose value it could carry over
// CHECK: private-reads-omp.cpp:[[@LINE-6]]:35: note: 'private' clause is here
// Written first, read only: fine.
#pragma omp parallel for private(t) firstprivate(x)
  for (int i = 0; i < n; ++i) {
    t = a[i] * x;
    b[i] = t;
  }
}
