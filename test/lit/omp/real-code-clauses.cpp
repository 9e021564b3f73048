// Clauses real OpenMP/OpenACC code writes that used to refuse the loop
// (issue 28, item 4): the loop's own variable in private (legal OpenMP,
// DataRaceBench), one variable in map and reduction (OpenMP 5.0,
// BabelStream's dot), depend on a target loop, OpenACC's 'parallel loop wait'
// (a wait clause, not a directive). Each is a remark; the loops translate and
// print what the serial program prints.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-autopar --accept=omp,acc --convert %s -o %t/converted.cpp -- -std=c++17 2> %t/err
// RUN: FileCheck %s --input-file %t/err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CONV --input-file %t/converted.cpp
// RUN: %e2e --out %t/e2e --accept omp,acc --devices "cpu;sim:3" %s | FileCheck %s --check-prefix=E2E
#include <cstdio>
#include <vector>

int main() {
  const int n = 5000;
  std::vector<double> va(n), vb(n);
  double *a = va.data(), *b = vb.data();
  int i;
#pragma omp parallel for private(i)
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:34: remark: 'private(i)' ignored: the loop variable is private to each iteration anyway
  for (i = 0; i < n; i++) {
    a[i] = 0.5 * i;
    b[i] = 0.25 * (i % 13);
  }
  // CONV: {{^}}#pragma gpu_autopar for{{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-7]] mode=kernel backend=sim iterations=5000 devices=3

  double sum = 0;
#pragma omp target teams distribute parallel for simd map(to: a[0:n], b[0:n]) map(tofrom: sum) reduction(+: sum)
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:91: remark: 'map(tofrom: sum)' ignored: a reduction(...) clause names the variable too, and the reduction brings its result back
  for (int j = 0; j < n; j++)
    sum += a[j] * b[j];
  // CONV: {{^}}#pragma gpu_autopar for map(to: a[0:n], b[0:n]) reduction(+: sum){{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-5]] mode=kernel backend=sim iterations=5000 devices=3

#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) depend(inout: a[0:n]) nowait
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:70: remark: 'depend' ignored: the rewritten loop runs when the code before it has run and returns once every iteration has run, which satisfies every dependence
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-2]]:92: remark: 'nowait' ignored: the rewritten loop returns once every iteration has run
  for (int j = 0; j < n; j++)
    a[j] += 1;
  // CONV: {{^}}#pragma gpu_autopar for map(tofrom: a[0:n]){{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-6]] mode=kernel backend=sim iterations=5000 devices=3

#pragma acc parallel loop wait copy(b[0:n])
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:27: remark: 'wait' ignored: the rewritten loop returns once every iteration has run
  for (int j = 0; j < n; j++)
    b[j] *= 2;
  // CONV: {{^}}#pragma gpu_autopar for map(tofrom: b[0:n]){{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-5]] mode=kernel backend=sim iterations=5000 devices=3

  std::printf("sum %.3f a %.3f b %.3f\n", sum, a[n / 2], b[n / 3]);
}
