// Effects the analysis proves to be races, or that no parallel loop can
// have: each is an error at its cause, and nothing is written. Each loop was
// accepted without a word before (or, for the container row, with a remark
// only), and gave results other than the serial program's on sim:3.
// RUN: %expect-exit 1 %gpu-autopar --check %s -- -std=c++17 -Wno-vla-cxx-extension 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note:
// Under NDEBUG an assert calls nothing, and is no error:
// RUN: %expect-exit 1 %gpu-autopar --check %s -- -std=c++17 -Wno-vla-cxx-extension -DNDEBUG 2>&1 | FileCheck %s --check-prefix=NDEBUG
// NDEBUG: 'exit', called by 'check' leaves the annotated loop
// NDEBUG-NOT: 'assert'
#include <cassert>
#include <cstdlib>
#include <map>
#include <unordered_map>
#include <vector>

void pointer_arithmetic(double *a, int n) {
#pragma gpu_autopar for map(tofrom: a[0:n])
  for (int i = 1; i < n; ++i)
    *(a + i) = *(a + i - 1) + 1;
// CHECK: effects-errors.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: effects-errors.cpp:[[@LINE-2]]:5: note: write of 'a' here
// CHECK: effects-errors.cpp:[[@LINE-3]]:16: note: read of 'a' here
// CHECK: effects-errors.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes a[1] and iteration i=2 reads it
}

void offset_base(double *a, int n) {
#pragma gpu_autopar for map(tofrom: a[0:n])
  for (int i = 1; i < n; ++i)
    (a + 1)[i - 1] = a[i - 1] * 2;
// CHECK: effects-errors.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: effects-errors.cpp:[[@LINE-2]]:5: note: write of 'a' here
// CHECK: effects-errors.cpp:[[@LINE-3]]:22: note: read of 'a' here
// CHECK: effects-errors.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes a[1] and iteration i=2 reads it
}

void container_row(std::vector<std::vector<double>> &m, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) {
    const std::vector<double> &above = m[i - 1];
    m[i][0] = above[0] + 1;
  }
// CHECK: effects-errors.cpp:[[@LINE-4]]:3: error: loop-carried dependence on 'm': an element written in one iteration is read in another
// CHECK: effects-errors.cpp:[[@LINE-3]]:5: note: write of 'm' here
// CHECK: effects-errors.cpp:[[@LINE-5]]:40: note: read of 'm' here
// CHECK: effects-errors.cpp:[[@LINE-7]]:3: note: for example, with n = 3, iteration i=1 writes m[1][0] and iteration i=2 reads it
// CHECK: effects-errors.cpp:[[@LINE-7]]:40: remark: loop runs on CPU threads only: {{.*}}
}

struct Accumulator {
  mutable double total = 0;
  double add(double x) const {
    total += x;
    return total;
  }
};

void mutable_member(const Accumulator &acc, double *__restrict out, const double *__restrict in, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = acc.add(in[i]);
// CHECK: effects-errors.cpp:[[@LINE-1]]:14: error: 'acc' is declared outside the loop and written in it; {{.*}}
// CHECK: effects-errors.cpp:[[@LINE-5]]:40: note: 'acc' is declared here
}

static void check(double x) {
  if (x < 0)
    std::exit(3);
}

void exits(double *a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (a[i] > 1e6)
      std::abort();
// CHECK: effects-errors.cpp:[[@LINE-1]]:7: error: 'abort' leaves the annotated loop; the iterations of a parallel loop cannot end it early
    check(a[i]);
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: 'exit', called by 'check' leaves the annotated loop; the iterations of a parallel loop cannot end it early
    assert(a[i] == a[i]); // a failing assert aborts (under NDEBUG it is nothing)
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: 'assert' leaves the annotated loop; the iterations of a parallel loop cannot end it early
// CHECK: assert.h:{{[0-9]+}}:{{[0-9]+}}: note: expanded from macro 'assert'
    a[i] = a[i] * 2;
  }
}

// A visible function that writes a global on every call, called on every
// iteration: a proven dependence. With the global in a reduction (or
// private) clause the body gets a copy, but the function still writes the
// global itself: iterations share it (before, that loop was accepted clean
// and lost updates on CPU threads).
int total = 0;
static void tally(int i) { total = total + i; }
void tallies(int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    tally(i);
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: loop-carried dependence on 'total': every iteration writes it, through the call to 'tally'
// CHECK: effects-errors.cpp:[[@LINE-7]]:5: note: 'total' is declared here
// CHECK: effects-errors.cpp:[[@LINE-7]]:28: note: 'tally' uses global variable 'total', which is not in GPU memory
#pragma gpu_autopar for reduction(+: total)
  for (int i = 0; i < n; ++i)
    tally(i);
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: loop-carried dependence on 'total': 'tally' writes the variable itself, not the copy the loop's reduction clause makes for the body, so iterations share it
// CHECK: effects-errors.cpp:[[@LINE-13]]:5: note: 'total' is declared here
// CHECK: effects-errors.cpp:[[@LINE-13]]:28: note: 'tally' uses global variable 'total', which is not in GPU memory
}

// A kernel's data maps cannot describe a variable-length array's type (on
// CPU threads, without the mode clause, the loop runs: e2e/vla-host.cpp).
void vla_kernel(int n) {
  double vla[n];
#pragma gpu_autopar for mode(kernel)
  for (int i = 0; i < n; ++i)
    vla[i] = i;
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: 'vla' is a variable-length array, which a kernel's data maps cannot describe; run the loop on CPU threads (no mode clause), or allocate it with std::vector or give it a constant size
// CHECK: effects-errors.cpp:[[@LINE-5]]:10: note: 'vla' is declared here
}

// An array of variable-length rows reaches the body as a description of its
// rows (::gpu_autopar::rows_of), whose size is not the array's.
void vla_rows_size(int n, int m, double *out) {
  double rows[n][m];
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    out[i] = rows[i][0] * sizeof(rows[i]);
// CHECK: effects-errors.cpp:[[@LINE-1]]:27: error: the body takes the size of 'rows', an array of variable-length rows, which it can only reach through a description of its rows: take the size before the loop
// CHECK: effects-errors.cpp:[[@LINE-5]]:10: note: 'rows' is declared here
}

// A std::map's operator[] inserts a missing key: every iteration changes the
// whole map (this one crashed on CPU threads while it was taken for a
// subscript).
void map_insert(std::map<int, double> &m, std::unordered_map<int, double> &u, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    m[i] = 0.5 * i;
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: 'm' is declared outside the loop and written in it; it is a reference, so every iteration writes the object it names, which a private(...) copy would not reach; write a local variable of the body instead, or a reduction(...) if it accumulates
// CHECK: effects-errors.cpp:[[@LINE-5]]:40: note: 'm' is declared here
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    u[i] += 1;
// CHECK: effects-errors.cpp:[[@LINE-1]]:5: error: 'u' is declared outside the loop and written in it; it is a reference, so every iteration writes the object it names, which a private(...) copy would not reach; write a local variable of the body instead, or a reduction(...) if it accumulates
// CHECK: effects-errors.cpp:[[@LINE-10]]:76: note: 'u' is declared here
}
