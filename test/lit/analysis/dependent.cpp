// Dependence corpus, part 2: loops whose iterations provably conflict (flow,
// anti and output dependences of the textbooks, and scalars carried from one
// iteration to the next). Each must be rejected with an error.
// RUN: python3 %S/check_corpus.py %gpu-autopar %s | FileCheck %s
// CHECK: 31 loops: 31 dependent; 0 mismatches
// Each witness, run on the serial loop with the parameters it names:
// RUN: %run-corpus witness --out %t.w %s %S/Inputs/dependent.driver.cpp | FileCheck %s --check-prefix=WITNESS
// WITNESS: 27 witnesses: each confirmed by the serial loop
#include <vector>
using V = std::vector<float>;
float A[128][128];
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))

void one_dimensional(V &a, const V &b, int n, float *__restrict__ p) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) a[i] = a[i - 1] + b[i];          // flow dependence, distance 1
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i) a[i] = a[i + 1];             // anti dependence
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[0] += b[i];                    // output dependence on one element
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; ++i) a[i + 1] = a[i] * 2;         // flow, written ahead
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) a[i] += a[i - 1];                // prefix sum
  // expect: dependent
#pragma gpu_autopar for
  for (int i = n - 1; i > 0; --i) a[i - 1] = a[i];             // reversed loop, still carried
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) a[2 * i] = a[2 * i - 2];         // stride 2, distance 1
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 2; i < n; i += 2) a[i] = a[i - 2];              // step 2, distance one iteration
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 100; ++i) a[i + 10] = a[i];              // distance 10 within 100 iterations
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[5] = b[i];                     // every iteration writes a[5]
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) *p += b[i];                      // through a pointer, same element
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2) { a[i] = 1; a[i + 2] = 2; }   // two writes, next iteration's element
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 3) a[i + 1] = a[i + 4];          // step 3, offsets 3 apart
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i) { int prev = i - 1; a[i] = a[prev]; } // the previous element through a local
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i / 2] = b[i];                 // two iterations per element
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[i] = a[n - i];                 // meets its mirror for every n > 2
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) a[2 * i] = a[i];                 // different rates: i = 2i' for n > 2
  // expect: dependent
#pragma gpu_autopar for
  for (int t = 1; t <= floord(n - 1, 16); ++t)                 // each tile reads the tile before it
    for (int i = 16 * t; i <= (16 * t + 15 < n - 1 ? 16 * t + 15 : n - 1); ++i) a[i] = a[i - 16] + 1;
  int k;
  // expect: dependent
#pragma gpu_autopar for private(k)
  for (int i = 0; i < n; ++i) { k = 1; a[i + k] = 1; k = 0; a[i + k] = 2; } // a private's values: i+1 meets i'
}

void two_dimensional(V &m, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < 128; ++i)
    for (int j = 0; j < 128; ++j) A[i][j] = A[i - 1][j];        // carried by the outer loop
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < 128; ++i)
    for (int j = 0; j < 127; ++j) A[i][j] = A[i - 1][j + 1];    // distance vector (1, -1)
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i * n + j] += m[(i - 1) * n + j]; // flattened rows, distance 1
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < 128; ++i)
    for (int j = 0; j < 16; ++j) A[0][j] += A[i][j];            // every iteration updates row 0
}

void scalars(const V &b, int n, float &out) {
  float last = 0, carry = 0;
  int k = 0;
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) last = b[i];                     // scalar output dependence
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) carry = carry * 0.5f + b[i];     // scalar recurrence without a reduction
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) k = k + 2;                       // induction-like counter
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) out = b[i] > out ? b[i] : out;   // a max without reduction(max: ...)
}

// A scratch array every iteration hands whole to a visible function that
// writes it (NPB's `exact_solution(xi, eta, zeta, temp)`): every iteration
// writes its first element, directly or through a function handing it on;
// also where the call is under a condition (LU's `exact(0, jglob, k,
// ue_1jk)`), and where an element's address is handed (BT's
// `&Pface[ix][0][0]`).
float Scratch[5], Scratch2[5], Face[2][5];
static void fill5(float t[5], float x) { for (int m = 0; m < 5; m++) t[m] = x + m + 0.5f; }
static void fill_through(float *t, float x) { fill5(t, 2 * x); }

void callee_scratch(V &a, int n) {
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    fill5(Scratch, float(i));
    for (int m = 0; m < 5; ++m) a[5 * i + m] = Scratch[m];
  }
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) { fill_through(Scratch2, float(i)); a[i] += Scratch2[4]; }
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    if (i % 2 == 0) { fill5(Scratch, float(i)); a[i] = Scratch[3]; }
  // expect: dependent
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    for (int ix = 0; ix < 2; ++ix) fill5(&Face[ix][0], float(i + ix));
    a[i] = Face[0][1] + Face[1][2];
  }
}
