// Regions that only wrap loops (issue 28, item 3): `omp target`, `target
// teams`, `omp parallel`, `target parallel`, `acc parallel` and `acc kernels`
// around loop directives are translated loop by loop. Each loop directive
// becomes an annotation with the region's private, firstprivate and reduction
// clauses (for the variables it uses); the maps of a region over a block
// become a data region around it; a region over one loop gives that loop its
// maps, as the combined directive would. Host code of a `target` or
// `kernels` region runs once on the host (a warning where it touches mapped
// data after a device loop); a region whose other code OpenMP or OpenACC runs
// in every thread, team or gang, or with a clause that does not carry over,
// or inside a construct left as written, stays as written with the reason.
// The end-to-end runs are in e2e-data-env-omp.cpp and e2e-data-env-acc.cpp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-autopar --accept=omp,acc %s -o %t/out.cpp --report=%t/report.json -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt --implicit-check-not=error: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=WARN --input-file %t/err.txt --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=OUT --input-file %t/out.cpp
// RUN: %python %S/Inputs/count_directives.py %t/report.json %s %t/out.cpp | FileCheck %s --check-prefix=COUNTS
// COUNTS: rewritten=21 left=9 rejected=0
// COUNTS-NEXT: consistent
// RUN: %gpu-autopar --accept=omp,acc --check %s -v -- -std=c++17 2> /dev/null | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: regions.cpp: 16 loops — 12 kernel, 4 left as written; 0 rejected; 9 regions translated loop by loop; 5 other directives left as written
// RUN: %gpu-autopar --accept=omp,acc --convert %s -- -std=c++17 2> /dev/null | FileCheck %s --check-prefix=CONV
#include <cstdio>

const int N = 64;

void translated(double s) {
  double a[N], b[N], c[N], t = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i;

  // A target region over a block: its maps become a data region, the host
  // statement runs once on the host, with a warning (OpenMP ran it on the
  // device, on the device's copy).
#pragma omp target map(to: a[0:N]) map(tofrom: b[0:N]) num_teams(4)
  // CHECK: regions.cpp:[[@LINE-1]]:1: remark: '#pragma omp target' translated loop by loop: its loop directives (lines [[@LINE+5]], [[@LINE+10]]) are translated, inside a data region of its maps; its other code runs once, on the host
  // CHECK: regions.cpp:[[@LINE-2]]:56: remark: 'num_teams' ignored: the runtime chooses the devices and threads
  // CONV: {{^}}#pragma gpu_autopar data map(to: a[0:N]) map(tofrom: b[0:N]){{$}}
  // OUT: {{^}}{ ::gpu_autopar::data_region gpu_autopar_data_[[@LINE-4]](
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
    b[0] = -1;
    // WARN: regions.cpp:[[@LINE-1]]:5: warning: 'b' is written on the host inside a data region whose devices may hold copies of it; add '#pragma gpu_autopar update device(b[0:N])' after this write
#pragma omp teams distribute parallel for reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += b[i];
  }
  // CONV: {{^}}#pragma gpu_autopar for{{$}}
  // CONV: {{^}}#pragma gpu_autopar for reduction(+: s){{$}}

  // A parallel region: its private and reduction clauses go to the loops
  // that use the variables.
#pragma omp parallel private(t) reduction(+: s) num_threads(4)
  // CHECK: regions.cpp:[[@LINE-1]]:1: remark: '#pragma omp parallel' translated loop by loop: its loop directives (lines [[@LINE+5]], [[@LINE+10]]) are translated{{$}}
  // CHECK: regions.cpp:[[@LINE-2]]:49: remark: 'num_threads' ignored: the runtime chooses the devices and threads
  // CONV-NOT: {{^}}#pragma omp
  // OUT-NOT: {{^}}#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; ++i) {
      t = a[i] + 1;
      c[i] = t * t;
    }
