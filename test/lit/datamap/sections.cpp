// Data-map inference: which objects a kernel-mode loop maps, in which
// direction, and the section one iteration touches.
// RUN: %gpu-autopar %s -- -std=c++17 2>/dev/null | FileCheck %s --match-full-lines
#include <array>
#include <vector>

// Read-only x, y read and written: to / tofrom, one element per iteration.
void saxpy(float a, const float *x, float *y, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-4]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(y, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(x, ::gpu_autopar::affine(1, 0, 1))),

// Neighbours: a halo of one element each side; b only written, every element
// of its section, unconditionally: `from` (no copy in).
void stencil(const std::vector<double> &a, std::vector<double> &b, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < n - 1; ++i)
    b[i] = a[i - 1] + a[i] + a[i + 1];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-4]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(b, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(a, ::gpu_autopar::affine(1, -1, 3))),

// A conditional write must copy the old values in (tofrom).
void clip(std::vector<int> &v, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    if (v[i] < 0)
      v[i] = 0;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(v, ::gpu_autopar::affine(1, 0, 1))),

// Strides: x[2*i] with x[2*i+1] tiles pairs; y[3*i] leaves holes, so it is
// copied in even though it is only written.
void strides(std::vector<int> &x, std::vector<int> &y, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    x[2 * i] = x[2 * i + 1];
    y[3 * i] = i;
  }
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-6]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(x, ::gpu_autopar::affine(2, 0, 2)),
// CHECK-NEXT:         ::gpu_autopar::tofrom(y, ::gpu_autopar::affine(3, 0, 1))),

// Flattened 2-D: the inner loop's range folds into offset and extent; rows
// i-1 and i+1 differ from row i by a symbol, so the runtime takes the hull;
// a full row written unconditionally is `from`.
void rows(const float *in, float *out, int n) {
#pragma gpu_autopar for
  for (int i = 1; i < 100; ++i)
    for (int j = 0; j < n; ++j)
      out[i * n + j] = in[(i - 1) * n + j] + in[(i + 1) * n + j];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(out, ::gpu_autopar::affine(n, 0, n)),
// CHECK-NEXT:         ::gpu_autopar::to(in, ::gpu_autopar::hull(::gpu_autopar::affine(n, -n, n), ::gpu_autopar::affine(n, n, n)))),

// Built-in 2-D arrays map whole rows; writing part of a row is not `from`.
double grid[64][32], next[64][32];
void relax() {
#pragma gpu_autopar for
  for (int r = 1; r < 63; ++r)
    for (int c = 1; c < 31; ++c)
      next[r][c] = grid[r - 1][c] + grid[r + 1][c];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(next, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(grid, ::gpu_autopar::affine(1, -1, 3))),

// Not affine in i: the whole object. A column read (B[k*n + j]) and an
// indirect read both map all of it; a std::array knows its size.
void gather(const std::array<int, 100> &table, const std::vector<int> &idx, std::vector<int> &out) {
#pragma gpu_autopar for
  for (int i = 0; i < 50; ++i)
    out[i] = table[idx[i]];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-4]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(out, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(table, ::gpu_autopar::whole()),
// CHECK-NEXT:         ::gpu_autopar::to(idx, ::gpu_autopar::affine(1, 0, 1))),

// A raw pointer read through an index needs its extent from a map clause.
void lookup(const float *lut, const int *key, float *out, int n, int m) {
#pragma gpu_autopar for map(to: lut[0:m])
  for (int i = 0; i < n; ++i)
    out[i] = lut[key[i]];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-4]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(out, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(lut, (0), (m), ::gpu_autopar::whole(), "lut[0:m]"),
// CHECK-NEXT:         ::gpu_autopar::to(key, ::gpu_autopar::affine(1, 0, 1))),

// Reversed subscripts have a negative scale; a loop after `continue` writes
// conditionally.
void reverse(const int *src, int *dst, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    if (src[i] == 0)
      continue;
    dst[n - 1 - i] = src[i];
  }
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-7]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::to(src, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::tofrom(dst, ::gpu_autopar::affine(-1, n - 1, 1))),

// With a step other than one, the sections of consecutive iterations leave
// holes: the array comes in so the elements between go back unchanged.
void every_other(std::vector<float> &y, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i += 2)
    y[i] = 0;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-4]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(y, ::gpu_autopar::affine(1, 0, 1))),

// Fields of elements: reading pts[i].x reads the element (also inside an
// initialiser list); assigning one field writes part of it, so the rest must
// come in. A lambda's `return` does not end the iteration.
struct Point {
  float x, y;
};
void fields(std::vector<Point> &pts, std::vector<float> &len, std::vector<Point> &moved, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    float c[2] = {pts[i].x, pts[i].y};
    auto sq = [](float v) { return v * v; };
    len[i] = sq(c[0]) + sq(c[1]);
    moved[i].y = pts[i].y + 1;
  }
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-8]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::to(pts, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::from(len, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::tofrom(moved, ::gpu_autopar::affine(1, 0, 1))),

// C89 counters and a descending inner loop: the inner range folds into the
// section whichever way it runs, also under a negative coefficient.
void mirror(const std::vector<float> &in, std::vector<float> &out, int rows, int cols) {
  int i, j;
#pragma gpu_autopar for private(j)
  for (i = 0; i < rows; i++)
    for (j = cols - 1; j >= 0; j--)
      out[i * cols + j] = in[i * cols + (cols - 1 - j)];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(out, ::gpu_autopar::affine(cols, 0, cols)),
// CHECK-NEXT:         ::gpu_autopar::to(in, ::gpu_autopar::affine(cols, 0, cols))),

// An inner range that moves with the annotated variable by a fixed width
// (tiles) is a section of that width. A triangular one, whose width changes
// from iteration to iteration, gets the inner range's hull over the whole
// loop (row i, all of it) and is copied in: the row is wider than what the
// iteration writes. A transposed access (`c[j*n + i]`) maps the whole object.
void tiles(std::vector<float> &a, std::vector<float> &up, std::vector<float> &lo, std::vector<float> &c,
           int t_count, int n) {
#pragma gpu_autopar for
  for (int t = 0; t < t_count; t++)
    for (int k = 16 * t; k < 16 * t + 16; k++)
      a[k] = k * 0.5f;
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      up[i * n + j] = 1;
#pragma gpu_autopar for
  for (int i = n - 1; i >= 2; i--)
    for (int j = 1; j < i; j++)
      lo[i * n + j - 1] += 1;
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      c[j * n + i] = 2;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-17]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(a, ::gpu_autopar::affine(16, 0, 16))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-15]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(up, ::gpu_autopar::affine(n, 0, n))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-13]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(lo, ::gpu_autopar::affine(n, 0, n - 2))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-11]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(c, ::gpu_autopar::whole())),

