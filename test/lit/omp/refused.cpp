// Every OpenMP and OpenACC clause that is not accepted on a loop directive,
// each an error at the clause with the reason; a file with any of them is not
// written (exit status 1), not even partly. Every directive that is not
// translated (regions that do not only wrap loops, sections, tasks, simd
// alone, synchronisation, declarations) and every loop directive inside such
// a region is a remark
// (LEFT) and stays as written: left-as-written.cpp shows such a file written.
// RUN: %expect-exit 1 %gpu-autopar --accept=omp,acc %s -o %t.out -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// RUN: FileCheck %s --check-prefix=LEFT --input-file %t.err --implicit-check-not=remark:
// RUN: not test -e %t.out
#include <vector>

void refused(std::vector<float> &a, const std::vector<double> &b, float *__restrict__ p, int n) {
  double s = 0;
  int t = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i) a[i] = b[i];
    ++t;
#pragma omp for
    for (int i = 0; i < n; ++i) a[i] += b[i];
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-9]]:1: remark: '#pragma omp parallel' left as written: the statement at line [[@LINE-5]] is not a loop under a loop directive: OpenMP runs it in every thread of the region, and translated loop by loop it would run once; move it out of the region or into a 'single' construct
// LEFT: refused.cpp:[[@LINE-8]]:1: remark: '#pragma omp for' left as written: it is inside '#pragma omp parallel' (line [[@LINE-10]]), which is left as written, and translating it alone would change what that construct runs
// LEFT: refused.cpp:[[@LINE-6]]:1: remark: '#pragma omp for' left as written: it is inside '#pragma omp parallel' (line [[@LINE-11]]), which is left as written, and translating it alone would change what that construct runs
#pragma omp parallel sections
  {
#pragma omp section
    a[0] = 1;
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-6]]:1: remark: '#pragma omp parallel sections' left as written: sections run different code side by side; gpu-autopar parallelizes loops only
// LEFT: refused.cpp:[[@LINE-5]]:1: remark: '#pragma omp section' left as written: sections run different code side by side; gpu-autopar parallelizes loops only
#pragma omp task
  a[0] = 2;
// ANCHOR
// LEFT: refused.cpp:[[@LINE-3]]:1: remark: '#pragma omp task' left as written: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
#pragma omp taskloop
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// LEFT: refused.cpp:[[@LINE-3]]:1: remark: '#pragma omp taskloop' left as written: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
#pragma omp tile sizes(4)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// LEFT: refused.cpp:[[@LINE-3]]:1: remark: '#pragma omp tile' left as written: tiles order the iterations of a nest, they do not change what each computes; annotate the nest's outer loop
#pragma omp barrier
// ANCHOR
// LEFT: refused.cpp:[[@LINE-2]]:1: remark: '#pragma omp barrier' left as written: synchronisation inside a parallel region has no gpu_autopar equivalent
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
#pragma omp target teams distribute parallel for map(release: p[0:n]) map(mapper(m), to: p[0:n]) is_device_ptr(p)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:50: error: 'map' clause of '#pragma omp target teams distribute parallel for' is not supported: release and delete belong on 'target exit data'
// CHECK: refused.cpp:[[@LINE-4]]:71: error: 'map' clause of '#pragma omp target teams distribute parallel for' is not supported: only the map types to, from, tofrom and alloc and the modifiers always, close and present carry over
// CHECK: refused.cpp:[[@LINE-5]]:98: error: 'is_device_ptr' clause of '#pragma omp target teams distribute parallel for' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
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
#pragma acc parallel if(n > 4)
  {
#pragma acc loop
    for (int i = 0; i < n; ++i) a[i] = b[i];
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-6]]:1: remark: '#pragma acc parallel' left as written: its 'if' clause has no gpu_autopar equivalent on a region
// LEFT: refused.cpp:[[@LINE-5]]:1: remark: '#pragma acc loop' left as written: it is inside '#pragma acc parallel' (line [[@LINE-7]]), which is left as written, and translating it alone would change what that construct runs
#pragma acc serial loop
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// LEFT: refused.cpp:[[@LINE-3]]:1: remark: '#pragma acc serial loop' left as written: a serial loop runs on one gang, in order: its iterations are not declared independent
#pragma acc parallel loop if(n > 4) device_type(nvidia) deviceptr(p) no_create(p[0:n])
  for (int i = 0; i < n; ++i) a[i] = b[i];
