// collapse(n): the nest's headers become one collapsed space and the body
// takes one induction value per loop, outermost first; the innermost body is
// the lambda's, and the braces of the nest around it go.
// RUN: %gpu-autopar %s -- -std=c++17 | FileCheck %s --match-full-lines

void add(float *__restrict__ c, const float *__restrict__ a, int n, int m) {
#pragma gpu_autopar for collapse(2) map(to: a[0:n*m]) map(from: c[0:n*m])
  for (int i = 0; i < n; ++i) {
    for (long j = m - 1; j >= 0; j -= 2) {
      if (a[i * m + j] < 0)
        continue;
      c[i * m + j] = a[i * m + j];
    }
  }
}
// CHECK:      void add(float *__restrict__ c, const float *__restrict__ a, int n, int m) {
// CHECK-NEXT:   ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"collapse.cpp", 7},
// CHECK-NEXT:       ::gpu_autopar::collapse(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1),
// CHECK-NEXT:           ::gpu_autopar::iterations<long>((m - 1), ::gpu_autopar::greater_equal, (0), -(2))), ::gpu_autopar::options(),
// CHECK-NEXT:       ::gpu_autopar::data(::gpu_autopar::to(a, (0), (n*m), ::gpu_autopar::whole(), "a[0:n*m]"),
// CHECK-NEXT:         ::gpu_autopar::from(c, (0), (n*m), ::gpu_autopar::whole(), "c[0:n*m]")),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [=] GPU_AUTOPAR_HD (int i, long j, ::gpu_autopar::read_view<decltype(a)> a, ::gpu_autopar::view<decltype(c)> c)
// CHECK-NEXT: #line 9 "{{.*}}collapse.cpp"
// CHECK-NEXT:                                         {
// CHECK-NEXT:       if (a[i * m + j] < 0)
// CHECK-NEXT:         return;
// CHECK-NEXT:       c[i * m + j] = a[i * m + j];
// CHECK-NEXT:     });
// CHECK-NEXT: #line 14 "{{.*}}collapse.cpp"
// CHECK-EMPTY:
// CHECK-NEXT: }

// Three loops, no braces, C89-style variables; collapse(2) of a deeper nest
// keeps the third loop in the body.
void fill(double (*g)[8][4], int n) {
  int i, j, k;
#pragma gpu_autopar for collapse(3)
  for (i = 0; i < n; i++)
    for (j = 0; j < 8; j++)
      for (k = 0; k < 4; k++)
        g[i][j][k] = i + j + k;
#pragma gpu_autopar for collapse(2) map(tofrom: g[0:n]) private(k)
  for (i = 0; i < n; i++)
    for (j = 0; j < 8; j++)
      for (k = 1; k < 4; k++)
        g[i][j][k] += g[i][j][k - 1];
}
// CHECK:      void fill(double (*g)[8][4], int n) {
// CHECK-NEXT:   int i, j, k;
// CHECK-NEXT:   ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"collapse.cpp", 38},
// CHECK-NEXT:       ::gpu_autopar::collapse(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1),
// CHECK-NEXT:           ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (8), 1),
// CHECK-NEXT:           ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (4), 1)), ::gpu_autopar::options(),
// CHECK-NEXT:       ::gpu_autopar::data(::gpu_autopar::tofrom(g, ::gpu_autopar::affine(1, 0, 1))),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [=] GPU_AUTOPAR_HD (int i, int j, int k, ::gpu_autopar::view<decltype(g)> g) {
// CHECK-NEXT: #line 42 "{{.*}}collapse.cpp"
// CHECK-NEXT:         g[i][j][k] = i + j + k; });
// CHECK-NEXT: #line 42 "{{.*}}collapse.cpp"
// CHECK-EMPTY:
// CHECK-NEXT:   ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"collapse.cpp", 43},
// CHECK-NEXT:       ::gpu_autopar::collapse(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1),
// CHECK-NEXT:           ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (8), 1)), ::gpu_autopar::options(),
// CHECK-NEXT:       ::gpu_autopar::data(::gpu_autopar::tofrom(g, (0), (n), ::gpu_autopar::affine(1, 0, 1), "g[0:n]")),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [=] GPU_AUTOPAR_HD (int i, int j, ::gpu_autopar::view<decltype(g)> g) { decltype(k) k;
// CHECK-NEXT: #line 46 "{{.*}}collapse.cpp"
// CHECK-NEXT:       for (k = 1; k < 4; k++)
// CHECK-NEXT:         g[i][j][k] += g[i][j][k - 1]; });
// CHECK-NEXT: #line 47 "{{.*}}collapse.cpp"
