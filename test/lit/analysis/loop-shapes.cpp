// Dependence corpus, part 4: the shapes numerical C and C++ code is written
// in, each with the exact verdict: C89 declarations at the top with
// private(j), descending and triangular inner loops, tiles and CSR rows
// whose inner range moves with the annotated variable, different
// coefficients, modulo and division by constants, casts, guards, range-for,
// members, rows handed to functions, indirect and virtual calls, I/O.
// RUN: python3 %S/check_corpus.py %gpu-autopar %s | FileCheck %s
// CHECK: 54 loops: 3 checked, 20 dependent, 1 error, 23 independent, 7 unknown; 0 mismatches
// RUN: %run-corpus equal --out %t.e %s %S/Inputs/loop-shapes.driver.cpp | FileCheck %s --check-prefix=EQUAL
// EQUAL: 33 accepted loops, 80 arrays: equal to serial on cpu and sim:3
// RUN: %run-corpus witness --out %t.w %s %S/Inputs/loop-shapes.driver.cpp | FileCheck %s --check-prefix=WITNESS
// WITNESS: 18 witnesses: each confirmed by the serial loop
#include <cstddef>
#include <cstdio>
#include <functional>
#include <vector>
using V = std::vector<float>;
float A[128][128], B[128][128], C[128][128];
float flat[64 * 64];

void c89(int n) {
  int i, j;
  // expect: independent
#pragma gpu_autopar for private(j)
  for (i = 0; i < 128; i++)
    for (j = 0; j < 128; j++) C[i][j] = A[i][j] + 1;           // counter declared at the top
  // expect: independent
#pragma gpu_autopar for private(j)
  for (i = 0; i < 128; i++)
    for (j = 127; j >= 0; j--) C[i][j] = A[i][127 - j];        // descending inner loop
  // expect: independent
#pragma gpu_autopar for private(j)
  for (i = 0; i < 128; i++)
    for (j = 126; j >= 0; j -= 2) C[i][j] = C[i][j + 1];       // descending by 2, odd columns read
  // expect: dependent
#pragma gpu_autopar for private(j)
  for (i = 1; i < 128; i++)
    for (j = 0; j < 128; j++) C[i][j] = C[i - 1][j];           // carried by the annotated loop
  // expect: dependent
#pragma gpu_autopar for private(j)
  for (i = 1; i < 128; i++)
    for (j = 127; j >= 0; --j) C[i][j] += C[i - 1][j];         // descending, still carried
  // expect: dependent
#pragma gpu_autopar for
  for (i = 0; i < 128; i++)
    for (j = 0; j < 128; j++) C[i][j] = 0;                     // j is shared: not private
  // expect: dependent
#pragma gpu_autopar for private(j)
  for (i = 0; i < 128; i++)
    for (j = 0; j < 128; j++) B[i][j] = B[i][j - 1];           // j - 1 = -1 reads the previous row
  (void)n;
}

void triangles() {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 128; i++)
    for (int j = i; j < 128; j++) C[i][j] = C[j][i];           // upper from lower: only the diagonal meets
  // expect: independent
#pragma gpu_autopar for
  for (int i = 1; i < 128; i++)
    for (int k = 0; k < i; k++) A[i][k] = A[k][i] * 2;         // k < i: strictly lower from strictly upper
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 128; i++)
    for (int j = 0; j <= i; j++) A[i][j] = A[j][i + 1];        // i + 1 > j: reads what a later row writes
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 128; i++)
    for (int j = 0; j <= i; j++) flat[j] += 1;                 // every row updates the first elements
}

void moving_ranges(float *__restrict__ y, const float *__restrict__ val, const float *__restrict__ x,
                   const int *__restrict__ rowptr, const int *__restrict__ col, int nrows, int nnz, int nx) {
  // expect: independent
#pragma gpu_autopar for
  for (int t = 0; t < 8; ++t)
    for (int i = 16 * t; i < 16 * t + 16; i++) A[i][0] = i;    // tiles: the inner range moves with t
  // expect: dependent
#pragma gpu_autopar for
  for (int t = 0; t < 7; ++t)
    for (int i = 16 * t; i < 16 * t + 17; i++) A[i][0] = i;    // tiles that overlap by one row
  // expect: independent
#pragma gpu_autopar for map(to: val[0:nnz], col[0:nnz], x[0:nx])
  for (int r = 0; r < nrows; ++r)
    for (int k = rowptr[r]; k < rowptr[r + 1]; ++k) y[r] += val[k] * x[col[k]]; // CSR rows
}

