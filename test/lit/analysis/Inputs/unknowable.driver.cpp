// Driver of unknowable.cpp (corpus_driver.h): each loop is accepted with a
// warning because independence depends on values; the data here are values
// for which it holds (a permutation for idx, distances and steps that keep
// iterations apart), so the rewritten program must print the serial numbers.
#include "corpus_driver.h"
#include CORPUS_SOURCE

void opaque(float *p) { *p = *p * 2 + 1; }

CORPUS_FUNCTION(unknowable) {
  const int n = int(corpus::param("n", 100));
  static V a, b;
  static I idx;
  a.assign(n * n + 2 * n + 16, 0);
  b.assign(n + 16, 0);
  idx.assign(n, 0);
  corpus::fill("a", a);
  corpus::fill("b", b);
  corpus::fill("idx", idx);
  for (int i = 0; i < n; ++i)
    idx[i] = (i * 37 + 11) % n; // a permutation: 37 and 100 are coprime
  unknowable(a, b, idx, n, /*k=*/n, /*m=*/n, /*s=*/2, Geometry{n});
}

CORPUS_FUNCTION(aliasing) {
  const int n = int(corpus::param("n", 1000));
  static V x, y, z;
  x.assign(n, 0);
  y.assign(n, 0);
  z.assign(n, 0);
  corpus::fill("x", x);
  corpus::fill("y", y);
  corpus::fill("z", z);
  aliasing(x.data(), y.data(), z.data(), n);
}

CORPUS_FUNCTION(aliasing_one_array) {
  const int n = int(corpus::param("n", 1000));
  static V x, z;
  x.assign(n + 1, 0);
  z.assign(n, 0);
  corpus::fill("x", x);
  corpus::fill("z", z);
  aliasing(x.data(), x.data() + 1, z.data(), n); // y is x shifted by one: a recurrence, run serially
}

CORPUS_FUNCTION(unseen_effects) {
  const int n = int(corpus::param("n", 1000));
  static V a;
  a.assign(n, 0);
  corpus::fill("a", a);
  unseen_effects(a, n);
}

CORPUS_FUNCTION(followed_unbounded) {
  const int n = int(corpus::param("n", 1000));
  static V a;
  a.assign(n, 0);
  corpus::fill("a", a);
  corpus::fill("Scr", Scr, 4);
  corpus::fill("Rw", &Rw[0][0], 64 * 8, 8);
  followed_unbounded(a, n);
}