// A raw pointer's triangle keeps its whole map: the runtime cannot clip a
// widened section to an object whose end it does not know.
void raw_triangle(float *up, int n) {
#pragma gpu_autopar for map(tofrom: up[0:n*n])
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++)
      up[i * n + j] = 1;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(up, (0), (n*n), ::gpu_autopar::whole(), "up[0:n*n]")),

// Written but with holes: every 4th column, every other element, or the
// first and last of three. The section's other elements must be copied in
// (tofrom), or they would come back as whatever the device held. A full
// row written right to left is `from`.
void holes(std::vector<int> &p, std::vector<int> &q, std::vector<int> &r, std::vector<int> &s, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 63; j += 4)
      p[i * 63 + j] = i + j;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      q[i * 16 + 2 * j] = j;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    r[3 * i] = i;
    r[3 * i + 2] = -i;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = n - 1; j >= 0; --j)
      s[i * n + j] = j;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-18]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(p, ::gpu_autopar::affine(63, 0, 61))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-16]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(q, ::gpu_autopar::affine(16, 0, 15))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-14]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(r, ::gpu_autopar::affine(3, 0, 3))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-11]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(s, ::gpu_autopar::affine(n, 0, n))),

// Whether a written-only section is touched all through is isl's proof on
// the dependence test's domains, not a rule about coefficients: two inner
// loops that tile a block of 64, and a loop by twos writing pairs, are
// `from`; pairs from the second one on leave element 1 of each block, so that
// block comes in. An element written in an inner loop is written only if
// that loop runs at all (m may be 0).
void tiles(std::vector<int> &t, std::vector<int> &u, std::vector<int> &v, std::vector<int> &z, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        t[i * 64 + j * 8 + k] = j - k;
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 8; j += 2) {
      u[i * 8 + j] = i;
      u[i * 8 + j + 1] = j;
    }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 4; ++j)
      v[i * 8 + 2 * j] = i;
    for (int j = 1; j < 4; ++j)
      v[i * 8 + 2 * j + 1] = j;
  }
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      z[i] = j;
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-23]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(t, ::gpu_autopar::affine(64, 0, 64))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-20]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(u, ::gpu_autopar::affine(8, 0, 8))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-16]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(v, ::gpu_autopar::affine(8, 0, 8))),
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-11]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(z, ::gpu_autopar::affine(1, 0, 1))),

