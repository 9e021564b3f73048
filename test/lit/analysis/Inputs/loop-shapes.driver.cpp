// Driver of loop-shapes.cpp (corpus_driver.h). Loops accepted with a warning
// get data for which they are independent (empty inner ranges, distinct
// shapes, non-racing callbacks); the witnesses of the rejected ones run with
// the parameters they name.
#include "corpus_driver.h"
#include CORPUS_SOURCE

CORPUS_FUNCTION(c89) {
  corpus::fill("A", &A[0][0], 128 * 128, 128);
  corpus::fill("B", &B[0][0], 128 * 128, 128);
  corpus::fill("C", &C[0][0], 128 * 128, 128);
  c89(int(corpus::param("n", 10)));
}

CORPUS_FUNCTION(triangles) {
  corpus::fill("A", &A[0][0], 128 * 128, 128);
  corpus::fill("C", &C[0][0], 128 * 128, 128);
  corpus::fill("flat", flat, 64 * 64, 64);
  triangles();
}

CORPUS_FUNCTION(moving_ranges) {
  const int nrows = int(corpus::param("nrows", 50)), nx = 64, nnz = 3 * nrows;
  static std::vector<float> y, val, x;
  static std::vector<int> rowptr, col;
  y.assign(nrows, 0);
  val.assign(nnz, 0);
  x.assign(nx, 0);
  rowptr.assign(nrows + 1, 0);
  col.assign(nnz, 0);
  corpus::fill("A", &A[0][0], 128 * 128, 128);
  corpus::fill("y", y);
  corpus::fill("val", val);
  corpus::fill("x", x);
  for (int r = 0; r <= nrows; ++r)
    rowptr[r] = 3 * r;
  for (int k = 0; k < nnz; ++k)
    col[k] = (k * 7) % nx;
  moving_ranges(y.data(), val.data(), x.data(), rowptr.data(), col.data(), nrows, nnz, nx);
}

CORPUS_FUNCTION(coefficients) {
  const int n = int(corpus::param("n", 1000));
  static V a;
  a.assign(n + 400, 0);
  corpus::fill("a", a);
  coefficients(a, n);
}

CORPUS_FUNCTION(casts_and_guards) {
  const int n = int(corpus::param("n", 200));
  const std::size_t cols = std::size_t(corpus::param("cols", 9));
  static V a;
  static std::vector<double> m;
  a.assign(n + 16, 0);
  m.assign(n * cols + 16, 0);
  corpus::fill("flat", flat, 64 * 64, 64);
  corpus::fill("a", a);
  corpus::fill("m", m);
  casts_and_guards(a, m, cols, n);
}

CORPUS_FUNCTION(range_for) {
  static V v, w;
  v.assign(int(corpus::param("v.size()", 300)), 0);
  w.assign(4, 0);
  corpus::fill("v", v);
  corpus::fill("w", w);
  range_for(v, w);
}

Grid &filled_grid() {
  static Grid g;
  g.n = int(corpus::param("n", 500));
  g.cells.assign(g.n + 16, 0);
  corpus::fill("cells", g.cells);
  return g;
}
CORPUS_FUNCTION(scale) { filled_grid().scale(); }
CORPUS_FUNCTION(shift) { filled_grid().shift(); }

CORPUS_FUNCTION(members) {
  const int n = int(corpus::param("n", 40));
  static std::vector<double> d, s;
  static std::vector<std::vector<double>> g;
  static std::vector<std::string> names;
  d.assign(n + 16, 0);
  s.assign(n + 16, 0);
  corpus::fill("dst.data", d);
  corpus::fill("src.data", s);
  g.assign(n, std::vector<double>(n));
  names.resize(n);
  for (int i = 0; i < n; ++i) {
    names[i] = "g[" + std::to_string(i) + "]";
    corpus::fill(names[i].c_str(), g[i]);
  }
  Field dst{d.data(), n}, src{s.data(), n};
  members(dst, src, 1.5, g, n);
}

CORPUS_FUNCTION(rows) {
  const int n = int(corpus::param("n", 64));
  static std::vector<double> b2, a2;
  static double lhs[64][5], rhs[64][5];
  b2.assign(std::size_t(n) * 100, 0);
  a2.assign(std::size_t(n) * 100, 0);
  corpus::fill("B2", b2.data(), b2.size(), 100);
  corpus::fill("A2", a2.data(), a2.size(), 100);
  corpus::fill("lhs", &lhs[0][0], 64 * 5, 5);
  corpus::fill("rhs", &rhs[0][0], 64 * 5, 5);
  rows(reinterpret_cast<double(*)[100]>(b2.data()), reinterpret_cast<const double(*)[100]>(a2.data()), lhs, rhs, n);
}

void add_one(float *p) { *p += 1; }

CORPUS_FUNCTION(calls) {
  const int n = int(corpus::param("n", 100));
  static V a;
  static std::vector<Shape> shapes;
  static std::vector<Shape *> pointers;
  a.assign(n + 16, 0);
  corpus::fill("a", a);
  shapes.assign(n, Shape());
  pointers.clear();
  for (Shape &s : shapes)
    pointers.push_back(&s);
  const std::function<void(float &)> twice = [](float &x) { x *= 2; };
  calls(a, add_one, twice, pointers.data(), n);
}

CORPUS_FUNCTION(not_equal) {
  const int n = int(corpus::param("n", 40)), w = int(corpus::param("w", 12));
  const std::size_t cols = std::size_t(corpus::param("cols", 7));
  static V a;
  static std::vector<double> m;
  a.assign(std::size_t(n) * (w > 64 ? w : 64) + 64, 0);
  m.assign(std::size_t(n) * cols, 0);
  corpus::fill("a", a);
  corpus::fill("m", m);
  not_equal(a, m, cols, n, w, 3u, 50u);
}

CORPUS_FUNCTION(opaque_bounds) {
  const int n = int(corpus::param("n", 100));
  static V a;
  static std::vector<int> len;
  a.assign(n + 16, 0);
  len.assign(n, 0);
  corpus::fill("a", a);
  for (float &x : a)
    x = 1; // the while loop runs while a[i] > 1, and changes only a[i + 1]
  opaque_bounds(a, len, n);
}
