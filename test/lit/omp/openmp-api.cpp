// `_OPENMP` honestly (issue 28, item 5): under --accept=omp a file that
// mentions `_OPENMP` or <omp.h> is parsed as its OpenMP build parses it, with
// `_OPENMP` defined and OpenMP's API from <gpu_autopar/openmp/omp.h>, and the
// rewritten file includes that header first, so that its build without
// OpenMP compiles the branches the tool analysed. The `#else` branch here
// holds a loop with a dependence, which the tool would reject: it is not
// analysed. A loop that indexes per-thread partial sums by
// omp_get_thread_num() (0 in every iteration) is the dependence it is.
// Without --accept, `#include <omp.h>` still resolves (no compiler omp.h is
// needed to parse the file). The LULESH case runs end to end in
// left-as-written.cpp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-autopar --accept=omp %s -o %t/out.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=OUT --input-file %t/out.cpp
// RUN: count 0 < %t/err.txt
// RUN: %expect-exit 1 %gpu-autopar --accept=omp --check %s -- -std=c++17 -DPER_THREAD 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: %gpu-autopar --check %s -- -std=c++17 2>&1 | count 0
// OUT: {{^}}#include <gpu_autopar/openmp.h>{{$}}
// OUT-NEXT: {{^}}#include <gpu_autopar/gpu_autopar.h>{{$}}
// --convert includes the header too, where gpu-autopar's headers are found
// (a plain serial build sees the file as the original's did): gpu-autopar,
// now without --accept, parses the converted file with `_OPENMP` as the
// conversion was analysed, and the rewrite builds without OpenMP, finds
// omp_get_wtime() and prints what the --accept rewrite prints (the `_OPENMP`
// branch: the runtime's threads, not 1).
// RUN: %gpu-autopar --accept=omp --convert %s -o %t/converted.cpp -- -std=c++17 2> /dev/null
// RUN: FileCheck %s --check-prefix=CONV --input-file %t/converted.cpp
// CONV: {{^}}#if defined(__cplusplus) && __has_include(<gpu_autopar/openmp.h>) // added by gpu-autopar --convert{{$}}
// CONV-NEXT: {{^}}#include <gpu_autopar/openmp.h> // _OPENMP and OpenMP's API where the build has no OpenMP{{$}}
// CONV-NEXT: {{^}}#endif{{$}}
// CONV-NEXT: {{^}}// `_OPENMP` honestly
// CONV: {{^}}#pragma gpu_autopar for{{$}}
// CONV-NEXT: {{^}}  for (int i = 0; i < n; ++i){{$}}
// CONV-NEXT: {{^}}    a[i] = i;{{$}}
// CONV: {{^}}#pragma omp parallel for{{$}}
// CONV-NEXT: {{^}}  for (int i = 1; i < n; ++i){{$}}
// RUN: %gpu-autopar %t/converted.cpp -o %t/converted.par.cpp -- -std=c++17
// RUN: FileCheck %s --check-prefix=CONVOUT --input-file %t/converted.par.cpp
// CONVOUT: {{^}}#include <gpu_autopar/openmp.h> //
// CONVOUT: {{^}}  ::gpu_autopar::kernel_loop(
// RUN: %cxx %t/converted.par.cpp %runtime -o %t/converted && env GPU_AUTOPAR_THREADS=3 %t/converted > %t/converted.out
// RUN: %cxx %t/out.cpp %runtime -o %t/accepted && env GPU_AUTOPAR_THREADS=3 %t/accepted > %t/accepted.out
// RUN: diff %t/accepted.out %t/converted.out
// RUN: FileCheck %s --check-prefix=RAN --input-file %t/converted.out
// RAN: 3 threads, 999.000000, 0.000000 s
// Converting the converted file again adds nothing.
// RUN: %gpu-autopar --accept=omp --convert %t/converted.cpp -o %t/again.cpp -- -std=c++17 2> /dev/null
// RUN: diff %t/converted.cpp %t/again.cpp
#include <cstdio>
#include <omp.h>

static double a[1000], partial[64];

int main() {
  const int n = 1000;
  double t0 = 0;
  int threads = 1;
#if _OPENMP
  t0 = omp_get_wtime();
  threads = omp_get_max_threads();
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = i;
  // OUT: {{^}}  ::gpu_autopar::kernel_loop(
#else
#pragma omp parallel for
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + 1;
#endif
#ifdef PER_THREAD
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    partial[omp_get_thread_num()] += a[i];
  // THREAD: openmp-api.cpp:[[@LINE-2]]:3: error: OpenMP's annotation says the loop is parallel, but it has a loop-carried dependence on 'partial': every iteration writes the same element
#endif
  omp_lock_t lock;
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);
  std::printf("%d threads, %f, %f s\n", threads, a[n - 1], omp_get_wtime() - t0 >= 0 ? 0.0 : -1.0);
}
