// Driver of independent.cpp (corpus_driver.h): distinct vectors, so every
// loop runs split; `independent` also runs with one vector for a and b, which
// the rewritten loops' address checks must run serially.
#include "corpus_driver.h"
#include CORPUS_SOURCE

CORPUS_FUNCTION(independent) {
  const int n = int(corpus::param("n", 1000));
  static V a, b, c, d;
  a.assign(4 * n + 128, 0);
  b.assign(n + 16, 0);
  c.assign(n + 16, 0);
  d.assign(64 * 8 + 16, 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  corpus::fill("c", c);
  corpus::fill("d", d);
  independent(a, b, c, d, n, 7, 3.0f);
}

CORPUS_FUNCTION(independent_one_vector) {
  const int n = int(corpus::param("n", 1000));
  static V a, c, d;
  a.assign(4 * n + 128, 0);
  c.assign(n + 16, 0);
  d.assign(64 * 8 + 16, 0);
  corpus::fill("a", a);
  corpus::fill("c", c);
  corpus::fill("d", d);
  independent(a, a, c, d, n, 7, 3.0f);
}

CORPUS_FUNCTION(two_dimensional) {
  const int w = int(corpus::param("w", 61)), h = int(corpus::param("h", 47));
  static V img, src;
  img.assign(w * h + 128, 0);
  src.assign(w * h + 16, 0);
  corpus::fill("A", &A[0][0], 128 * 128, 128);
  corpus::fill("B", &B[0][0], 128 * 128, 128);
  corpus::fill("C", &C[0][0], 128 * 128, 128);
  corpus::fill("img", img);
  corpus::fill("src", src);
  Dims[0] = int(corpus::param("dims0", 10));
  Dims[1] = int(corpus::param("dims1", 20));
  two_dimensional(img, src, w, h);
}

CORPUS_FUNCTION(reductions_and_privates) {
  const int n = int(corpus::param("n", 1000));
  static V x;
  static double out[1];
  x.assign(n, 0);
  corpus::fill("x", x);
  corpus::fill("out", out, 1);
  reductions_and_privates(x, n, out[0]);
}

CORPUS_FUNCTION(three_dimensional) {
  const int nx = int(corpus::param("nx", 9)), ny = int(corpus::param("ny", 7)), nz = int(corpus::param("nz", 5));
  static V u, v;
  u.assign(nx * ny * nz + 16, 0);
  v.assign(nx * ny * nz + 16, 0);
  corpus::fill("u", u);
  corpus::fill("v", v);
  three_dimensional(u, v, nx, ny, nz);
}

CORPUS_FUNCTION(range_for) {
  static V v;
  v.assign(int(corpus::param("v.size()", 1000)), 0);
  corpus::fill("v", v);
  range_for(v);
}

CORPUS_FUNCTION(element_references) {
  const int n = int(corpus::param("n", 1000));
  static std::vector<Particle> ps;
  static V hits;
  ps.assign(n, Particle{});
  hits.assign(n, 0);
  corpus::fill("ps", reinterpret_cast<float *>(ps.data()), 2 * n);
  corpus::fill("hits", hits);
  element_references(ps, hits, n);
}

CORPUS_FUNCTION(callee_rows) {
  const int n = int(corpus::param("n", 16));
  corpus::fill("R", &R[0][0], 64 * 8);
  corpus::fill("L", &L[0][0][0][0], 16 * 16 * 4);
  corpus::fill("Bv", &Bv[0][0][0], 16 * 16 * 2);
  corpus::fill("Sum", Sum, 64);
  callee_rows(n);
}
