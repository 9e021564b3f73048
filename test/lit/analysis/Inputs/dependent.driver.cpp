// Driver of dependent.cpp (corpus_driver.h): every loop is rejected, so the
// point is the witnesses, run with the parameters they name.
#include "corpus_driver.h"
#include CORPUS_SOURCE

CORPUS_FUNCTION(one_dimensional) {
  const int n = int(corpus::param("n", 1000));
  static V a, b;
  static float p[1];
  a.assign(4 * n + 128, 0);
  b.assign(n + 16, 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  corpus::fill("p", p, 1);
  one_dimensional(a, b, n, p);
}

CORPUS_FUNCTION(two_dimensional) {
  const int n = int(corpus::param("n", 100));
  static V m;
  m.assign(n * n + 16, 0);
  corpus::fill("A", &A[0][0], 128 * 128, 128);
  corpus::fill("m", m);
  two_dimensional(m, n);
}

CORPUS_FUNCTION(scalars) {
  const int n = int(corpus::param("n", 1000));
  static V b;
  static float out[1];
  b.assign(n + 16, 0);
  corpus::fill("b", b);
  corpus::fill("out", out, 1);
  scalars(b, n, out[0]);
}

CORPUS_FUNCTION(callee_scratch) {
  const int n = int(corpus::param("n", 1000));
  static V a;
  a.assign(5 * n + 16, 0);
  corpus::fill("a", a);
  corpus::fill("Scratch", Scratch, 5);
  corpus::fill("Scratch2", Scratch2, 5);
  corpus::fill("Face", &Face[0][0], 10, 5);
  callee_scratch(a, n);
}
