// Every OpenACC loop directive and every clause whose meaning carries over,
// as --convert writes them (docs/migration.md); clauses without a meaning here
// are remarks at the clause.
// RUN: %gpu-autopar --accept=acc --convert %s -- -std=c++17 2> %t.err | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// Without --accept=acc the directives are not annotations: nothing changes.
// RUN: %gpu-autopar --accept=omp %s -- -std=c++17 > %t.same && diff %s %t.same
#include <vector>

void clauses(std::vector<float> &a, const std::vector<double> &b, float *__restrict__ p, const float *__restrict__ q,
             int n) {
  double s = 0;
  float hi = -1e30f;
  int t = 0, f = 2;
  long bits = 0;

#pragma acc parallel loop
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
#pragma acc kernels loop independent
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
#pragma acc loop gang vector
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
// REMARK: openacc-clauses.cpp:[[@LINE-3]]:18: remark: 'gang' ignored: the runtime chooses the devices and the launch shape
// REMARK: openacc-clauses.cpp:[[@LINE-4]]:23: remark: 'vector' ignored: the runtime chooses the devices and the launch shape
#pragma acc parallel loop reduction(+:s) reduction(max: hi) reduction(|: bits)
  for (int i = 0; i < n; ++i) { s += b[i]; hi = hi > b[i] ? hi : b[i]; bits |= i; }
// CHECK: #pragma gpu_autopar for reduction(+: s) reduction(max: hi) reduction(|: bits)
#pragma acc parallel loop private(t) firstprivate(f)
  for (int i = 0; i < n; ++i) { t = i * f; a[i] = t; }
// CHECK: #pragma gpu_autopar for private(t) firstprivate(f)
#pragma acc parallel loop copyin(q[0:n]) copyout(p[0:n]) num_gangs(64) vector_length(128)
  for (int i = 0; i < n; ++i) p[i] = q[i];
// CHECK: #pragma gpu_autopar for map(to: q[0:n]) map(from: p[0:n])
// REMARK: openacc-clauses.cpp:[[@LINE-3]]:58: remark: 'num_gangs' ignored: the runtime chooses the devices and the launch shape
// REMARK: openacc-clauses.cpp:[[@LINE-4]]:72: remark: 'vector_length' ignored: the runtime chooses the devices and the launch shape
#pragma acc parallel loop copy(p[0:n]) copyin(readonly: q[:n]) num_workers(4) worker
  for (int i = 0; i < n; ++i) p[i] += q[i];
// CHECK: #pragma gpu_autopar for map(tofrom: p[0:n]) map(to: q[0:n])
// REMARK: openacc-clauses.cpp:[[@LINE-3]]:64: remark: 'num_workers' ignored: the runtime chooses the devices and the launch shape
// REMARK: openacc-clauses.cpp:[[@LINE-4]]:79: remark: 'worker' ignored: the runtime chooses the devices and the launch shape
#pragma acc kernels loop create(p[0:n]) pcopyin(q[0:n]) collapse(1) async(1) wait
  for (int i = 0; i < n; ++i) p[i] = q[i];
// CHECK: #pragma gpu_autopar for map(alloc: p[0:n]) map(to: q[0:n])
// REMARK: openacc-clauses.cpp:[[@LINE-3]]:69: remark: 'async' ignored: the rewritten loop returns once every iteration has run
// REMARK: openacc-clauses.cpp:[[@LINE-4]]:78: remark: 'wait' ignored: the rewritten loop returns once every iteration has run
#pragma acc parallel loop present_or_copy(p[0:n]) present_or_copyin(q[0:n]) default(none)
  for (int i = 0; i < n; ++i) p[i] += q[i];
// CHECK: #pragma gpu_autopar for map(tofrom: p[0:n]) map(to: q[0:n])
// REMARK: openacc-clauses.cpp:[[@LINE-3]]:77: remark: 'default' ignored: the analysis finds every variable the loop uses
#pragma acc loop auto
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
// 'auto' asks for the proof this loop has: no remark (acc-kernels-auto.cpp has the loops without one).
}