void coefficients(V &a, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 50; ++i) a[99 - i] = a[i];               // first half read, second half written
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 100; ++i) a[99 - i] = a[i];              // the halves meet
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 4; ++i) a[i % 4] = i;                    // one element each
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i % 4] = i;                    // wraps around after 4 iterations
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) a[i / 4] += 1;                  // four iterations per element
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) a[i + 256] = a[i % 4];         // reads below 4, writes from 256
  // expect: independent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) a[i] = a[0];                     // a[0] is never written
  // expect: dependent (iteration 0 stores the value a[0] holds: its write shows in no value)
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[0];                     // iteration 0 writes what the others read
}

void casts_and_guards(V &a, std::vector<double> &m, std::size_t cols, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) flat[std::size_t(i) * 64 + j] = 0; // row-major behind a cast
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 63; ++i)
    for (int j = 0; j < 65; ++j) flat[std::size_t(i) * 64 + j] = 0; // one column too many
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (std::size_t j = 0; j < cols; ++j) m[(std::size_t)i * cols + j] *= 2; // symbolic row length
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    if (i % 2 == 0) a[i] = a[i + 1];                           // guard: even written, odd read
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    if (i > 0) a[i] = a[i - 1];                                // guarded, still a recurrence
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0) continue;
    a[i] = a[i] * 2;                                           // an early continue
  }
}

void range_for(V &v, V &w) {
  // expect: independent
#pragma gpu_autopar for
  for (auto &x : v) x += 1;                                    // each iteration owns its element
  // expect: dependent (iteration 0 stores the value v[0] holds: its write shows in no value)
#pragma gpu_autopar for
  for (auto &x : v) v[0] = x;                                  // every iteration writes v[0]
  // expect: dependent (iteration 0 stores the value v[0] holds: its write shows in no value)
#pragma gpu_autopar for
  for (auto &x : v) x = v[0];                                  // the first element is read by all
  // expect: dependent
#pragma gpu_autopar for
  for (const auto &x : v) w.at(0) += x;                        // at() is an element access too
}

struct Field {
  double *data;
  int n;
};
struct Grid {
  std::vector<float> cells;
  int n;
  void scale() {
    // expect: independent
#pragma gpu_autopar for
    for (int i = 0; i < n; ++i) cells[i] *= 2;                 // a member container
  }
  void shift() {
    // expect: dependent
#pragma gpu_autopar for
    for (int i = 1; i < n; ++i) cells[i] = cells[i - 1];       // a member container, carried
  }
};

void members(Field &dst, const Field &src, double s, std::vector<std::vector<double>> &g, int n) {
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) dst.data[i] = s * src.data[i];  // dst and src may be one Field: compared
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < dst.n; ++i) dst.data[i] = s * dst.data[i]; // one object only
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g[i][j] = 0;                   // rows of a vector of vectors
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < n; ++j) g[i][j] = g[i - 1][j];         // carried through the rows
}

void matvec_sub(double *lhs, const double *a, double *b) { lhs[0] -= a[0] * b[0]; }
void rows(double (*B2)[100], const double (*A2)[100], double lhs[64][5], double rhs[64][5], int n) {
  // expect: checked
#pragma gpu_autopar for
  for (int i = 1; i < 64; ++i) matvec_sub(lhs[i], rhs[i - 1], rhs[i]); // rows passed on: only lhs[i][0] is written
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 100; ++j) B2[i][j] = A2[i][j];         // rows(m, m) makes them one array
}

int sum0;
void add_to_sum(int i) { sum0 += i; }
struct Shape {
  virtual double area() const { return 0; }
  virtual void grow(double) {}
};
void calls(V &a, void (*fp)(float *), const std::function<void(float &)> &f, Shape **shapes, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) add_to_sum(i);                   // a visible callee writes a global, on every call
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) fp(&a[i]);                       // through a function pointer
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) f(a[i]);                         // through std::function
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) shapes[i]->grow(2.0);            // a virtual call
  // expect: error
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) std::printf("%d\n", i);          // output order would be lost
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[i] + 1;                 // a plain loop, for contrast
}

void not_equal(V &a, std::vector<double> &m, std::size_t cols, int n, int w, unsigned lo, unsigned hi) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != w; ++j) a[i * w + j] = float(j);      // `!=` by ones: a signed j stops at w
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (std::size_t j = 0; j != cols; ++j) m[i * cols + j] *= 2; // unsigned from 0: never wraps first
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = w - 1; j != -1; --j) a[i * w + j] += 1;       // counting down to -1
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != 8; ++j) a[j] += 1;                    // every row updates the first 8 elements
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (unsigned j = lo; j != hi; ++j) a[i * 64 + (j - lo)] = 0; // unsigned: wraps when lo > hi
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != w; j += 2) a[i * w + j] = 1;          // by twos: may step over w
}

void opaque_bounds(V &a, const std::vector<int> &len, int n) {
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < len[i]; ++j) a[j] += 1;                // writes a[0] whenever len[i] > 0
  // expect: unknown
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    while (a[i] > 1) a[i + 1] = a[i] / 2;                      // a while loop may not run
}
