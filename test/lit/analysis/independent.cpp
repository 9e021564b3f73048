// Dependence corpus, part 1: loops whose iterations provably never touch an
// element another iteration writes (textbook examples: Wolfe, "High
// Performance Compilers", ch. 5-7; Allen & Kennedy, "Optimizing Compilers for
// Modern Architectures", ch. 2-3). Each must be accepted without warnings.
// `a`, `b`, `c` and `d` are references a caller may bind to one vector: a
// loop that writes one and uses another is "checked" (the rewritten loop
// compares their addresses and runs serially if they are the same).
// RUN: python3 %S/check_corpus.py %gpu-autopar %s | FileCheck %s
// CHECK: 50 loops: 2 bounded, 11 checked, 37 independent; 0 mismatches
// The rewritten loops give the serial numbers (also with a and b one vector):
// RUN: %run-corpus equal --out %t.e %s %S/Inputs/independent.driver.cpp | FileCheck %s --check-prefix=EQUAL
// EQUAL: 50 accepted loops, 26 arrays: equal to serial on cpu and sim:3
#include <vector>
using V = std::vector<float>;
float A[128][128], B[128][128], C[128][128];
int Dims[2]; // sizes set before the loops run, as NPB's grid_points
// How tiling tools (PLuTo, PolyOpt) spell their tile bounds.
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))

void independent(V &a, V &b, const V &c, V &d, int n, int m, float s) {
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = b[i] + c[i];              // elementwise
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[i] + 1;                 // read-modify-write of own element
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[2 * i] = a[2 * i + 1];         // even written, odd read
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2) a[i] = a[i + 1];              // step 2: i+1 is never an iteration
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 50; ++i) a[i] = a[i + 100];              // distance 100 exceeds the 50 iterations
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 10; ++i) a[i] = a[i + 10];               // distance equals the trip count
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[2 * i] = a[4 * i + 1];         // GCD test: gcd(2,4) does not divide 1
  // expect: independent
#pragma gpu_autopar for
  for (int t = 0; t <= floord(n - 1, 16); ++t)                 // tiles of 16 below n + 16: the tile bound,
    for (int i = 0; i < 16; ++i) a[16 * t + i] = a[16 * t + i + n + 16]; // floord, is what keeps them apart
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[4 * i + 1] = a[4 * i + 3];     // residues 1 and 3 mod 4
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[3 * i] = a[3 * i - 1];         // offset -1 is not a multiple of 3
  // expect: independent
#pragma gpu_autopar for
  for (int i = 4 * n - 1; i > 0; i -= 2) a[i] = a[i - 1];     // descending step 2: i-1 is never an iteration
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2) a[i + m] = a[i + m + 1];      // a parameter in both offsets
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 3) a[i] = a[i + 1] + a[i + 2];   // step 3, reads inside the stride
  // expect: checked
#pragma gpu_autopar for
  for (int i = n - 1; i >= 0; --i) a[i] = b[i] * s;            // reversed loop
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[n - 1 - i] = c[i];             // reversed subscript, each element once
  // expect: checked
#pragma gpu_autopar for
  for (int i = 1; i < n - 1; ++i) a[i] = c[i - 1] + c[i] + c[i + 1]; // stencil into another array
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { a[i] = b[i]; a[i] = a[i] * 2; } // two writes, same element, same iteration
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { a[i] = b[i]; b[i] = c[i]; }    // each array only at i
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = b[i + 1] - b[i];           // reads of a read-only array never conflict
  // expect: checked
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { float t = b[i] * b[i]; a[i] = t + s; } // body-local temporary
  // expect: independent
#pragma gpu_autopar for
  for (unsigned i = 0; i < 64u; ++i) d[i * 8 + 3] = d[i * 8 + 5];  // inside one 8-wide block
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { int k = 2 * i; a[k] = a[k + 1]; } // a local naming the subscript
  int k, q;
  // expect: independent
#pragma gpu_autopar for private(k)
  for (int i = 0; i < n; ++i) { k = 2 * i; a[k] = 1; k = k + 1; a[k] = 2; } // a private's value where read
  // expect: independent
#pragma gpu_autopar for private(k, q)
  for (int i = 0; i < n; ++i) {                                // NPB's `i = 1; f[i][j]`, values
    k = 1;                                                     // reaching reads inside inner loops
    q = 3 * i;
    for (int j = 0; j < 2; ++j) { a[q + k + j] = j; }
    k = 0;
    if (m > 0) a[q + k] = s;
  }
}

void two_dimensional(V &img, const V &src, int w, int h) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 1; i < 128; ++i)
    for (int j = 1; j < 128; ++j) A[i][j] = A[i][j - 1] + 1;     // dependence carried by the inner loop only
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 128; ++j) B[j][i] = A[i][j];             // transpose into another array
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 128; ++j) {
      float acc = 0;
      for (int k = 0; k < 128; ++k) acc += A[i][k] * B[k][j];
      C[i][j] = acc;                                             // matrix product, row i
    }
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 128; ++i) A[i][0] = A[i][1];               // row i only
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) img[i * 8 + j] = img[i * 8 + j] * 2; // flattened, constant width
  // expect: checked
