// Every OpenMP loop directive spelling and every clause whose meaning carries
// over, as --convert writes them (docs/migration.md has the table); the
// clauses without a meaning here are remarks at the clause.
// RUN: %gpu-autopar --accept=omp --convert %s -- -std=c++17 2> %t.err | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// -fopenmp in the compile flags changes nothing: the tool reads the directives itself.
// RUN: %gpu-autopar --accept=omp --convert %s -- -std=c++17 -fopenmp 2> /dev/null | FileCheck %s --match-full-lines
// The same directives rewritten directly: firstprivate/lastprivate copies.
// RUN: %gpu-autopar --accept=omp %s -- -std=c++17 2> /dev/null | grep -v "REWRITE:" | FileCheck %s --check-prefix=REWRITE
#include <vector>

void clauses(std::vector<float> &a, const std::vector<double> &b, float *__restrict__ p, const float *__restrict__ q,
             int n, int chunk) {
  double s = 0;
  float lo = 1e30f, hi = -1e30f;
  long bits = 0, prod = 1;
  bool all = true, any = false;
  int t = 0, f = 3, l = 0;

#pragma omp parallel for
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
#pragma omp parallel for reduction(+:s) reduction(min: lo) reduction(max : hi)
  for (int i = 0; i < n; ++i) { s += b[i]; lo = lo < b[i] ? lo : b[i]; hi = hi > b[i] ? hi : b[i]; }
// CHECK: #pragma gpu_autopar for reduction(+: s) reduction(min: lo) reduction(max: hi)
#pragma omp parallel for reduction(-: s) reduction(*: prod) reduction(|: bits)
  for (int i = 0; i < n; ++i) { s -= b[i]; prod *= 1 + (i & 1); bits |= i; }
// CHECK: #pragma gpu_autopar for reduction(+: s) reduction(*: prod) reduction(|: bits)
#pragma omp parallel for reduction(&&: all) reduction(||: any) reduction(default, ^: bits)
  for (int i = 0; i < n; ++i) { all = all && b[i] > 0; any = any || b[i] > 9; bits ^= i; }
// CHECK: #pragma gpu_autopar for reduction(&&: all) reduction(||: any) reduction(^: bits)
#pragma omp parallel for private(t) firstprivate(f) lastprivate(l)
  for (int i = 0; i < n; ++i) { t = i * f; l = t; a[i] = t; }
// CHECK: #pragma gpu_autopar for private(t) firstprivate(f) lastprivate(l)
#pragma omp parallel for firstprivate(f), lastprivate(f), shared(a, b)
  for (int i = 0; i < n; ++i) { a[i] = b[i] * f + 1; }
// CHECK: #pragma gpu_autopar for firstprivate(f) lastprivate(f)
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:59: remark: 'shared' ignored: variables are shared unless a clause says otherwise
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for schedule(static)
#pragma omp parallel for schedule(dynamic, chunk * 2)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for schedule(dynamic, chunk * 2)
#pragma omp parallel for schedule(nonmonotonic: guided, 16)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for schedule(guided, 16)
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:35: remark: 'nonmonotonic' ignored: a schedule modifier; the runtime orders the chunks itself
#pragma omp parallel for schedule(runtime) collapse(1) num_threads(8) proc_bind(close) default(shared) nowait
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:26: remark: 'schedule(runtime)' ignored: gpu-autopar's own default, 'adaptive', balances the iterations by measured device speed
// REMARK: openmp-clauses.cpp:[[@LINE-4]]:56: remark: 'num_threads' ignored: the runtime chooses the devices and threads
// REMARK: openmp-clauses.cpp:[[@LINE-5]]:71: remark: 'proc_bind' ignored: the runtime schedules the iterations itself
// REMARK: openmp-clauses.cpp:[[@LINE-6]]:88: remark: 'default' ignored: the analysis finds every variable the loop uses; variables are shared unless a clause says otherwise
// REMARK: openmp-clauses.cpp:[[@LINE-7]]:104: remark: 'nowait' ignored: the rewritten loop returns once every iteration has run
#pragma omp for simd simdlen(8) aligned(p: 64)
  for (int i = 0; i < n; ++i) p[i] = q[i];
// CHECK: #pragma gpu_autopar for
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:22: remark: 'simdlen' ignored: a vectorisation hint; the compiler decides
// REMARK: openmp-clauses.cpp:[[@LINE-4]]:33: remark: 'aligned' ignored: a vectorisation hint; the compiler decides
#pragma omp target teams distribute parallel for map(to: q[0:n]) map(from: p[:n]) num_teams(4) thread_limit(128)
  for (int i = 0; i < n; ++i) p[i] = 2 * q[i];
// CHECK: #pragma gpu_autopar for map(to: q[0:n]) map(from: p[0:n])
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:83: remark: 'num_teams' ignored: the runtime chooses the devices and threads
// REMARK: openmp-clauses.cpp:[[@LINE-4]]:96: remark: 'thread_limit' ignored: the runtime chooses the devices and threads
#pragma omp target teams distribute parallel for simd map(always, tofrom: p[0 : n]) map(q) device(0)
  for (int i = 0; i < n; ++i) p[i] += q[i];
// CHECK: #pragma gpu_autopar for map(tofrom: p[0:n]) map(tofrom: q)
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:59: remark: 'always' ignored: a map modifier; data already present is not copied again: use 'target update' where the copy matters
// REMARK: openmp-clauses.cpp:[[@LINE-4]]:92: remark: 'device' ignored: the runtime chooses the devices; devices(n) limits how many
#pragma omp target parallel for map(alloc: p[0:n]) map(to: q[0:n])
  for (int i = 0; i < n; ++i) p[i] = q[i];
// CHECK: #pragma gpu_autopar for map(alloc: p[0:n]) map(to: q[0:n])
#pragma omp teams distribute parallel for dist_schedule(static)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:43: remark: 'dist_schedule' ignored: the runtime schedules the iterations itself
#pragma omp target teams loop map(tofrom: p[0:n]) bind(teams)
  for (int i = 0; i < n; ++i) p[i] = p[i] + 1;
// CHECK: #pragma gpu_autopar for map(tofrom: p[0:n])
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:51: remark: 'bind' ignored: the runtime schedules the iterations itself
#pragma omp parallel loop order(concurrent)
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
// REMARK: openmp-clauses.cpp:[[@LINE-3]]:27: remark: 'order' ignored: the runtime schedules the iterations itself
#pragma omp distribute parallel for
  for (int i = 0; i < n; ++i) a[i] = b[i];
// CHECK: #pragma gpu_autopar for
#pragma omp parallel for \
    reduction(+: s)
  for (int i = 0; i < n; ++i) s += b[i];
// CHECK: #pragma gpu_autopar for reduction(+: s) {{[\]}}
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp parallel for simd
    for (int j = 0; j < 4; ++j) p[i * 4 + j] = q[i];
  }
