// The first slice: one annotated canonical loop becomes one runtime call whose
// body is the loop body, with #line directives back to this file.
// RUN: %gpu-autopar %s -- -std=c++17 | FileCheck %s --match-full-lines

// CHECK:      #include <gpu_autopar/gpu_autopar.h>
// CHECK-NEXT: #line 1 "{{.*}}basic-for.cpp"
// CHECK-NEXT: // The first slice: one annotated canonical loop becomes one runtime call whose
void scale(float *y, const float *x, float a, int n) {
#pragma gpu_autopar for mode(host)
  for (int i = 0; i < n; ++i) {
    y[i] = a * x[i];
  }
}
// CHECK:      void scale(float *y, const float *x, float a, int n) {
// CHECK-NEXT:   ::gpu_autopar::host_loop(::gpu_autopar::loop_site{"basic-for.cpp", 9},
// CHECK-NEXT:       ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), ::gpu_autopar::options().check_disjoint_objects(::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), y, ::gpu_autopar::affine(1, 0, 1)), "y", ::gpu_autopar::section_bytes(::gpu_autopar::iterations<int>((0), ::gpu_autopar::less, (n), 1), x, ::gpu_autopar::affine(1, 0, 1)), "x"),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [&](int i)
// CHECK-NEXT: #line 10 "{{.*}}basic-for.cpp"
// CHECK-NEXT:                               {
// CHECK-NEXT:     y[i] = a * x[i];
// CHECK-NEXT:   });
// CHECK-NEXT: #line 12 "{{.*}}basic-for.cpp"
// CHECK-EMPTY:
// CHECK-NEXT: }

// A body that is a single statement gets braces; `continue` ends the
// iteration, which in the outlined body is `return` (not in nested loops).
void clear_odd(int *v, unsigned long n) {
#pragma gpu_autopar for mode(host)
  for (unsigned long k = n; k > 0; k -= 2)
    v[k - 1] = 0;
#pragma gpu_autopar for mode(host)
  for (int i = 0; i <= 10; i++) {
    if (v[i] == 1)
      continue;
    for (int j = 0; j < 3; ++j)
      if (j == 1)
        continue;
    v[i] = 2;
  }
}
// CHECK:      void clear_odd(int *v, unsigned long n) {
// CHECK-NEXT:   ::gpu_autopar::host_loop(::gpu_autopar::loop_site{"basic-for.cpp", 30},
// CHECK-NEXT:       ::gpu_autopar::iterations<unsigned long>((n), ::gpu_autopar::greater, (0), -(2)), ::gpu_autopar::options(),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [&](unsigned long k) {
// CHECK-NEXT: #line 32 "{{.*}}basic-for.cpp"
// CHECK-NEXT:     v[k - 1] = 0; });
// CHECK-NEXT: #line 32 "{{.*}}basic-for.cpp"
// CHECK-EMPTY:
// CHECK-NEXT:   ::gpu_autopar::host_loop(::gpu_autopar::loop_site{"basic-for.cpp", 33},
// CHECK-NEXT:       ::gpu_autopar::iterations<int>((0), ::gpu_autopar::less_equal, (10), 1), ::gpu_autopar::options(),
// CHECK-NEXT:       ::gpu_autopar::reductions(),
// CHECK-NEXT:       [&](int i)
// CHECK:          if (v[i] == 1)
// CHECK-NEXT:       return;
// CHECK-NEXT:     for (int j = 0; j < 3; ++j)
// CHECK-NEXT:       if (j == 1)
// CHECK-NEXT:         continue;
