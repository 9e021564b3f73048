// Directives are refused one at a time (issue 28): an OpenMP construct that
// gpu-autopar does not translate (tasks, a parallel region that is not a
// single loop, single, critical, barrier, simd alone) stays in the output
// exactly as written, with a remark at its '#pragma'; a loop directive inside
// such a region stays too (translating it alone would make the region run the
// rewritten loop once per thread); every other loop directive is translated,
// and the file is written (exit status 0). -v and --report count what
// happened to each directive, and the counts match the written file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-autopar --accept=omp,acc %s -o %t/out.cpp --report=%t/report.json -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// SUMMARY: left-as-written.cpp: 8 loops — 5 kernel, 3 left as written; 0 rejected; 9 other directives left as written
// RUN: FileCheck %s --check-prefix=OUT --input-file %t/out.cpp
// RUN: %python %S/Inputs/count_directives.py %t/report.json %s %t/out.cpp | FileCheck %s --check-prefix=COUNTS
// COUNTS: rewritten=5 left=12 rejected=0
// COUNTS-NEXT: consistent
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/report.json
// REPORT: "decision": "left",
// REPORT-NEXT: "directive": "omp task",
// --check -v counts the same.
// RUN: %gpu-autopar --accept=omp,acc --check %s -v -- -std=c++17 2> /dev/null | FileCheck %s --check-prefix=SUMMARY
// The written file builds without OpenMP and prints what the serial program prints on sim:3.
// RUN: %e2e --out %t/e2e --accept omp,acc --devices "cpu;sim:3" %s | FileCheck %s --check-prefix=E2E
#include <cstdio>
#include <omp.h>
#include <vector>

// XSBench's and RSBench's sort helper: tasks, then a taskwait.
static void quicksort(int *v, int lo, int hi) {
  if (lo >= hi)
    return;
  int p = v[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (v[i] < p)
      ++i;
    while (v[j] > p)
      --j;
    if (i <= j) {
      int t = v[i];
      v[i] = v[j];
      v[j] = t;
      ++i;
      --j;
    }
  }
#pragma omp task shared(v)
  // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp task' left as written: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
  quicksort(v, lo, j);
#pragma omp task shared(v)
  // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp task' left as written: tasks have no gpu_autopar equivalent; gpu-autopar parallelizes loops only
  quicksort(v, i, hi);
#pragma omp taskwait
  // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp taskwait' left as written: the rewritten loops return once every iteration has run, so it waits for nothing of theirs; it stays for the constructs left as written that it may wait for
}

