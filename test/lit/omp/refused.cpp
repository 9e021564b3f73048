// Every OpenMP and OpenACC directive and clause that is not accepted, each
// diagnosed at the directive or the clause with the reason; a file with any
// of them is not written (exit status 1), not even partly.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc %s -o %t.out -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=note:
// RUN: not test -e %t.out
#include <vector>

void refused(std::vector<float> &a, const std::vector<double> &b, float *__restrict__ p, int n) {
  double s = 0;
  int t = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i) a[i] = b[i];
#pragma omp for
    for (int i = 0; i < n; ++i) a[i] += b[i];
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-8]]:1: error: '#pragma omp parallel' is not accepted: a parallel region is not a single loop; annotate each of its loops instead ('#pragma omp parallel for')
#pragma omp parallel sections
  {
#pragma omp section
    a[0] = 1;
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-6]]:1: error: '#pragma omp parallel sections' is not accepted: sections run different code side by side; gpu-autopar parallelizes loops only
// CHECK: refused.cpp:[[@LINE-5]]:1: error: '#pragma omp section' is not accepted: sections run different code side by side; gpu-autopar parallelizes loops only
#pragma omp task
  a[0] = 2;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:1: error: '#pragma omp task' is not accepted: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
#pragma omp taskloop
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:1: error: '#pragma omp taskloop' is not accepted: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
#pragma omp simd
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:1: error: '#pragma omp simd' is not accepted: 'simd' alone promises SIMD lanes, not independent iterations; 'parallel for simd' does
#pragma omp barrier
// ANCHOR
// CHECK: refused.cpp:[[@LINE-2]]:1: error: '#pragma omp barrier' is not accepted: synchronisation inside a parallel region has no gpu_autopar equivalent
#pragma omp parallel for if(n > 100) linear(t: 1) ordered
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:26: error: 'if' clause of '#pragma omp parallel for' is not supported: a loop that runs in parallel only under a condition has no gpu_autopar equivalent
// CHECK: refused.cpp:[[@LINE-4]]:38: error: 'linear' clause of '#pragma omp parallel for' is not supported: compute the variable from the induction variable instead
// CHECK: refused.cpp:[[@LINE-5]]:51: error: 'ordered' clause of '#pragma omp parallel for' is not supported: ordered regions run in iteration order, which a gpu_autopar loop does not
#pragma omp parallel for lastprivate(conditional: t) reduction(inscan, +: s) reduction(task, +: s)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:26: error: 'lastprivate' clause of '#pragma omp parallel for' is not supported: lastprivate(conditional: ...) keeps the last value actually assigned, which gpu-autopar does not track
// CHECK: refused.cpp:[[@LINE-4]]:54: error: 'reduction' clause of '#pragma omp parallel for' is not supported: scans have no gpu_autopar equivalent
// CHECK: refused.cpp:[[@LINE-5]]:78: error: 'reduction' clause of '#pragma omp parallel for' is not supported: only the 'default' reduction modifier carries over
#pragma omp target teams distribute parallel for map(release: p[0:n]) map(present, to: p[0:n]) is_device_ptr(p)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:50: error: 'map' clause of '#pragma omp target teams distribute parallel for' is not supported: release and delete belong on 'target exit data'
// CHECK: refused.cpp:[[@LINE-4]]:71: error: 'map' clause of '#pragma omp target teams distribute parallel for' is not supported: only the map types to, from, tofrom and alloc and the modifiers always and close carry over
// CHECK: refused.cpp:[[@LINE-5]]:96: error: 'is_device_ptr' clause of '#pragma omp target teams distribute parallel for' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
#pragma omp target parallel for map(to: p[0:n][0:2]) map(to: p[1:]) default(firstprivate)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:41: error: 'map' clause of '#pragma omp target parallel for' is not supported: sections of more than one dimension are not supported; map the whole variable
// CHECK: refused.cpp:[[@LINE-4]]:62: error: 'map' clause of '#pragma omp target parallel for' is not supported: a section needs its length: var[lo:len]
// CHECK: refused.cpp:[[@LINE-5]]:69: error: 'default' clause of '#pragma omp target parallel for' is not supported: only default(shared) and default(none) carry over
#pragma omp parallel for reduction(+: p[0:n]) copyin(t) schedule(eager)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:26: error: 'reduction' clause of '#pragma omp parallel for' is not supported: reductions over array sections are not supported; reduce into a scalar
// CHECK: refused.cpp:[[@LINE-4]]:47: error: 'copyin' clause of '#pragma omp parallel for' is not supported: threadprivate variables have no gpu_autopar equivalent
#pragma acc parallel
  {
#pragma acc loop
    for (int i = 0; i < n; ++i) a[i] = b[i];
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-6]]:1: error: '#pragma acc parallel' is not accepted: a compute region is not a single loop; annotate each of its loops instead ('#pragma acc parallel loop')
#pragma acc serial loop
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:1: error: '#pragma acc serial loop' is not accepted: a serial loop runs on one gang, in order: its iterations are not declared independent
#pragma acc parallel loop seq tile(4) if(n > 4) device_type(nvidia) deviceptr(p) present(p[0:n])
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:27: error: 'seq' clause of '#pragma acc parallel loop' is not supported: it declares the loop sequential
// CHECK: refused.cpp:[[@LINE-4]]:31: error: 'tile' clause of '#pragma acc parallel loop' is not supported: gpu-autopar does not tile loops
// CHECK: refused.cpp:[[@LINE-5]]:39: error: 'if' clause of '#pragma acc parallel loop' is not supported: a loop that runs in parallel only under a condition has no gpu_autopar equivalent
// CHECK: refused.cpp:[[@LINE-6]]:49: error: 'device_type' clause of '#pragma acc parallel loop' is not supported: gpu-autopar has no equivalent
// CHECK: refused.cpp:[[@LINE-7]]:69: error: 'deviceptr' clause of '#pragma acc parallel loop' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
// CHECK: refused.cpp:[[@LINE-8]]:82: error: 'present' clause of '#pragma acc parallel loop' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
#pragma acc parallel loop copyout(zero: p[0:n]) collapse(force: 2) default(present)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:27: error: 'copyout' clause of '#pragma acc parallel loop' is not supported: only the 'readonly' modifier carries over
// CHECK: refused.cpp:[[@LINE-4]]:49: error: 'collapse' clause of '#pragma acc parallel loop' is not supported: collapse(force: n) also collapses loops that are not perfectly nested; gpu-autopar collapses perfect nests only: write collapse(n)
// CHECK: refused.cpp:[[@LINE-5]]:68: error: 'default' clause of '#pragma acc parallel loop' is not supported: default(present) has no gpu_autopar equivalent; each loop maps its own data, or a '#pragma gpu_autopar data' region keeps it on the devices
#pragma acc routine seq
// ANCHOR
// CHECK: refused.cpp:[[@LINE-2]]:1: error: '#pragma acc routine' is not accepted: only loop constructs ('parallel loop', 'kernels loop', 'loop') become gpu_autopar annotations
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    s += b[i];
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-4]]:1: error: '#pragma omp atomic' is not accepted: gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write distinct elements
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    s += b[i];
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-4]]:1: error: '#pragma omp critical' is not accepted: the iterations of a gpu_autopar loop cannot synchronise; use a reduction(...) for what the critical section accumulates
#pragma acc kernels loop
  for (int i = 0; i < n; ++i) {
#pragma acc atomic update
    s += b[i];
  }
// ANCHOR
// CHECK: refused.cpp:[[@LINE-4]]:1: error: '#pragma acc atomic update' is not accepted: gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write distinct elements
  int k = 0;
#pragma omp parallel for
  while (k < n) a[k++] = 0;
// ANCHOR
// LEGALITY
// CHECK: refused.cpp:[[@LINE-23]]:5: error: OpenMP's annotation says the loop is parallel, but 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-119]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-18]]:5: error: OpenMP's annotation says the loop is parallel, but 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-121]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-13]]:5: error: 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-123]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-9]]:3: error: statement after '#pragma omp parallel for' must be a for loop
// CHECK: refused.cpp:[[@LINE-11]]:1: note: annotation is here
}
