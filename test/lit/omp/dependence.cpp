// A loop OpenMP or OpenACC declared parallel still goes through the legality
// analysis: a proven dependence is an error that says whose promise it breaks.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc --check %s -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
void dependent(float *__restrict__ a, int n, int &count) {
#pragma omp parallel for
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + 1;
  int last = 0;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; ++i)
    last = i;
#pragma acc parallel loop
  for (int i = 0; i < n; ++i)
    a[0] += a[i];
#pragma acc kernels loop
  for (int i = 0; i < n; ++i)
    count = count + 1;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = a[i] * 2;
}
// LEGALITY
// CHECK: dependence.cpp:7:3: error: OpenMP's annotation says the loop is parallel, but it has a loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: dependence.cpp:8:5: note: write of 'a' here
// CHECK: dependence.cpp:8:12: note: read of 'a' here
// CHECK: dependence.cpp:7:3: note: for example, with n = 3, iteration i=1 writes a[1] and iteration i=2 reads it
// CHECK: dependence.cpp:12:5: error: OpenMP's annotation says the loop is parallel, but 'last' is declared outside the loop and written in it; every iteration writes it before reading it: add it to a private(...) clause (lastprivate(...) if its value after the loop is used)
// CHECK: dependence.cpp:9:7: note: 'last' is declared here
// CHECK: dependence.cpp:14:3: error: OpenACC's annotation says the loop is parallel, but it has a loop-carried dependence on 'a': every iteration writes the same element{{$}}
// CHECK: dependence.cpp:15:5: note: write of 'a' here
// CHECK: dependence.cpp:14:3: note: for example, with n = 2, iterations i=0 and i=1 both write a[0]
// A kernels loop is not declared parallel: the error is the tool's own.
// CHECK: dependence.cpp:18:5: error: 'count' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: count)' clause
// CHECK: dependence.cpp:5:51: note: 'count' is declared here
