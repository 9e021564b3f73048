// A 3-D 7-point stencil over flattened raw pointers, `(i*ny + j)*nz + k`:
// each plane i maps `affine(ny*nz, ...)`, its rows and columns proved
// inside their strides, so no length clause is needed; and the same grid
// written all through in the expanded spelling `i*ny*nz + j*nz + k`.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

void smooth(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 1; i < nx - 1; ++i)
    for (int j = 1; j < ny - 1; ++j)
      for (int k = 1; k < nz - 1; ++k)
        out[(i * ny + j) * nz + k] =
            (in[((i - 1) * ny + j) * nz + k] + in[((i + 1) * ny + j) * nz + k] + in[(i * ny + j - 1) * nz + k] +
             in[(i * ny + j + 1) * nz + k] + in[(i * ny + j) * nz + k - 1] + in[(i * ny + j) * nz + k + 1]) /
            6.0f;
}

void fill(float *__restrict__ g, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < nz; ++k)
        g[i * ny * nz + j * nz + k] = float((i * 7 + j * 3 + k) % 11);
}

int main() {
  const int nx = 23, ny = 17, nz = 13;
  std::vector<float> a(nx * ny * nz, -1), b(nx * ny * nz, 5);
  fill(a.data(), nx, ny, nz);
  smooth(a.data(), b.data(), nx, ny, nz);
  double s = 0;
  for (int p = 0; p < nx * ny * nz; ++p)
    s += double(b[p]) * (p % 7) + double(a[p]) * (p % 3);
  std::printf("s=%.4f b1=%.4f\n", s, b[(ny + 1) * nz + 1]);
}
// CHECK: sim:3: stencil-3d-flat.cpp:21 mode=kernel backend=sim iterations=23 devices=3
// CHECK: sim:3: stencil-3d-flat.cpp:10 mode=kernel backend=sim iterations=21 devices=3
