// Clauses real OpenMP/OpenACC code writes that used to refuse the loop
// (issue 28, item 4): the loop's own variable in private (legal OpenMP,
// DataRaceBench), one variable in map and reduction (OpenMP 5.0,
// BabelStream's dot), depend on a target loop, OpenACC's 'parallel loop wait'
// (a wait clause, not a directive), and (issue 28, item 4, rest) OpenACC's
// present, tile and seq, an outer loop's omp simd, allocate, XSBench's member
// sections in map, PolyBench-ACC's array parameters named whole in acc data.
// Each is a remark or a translation; the loops translate and print what the
// serial program prints. Also BabelStream's '#ifdef' target/host directives
// and the OpenACC validation suite's C89 nests (counters declared first).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-autopar --accept=omp,acc --convert %s -o %t/converted.cpp -- -std=c++17 2> %t/err
// RUN: FileCheck %s --input-file %t/err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=CONV --input-file %t/converted.cpp
// RUN: %e2e --out %t/e2e --accept omp,acc --devices "cpu;sim:3" %s | FileCheck %s --check-prefix=E2E
#include <cstdio>
#include <vector>

// XSBench's simulation data: arrays the loops reach through members.
struct SimulationData {
  int len;
  double *x;
};

// PolyBench-ACC's kernel: an array parameter named whole in 'acc data' maps
// the rows it was declared with; a loop inside says the data is present.
static void scale_rows(int rows, double A[64][8]) {
#pragma acc data copy(A)
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE+2]]:27: remark: 'present' ignored: data a region holds is used where it is; data none holds, each loop maps itself
  {
#pragma acc parallel loop present(A) tile(2)
    // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:38: remark: 'tile' ignored: tiles order the iterations of the nest, they do not change what each computes; the loop's iterations are shared out untiled
    for (int r = 0; r < rows; r++) {
#pragma acc loop seq
      // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:1: remark: '#pragma acc loop' left as written: 'seq' declares the loop sequential; it runs as written, in order
      for (int c = 1; c < 8; c++)
        A[r][c] += A[r][c - 1];
    }
  }
  // CONV: {{^}}#pragma gpu_autopar data map(tofrom: A){{$}}
  // CONV: {{^}}#pragma acc loop seq{{$}}
}

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

  // BabelStream's kernels: one directive for a target build, another for
  // the host, chosen by the preprocessor. The active one (here the host's)
  // annotates the loop; the other, and the #ifdef lines, stay as written.
#ifdef OMP_TARGET_GPU
#pragma omp target teams distribute parallel for simd map(to: a[0:n]) map(tofrom: b[0:n])
#else
#pragma omp parallel for simd
#endif
  for (int j = 0; j < n; j++)
    b[j] = b[j] + 0.5 * a[j];
  // CONV: {{^}}#ifdef OMP_TARGET_GPU{{$}}
  // CONV-NEXT: {{^}}#pragma omp target teams distribute parallel for simd map(to: a[0:n]) map(tofrom: b[0:n]){{$}}
  // CONV-NEXT: {{^}}#else{{$}}
  // CONV-NEXT: {{^}}#pragma gpu_autopar for{{$}}
  // CONV-NEXT: {{^}}#endif{{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-9]] mode=kernel backend=sim iterations=5000 devices=3

  // An outer loop's 'omp simd' is a loop annotation.
#pragma omp simd
  for (int j = 0; j < n; j++)
    b[j] = b[j] + 1;
  // CONV: {{^}}#pragma gpu_autopar for{{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-4]] mode=kernel backend=sim iterations=5000 devices=3

  // Member sections (XSBench's map(to: SD.x[:SD.len])): the loop maps the
  // section it uses itself; 'allocate' chooses where copies live.
  SimulationData SD{n, a};
  SimulationData *PSD = &SD;
  double msum = 0, psum = 0;
#pragma omp target teams distribute parallel for map(to: SD.x[:SD.len]) reduction(+: msum) allocate(msum)
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:58: remark: 'map(to: SD.x[:SD.len])' ignored: gpu-autopar maps variables, not members; each loop maps the section of the member it uses
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-2]]:92: remark: 'allocate' ignored: it chooses where private copies live; the runtime allocates them itself
  for (int j = 0; j < n; j++)
    msum += SD.x[j];
  // CONV: {{^}}#pragma gpu_autopar for reduction(+: msum){{$}}
#pragma omp target teams distribute parallel for map(to: PSD->x[0:PSD->len]) reduction(+: psum)
  // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:58: remark: 'map(to: PSD->x[0:PSD->len])' ignored: gpu-autopar maps variables, not members; each loop maps the section of the member it uses
  for (int j = 0; j < n; j++)
    psum += PSD->x[j];

  // The OpenACC validation suite's C89 nests: the counters declared first.
  // The inner loop's own directive makes its counter private (OpenACC's
  // rule for a loop construct's variable); the outer loop gets private(c).
  int r, c;
  static double m[40][25];
#pragma acc parallel loop copyout(m)
  for (r = 0; r < 40; r++) {
#pragma acc loop
    // CHECK-DAG: real-code-clauses.cpp:[[@LINE-1]]:1: warning: '#pragma acc loop' inside the annotated loop at line [[@LINE-3]] is ignored: that loop's iterations already run in parallel, and this loop runs serially within each of them
    for (c = 0; c < 25; c++)
      m[r][c] = r * 0.5 + c;
  }
  // CONV: {{^}}#pragma gpu_autopar for map(from: m) private(c){{$}}
  // E2E: sim:3: real-code-clauses.cpp:[[# @LINE-8]] mode=kernel backend=sim iterations=40 devices=3

  static double grid[64][8];
  for (int r = 0; r < 64; r++)
    for (int c = 0; c < 8; c++)
      grid[r][c] = r + c;
  scale_rows(64, grid);

  std::printf("sum %.3f a %.3f b %.3f msum %.3f psum %.3f grid %.1f %.1f m %.1f %.1f\n", sum, a[n / 2], b[n / 3],
              msum, psum, grid[5][7], grid[63][3], m[7][24], m[39][3]);
}
// scale_rows's loop (line 31) runs last.
// E2E: sim:3: real-code-clauses.cpp:31 mode=kernel backend=sim iterations=64 devices=3