#pragma omp for
    for (int i = 0; i < N; ++i)
      s += c[i];
  }
  // CONV: {{^}}#pragma gpu_autopar for private(t){{$}}
  // CONV: {{^}}#pragma gpu_autopar for reduction(+: s){{$}}

  // SOLLVE's shape: `target` with its maps, then the loop's directive.
#pragma omp target map(to: a[0:N]) map(from: c[0:N])
#pragma omp teams distribute parallel for
  for (int i = 0; i < N; ++i)
    c[i] = a[i] - 1;
  // CHECK: regions.cpp:[[@LINE-4]]:1: remark: '#pragma omp target' translated loop by loop: the loop directive at line [[@LINE-3]] takes its clauses
  // CONV-NOT: {{^}}#pragma omp
  // CONV: {{^}}#pragma gpu_autopar for map(to: a[0:N]) map(from: c[0:N]){{$}}

  // `target` and `teams` on one block: one data region.
#pragma omp target map(tofrom: c[0:N])
#pragma omp teams thread_limit(64)
  {
#pragma omp distribute parallel for
    for (int i = 0; i < N; ++i)
      c[i] *= 2;
  }
  // CHECK: regions.cpp:[[@LINE-7]]:1: remark: '#pragma omp target' translated loop by loop: its loop directive (line [[@LINE-4]]) is translated, inside a data region of its maps
  // CHECK: regions.cpp:[[@LINE-7]]:1: remark: '#pragma omp teams' translated loop by loop: its loop directive (line [[@LINE-5]]) is translated, inside a data region of its maps
  // CHECK: regions.cpp:[[@LINE-8]]:19: remark: 'thread_limit' ignored: the runtime chooses the devices and threads
  // CONV: {{^}}#pragma gpu_autopar data map(tofrom: c[0:N]){{$}}
  // CONV-NOT: {{^}}#pragma omp

  // A parallel region whose host code is in a `single` construct: OpenMP
  // runs it once too; the `single` stays as written.
#pragma omp parallel
  {
#pragma omp single
    c[0] = 0;
#pragma omp for
    for (int i = 1; i < N; ++i)
      c[i] += 1;
  }
  // CHECK: regions.cpp:[[@LINE-8]]:1: remark: '#pragma omp parallel' translated loop by loop: its loop directive (line [[@LINE-4]]) is translated; its other code runs once, on the host
  // CHECK: regions.cpp:[[@LINE-7]]:1: remark: '#pragma omp single' left as written: synchronisation inside a parallel region has no gpu_autopar equivalent
  // OUT: {{^}}#pragma omp single{{$}}
  // CONV: {{^}}#pragma omp single{{$}}

  // `target parallel` with a firstprivate scalar.
  double shift = 0.5;
#pragma omp target parallel firstprivate(shift) map(tofrom: c[0:N])
  {
#pragma omp for
    for (int i = 0; i < N; ++i)
      c[i] += shift;
  }
  // CHECK: regions.cpp:[[@LINE-6]]:1: remark: '#pragma omp target parallel' translated loop by loop: its loop directive (line [[@LINE-4]]) is translated, inside a data region of its maps
  // CONV: {{^}}#pragma gpu_autopar for firstprivate(shift){{$}}

  // OpenACC: a compute region's copy clauses become the data region.
#pragma acc parallel copyin(a[0:N]) copyout(b[0:N]) num_gangs(8)
  {
#pragma acc loop
    for (int i = 0; i < N; ++i)
      b[i] = a[i] * 3;
#pragma acc loop reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += a[i];
  }
  // CHECK: regions.cpp:[[@LINE-9]]:1: remark: '#pragma acc parallel' translated loop by loop: its loop directives (lines [[@LINE-7]], [[@LINE-4]]) are translated, inside a data region of its maps
  // CHECK: regions.cpp:[[@LINE-10]]:53: remark: 'num_gangs' ignored: the runtime chooses the devices and the launch shape
  // CONV: {{^}}#pragma gpu_autopar data map(to: a[0:N]) map(from: b[0:N]){{$}}

  // A kernels region: its loops are parallel where proven (or declared
  // `independent`); the dependent one runs in order, and --convert keeps it
  // an OpenACC `kernels loop`.
