// A dependence between iterations that the analysis can prove is an error at
// the loop, with a note at each of the two accesses.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 -ferror-limit=0 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=error: --implicit-check-not=warning: --implicit-check-not=note: --implicit-check-not=remark:
#include <vector>

void recurrence(float *__restrict__ a, const float *__restrict__ b, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + b[i];
// CHECK: dependence.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'a': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:5: note: write of 'a' here
// CHECK: dependence.cpp:[[@LINE-3]]:12: note: read of 'a' here
// CHECK: dependence.cpp:[[@LINE-5]]:3: note: for example, with n = 3, iteration i=1 writes a[1] and iteration i=2 reads it
}

void forward(std::vector<int> &v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n - 2; ++i)
    v[i] = v[i + 2] * 2;
// CHECK: dependence.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'v': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:5: note: write of 'v' here
// CHECK: dependence.cpp:[[@LINE-3]]:12: note: read of 'v' here
// CHECK: dependence.cpp:[[@LINE-5]]:3: note: for example, with n = 5, iteration i=2 writes v[2] and iteration i=0 reads it
}

void same_element(double *__restrict__ total, const double *__restrict__ x, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    *total += x[i];
// CHECK: dependence.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'total': every iteration writes the same element{{$}}
// CHECK: dependence.cpp:[[@LINE-2]]:5: note: write of 'total' here
// CHECK: dependence.cpp:[[@LINE-4]]:3: note: for example, with n = 2, iterations i=0 and i=1 both write total[0]
}

void output(int *__restrict__ a, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2) {
    a[i] = 1;
    a[i + 2] = 2;
  }
// CHECK: dependence.cpp:[[@LINE-4]]:3: error: loop-carried dependence on 'a': an element written in one iteration is written again in another
// CHECK: dependence.cpp:[[@LINE-4]]:5: note: write of 'a' here
// CHECK: dependence.cpp:[[@LINE-4]]:5: note: other write of 'a' here
// CHECK: dependence.cpp:[[@LINE-7]]:3: note: for example, with n = 3, iterations i=0 and i=2 both write a[2]
}

float grid[64][64];
void rows(int n) {
#pragma gpu_autopar for
  for (int i = 1; i < 64; ++i)
    for (int j = 0; j < 64; ++j)
      grid[i][j] = grid[i - 1][j] + 1;
// CHECK: dependence.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'grid': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:7: note: write of 'grid' here
// CHECK: dependence.cpp:[[@LINE-3]]:20: note: read of 'grid' here
// CHECK: dependence.cpp:[[@LINE-6]]:3: note: for example, iteration i=1 writes grid[1][0] and iteration i=2 reads it
}

void flat_rows(std::vector<float> &m, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[i * n + j] += m[(i - 1) * n + j];
// CHECK: dependence.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'm': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:7: note: write of 'm' here
// CHECK: dependence.cpp:[[@LINE-3]]:23: note: read of 'm' here
// CHECK: dependence.cpp:[[@LINE-6]]:3: note: for example, with n = 3, iteration i=1 writes m[3] and iteration i=2 reads it
}

void histogram_column(std::vector<int> &bins, const std::vector<int> &x, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 16; ++j)
      bins[j] += x[i * 16 + j];
// CHECK: dependence.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'bins': every iteration writes the same elements{{$}}
// CHECK: dependence.cpp:[[@LINE-2]]:7: note: write of 'bins' here
// CHECK: dependence.cpp:[[@LINE-5]]:3: note: for example, with n = 2, iterations i=0 and i=1 both write bins[0]
}

// Two iterations per element: the division is exact for isl, so this is a
// proof, not a guess.
void halves(std::vector<float> &a, const std::vector<float> &b, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    a[i / 2] = b[i];
// CHECK: dependence.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'a': an element written in one iteration is written again in another
// CHECK: dependence.cpp:[[@LINE-2]]:5: note: write of 'a' here
// CHECK: dependence.cpp:[[@LINE-4]]:3: note: for example, with n = 2, iterations i=0 and i=1 both write a[0]
}

// In a function template `v` has a dependent type, and `v.size()` is still
// the container's size: the prefix sum is proven dependent there as it is
// outside a template (it was a warning, and gave five different wrong totals
// on sim:3).
template <class T> void prefix_sum(std::vector<T> &v) {
#pragma gpu_autopar for
  for (int i = 1; i < (int)v.size(); ++i)
    v[i] += v[i - 1];
// CHECK: dependence.cpp:[[@LINE-2]]:3: error: loop-carried dependence on 'v': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:5: note: write of 'v' here
// CHECK: dependence.cpp:[[@LINE-3]]:13: note: read of 'v' here
// CHECK: dependence.cpp:[[@LINE-5]]:3: note: for example, with v.size() = 3, iteration i=1 writes v[1] and iteration i=2 reads it
}

// A conflict for every value of the parameters but small ones (m = 2 here:
// j only takes 1, and b[i][1] never meets b[i - 1][0]) is a dependence for
// every input worth running in parallel (DataRaceBench DRB031); one that a
// large value avoids (k >= n below) stays a warning.
double diag[100][100];
void diagonal(int n, int m) {
#pragma gpu_autopar for
  for (int i = 1; i < n; i++)
    for (int j = 1; j < m; j++)
      diag[i][j] = diag[i - 1][j - 1];
// CHECK: dependence.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'diag': an element written in one iteration is read in another
// CHECK: dependence.cpp:[[@LINE-2]]:7: note: write of 'diag' here
// CHECK: dependence.cpp:[[@LINE-3]]:20: note: read of 'diag' here
// CHECK: dependence.cpp:[[@LINE-6]]:3: note: for example, with n = 3, m = 3, iteration i=1 writes diag[1][1] and iteration i=2 reads it
}
void shifted(std::vector<float> &a, int n, int k) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    a[i] = a[i + k];
// CHECK: dependence.cpp:[[@LINE-1]]:5: warning: cannot prove that iterations access distinct elements of 'a': iterations conflict only for some values of the loop's parameters (with n = 2, k = 1, iteration i=1 writes a[1] and iteration i=0 reads it)
// CHECK: dependence.cpp:[[@LINE-2]]:12: note: read of 'a' here
}