// CHECK: #pragma gpu_autopar for
// CHECK-NEXT:   for (int i = 0; i < n; ++i) {
// CHECK-NEXT: #pragma gpu_autopar for
// REMARK: openmp-clauses.cpp:[[@LINE-6]]:1: warning: '#pragma omp parallel for simd' inside the annotated loop at line [[#@LINE-8]] is ignored: that loop's iterations already run in parallel, and this loop runs serially within each of them
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: p[0:n * 4])
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) p[i * 4 + j] = q[i] + j;
// CHECK: #pragma gpu_autopar for collapse(2) map(tofrom: p[0:n * 4])
}

// REWRITE: ::gpu_autopar::reductions(::gpu_autopar::last_private(l)),
// REWRITE: { decltype(t) t; auto &gpu_autopar_first_f = f; decltype(f) f(gpu_autopar_first_f); decltype(l) l{}; auto gpu_autopar_keep_l = ::gpu_autopar::keep_last(gpu_autopar_last_l, i, l); t = i * f; l = t; a[i] = t; });
// A nested directive shows as its conversion, commented out: the converted
// file rewrites to the same text.
// REWRITE: // (nested, runs serially) #pragma gpu_autopar for
// The collapse(2) loop: one GPU thread per (i, j): the rewrite runs the nest as one iteration space.
// REWRITE: ::gpu_autopar::collapse(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1),