int main() {
  const int n = 4096, m = n / 16;
  std::vector<double> a(n), b(n), c(n), d(m);
  std::vector<int> keys(n);
  for (int i = 0; i < n; ++i) {
    a[i] = i * 0.5;
    b[i] = (i % 7) - 3;
    keys[i] = (i * 7919) % 1009;
  }

#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
  // OUT: {{^}}  ::gpu_autopar::kernel_loop(
  // E2E: sim:3: left-as-written.cpp:[[# @LINE - 4]] mode=kernel backend=sim iterations=4096 devices=3

  // A parallel region with two worksharing loops, a single and a critical
  // (whose statement OpenMP runs in every thread): all left as written, the
  // loops run serially here as without OpenMP.
  double total = 0, biggest = 0;
#pragma omp parallel
  // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp parallel' left as written: the statement at line [[@LINE+15]] is not a loop under a loop directive: OpenMP runs it in every thread of the region, and translated loop by loop it would run once; move it out of the region or into a 'single' construct
  {
#pragma omp for reduction(+: total)
    // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp for' left as written: it is inside '#pragma omp parallel' (line [[@LINE-4]]), which is left as written, and translating it alone would change what that construct runs
    for (int i = 0; i < n; ++i)
      total += c[i];
#pragma omp for
    // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp for' left as written: it is inside '#pragma omp parallel' (line [[@LINE-8]]), which is left as written, and translating it alone would change what that construct runs
    for (int i = 0; i < n; ++i)
      c[i] *= 2;
#pragma omp single
    // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp single' left as written: synchronisation inside a parallel region has no gpu_autopar equivalent
    std::printf("region total %.1f\n", total);
#pragma omp critical
    // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp critical' left as written: the iterations of a gpu_autopar loop cannot synchronise; use a reduction(...) for what the critical section accumulates
    if (c[n - 1] > biggest)
      biggest = c[n - 1];
  }
  // OUT: {{^}}#pragma omp parallel{{$}}
  // OUT: {{^}}#pragma omp for reduction(+: total){{$}}
  // OUT: {{^}}    for (int i = 0; i < n; ++i){{$}}
  // OUT: {{^}}#pragma omp for{{$}}
  // OUT: {{^}}    for (int i = 0; i < n; ++i){{$}}
  // OUT: {{^}}#pragma omp single{{$}}
  // OUT: {{^}}#pragma omp critical{{$}}

  // A standalone directive covers nothing: the loop after it is translated.
#pragma omp barrier
  // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp barrier' left as written: synchronisation inside a parallel region has no gpu_autopar equivalent
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    b[i] = 2 * c[i] - a[i];
  // OUT: {{^}}#pragma omp barrier{{$}}
  // OUT: {{^}}  ::gpu_autopar::kernel_loop(
  // E2E: sim:3: left-as-written.cpp:[[# @LINE - 5]] mode=kernel backend=sim iterations=4096 devices=3

  // miniBUDE's inner 'omp simd': a hint inside a translated loop.
#pragma omp parallel for
  for (int i = 0; i < m; ++i) {
    double s = 0;
#pragma omp simd reduction(+: s)
    // CHECK: left-as-written.cpp:[[@LINE-1]]:1: remark: '#pragma omp simd' left as written: 'simd' alone promises SIMD lanes, not independent iterations ('parallel for simd' does); it stays a vectorisation hint for the compiler
    for (int k = 0; k < 16; ++k)
      s += b[i * 16 + k];
    d[i] = s;
  }
  // OUT: {{^}}  ::gpu_autopar::kernel_loop(
  // E2E: sim:3: left-as-written.cpp:[[# @LINE - 10]] mode=kernel backend=sim iterations=256 devices=3
  // OUT: {{^}}#pragma omp simd reduction(+: s){{$}}

#pragma omp parallel
#pragma omp single
  quicksort(keys.data(), 0, n - 1);
  // CHECK: left-as-written.cpp:[[@LINE-3]]:1: remark: '#pragma omp parallel' left as written: a parallel region is not a single loop; annotate each of its loops instead ('#pragma omp parallel for')
  // CHECK: left-as-written.cpp:[[@LINE-3]]:1: remark: '#pragma omp single' left as written: synchronisation inside a parallel region has no gpu_autopar equivalent

  double dsum = 0;
  for (int i = 0; i < m; ++i)
    dsum += d[i];
  long ksum = 0;
  for (int i = 1; i < n; ++i)
    ksum += keys[i] >= keys[i - 1] ? i : -1;
  std::printf("total %.1f biggest %.1f c %.1f b %.1f d %.1f sorted %ld\n", total, biggest, c[n / 3], b[n / 5], dsum,
              ksum);

  // LULESH's force gather (issue 28, item 5): under _OPENMP with more than
  // one thread each element writes its own corner copies, gathered per node
  // by a second loop; otherwise elements add into their nodes through the
  // node list, a race when the loop runs in parallel. gpu-autopar parses and
  // builds the file with _OPENMP defined (its <omp.h>: at least two threads),
  // as the OpenMP build does: the rewritten program takes the race-free path
  // and prints what the serial one (the other path, in order) prints.
#if _OPENMP
  const int numthreads = omp_get_max_threads();
#else
  const int numthreads = 1;
#endif
  const int elems = 4000, nodes = elems + 1;
  std::vector<int> nodelist(2 * elems);
  for (int k = 0; k < elems; ++k) {
    nodelist[2 * k] = k;
    nodelist[2 * k + 1] = k + 1;
  }
  std::vector<double> force(nodes, 0.0), corner(2 * elems, 0.0);
#pragma omp parallel for firstprivate(elems)
  for (int k = 0; k < elems; ++k) {
    const double f = (k % 13) * 0.5;
    if (numthreads > 1) {
      corner[2 * k] = f;
      corner[2 * k + 1] = -f;
    } else {
      force[nodelist[2 * k]] += f;
      force[nodelist[2 * k + 1]] -= f;
    }
  }
  // CHECK: left-as-written.cpp:[[@LINE-4]]:7: warning: cannot prove
  // OUT: {{^}}  ::gpu_autopar::kernel_loop(
  // E2E: sim:3: left-as-written.cpp:[[# @LINE - 13]] mode=kernel backend=sim iterations=4000 devices=3
  if (numthreads > 1) {
#pragma omp parallel for
    for (int node = 0; node < nodes; ++node) {
      double sum = 0;
      if (node < elems)
        sum += corner[2 * node];
      if (node > 0)
        sum += corner[2 * node - 1];
      force[node] += sum;
    }
  }
  double fsum = 0, fabs_sum = 0;
  for (int node = 0; node < nodes; ++node) {
    fsum += force[node];
    fabs_sum += force[node] < 0 ? -force[node] : force[node];
  }
  std::printf("forces sum %.1f abs %.1f\n", fsum, fabs_sum);
}