#pragma acc kernels copy(b[0:N])
  {
#pragma acc loop
    for (int i = 1; i < N; ++i)
      b[i] = b[i - 1] + 1;
#pragma acc loop independent
    for (int i = 0; i < N; ++i)
      b[i] *= 2;
  }
  // CHECK: regions.cpp:[[@LINE-9]]:1: remark: '#pragma acc kernels' translated loop by loop: its loop directives (lines [[@LINE-7]], [[@LINE-4]]) are translated, inside a data region of its maps
  // CHECK: regions.cpp:[[@LINE-7]]:5: remark: loop runs sequentially (OpenACC's 'kernels' is parallel only when its iterations are proven independent): loop-carried dependence on 'b': an element written in one iteration is read in another
  // CHECK: regions.cpp:[[@LINE-9]]:1: note: '#pragma acc loop independent' would promise that the iterations are independent and run the loop in parallel
  // CONV: {{^}}#pragma acc kernels loop{{$}}
  // CONV: {{^}}#pragma gpu_autopar for{{$}}
  // OUT: .run_serially("OpenACC 'kernels' whose iterations are not proven independent")
  std::printf("%f %f %f\n", s, b[N - 1], c[N - 1]);
}

void refused(double *p, int n) {
  double q[N];
  // Host code a parallel region runs in every thread.
#pragma omp parallel
  {
    double local = 0;
#pragma omp for
    for (int i = 0; i < N; ++i)
      q[i] = local + i;
  }
  // CHECK: regions.cpp:[[@LINE-7]]:1: remark: '#pragma omp parallel' left as written: the statement at line [[@LINE-5]] is not a loop under a loop directive: OpenMP runs it in every thread of the region, and translated loop by loop it would run once; move it out of the region or into a 'single' construct
  // CHECK: regions.cpp:[[@LINE-5]]:1: remark: '#pragma omp for' left as written: it is inside '#pragma omp parallel'

  // A parallel loop directive inside teams runs the whole loop in each team.
#pragma omp target teams map(tofrom: q[0:N])
  {
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
      q[i] += 1;
  }
  // CHECK: regions.cpp:[[@LINE-6]]:1: remark: '#pragma omp target teams' left as written: the loop directive at line [[@LINE-4]] ('#pragma omp parallel for') would run the whole loop in every team of the region; inside it, use 'distribute parallel for'
  // CHECK: regions.cpp:[[@LINE-5]]:1: remark: '#pragma omp parallel for' left as written: it is inside '#pragma omp target teams'

  // A clause with no equivalent.
#pragma omp target if(n > 8) map(tofrom: q[0:N])
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < N; ++i)
      q[i] -= 1;
  }
  // CHECK: regions.cpp:[[@LINE-6]]:1: remark: '#pragma omp target' left as written: its 'if' clause has no gpu_autopar equivalent on a region
  // CHECK: regions.cpp:[[@LINE-5]]:1: remark: '#pragma omp teams distribute parallel for' left as written: it is inside '#pragma omp target'

  // An OpenACC compute region runs its other code in every gang.
#pragma acc parallel copy(q[0:N])
  {
    q[0] = 1;
#pragma acc loop
    for (int i = 1; i < N; ++i)
      q[i] = 0;
  }
  // CHECK: regions.cpp:[[@LINE-7]]:1: remark: '#pragma acc parallel' left as written: the statement at line [[@LINE-5]] is not a loop under a loop directive: OpenACC runs it in every gang of the region, and translated loop by loop it would run once; move it out of the region{{$}}
  // CHECK: regions.cpp:[[@LINE-5]]:1: remark: '#pragma acc loop' left as written: it is inside '#pragma acc parallel'
  std::printf("%f\n", q[N - 1]);
}
