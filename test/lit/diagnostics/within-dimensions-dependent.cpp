// Conflicts that stay inside an array's dimensions get no bounds check: the
// loop is a proven dependence whenever its accesses run (m >= 1 here), and
// the example isl gives lies inside the dimensions, not past a row's end.
// Conflicts among writes that every iteration repeats are proven the same way.
// RUN: %expect-exit 1 %gpu-autopar %s --check -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=warning: --implicit-check-not=remark: --implicit-check-not=error:
#include <vector>
double B[64][48];

void next_row(int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = B[i + 1][j];
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'B': an element written in one iteration is read in another
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-2]]:7: note: write of 'B' here
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-3]]:17: note: read of 'B' here
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-6]]:3: note: for example, with n = 3, m = 1, iteration i=1 writes B[1][0] and iteration i=0 reads it
}

void same_prefix(std::vector<double> &a, int n, int w) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j != w; ++j)
      a[j] += 1;
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'a': every iteration writes the same elements{{$}}
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-2]]:7: note: write of 'a' here
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-5]]:3: note: for example, with n = 2, w = 1, iterations i=0 and i=1 both write a[0]
}

// `j - 1` from j = 0 reads the previous row's last element through the flat
// layout, which the previous iteration writes once m reaches 48; and past
// m = 48 the rows' writes meet: proven once the parameters are large.
double P[64][48];
void previous_column(int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      P[i][j] = P[i][j - 1];
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'P': an element written in one iteration is written again in another
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-2]]:7: note: write of 'P' here
  // CHECK: within-dimensions-dependent.cpp:[[@LINE-5]]:3: note: for example, with n = 2, m = 49, iterations i=0 and i=1 both write P[0][48]
}
