// Flattened 3-D subscripts: split by both strides, the rows of a plane
// checked against `ny` and the columns against `nz`. A plane written from the
// previous one conflicts whenever the loop copies anything (a proven
// dependence, with the witness isl finds); a row index that reaches `ny` may
// spill into the next plane. (independent.cpp has the loops that are proven.)
// RUN: %expect-exit 1 %gpu-autopar --check %s -- -std=c++17 2> %t.err
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=warning: --implicit-check-not=error:
#include <vector>
void carried(std::vector<float> &u, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 0; i < nx - 1; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) u[((i + 1) * ny + j) * nz + k] = u[(i * ny + j) * nz + k];
  // CHECK: three-dimensional.cpp:[[@LINE-3]]:3: error: loop-carried dependence on 'u': an element written in one iteration is read in another
  // CHECK: three-dimensional.cpp:[[@LINE-4]]:3: note: for example, with {{.*}}iteration i=0 writes u[{{[0-9]+}}] and iteration i=1 reads it
}
void spill(std::vector<float> &u, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j <= ny; ++j)
      for (int k = 0; k < nz; ++k) u[(i * ny + j) * nz + k] = 1;
  // CHECK: three-dimensional.cpp:[[@LINE-1]]:36: warning: cannot prove that iterations access distinct elements of 'u': subscript of 'u' may leave a row of length 'ny'
}
void planes(std::vector<float> &u, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k) u[(i * ny + j) * nz + k] = float(i + j + k);
}
