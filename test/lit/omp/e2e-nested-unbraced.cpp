// A loop directive that is the unbraced body of an accepted loop, in each
// syntax: the inner directive stays on a line of its own (commented out: the
// outer loop's iterations are the parallel ones), the rewritten file compiles,
// and the program prints what the serial one prints. (The output once read
// `#li// (nested, runs serially) ...` and did not compile.)
// RUN: %e2e --out %t --accept omp,acc %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=REWRITE --input-file %t/e2e-nested-unbraced.par.cpp
// RUN: %gpu-autopar --accept=omp,acc --check %s -- -std=c++17 2> %t.err
// RUN: FileCheck %s --check-prefix=DIAG --input-file %t.err --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=note:
#include <cstdio>

static double a[64][128], b[64][128], c[64][128];

static double sum(const double (*m)[128]) {
  double s = 0;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 128; ++j)
      s += m[i][j] * ((i + j) % 5 + 1);
  return s;
}

int main() {
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 128; ++j) {
      a[i][j] = (i * 7 + j) % 13;
      b[i][j] = (i + j * 3) % 11;
      c[i][j] = (i * j) % 17;
    }
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i)
#pragma gpu_autopar for
    for (int j = 0; j < 128; ++j)
      a[i][j] = a[i][j] * 2 + i;
#pragma omp parallel for
  for (int i = 0; i < 64; ++i)
#pragma omp parallel for
    for (int j = 0; j < 128; ++j)
      b[i][j] = b[i][j] * 3 + j;
#pragma acc parallel loop
  for (int i = 0; i < 64; ++i)  // rows
    #pragma acc loop
    for (int j = 0; j < 128; ++j)
      c[i][j] = c[i][j] + i * j;
  std::printf("%.1f %.1f %.1f\n", sum(a), sum(b), sum(c));
}
// CHECK: sim:3: e2e-nested-unbraced.cpp:29 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: e2e-nested-unbraced.cpp:34 mode=kernel backend=sim iterations=64 devices=3{{$}}
// CHECK: sim:3: e2e-nested-unbraced.cpp:39 mode=kernel backend=sim iterations=64 devices=3{{$}}

// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-nested-unbraced.cpp", 29},
// REWRITE: [=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::view<decltype(a)> a) {
// REWRITE-NEXT: #line 30 "{{.*}}e2e-nested-unbraced.cpp"
// REWRITE-EMPTY:
// REWRITE-NEXT: // (nested, runs serially) #pragma gpu_autopar for
// REWRITE-NEXT: for (int j = 0; j < 128; ++j)
// REWRITE-NEXT: a[i][j] = a[i][j] * 2 + i; });
// REWRITE-NEXT: #line 33 "{{.*}}e2e-nested-unbraced.cpp"
// REWRITE-EMPTY:
// REWRITE-NEXT: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-nested-unbraced.cpp", 34},
// REWRITE: [=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::view<decltype(b)> b) {
// REWRITE-NEXT: #line 35 "{{.*}}e2e-nested-unbraced.cpp"
// REWRITE-EMPTY:
// REWRITE-NEXT: // (nested, runs serially) #pragma gpu_autopar for
// REWRITE-NEXT: for (int j = 0; j < 128; ++j)
// REWRITE: ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"e2e-nested-unbraced.cpp", 39},
// REWRITE: [=] GPU_AUTOPAR_HD (int i, ::gpu_autopar::view<decltype(c)> c) {
// REWRITE-NEXT: #line 40 "{{.*}}e2e-nested-unbraced.cpp"
// REWRITE-NEXT: // rows
// REWRITE-NEXT: // (nested, runs serially) #pragma gpu_autopar for
// REWRITE-NEXT: for (int j = 0; j < 128; ++j)

// DIAG: e2e-nested-unbraced.cpp:31:1: warning: '#pragma gpu_autopar for' inside the annotated loop at line 29 is ignored: that loop's iterations already run in parallel, and this loop runs serially within each of them
// DIAG: e2e-nested-unbraced.cpp:29:1: note: enclosing annotated loop is here
// DIAG: e2e-nested-unbraced.cpp:36:1: warning: '#pragma omp parallel for' inside the annotated loop at line 34 is ignored
// DIAG: e2e-nested-unbraced.cpp:34:1: note: enclosing annotated loop is here
// DIAG: e2e-nested-unbraced.cpp:41:5: warning: '#pragma acc loop' inside the annotated loop at line 39 is ignored
// DIAG: e2e-nested-unbraced.cpp:39:1: note: enclosing annotated loop is here