// ANCHOR
// ('seq' leaves the loop as written and 'tile' and 'present' are remarks:
// real-code-clauses.cpp.)
// CHECK: refused.cpp:[[@LINE-5]]:27: error: 'if' clause of '#pragma acc parallel loop' is not supported: a loop that runs in parallel only under a condition has no gpu_autopar equivalent
// CHECK: refused.cpp:[[@LINE-6]]:37: error: 'device_type' clause of '#pragma acc parallel loop' is not supported: gpu-autopar has no equivalent
// CHECK: refused.cpp:[[@LINE-7]]:57: error: 'deviceptr' clause of '#pragma acc parallel loop' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
// CHECK: refused.cpp:[[@LINE-8]]:70: error: 'no_create' clause of '#pragma acc parallel loop' is not supported: device addresses and presence have no gpu_autopar equivalent (a '#pragma gpu_autopar data' region keeps data on the devices across loops)
#pragma acc parallel loop copyout(zero: p[0:n]) collapse(force: 2) default(shared)
  for (int i = 0; i < n; ++i) p[i] = 0;
// ANCHOR
// CHECK: refused.cpp:[[@LINE-3]]:27: error: 'copyout' clause of '#pragma acc parallel loop' is not supported: only the 'readonly' modifier carries over
// CHECK: refused.cpp:[[@LINE-4]]:49: error: 'collapse' clause of '#pragma acc parallel loop' is not supported: collapse(force: n) also collapses loops that are not perfectly nested; gpu-autopar collapses perfect nests only: write collapse(n)
// CHECK: refused.cpp:[[@LINE-5]]:68: error: 'default' clause of '#pragma acc parallel loop' is not supported: only default(none) and default(present) carry over
#pragma acc routine seq
// ANCHOR
// LEFT: refused.cpp:[[@LINE-2]]:1: remark: '#pragma acc routine' left as written: only loop constructs ('parallel loop', 'kernels loop', 'loop') become gpu_autopar annotations
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp atomic
    s += b[i];
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-4]]:1: remark: '#pragma omp atomic' left as written: gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write distinct elements
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical
    s += b[i];
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-4]]:1: remark: '#pragma omp critical' left as written: the iterations of a gpu_autopar loop cannot synchronise; use a reduction(...) for what the critical section accumulates
#pragma acc kernels loop
  for (int i = 0; i < n; ++i) {
#pragma acc atomic update
    s += b[i];
  }
// ANCHOR
// LEFT: refused.cpp:[[@LINE-4]]:1: remark: '#pragma acc atomic update' left as written: gpu-autopar has no atomic updates; write the update as a reduction(...) or let iterations write distinct elements
  int k = 0;
#pragma omp parallel for
  while (k < n) a[k++] = 0;
// ANCHOR
// LEGALITY
// CHECK: refused.cpp:[[@LINE-23]]:5: error: OpenMP's annotation says the loop is parallel, but 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-123]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-18]]:5: error: OpenMP's annotation says the loop is parallel, but 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-125]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-13]]:5: error: 's' is declared outside the loop and written in it; every use updates it with '+': add it to a 'reduction(+: s)' clause
// CHECK: refused.cpp:[[@LINE-127]]:10: note: 's' is declared here
// CHECK: refused.cpp:[[@LINE-9]]:3: error: statement after '#pragma omp parallel for' must be a for loop
// CHECK: refused.cpp:[[@LINE-11]]:1: note: annotation is here
}