// A pointer into an element reaches further than that element: the whole
// object is mapped, and read-only when its elements are const. A reference
// bound to an element is that element; writes through it go back.
void through_locals(const std::vector<float> &b, std::vector<float> &a, std::vector<float> &c, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    const float *row = &b[i * 4];
    float &r = c[i];
    r = 2 * r;
    a[i] = row[0] + row[3];
  }
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-8]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::to(b, ::gpu_autopar::whole()),
// CHECK-NEXT:         ::gpu_autopar::tofrom(c, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::from(a, ::gpu_autopar::affine(1, 0, 1))),

// A `continue` inside a switch ends the iteration: the write after it may
// not happen, so the old values come in.
void skip_some(const std::vector<int> &c, std::vector<int> &b, int n) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i) {
    switch (c[i]) {
    case 0:
      continue;
    default:
      break;
    }
    b[i] = 1;
  }
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-11]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::to(c, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::tofrom(b, ::gpu_autopar::affine(1, 0, 1))),

// x[i] with x[j]: the coefficients of i differ, so both take the hull of what
// the whole loop reads (scale 0), which a raw pointer maps without a length
// clause. Offsets that differ by a symbol stay parts of a hull
// (pointer-extent.cpp has the strided loop that cannot do this).
void pairs(const float *__restrict__ x, const int *__restrict__ mid, float *__restrict__ f, int n, int w) {
#pragma gpu_autopar for
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      f[i] += x[j] - x[i] + mid[j - w] + mid[i + 1];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(f, ::gpu_autopar::affine(1, 0, 1)),
// CHECK-NEXT:         ::gpu_autopar::to(x, ::gpu_autopar::affine(0, 0, n)),
// CHECK-NEXT:         ::gpu_autopar::to(mid, ::gpu_autopar::hull(::gpu_autopar::affine(0, -w, n), ::gpu_autopar::affine(0, 1, n)))),

// Flattened 3-D: each plane i maps `affine(ny*nz, ...)`. isl cannot read
// `j*nz`, so the rows are proved apart (k inside [0, nz), j within its
// range); a plane written all through stays `tofrom` (that proof is not
// made for rows).
void planes(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz) {
#pragma gpu_autopar for
  for (int i = 1; i < nx - 1; ++i)
    for (int j = 1; j < ny - 1; ++j)
      for (int k = 1; k < nz - 1; ++k)
        out[(i * ny + j) * nz + k] = in[((i - 1) * ny + j) * nz + k] + in[i * ny * nz + j * nz + k + 1];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-6]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::tofrom(out, ::gpu_autopar::affine(ny * nz, nz + 1, ny * nz - 2 * nz - 2)),
// CHECK-NEXT:         ::gpu_autopar::to(in, ::gpu_autopar::hull(::gpu_autopar::affine(ny * nz, -ny * nz + nz + 1, ny * nz - 2 * nz - 2), ::gpu_autopar::affine(ny * nz, nz + 2, ny * nz - 2 * nz - 2)))),

// An inner loop tested with `!=` by ones covers [0, m) as `<` does: a row
// each, every element written (from), with no length clause.
void rows_not_equal(double *a, const double *b, int n, int m) {
#pragma gpu_autopar for
  for (int i = 0; i < n; i++)
    for (int j = 0; j != m; ++j)
      a[i * m + j] = b[i * m + m - 1 - j];
}
// CHECK:       ::gpu_autopar::kernel_loop(::gpu_autopar::loop_site{"sections.cpp", [[@LINE-5]]},
// CHECK:            ::gpu_autopar::data(::gpu_autopar::from(a, ::gpu_autopar::affine(m, 0, m)),
// CHECK-NEXT:         ::gpu_autopar::to(b, ::gpu_autopar::affine(m, 0, m))),