#pragma gpu_autopar for
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x) img[y * w + x] = src[(y - 1) * w + x] + src[(y + 1) * w + x]; // image stencil
  // expect: independent
#pragma gpu_autopar for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] += 1;             // row-major, symbolic width
  // expect: independent
#pragma gpu_autopar for
  for (int y = 0; y < h; ++y)
    for (int x = w - 1; x >= 0; --x) img[y * w + x] *= 0.5f;     // descending columns
  // expect: independent
#pragma gpu_autopar for
  for (int y = 0; y < h; y += 2)
    for (int x = 1; x <= w; ++x) img[(y + 1) * w + x - 1] += 2;  // odd rows, column x - 1 for x in [1, w]
  // expect: checked
#pragma gpu_autopar for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w - 1; ++x) img[y * w + x + 1] = src[y * w + x]; // shifted column stays in the row
  // expect: independent
#pragma gpu_autopar for
  for (int x = 0; x < w; ++x)
    for (int y = 1; y < h; ++y) img[(h - y) * w + w - 1 - x] += 1; // flipped: w - 1 - x is the column
  int r;
  // expect: bounded
#pragma gpu_autopar for private(r)
  for (int i = 0; i < 128; ++i) {                              // SP's tail: a private counted by a loop,
    for (r = 0; r < 2; ++r) A[i][r] = 0;                       // then set from an element of an array the
    r = Dims[0] - 2;                                           // loop does not write (bounded: it stays in the row)
    for (int j = 2; j < Dims[1]; ++j) A[i][r + j] = A[i][j - 1];
  }
}

void reductions_and_privates(const V &x, int n, double &out) {
  double sum = 0, best = -1;
  float t;
  // expect: independent
#pragma gpu_autopar for reduction(+: sum)
  for (int i = 0; i < n; ++i) sum += x[i] * x[i];
  // expect: independent
#pragma gpu_autopar for reduction(max: best)
  for (int i = 0; i < n; ++i) best = x[i] > best ? x[i] : best;
  // expect: independent
#pragma gpu_autopar for private(t) reduction(+: sum)
  for (int i = 0; i < n; ++i) { t = x[i] + 1; sum += t; }
  out = sum + best;
}

// Three dimensions flattened with two symbolic strides: split into a row
// and two columns, each column kept inside its stride by its loop.
void three_dimensional(V &u, const V &v, int nx, int ny, int nz) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) u[(i * ny + j) * nz + k] += 1; // plane i
  // expect: checked
#pragma gpu_autopar for
  for (int i = 1; i < nx - 1; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k)
        u[(i * ny + j) * nz + k] = v[((i - 1) * ny + j) * nz + k] + v[((i + 1) * ny + j) * nz + k]; // 3-D halo
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < nx; ++i)
    for (int j = ny - 1; j >= 0; --j)
      for (int k = 0; k < nz; ++k) u[i * ny * nz + j * nz + k] *= 0.5f; // expanded, descending rows
  // expect: independent
#pragma gpu_autopar for
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      for (int k = 0; k < nz; ++k) u[((nx - 1 - i) * ny + ny - 1 - j) * nz + k] -= 1; // mirrored rows
}

void range_for(V &v) {
  // expect: independent
#pragma gpu_autopar for
  for (auto &e : v) e = e * e;
}

struct Particle {
  float x, v;
};

void element_references(std::vector<Particle> &ps, V &hits, int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { auto &p = ps[i]; p.x += p.v; if (p.x > 700) p.v = -p.v; } // a reference is its element
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { float &h = hits[n - 1 - i]; if (h > 500) h = 0; }      // reversed, conditional
}

// Rows handed to visible functions that stay inside them (as NPB's BT hands
// `lhs[i][j][k][BB]` to `binvcrhs`): the row is all the call touches there.
float R[64][8], L[16][16][2][2], Bv[16][16][2], Sum[64];
static void scale_row(float r[8], float s) { for (int m = 0; m < 8; m++) r[m] *= s; }
static float sum8(float *r) { float t = 0; for (int m = 0; m < 8; m++) t += r[m]; return t; } // reads only
static void solve2x2(float a[2][2], float b[2]) {
  b[0] = b[0] / (a[0][0] + 4);
  b[1] = (b[1] - a[1][0] * b[0]) / (a[1][1] + 4);
  a[0][1] = b[0];
}
static void solve_through(float a[2][2], float b[2]) { solve2x2(a, b); } // handed on whole
static float ignores_row(float *, float s) { return 2 * s; }              // touches nothing through it

void callee_rows(int n) {
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) scale_row(R[i], 0.5f);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) Sum[i] = sum8(R[i]);
  // expect: independent
#pragma gpu_autopar for
  for (int i = 0; i < 64; ++i) { Sum[i] += ignores_row(R[i], float(i)); R[i][0] = Sum[i]; }
  // expect: bounded
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) solve_through(L[i][j], Bv[i][j]);
}
